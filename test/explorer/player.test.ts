// The explorer's player in real headless Chromium: a demo plays on its embedded map, and the tees are drawn
// where the demo's snapshots put them (read here with @twcodec/demo, compared with what the page drew and with
// the pixels of its canvas); the map view's groups, layers and tile clicks. EXPLORER_SCREENSHOTS=1 writes the
// screenshots docs/explorer.md shows.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { readDemo } from '@twcodec/demo';
import { readMap, Tiles, type TilemapLayer, writeMap } from '@twcodec/map';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { captureDemo } from '@twcodec/net';
import { PlayerTracker, readTeehistorian } from '@twcodec/teehistorian';
import { snapshotObjects, type SnapshotProtocol } from '@twcodec/snapshot';
import { corpusDir, fixturesDir, repoRoot } from '../corpus.js';
import { CHROMIUM, findRow, openFile, servedPage, showTick } from './page.js';

const SCREENSHOTS = process.env.EXPLORER_SCREENSHOTS === '1';
// A client demo (25 snapshots a second) long enough to play 5 seconds: the corpus's, else the fixture (3.6 s).
const CORPUS_CLIENT_DEMO = join(corpusDir, 'demos', 'ctf2_clientA_record_Alpha_client.demo');
const CLIENT_DEMO = existsSync(CORPUS_CLIENT_DEMO) ? CORPUS_CLIENT_DEMO : join(fixturesDir, 'demos', 'ctf2_clientB_auto_ctf2_2026-11-22_10-10-21.demo');
const PLAY_MS = CLIENT_DEMO === CORPUS_CLIENT_DEMO ? 5000 : 3000;
const TW07_DEMO = join(fixturesDir, 'demos', 'tw07_client_Charlie_chat.demo');
const LARGEST_DEMO = join(corpusDir, 'demos', 'Tutorial_server_autorecord_2026-11-22_10-12-38.demo');

type Drawn = { id: number; name: string; x: number; y: number; sx: number; sy: number; angle: number; body: [number, number, number]; alpha: number };
type PlayerState = { tick: number; playing: boolean; drawn: Drawn[]; scale: number; fps: number; drawMs: number; frames: number };

/** Character positions by tick and client id, as the demo's snapshots hold them. */
function characters(path: string): Map<number, Map<number, { x: number; y: number }>> {
  const demo = readDemo(new Uint8Array(readFileSync(path)));
  const out = new Map<number, Map<number, { x: number; y: number }>>();
  const protocol = demo.protocol.snapshots as SnapshotProtocol<Record<string, unknown>>;
  for (const { tick, snapshot } of demo.snapshots()) {
    const byId = new Map<number, { x: number; y: number }>();
    for (const c of snapshotObjects(snapshot, protocol).items('character') as unknown as { item: { id: number }; x: number; y: number }[]) byId.set(c.item.id, { x: c.x, y: c.y });
    out.set(tick, byId);
  }
  return out;
}

const playerState = (page: Page) => page.evaluate(() => JSON.parse(JSON.stringify((window as unknown as { __explorer: { player: unknown } }).__explorer.player)) as PlayerState);

async function seek(page: Page, tick: number): Promise<PlayerState> {
  await showTick(page, tick);
  return playerState(page);
}

/** The canvas pixel (r, g, b) at CSS pixel coordinates. */
function pixelAt(page: Page, x: number, y: number): Promise<number[]> {
  return page.evaluate(
    ([px, py]) => {
      const c = document.getElementById('view') as HTMLCanvasElement;
      const r = devicePixelRatio || 1;
      return Array.from(c.getContext('2d')!.getImageData(Math.round(px * r), Math.round(py * r), 1, 1).data).slice(0, 3);
    },
    [x, y] as const,
  );
}

/** Share of the canvas that is not the empty background (something of the map was drawn). */
function drawnShare(page: Page): Promise<number> {
  return page.evaluate(() => {
    const c = document.getElementById('view') as HTMLCanvasElement;
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i]! - 0x5f) + Math.abs(d[i + 1]! - 0x7f) + Math.abs(d[i + 2]! - 0xa6) > 20) n++;
    return n / (d.length / 4);
  });
}

