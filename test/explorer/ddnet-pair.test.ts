// The explorer's player beside DDNet's client: the corpus's Tutorial client demo at the tick of the side-by-side
// pair in docs/explorer.md, in a 1400 x 800 view as DDNet's window was. What a DDNet player sees there is checked
// with pixel probes: no plain rectangles where DDNet draws grass tufts (a detail layer whose image is DDNet's
// own), the chat box, and, with DDNet's data/mapres given as the page asks, the grass tufts and clouds drawn.
// EXPLORER_SCREENSHOTS=1 writes docs/explorer-vs-ddnet-explorer.png (the explorer's half of the pair).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { corpusDir, repoRoot } from '../corpus.js';
import { CHROMIUM, openFile, servedPage, showTick } from './page.js';

const DEMO = join(corpusDir, 'demos', 'Tutorial_clientA_record_Alpha_client.demo');
const MAPRES = '/usr/share/games/ddnet/data/mapres';
const SCREENSHOTS = process.env.EXPLORER_SCREENSHOTS === '1';
/** The tick of the probes: the pair docs/explorer.md showed before (DDNet drew grass tufts and clouds there). */
const TICK = 1706;
/** The tick of the pair (docs/explorer.md says how it was matched with DDNet's picture: EXPLORER_PAIR_MATCH). */
const PAIR_TICK = Number(process.env.EXPLORER_PAIR_TICK ?? 974);
/** A screenshot of DDNet's client: the ticks EXPLORER_PAIR_TICKS (from-to) are compared with it, the nearest printed. */
const MATCH = process.env.EXPLORER_PAIR_MATCH;

const served = servedPage(inject('explorerDist'));
afterAll(() => served.close());

type Rgb = [number, number, number];

/** The mean colour of a rectangle of the view (CSS pixels). */
function meanAt(page: Page, x: number, y: number, w: number, h: number): Promise<Rgb> {
  return page.evaluate(
    ([px, py, pw, ph]) => {
      const c = document.getElementById('view') as HTMLCanvasElement;
      const r = devicePixelRatio || 1;
      const d = c.getContext('2d')!.getImageData(Math.round(px * r), Math.round(py * r), Math.round(pw * r), Math.round(ph * r)).data;
      const sum = [0, 0, 0];
      for (let i = 0; i < d.length; i += 4) for (let k = 0; k < 3; k++) sum[k]! += d[i + k]!;
      return sum.map((v) => v / (d.length / 4)) as [number, number, number];
    },
    [x, y, w, h] as const,
  );
}
const distance = (a: Rgb, b: Rgb) => a.reduce((s, v, i) => s + Math.abs(v - b[i]!), 0);

type State = { chatLines: number; drawn: { name: string; alpha: number }[] };
const api = (page: Page) => page.evaluate(() => JSON.parse(JSON.stringify((window as unknown as { __explorer: { player: unknown } }).__explorer.player)) as State);

