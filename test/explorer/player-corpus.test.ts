// Every corpus recording plays in the explorer's player, in headless Chromium: each demo (0.6 and 0.7, demos/
// and net/), each teehistorian file on the map its header names (found among the corpus maps by its SHA-256),
// each capture as each of its clients received it (its map from the capture's download, else from the corpus).
// At three recorded ticks spread over the recording, every tee is drawn where the recording puts it (read here
// with @twcodec/demo, @twcodec/teehistorian's PlayerTracker, @twcodec/net's captureDemo), and the body of the
// followed tee is on the canvas in its colour. Without ../shared/corpus, the fixtures.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { readDemo } from '@twcodec/demo';
import { captureDemo } from '@twcodec/net';
import { snapshotObjects, type SnapshotProtocol } from '@twcodec/snapshot';
import { PlayerTracker, readTeehistorian, TeehistorianReader } from '@twcodec/teehistorian';
import { corpusDir, corpusFiles, demoFiles, fixturesDir, hasCorpus, readBytes, teehistorianFiles } from '../corpus.js';
import { CHROMIUM, openFile, servedPage, showTick } from './page.js';

type Drawn = { id: number; x: number; y: number; sx: number; sy: number; angle: number; body: [number, number, number]; alpha: number };
type State = { tick: number; drawn: Drawn[]; scale: number };
type Positions = Map<number, Map<number, { x: number; y: number }>>;

const served = servedPage(inject('explorerDist'));
afterAll(() => served.close());

const api = (page: Page) => page.evaluate(() => JSON.parse(JSON.stringify((window as unknown as { __explorer: { player: State; playerError: string } }).__explorer)) as { player: State; playerError: string });

async function seek(page: Page, tick: number): Promise<State> {
  await showTick(page, tick);
  return (await api(page)).player;
}

async function openPlayer(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { __explorer: { showPlayer(s: boolean): Promise<void> } }).__explorer.showPlayer(true));
  await page.waitForFunction(() => (window as unknown as { __explorer: { player?: unknown } }).__explorer.player, null, { timeout: 120_000 });
}

/** Character positions by tick of a demo's snapshots. */
function demoPositions(bytes: Uint8Array): Positions {
  const demo = readDemo(bytes);
  const protocol = demo.protocol.snapshots as SnapshotProtocol<Record<string, unknown>>;
  const out: Positions = new Map();
  for (const { tick, snapshot } of demo.snapshots()) {
    const chars = snapshotObjects(snapshot, protocol).items('character') as unknown as { item: { id: number }; x: number; y: number }[];
    out.set(tick, new Map(chars.map((c) => [c.item.id, { x: c.x, y: c.y }])));
  }
  return out;
}

/** Three recorded ticks with tees, at a quarter, half and three quarters of those ticks. */
const sample = (positions: Positions) => {
  const ticks = [...positions.keys()].filter((t) => positions.get(t)!.size > 0);
  return [0.25, 0.5, 0.75].map((f) => ticks[Math.floor(f * (ticks.length - 1))]!).filter((t, i, a) => t !== undefined && a.indexOf(t) === i);
};

/** At each sampled tick, the tees drawn are the recording's, at its positions; the followed tee's body is on the canvas. */
async function checkTees(page: Page, name: string, positions: Positions): Promise<number> {
  const ticks = sample(positions);
  if (!ticks.length) {
    // Nobody ever in the game (an idle server's teehistorian file): the player plays an empty map.
    const last = [...positions.keys()].pop();
    if (last !== undefined) expect((await seek(page, last)).drawn, name).toEqual([]);
    return 0;
  }
  // The layers in front of the tees may hide them: off, to see the bodies.
  await page.uncheck('#p-front');
  let bodies = 0;
  for (const tick of ticks) {
    const at = await seek(page, tick);
    expect(at.tick, name).toBe(tick);
    const expected = positions.get(tick)!;
    expect(at.drawn.map((d) => ({ id: d.id, x: d.x, y: d.y })).sort((a, b) => a.id - b.id), `${name} tick ${tick}`).toEqual([...expected].map(([id, p]) => ({ id, ...p })).sort((a, b) => a.id - b.id));
    // The tee nearest the view's centre (the followed one): a point of its body behind the eyes.
    const centre = await page.evaluate(() => {
      const c = document.getElementById('view') as HTMLCanvasElement;
      return [c.clientWidth / 2, c.clientHeight / 2];
    });
    const followed = [...at.drawn].filter((d) => d.alpha === 1).sort((a, b) => Math.hypot(a.sx - centre[0]!, a.sy - centre[1]!) - Math.hypot(b.sx - centre[0]!, b.sy - centre[1]!))[0];
    if (!followed) continue;
    const px = await page.evaluate(
      ([x, y]) => {
        const c = document.getElementById('view') as HTMLCanvasElement;
        const r = devicePixelRatio || 1;
        return Array.from(c.getContext('2d')!.getImageData(Math.round(x! * r), Math.round(y! * r), 1, 1).data).slice(0, 3);
      },
      [followed.sx - Math.cos(followed.angle) * 10 * at.scale, followed.sy - Math.sin(followed.angle) * 10 * at.scale + 2 * at.scale],
    );
    // Another tee standing in front of it may cover it: at least one sampled tick shows the body.
    if (px.map((v, i) => Math.abs(v - followed.body[i]!)).reduce((a, b) => a + b) < 30) bodies++;
  }
  expect(bodies, `${name}: the followed tee's body colour on the canvas`).toBeGreaterThan(0);
  await page.check('#p-front');
  return ticks.length;
}