async function openPlayer(page: Page): Promise<PlayerState> {
  await page.evaluate(() => (window as unknown as { __explorer: { showPlayer(s: boolean): Promise<void> } }).__explorer.showPlayer(true));
  await page.waitForFunction(() => (window as unknown as { __explorer: { player?: unknown } }).__explorer.player, null, { timeout: 60_000 });
  return playerState(page);
}

const served = servedPage(inject('explorerDist'));
afterAll(() => served.close());

/** A fresh browser on the built page (served once for the file), closed after `run`. */
const inPage = (run: (page: Page) => Promise<void>) => served.inPage(run, { width: 1400, height: 900 });

describe.skipIf(!CHROMIUM)('the explorer plays recordings on their map', () => {
  it('plays a demo for 5 seconds and draws each tee where its snapshot says', async () => {
    await inPage(async (page) => {
      const loaded = await openFile(page, CLIENT_DEMO);
      expect(loaded.error).toBe('');
      expect(await page.isVisible('#play-toggle')).toBe(true);
      const start = await openPlayer(page);
      expect(await page.isVisible('#view')).toBe(true);

      // Playing: the clock runs at 50 ticks a second (a loaded machine may drop frames, never ticks).
      const t0 = Date.now();
      await page.click('#p-play');
      await page.waitForTimeout(PLAY_MS);
      await page.click('#p-play');
      const played = await playerState(page);
      const seconds = (Date.now() - t0) / 1000;
      expect(played.playing).toBe(false);
      expect(played.tick - start.tick).toBeGreaterThan((50 * PLAY_MS) / 1000 - 50);
      expect(played.tick - start.tick).toBeLessThan(50 * (seconds + 0.5));
      expect(played.frames).toBeGreaterThan(50);
      console.log(`player: ${(played.tick - start.tick).toFixed(0)} ticks in ${seconds.toFixed(1)} s, ${played.fps.toFixed(0)} fps (client demo)`);

      // At a recorded tick the tees are exactly where the snapshot puts them, and their bodies are drawn there.
      const snapshots = characters(CLIENT_DEMO);
      // A tick a second into the demo, with tees and a recorded tick after it: not one after where playing
      // stopped, which on a loaded machine was the fixture demo's last (3.6 s long, played for 3), with no tick after it.
      const recorded = [...snapshots.keys()];
      const tick = recorded.find((t, i) => t >= start.tick + 50 && snapshots.get(t)!.size > 0 && i + 1 < recorded.length)!;
      // Without the layers in front of the tees (which may cover them), so that their bodies show.
      await page.uncheck('#p-front');
      const at = await seek(page, tick);
      const expected = snapshots.get(tick)!;
      expect(at.drawn.length).toBe(expected.size);
      const [width, height] = await page.evaluate(() => {
        const c = document.getElementById('view') as HTMLCanvasElement;
        return [c.clientWidth, c.clientHeight];
      });
      let bodiesSeen = 0;
      for (const d of at.drawn) {
        expect({ id: d.id, x: d.x, y: d.y }).toEqual({ id: d.id, ...expected.get(d.id)! });
        // A tee drawn see-through (another solo part) shows the map through its body; one far from the followed
        // tee is off the canvas.
        if (d.alpha < 1 || d.sx < 0 || d.sy < 0 || d.sx >= width || d.sy >= height) continue;
        // A point of the body 6 units behind the eyes (which look along the aim) is in the body colour. Farther
        // back, a tee looking up shows its darker lower body or the feet's outline there (seen at 8 and 10 units
        // in the fixture demo's ticks 2990 and 3160); 6 units held at every tick of the fixture demo and every
        // tenth tick of the corpus demo, so the test does not depend on the tick that playing reached.
        const px = await pixelAt(page, d.sx - Math.cos(d.angle) * 6 * at.scale, d.sy - Math.sin(d.angle) * 6 * at.scale);
        expect(px.map((v, i) => Math.abs(v - d.body[i]!)).reduce((a, b) => a + b), `${d.name}: ${px} vs ${d.body}`).toBeLessThan(30);
        bodiesSeen++;
      }
      expect(bodiesSeen).toBeGreaterThan(0);
      // Between two recorded ticks (a client records every other tick), halfway between the two positions.
      const next = recorded.find((t) => t > tick)!;
      const mid = await seek(page, (tick + next) / 2);
      for (const d of mid.drawn) {
        const a = expected.get(d.id)!;
        const b = snapshots.get(next)!.get(d.id);
        if (!b) continue;
        expect(d.x).toBeCloseTo((a.x + b.x) / 2, 5);
        expect(d.y).toBeCloseTo((a.y + b.y) / 2, 5);
      }
      // Chat lines and kill messages show for a while after their tick (the corpus demo: server lines at tick 814,
      // self-kills at 4460, 4488 and 4590).
      if (CLIENT_DEMO === CORPUS_CLIENT_DEMO) {
        const chatAt = (await seek(page, 814 + 100)) as PlayerState & { chatLines: number; killLines: number };
        expect(chatAt.chatLines).toBeGreaterThan(3);
        expect((await seek(page, 814 + 17 * 50)) as unknown as { chatLines: number }).toMatchObject({ chatLines: 0 });
        expect((await seek(page, 4600)) as unknown as { killLines: number }).toMatchObject({ killLines: 3 });
        await seek(page, (tick + next) / 2);
      }
      // Stepping a tick.
      await page.click('#p-fwd');
      expect((await playerState(page)).tick).toBe(Math.round((tick + next) / 2) + 1);
      await page.check('#p-front');
      expect(await drawnShare(page)).toBeGreaterThan(0.3);

      // External images (the client's own, not in the map): given as PNG files (DDNet's data/mapres), they are
      // drawn; the note stops asking for them.
      const MAPRES = '/usr/share/games/ddnet/data/mapres';
      const asked = /To draw (.*?), drop them here/.exec((await page.textContent('#p-note')) ?? '')?.[1]?.split(', ') ?? [];
      if (asked.length && existsSync(MAPRES)) {
        const before = await drawnShare(page);
        await page.setInputFiles('#p-images', asked.map((n) => join(MAPRES, n)).filter((path) => existsSync(path)));
        await page.waitForFunction(() => !document.getElementById('p-images'), null, { timeout: 60_000 });
        expect(await page.textContent('#p-note')).not.toMatch(/External images/);
        expect(await drawnShare(page)).toBeGreaterThanOrEqual(before * 0.9);
        if (SCREENSHOTS) await page.screenshot({ path: join(repoRoot, 'docs', 'explorer-player-mapres.png') });
      }

      // A Teeworlds 0.7 demo plays too.
      await openFile(page, TW07_DEMO);
      const seven = await openPlayer(page);
      expect(seven.drawn.length).toBeGreaterThan(0);

      // The largest corpus demo: frames per second while playing (printed; docs/explorer.md gives it).
      if (existsSync(LARGEST_DEMO)) {
        await openFile(page, LARGEST_DEMO);
        const big = await openPlayer(page);
        await seek(page, big.tick + 1500);
        await page.click('#p-play');
        await page.waitForTimeout(Number(process.env.EXPLORER_PLAY_MS ?? 5000));
        const after = await playerState(page);
        await page.click('#p-play');
        console.log(`player: largest corpus demo, ${after.fps.toFixed(1)} fps over the last 2 s of playing, ${after.drawMs.toFixed(2)} ms to draw a frame (${after.drawn.length} tees in view)`);
        if (SCREENSHOTS) await page.screenshot({ path: join(repoRoot, 'docs', 'explorer-player-tutorial.png') });
        // Zoomed out (more tiles in view, drawn from chunks): 0.8^4 = 0.41x, 0.8^8 = 0.17x.
        for (const steps of [4, 4]) {
          for (let i = 0; i < steps; i++) await page.click('#p-zoom-out');
          await page.click('#p-play');
          await page.waitForTimeout(3000);
          const zoomed = await playerState(page);
          await page.click('#p-play');
          console.log(`player: largest corpus demo zoomed out to ${(zoomed as unknown as { zoom: number }).zoom.toFixed(2)}x, ${zoomed.fps.toFixed(1)} fps, ${zoomed.drawMs.toFixed(2)} ms to draw a frame`);
          expect(zoomed.frames).toBeGreaterThan(after.frames);
        }
        expect(await drawnShare(page)).toBeGreaterThan(0.3);
      }
    });
  });

  it('plays a teehistorian file on the map it names (refusing another) and a capture as a client received it', async () => {
    await inPage(async (page) => {
      const th = join(fixturesDir, 'teehistorian', 'ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian');
      await openFile(page, th);
      await openPlayer(page);
      expect(await page.textContent('#p-note')).toMatch(/Drop the map "ctf2" here or choose it \(SHA-256 b30feca5/);
      // Another map is refused, saying which one the header names.
      await page.setInputFiles('#p-map', join(fixturesDir, 'maps', 'ctf1.map'));
      await page.waitForFunction(() => (window as unknown as { __explorer: { playerError: string } }).__explorer.playerError);
      expect(await page.evaluate(() => (window as unknown as { __explorer: { playerError: string } }).__explorer.playerError)).toMatch(/^That is not the map this file was recorded on: its SHA-256 is 3b134e3f.*, the header names "ctf2" with SHA-256 b30feca5/);
      const ctf2 = join(corpusDir, 'maps', 'ddnet', 'ctf2.map');
      if (existsSync(ctf2)) {
        await page.setInputFiles('#p-map', ctf2);
        await page.waitForFunction(() => !(window as unknown as { __explorer: { playerError: string } }).__explorer.playerError && !document.getElementById('p-map'));
        // Each player where the tracker of the records puts it at a tick.
        const tracker = new PlayerTracker();
        const positions = new Map<number, Map<number, { x: number; y: number }>>();
        for (const m of readTeehistorian(new Uint8Array(readFileSync(th)))) {
          tracker.apply(m);
          positions.set(m.tick, new Map([...tracker.positions].map(([id, p]) => [id, { x: p.x, y: p.y }])));
        }
        const tick = [...positions.keys()].find((t) => positions.get(t)!.size >= 2)! + 100;
        const at = await seek(page, tick);
        const expected = positions.get(tick) ?? positions.get([...positions.keys()].filter((t) => t <= tick).pop()!)!;
        expect(at.drawn.map((d) => ({ id: d.id, x: d.x, y: d.y })).sort((a, b) => a.id - b.id)).toEqual([...expected].map(([id, p]) => ({ id, ...p })).sort((a, b) => a.id - b.id));
        expect(await drawnShare(page)).toBeGreaterThan(0.3);
      }
      // The Tutorial's teehistorian file on its map (embedded images): the screenshot docs/explorer.md shows.
      const tutorial = join(corpusDir, 'teehistorian', 'Tutorial_05f5b644-5eea-460b-baff-b0080c1f7c8c.teehistorian');
      const tutorialMap = join(corpusDir, 'maps', 'ddnet', 'Tutorial.map');
      if (existsSync(tutorial) && existsSync(tutorialMap)) {
        await openFile(page, tutorial);
        const start = await openPlayer(page);
        await page.setInputFiles('#p-map', tutorialMap);
        await page.waitForFunction(() => !document.getElementById('p-map'));
        const at = await seek(page, start.tick + 1450);
        expect(at.drawn.length).toBeGreaterThan(0);
        expect(await drawnShare(page)).toBeGreaterThan(0.3);
        if (SCREENSHOTS) await page.screenshot({ path: join(repoRoot, 'docs', 'explorer-player-teehistorian.png') });
      }

      // A capture: what Echo's client received. The cut capture holds no download of its map: the page asks for it.
      const pcap = join(fixturesDir, 'net', 'teeworlds-0.7-on-ddnet-cut.pcap');
      await openFile(page, pcap);
      await openPlayer(page);
      expect(await page.inputValue('#p-client')).toBe('Echo');
      expect(await page.textContent('#p-note')).toMatch(/Drop the map "Gold Mine" here or choose it/);
      const goldMine = ['ddnet07', 'ddnet'].map((d) => join(corpusDir, 'maps', d, 'Gold Mine.map')).find((path) => existsSync(path) && (() => {
        try {
          captureDemo(new Uint8Array(readFileSync(pcap)), { player: 'Echo', map: new Uint8Array(readFileSync(path)) });
          return true;
        } catch {
          return false;
        }
      })());
      let checked = 0;
      if (goldMine) {
        await page.setInputFiles('#p-map', goldMine);
        await page.waitForFunction(() => !document.getElementById('p-map'));
        const cap = await playerState(page);
        const demo = readDemo(captureDemo(new Uint8Array(readFileSync(pcap)), { player: 'Echo', map: new Uint8Array(readFileSync(goldMine)) }).demo);
        const protocol = demo.protocol.snapshots as SnapshotProtocol<Record<string, unknown>>;
        for (const { tick, snapshot } of demo.snapshots()) {
          const chars = snapshotObjects(snapshot, protocol).items('character') as unknown as { item: { id: number }; x: number; y: number }[];
          if (!chars.length || tick < cap.tick + 20) continue;
          const at = await seek(page, tick);
          expect(at.drawn.map((d) => ({ id: d.id, x: d.x, y: d.y })).sort((a, b) => a.id - b.id)).toEqual(chars.map((c) => ({ id: c.item.id, x: c.x, y: c.y })).sort((a, b) => a.id - b.id));
          if (++checked === 3) break;
        }
        expect(await drawnShare(page)).toBeGreaterThan(0.3);
        if (SCREENSHOTS) await page.screenshot({ path: join(repoRoot, 'docs', 'explorer-player-capture.png') });
      } else checked = 3;
      expect(checked).toBe(3);
    });
  });

  it('shows a map as groups and layers, a layer at a readable scale, and what a clicked tile means', async () => {
    await inPage(async (page) => {
      const maps = [join(fixturesDir, 'maps', 'ctf1.map'), ...(existsSync(join(corpusDir, 'maps', 'ddnet')) ? readdirSync(join(corpusDir, 'maps', 'ddnet')).map((f) => join(corpusDir, 'maps', 'ddnet', f)) : [])];
      for (const path of maps) {
        const loaded = await openFile(page, path);
        expect(loaded.kind, path).toBe('map');
        // Groups and their layers are rows of the tree, opened, named by kind.
        const labels = await page.locator('#tree .row .label').allTextContents();
        expect(labels[1], path).toBe('groups and layers');
        expect(labels[2], path).toMatch(/^group 0/);
        expect(await (await findRow(page, /^game( |$)/)).count(), path).toBe(1);
      }
      // A Yo7-sized map, built here: ctf1's groups with its game layer and tiles layers made 2000 x 2000 tiles, and
      // tiles layers added up to 35 layers (walls along the edges, 20000 tiles spread over each layer), 31 of them
      // 2000 x 2000: 500 MB of tiles once read.
      const big = readMap(new Uint8Array(readFileSync(join(fixturesDir, 'maps', 'ctf1.map'))));
      const [W, H, LAYERS] = [2000, 2000, 35];
      const filled = () => {
        const t = new Tiles(new Uint8Array(W * H * 4));
        for (let x = 0; x < W; x++) for (const y of [0, H - 1]) t.setId(y * W + x, 1);
        for (let y = 0; y < H; y++) for (const x of [0, W - 1]) t.setId(y * W + x, 1);
        for (let i = 0; i < 20_000; i++) t.setId((i * 7919) % (W * H), 1 + (i % 200));
        return t;
      };
      const all = () => big.groups.flatMap((g) => g.layers);
      const pattern = all().find((l) => l.kind === 'tilemap' && l.tilemapKind === 'tiles') as TilemapLayer;
      for (const layer of all()) {
        if (layer.kind !== 'tilemap' || (layer.tilemapKind !== 'game' && layer.tilemapKind !== 'tiles')) continue;
        const t = layer as TilemapLayer;
        t.item = { ...t.item, width: W, height: H };
        t.tiles = filled();
      }
      let lastName = '';
      for (let k = 0; all().length < LAYERS; k++) {
        const group = big.groups[1 + (k % (big.groups.length - 1))]!;
        lastName = `deco ${k}`;
        group.layers.push({ ...pattern, item: { ...pattern.item, width: W, height: H, name: lastName }, tiles: filled() });
      }
      const bigPath = join(mkdtempSync(join(tmpdir(), 'twcodec-explorer-big-')), 'big.map');
      writeFileSync(bigPath, writeMap(big));
      // The longest the page's main thread went without a frame (the page stays responsive while the worker reads).
      await page.evaluate(() => {
        const w = window as unknown as { __gap: number; __last: number };
        w.__gap = 0;
        w.__last = performance.now();
        const tick = (now: number) => {
          w.__gap = Math.max(w.__gap, now - w.__last);
          w.__last = now;
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      const bigLoaded = await openFile(page, bigPath);
      expect(bigLoaded.error).toBe('');
      const openGap = await page.evaluate(() => {
        const w = window as unknown as { __gap: number };
        const gap = w.__gap;
        w.__gap = 0;
        return gap;
      });
      expect((await page.locator('#tree .row .label').allTextContents())[1]).toBe('groups and layers');
      // Every layer is a row named by its kind and name, the last added one too.
      const t0 = Date.now();
      expect(await (await findRow(page, `tiles "${lastName}"`)).count()).toBe(1);
      const findMs = Date.now() - t0;
      const t1 = Date.now();
      await (await findRow(page, /^game/)).locator('.label').click();
      await page.waitForFunction(() => (document.querySelector('#details canvas.preview') as HTMLCanvasElement | null)?.width, null, { timeout: 60_000 });
      const pictureMs = Date.now() - t1;
      expect((await page.locator('#details canvas.preview').first().boundingBox())!.width).toBeGreaterThan(200);
      const t2 = Date.now();
      await (await findRow(page, `tiles "${lastName}"`)).locator('.label').click();
      await page.waitForFunction(() => (document.querySelector('#details canvas.preview') as HTMLCanvasElement | null)?.width, null, { timeout: 60_000 });
      const tilesMs = Date.now() - t2;
      const gap = await page.evaluate(() => (window as unknown as { __gap: number }).__gap);
      console.log(`player: a ${W} x ${H}-tile map of ${LAYERS} layers (${(readFileSync(bigPath).length / 1e6).toFixed(1)} MB) opened in ${Math.round(bigLoaded.ms)} ms (worker ${Math.round(bigLoaded.workerMs)} ms); its last layer found in the tree in ${findMs} ms; the game layer's picture in ${pictureMs} ms, a tiles layer's in ${tilesMs} ms; the longest the page went without a frame: ${Math.round(openGap)} ms while opening, ${Math.round(gap)} ms while finding and showing layers`);

      await openFile(page, join(fixturesDir, 'maps', 'ctf1.map'));
      await (await findRow(page, /^game/)).locator('.label').click();
      const canvas = page.locator('#details canvas.preview').first();
      const box = (await canvas.boundingBox())!;
      // 70 tiles wide: several pixels per tile, not one.
      expect(box.width).toBeGreaterThan(70 * 4);
      // Click tiles until one is solid (ctf1's game layer is mostly walls at its edges).
      await canvas.click({ position: { x: 2, y: 2 } });
      await page.waitForFunction(() => (window as unknown as { __explorer: { tile?: unknown } }).__explorer.tile);
      expect(await page.textContent('#details .tile-info')).toMatch(/^tile 0, 0 of the game layerid 1: solidflags 0/);
      if (SCREENSHOTS) await page.screenshot({ path: join(repoRoot, 'docs', 'explorer-map-groups.png') });
    });
  });
});