describe.skipIf(!CHROMIUM || !existsSync(DEMO))('the explorer beside DDNet’s client', () => {
  it('draws the Tutorial demo as DDNet does: no rectangles for detail layers, chat, and the mapres when given', async () => {
    await served.inPage(async (page) => {
      // The view exactly as large as DDNet's window was.
      await page.addStyleTag({ content: '#view { flex: none !important; width: 1400px !important; height: 800px !important; }' });
      expect((await openFile(page, DEMO)).error).toBe('');
      await page.evaluate(() => (window as unknown as { __explorer: { showPlayer(s: boolean): Promise<void> } }).__explorer.showPlayer(true));
      await page.waitForFunction(() => (window as unknown as { __explorer: { player?: unknown } }).__explorer.player, null, { timeout: 60_000 });
      await showTick(page, TICK);
      if (process.env.EXPLORER_PAIR_DEBUG) await page.locator('#view').screenshot({ path: join(process.env.EXPLORER_PAIR_DEBUG, 'without-mapres.png') });

      {
        // Where the grass_doodads layers (detail layers of an image the map does not hold) were filled as plain
        // squares: the sky, as beside them.
        expect(distance(await meanAt(page, 600, 100, 16, 20), await meanAt(page, 650, 100, 16, 20))).toBeLessThan(12);
        expect(distance(await meanAt(page, 880, 495, 40, 25), await meanAt(page, 880, 465, 40, 20))).toBeLessThan(12);
      }

      if (existsSync(MAPRES)) {
        const asked = /To draw (.*?), drop them here/.exec((await page.textContent('#p-note')) ?? '')?.[1]?.split(', ') ?? [];
        expect(asked).toContain('grass_doodads.png');
        const before = { tufts: await meanAt(page, 880, 526, 300, 10), cloud: await meanAt(page, 975, 125, 50, 30) };
        await page.setInputFiles('#p-images', asked.map((n) => join(MAPRES, n)).filter((path) => existsSync(path)));
        await page.waitForFunction(() => !document.getElementById('p-images'), null, { timeout: 60_000 });
        await showTick(page, TICK);
        if (process.env.EXPLORER_PAIR_DEBUG) await page.locator('#view').screenshot({ path: join(process.env.EXPLORER_PAIR_DEBUG, 'with-mapres.png') });
        {
          // Grass tufts on the ground where DDNet draws them (green over the brown-grey of the grass edge), and a
          // cloud (bg_cloud quads) lighter than the sky.
          const tufts = await meanAt(page, 880, 526, 300, 10);
          const cloud = await meanAt(page, 975, 125, 50, 30);
          console.log(`pair: tufts ${tufts.map(Math.round)} (before ${before.tufts.map(Math.round)}), cloud ${cloud.map(Math.round)} (before ${before.cloud.map(Math.round)})`);
          expect(tufts[1] - tufts[0], 'the tufts are greener than the sky').toBeGreaterThan(before.tufts[1] - before.tufts[0] + 10);
          expect(cloud.reduce((a, b) => a + b), 'the cloud is lighter than the sky').toBeGreaterThan(before.cloud.reduce((a, b) => a + b) + 15);
        }
      }
      if (MATCH) {
        // The tick whose picture is nearest DDNet's screenshot: both scaled to 350 x 200, the channel differences
        // summed, over the ticks asked for (how the pair's tick was found).
        const png = readFileSync(MATCH).toString('base64');
        await page.evaluate(async (data) => {
          const img = new Image();
          img.src = `data:image/png;base64,${data}`;
          await img.decode();
          const c = new OffscreenCanvas(350, 200);
          c.getContext('2d')!.drawImage(img, 0, 0, 350, 200);
          (window as unknown as { __ddnet: Uint8ClampedArray }).__ddnet = c.getContext('2d')!.getImageData(0, 0, 350, 200).data;
        }, png);
        const [from, to] = (process.env.EXPLORER_PAIR_TICKS ?? '606-2000').split('-').map(Number) as [number, number];
        let best = { tick: -1, diff: Infinity };
        for (let tick = from; tick <= to; tick++) {
          await showTick(page, tick);
          const diff = await page.evaluate(() => {
            const c = new OffscreenCanvas(350, 200);
            c.getContext('2d')!.drawImage(document.getElementById('view') as HTMLCanvasElement, 0, 0, 350, 200);
            const d = c.getContext('2d')!.getImageData(0, 0, 350, 200).data;
            const e = (window as unknown as { __ddnet: Uint8ClampedArray }).__ddnet;
            let sum = 0;
            for (let i = 0; i < d.length; i += 4) sum += Math.abs(d[i]! - e[i]!) + Math.abs(d[i + 1]! - e[i + 1]!) + Math.abs(d[i + 2]! - e[i + 2]!);
            return sum;
          });
          if (diff < best.diff) best = { tick, diff };
        }
        console.log(`pair: the tick nearest ${MATCH} is ${best.tick} (difference ${best.diff})`);
      }
      await showTick(page, PAIR_TICK);
      const state = await api(page);
      const chatLines = state.chatLines;
      console.log(`pair: tees at tick ${PAIR_TICK}: ${state.drawn.map((d) => `${d.name} ${d.alpha}`).join(', ')}`);
      // DDNet draws Alpha see-through there (the recorder's tee, AlphaDmy, is in a solo part).
      if (PAIR_TICK === 974) expect(state.drawn.map((d) => [d.name, d.alpha]).sort()).toEqual([['Alpha', 0.4], ['AlphaDmy', 1]]);
      console.log(`pair: ${chatLines} chat lines at tick ${PAIR_TICK}`);
      // DDNet's client shows 8 server lines there (the line of a client it did not know yet left out).
      if (PAIR_TICK === 974) expect(chatLines).toBe(8);
      if (SCREENSHOTS) await page.locator('#view').screenshot({ path: join(repoRoot, 'docs', 'explorer-vs-ddnet-explorer.png') });
    }, { width: 1400, height: 1000 });
  });
});
