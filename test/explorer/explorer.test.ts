// The format explorer page in real headless Chromium (Debian's, driven by playwright-core): built by Vite as
// static files, it opens a map, a demo and a teehistorian file; clicking a field highlights its bytes and shows
// the schema's description.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusDir, fixturesDir, repoRoot } from '../corpus.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const explorer = join(repoRoot, 'packages', 'explorer');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
// EXPLORER_SCREENSHOTS=1 refreshes the screenshots in docs/ (docs/explorer.md shows them).
const SCREENSHOTS = process.env.EXPLORER_SCREENSHOTS === '1';
const BIG_DEMO = join(corpusDir, 'demos', 'ctf2_server_autorecord_2026-11-22_10-09-35.demo');

let server: Server | undefined;
afterAll(() => server?.close());

async function openFile(page: Page, path: string): Promise<{ kind: string; ms: number; error: string }> {
  await page.evaluate(() => ((window as unknown as { __explorer: { ready: boolean } }).__explorer.ready = false));
  await page.setInputFiles('#file', path);
  await page.waitForFunction(() => (window as unknown as { __explorer: { ready: boolean } }).__explorer.ready, null, { timeout: 60_000 });
  return page.evaluate(() => (window as unknown as { __explorer: { kind: string; ms: number; error: string } }).__explorer);
}

/** Clicks the tree row with this label (expanding the path to it by label) and returns what the page shows. */
async function clickPath(page: Page, labels: string[]) {
  for (const label of labels) await page.locator('#tree .row', { has: page.locator('.label', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) }).first().click();
  return page.evaluate(() => ({
    selected: (window as unknown as { __explorer: { selected: { start: number; end: number; label: string } } }).__explorer.selected,
    highlighted: Array.from(document.querySelectorAll('#hex .byte.sel')).map((b) => Number((b as HTMLElement).dataset.offset)),
    description: document.querySelector('#details .description')?.textContent ?? '',
    value: document.querySelector('#details dd.value')?.textContent ?? '',
  }));
}

describe.skipIf(!CHROMIUM)('format explorer page', () => {
  it('opens a map, a demo and a teehistorian file and shows fields with their schema descriptions', async () => {
    execFileSync('npx', ['tsc', '-b'], { cwd: repoRoot, stdio: 'pipe' });
    const config = (await import(join(explorer, 'vite.config.mjs'))).default;
    await build({ ...config, configFile: false, logLevel: 'silent' });
    const dist = join(explorer, 'dist');
    server = createServer((req, res) => {
      const url = (req.url ?? '/').split('?')[0]!;
      const file = join(dist, url === '/' ? 'index.html' : url);
      if (!file.startsWith(dist) || !existsSync(file)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`http://127.0.0.1:${port}/`);

      // A map: the version of the first layer item is a schema field (schemas/map/items/layer.yaml).
      expect(await openFile(page, join(fixturesDir, 'maps', 'ctf1.map'))).toMatchObject({ kind: 'map', error: '' });
      const header = await clickPath(page, ['header', 'num_items']);
      expect(header.selected).toEqual({ start: 20, end: 24, label: 'num_items' });
      expect(header.highlighted).toEqual([20, 21, 22, 23]);
      const layerYaml = readFileSync(join(repoRoot, 'schemas', 'map', 'items', 'layer.yaml'), 'utf8');
      await clickPath(page, ['items']);
      const layerRows = page.locator('#tree .row', { has: page.locator('.label', { hasText: /^layer #\d+$/ }) });
      for (let i = 0; (await page.locator('#tree .label', { hasText: /^width$/ }).count()) === 0; i++) await layerRows.nth(i).click();
      // The selected layer shows its tiles as a picture, one pixel per tile.
      const canvas = await page.evaluate(() => {
        const c = document.querySelector('#details canvas.preview') as HTMLCanvasElement | null;
        return c && { width: c.width, height: c.height };
      });
      if (SCREENSHOTS) await page.screenshot({ path: join(repoRoot, 'docs', 'explorer-map.png') });
      const layer = await clickPath(page, ['width']);
      expect(canvas).toEqual({ width: Number(layer.value), height: expect.any(Number) });
      expect(layer.selected.end - layer.selected.start).toBe(4);
      expect(layer.highlighted).toEqual([0, 1, 2, 3].map((i) => layer.selected.start + i));
      expect(layerYaml).toContain(`description: "${layer.description}"`);
      expect(Number(layer.value)).toBeGreaterThan(1);

      // Validation findings are shown at their fields (ctf1's layers carry uninitialised layer_version ints).
      expect(await page.textContent('#status')).toMatch(/\d+ validation finding/);
      const version = await clickPath(page, ['layer_version']);
      expect(version.selected.label).toBe('layer_version');
      expect(await page.locator('#details .finding').count()).toBeGreaterThan(0);
      await clickPath(page, ['width']);

      // Hovering a byte shows the field under it.
      await page.locator(`#hex .byte[data-offset="${layer.selected.start + 1}"]`).hover();
      expect(await page.textContent('#details h3')).toBe('width');

      // A demo: its header fields, then chunks by tick.
      expect(await openFile(page, join(fixturesDir, 'demos', 'ctf2_server_Alpha_server_manual.demo'))).toMatchObject({ kind: 'demo', error: '' });
      const mapName = await clickPath(page, ['header', 'map_name']);
      expect(mapName).toMatchObject({ selected: { start: 72, end: 136 }, value: '"ctf2"', description: 'Name of the map played.' });
      expect(mapName.highlighted).toHaveLength(64);
      await page.locator('#tree .row', { hasText: 'chunks' }).first().click();
      expect(await page.locator('#tree .label', { hasText: /^tick \d+$/ }).count()).toBeGreaterThan(1);

      // A teehistorian file: the messages carry the descriptions of schemas/teehistorian/*.yaml.
      const th = await openFile(page, join(fixturesDir, 'teehistorian', 'ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian'));
      expect(th).toMatchObject({ kind: 'teehistorian', error: '' });
      const uuid = await clickPath(page, ['uuid']);
      expect(uuid.highlighted).toHaveLength(16);
      const row = (text: RegExp) => page.locator('#tree .row', { has: page.locator('.label', { hasText: text }) }).first();
      await row(/^messages$/).click();
      await row(/…/).click();
      await row(/: PLAYER_NEW$/).click();
      const core = readFileSync(join(repoRoot, 'schemas', 'teehistorian', 'core.yaml'), 'utf8');
      const playerNew = await page.textContent('#details .description');
      expect(playerNew).toBe('A player\'s character appeared at a position.');
      expect(core).toContain(playerNew);

      // Anything else gets a clear message.
      const other = await openFile(page, join(repoRoot, 'package.json'));
      expect(other.error).toMatch(/Not a file this page knows/);

      // Measured, not asserted: a 3 MB demo from the corpus.
      if (existsSync(BIG_DEMO)) {
        const big = await openFile(page, BIG_DEMO);
        expect(big.error).toBe('');
        console.log(`explorer: ${(statSync(BIG_DEMO).size / 1e6).toFixed(1)} MB demo opened in ${Math.round(big.ms)} ms`);
        if (SCREENSHOTS) await page.screenshot({ path: join(repoRoot, 'docs', 'explorer-demo.png') });
      } else console.log('explorer: corpus absent, 3 MB demo timing skipped');
    } finally {
      await browser.close();
    }
  });
});