/** Corpus maps (and fixture maps) by SHA-256. */
function mapsBySha(): Map<string, string> {
  const out = new Map<string, string>();
  for (const dir of [join(corpusDir, 'maps'), join(fixturesDir, 'maps')]) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.map')) continue;
      const path = join(entry.parentPath, entry.name);
      out.set(createHash('sha256').update(readFileSync(path)).digest('hex'), path);
    }
  }
  return out;
}

const inPage = (run: (page: Page) => Promise<void>) => served.inPage(run, { width: 1200, height: 800 });

const captures = hasCorpus ? corpusFiles('net', '.pcap') : [join(fixturesDir, 'net', 'teeworlds-0.7-on-ddnet-cut.pcap')];
const teehistorians = [...teehistorianFiles(), ...(hasCorpus ? corpusFiles('net', '.teehistorian') : [])];

describe.skipIf(!CHROMIUM)('every recording plays in the player with its tees where the recording puts them', () => {
  it(`${demoFiles().length} demos`, async () => {
    await inPage(async (page) => {
      for (const path of demoFiles()) {
        const loaded = await openFile(page, path);
        expect(loaded.error, path).toBe('');
        const t0 = Date.now();
        await openPlayer(page);
        const n = await checkTees(page, basename(path), demoPositions(readBytes(path)));
        console.log(`player-corpus: ${basename(path)}: ${n} ticks checked (player ready in ${Date.now() - t0} ms)`);
      }
    });
  }, 900_000);

  it(`${teehistorians.length} teehistorian files on their maps`, async () => {
    const maps = mapsBySha();
    let played = 0;
    await inPage(async (page) => {
      for (const path of teehistorians) {
        const bytes = readBytes(path);
        const header = new TeehistorianReader(bytes).header;
        const map = header.map_sha256 ? maps.get(header.map_sha256) : undefined;
        if (!map) {
          console.log(`player-corpus: ${basename(path)}: no map with SHA-256 ${header.map_sha256} ("${header.map_name}") among the corpus maps, not played`);
          continue;
        }
        expect((await openFile(page, path)).error, path).toBe('');
        await openPlayer(page);
        await page.setInputFiles('#p-map', map);
        await page.waitForFunction(() => !document.getElementById('p-map'), null, { timeout: 120_000 });
        expect((await api(page)).playerError, path).toBe('');
        const tracker = new PlayerTracker();
        const positions: Positions = new Map();
        for (const m of readTeehistorian(bytes)) {
          tracker.apply(m);
          positions.set(m.tick, new Map([...tracker.positions].map(([id, p]) => [id, { x: p.x, y: p.y }])));
        }
        const n = await checkTees(page, basename(path), positions);
        console.log(`player-corpus: ${basename(path)} on ${basename(map)}: ${n} ticks checked`);
        played++;
      }
    });
    // Without ../shared the fixture recordings' maps are not at hand (the fixtures keep no copy of them).
    if (hasCorpus) expect(played).toBeGreaterThan(0);
  }, 900_000);

  it(`${captures.length} captures, as each client received them`, async () => {
    const maps = [...mapsBySha().values()];
    await inPage(async (page) => {
      for (const path of captures) {
        const bytes = readBytes(path);
        expect((await openFile(page, path)).error, path).toBe('');
        await openPlayer(page);
        const clients = await page.locator('#p-client option').allTextContents();
        if (!clients.length) {
          // Only connectionless traffic (server info requests): no client to play.
          console.log(`player-corpus: ${basename(path)}: no client session, ${await page.textContent('#p-note')}`);
          expect(await page.textContent('#p-note')).toBeTruthy();
          continue;
        }
        for (const client of clients) {
          if ((await page.inputValue('#p-client')) !== client) {
            // Preparing the player again for this client (the status says so until it is ready).
            await page.selectOption('#p-client', client);
            await page.waitForFunction(() => !document.getElementById('status')!.textContent!.startsWith('Preparing'), null, { timeout: 120_000 });
            expect(await page.inputValue('#p-client')).toBe(client);
          }
          const mapName = /Drop the map "(.*?)" here/.exec((await page.textContent('#p-note')) ?? '')?.[1];
          let mapBytes: Uint8Array | undefined;
          if (mapName) {
            const candidate = maps.filter((m) => basename(m) === `${mapName}.map`).find((m) => {
              try {
                captureDemo(bytes, { player: client, map: readBytes(m) });
                return true;
              } catch {
                return false;
              }
            });
            if (!candidate && !hasCorpus) {
              // The fixture capture's map (Gold Mine, 0.9 MB) is kept only in ../shared.
              console.log(`player-corpus: ${basename(path)} as ${client}: map "${mapName}" not among the fixture maps, not played`);
              continue;
            }
            expect(candidate, `${basename(path)}: a corpus map "${mapName}" the capture's server announced`).toBeDefined();
            mapBytes = readBytes(candidate!);
            const asking = (await api(page)).playerError;
            await page.setInputFiles('#p-map', candidate!);
            await page.waitForFunction((e) => !document.getElementById('p-map') || (window as unknown as { __explorer: { playerError: string } }).__explorer.playerError !== e, asking, { timeout: 120_000 });
            expect((await api(page)).playerError, `${basename(path)} as ${client}: ${candidate}`).toBe('');
          }
          const demo = captureDemo(bytes, { player: client, ...(mapBytes ? { map: mapBytes } : {}) }).demo;
          const n = await checkTees(page, `${basename(path)} as ${client}`, demoPositions(demo));
          console.log(`player-corpus: ${basename(path)} as ${client}${mapName ? ` (map "${mapName}" given)` : ''}: ${n} ticks checked`);
        }
      }
    });
  }, 900_000);
});
