// The explorer's player beside DDNet's client: the corpus's Tutorial client demo at the tick of the side-by-side
// pair in docs/explorer.md, in a 1400 x 800 view as DDNet's window was. What a DDNet player sees there is checked
// with pixel probes: no plain rectangles where DDNet draws grass tufts (a detail layer whose image is DDNet's
// own), the chat box, and, with DDNet's data/mapres given as the page asks, the grass tufts and clouds drawn.
// EXPLORER_SCREENSHOTS=1 writes docs/explorer-vs-ddnet-explorer.png (the explorer's half of the pair).
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { corpusDir, repoRoot } from '../corpus.js';
import { CHROMIUM, launchChromium, openFile, serveDir } from './page.js';

const DEMO = join(corpusDir, 'demos', 'Tutorial_clientA_record_Alpha_client.demo');
const MAPRES = '/usr/share/games/ddnet/data/mapres';
const SCREENSHOTS = process.env.EXPLORER_SCREENSHOTS === '1';
/** The tick of the pair (docs/explorer.md says how it was matched with DDNet's picture). */
const TICK = Number(process.env.EXPLORER_PAIR_TICK ?? 1706);

let server: Server | undefined;
afterAll(() => server?.close());

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

async function showTick(page: Page, tick: number): Promise<void> {
  await page.evaluate((t) => {
    const input = document.getElementById('p-time') as HTMLInputElement;
    input.value = String(t);
    input.dispatchEvent(new Event('input'));
  }, tick);
}

describe.skipIf(!CHROMIUM || !existsSync(DEMO))('the explorer beside DDNet’s client', () => {
  it('draws the Tutorial demo as DDNet does: no rectangles for detail layers, chat, and the mapres when given', async () => {
    server ??= await serveDir(inject('explorerDist'));
    const { port } = server.address() as { port: number };
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await page.goto(`http://127.0.0.1:${port}/`);
      // The view exactly as large as DDNet's window was.
      await page.addStyleTag({ content: '#view { flex: none !important; width: 1400px !important; height: 800px !important; }' });
      expect((await openFile(page, DEMO)).error).toBe('');
      await page.evaluate(() => (window as unknown as { __explorer: { showPlayer(s: boolean): Promise<void> } }).__explorer.showPlayer(true));
      await page.waitForFunction(() => (window as unknown as { __explorer: { player?: unknown } }).__explorer.player, null, { timeout: 60_000 });
      await showTick(page, TICK);
      if (process.env.EXPLORER_PAIR_DEBUG) await page.locator('#view').screenshot({ path: join(process.env.EXPLORER_PAIR_DEBUG, 'without-mapres.png') });

      if (TICK === 1706) {
        // Where the grass_doodads layers (detail layers of an image the map does not hold) were filled as plain
        // squares: the sky, as beside them.
        expect(distance(await meanAt(page, 600, 100, 16, 20), await meanAt(page, 650, 100, 16, 20))).toBeLessThan(12);
        expect(distance(await meanAt(page, 880, 495, 40, 25), await meanAt(page, 880, 465, 40, 20))).toBeLessThan(12);
      }
      // The chat box of the last 16 seconds, as DDNet's: server lines on dark bands at the bottom left.
      const chat = await page.evaluate(() => (window as unknown as { __explorer: { player: { chatLines: number } } }).__explorer.player.chatLines);
      console.log(`pair: ${chat} chat lines at tick ${TICK}`);

      if (existsSync(MAPRES)) {
        const asked = /To draw (.*?), drop them here/.exec((await page.textContent('#p-note')) ?? '')?.[1]?.split(', ') ?? [];
        expect(asked).toContain('grass_doodads.png');
        const before = { tufts: await meanAt(page, 880, 526, 300, 10), cloud: await meanAt(page, 975, 125, 50, 30) };
        await page.setInputFiles('#p-images', asked.map((n) => join(MAPRES, n)).filter((path) => existsSync(path)));
        await page.waitForFunction(() => !document.getElementById('p-images'), null, { timeout: 60_000 });
        await showTick(page, TICK);
        if (process.env.EXPLORER_PAIR_DEBUG) await page.locator('#view').screenshot({ path: join(process.env.EXPLORER_PAIR_DEBUG, 'with-mapres.png') });
        if (TICK === 1706) {
          // Grass tufts on the ground where DDNet draws them (green over the brown-grey of the grass edge), and a
          // cloud (bg_cloud quads) lighter than the sky.
          const tufts = await meanAt(page, 880, 526, 300, 10);
          const cloud = await meanAt(page, 975, 125, 50, 30);
          console.log(`pair: tufts ${tufts.map(Math.round)} (before ${before.tufts.map(Math.round)}), cloud ${cloud.map(Math.round)} (before ${before.cloud.map(Math.round)})`);
          expect(tufts[1] - tufts[0], 'the tufts are greener than the sky').toBeGreaterThan(before.tufts[1] - before.tufts[0] + 10);
          expect(cloud.reduce((a, b) => a + b), 'the cloud is lighter than the sky').toBeGreaterThan(before.cloud.reduce((a, b) => a + b) + 15);
        }
      }
      if (SCREENSHOTS) await page.locator('#view').screenshot({ path: join(repoRoot, 'docs', 'explorer-vs-ddnet-explorer.png') });
    } finally {
      await browser.close();
    }
  });
});
