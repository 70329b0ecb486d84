// The packages in real headless Chromium (Debian's, driven by playwright-core): a page bundled by Vite from
// the published entry points reads a map, a teehistorian file (also as a fetch stream) and a demo.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '../corpus.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const app = fileURLToPath(new URL('./app', import.meta.url));
const FIXTURES: Record<string, string> = {
  '/fixtures/map.map': join(fixturesDir, 'maps', 'coverage.map'),
  // Seven data items of 64 KB and more: readMapAsync inflates them with the browser's DecompressionStream.
  '/fixtures/large-items.map': join(fixturesDir, 'maps', 'dm7-legacy-size.map'),
  '/fixtures/session.teehistorian': join(fixturesDir, 'teehistorian', 'ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian'),
  '/fixtures/demo.demo': join(fixturesDir, 'demos', 'ctf2_server_Alpha_server_manual.demo'),
};
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };

let server: Server | undefined;
afterAll(() => server?.close());

describe.skipIf(!CHROMIUM)('in the browser', () => {
  it('reads a map, a teehistorian file and a demo through the published entry points', async () => {
    // The bundle uses the packages' dist/ (their exports), as an installed copy would (built by test/global-setup.ts).
    const outDir = mkdtempSync(join(tmpdir(), 'twcodec-browser-'));
    await build({ root: app, configFile: false, logLevel: 'silent', build: { outDir, emptyOutDir: true, target: 'es2022' } });
    const bundle = readFileSync(join(outDir, 'index.html'), 'utf8');
    expect(bundle).toContain('<script');

    server = createServer((req, res) => {
      const url = (req.url ?? '/').split('?')[0]!;
      const file = FIXTURES[url] ?? join(outDir, url === '/' ? 'index.html' : url);
      if (!existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.waitForFunction(() => (window as { __result?: unknown }).__result !== undefined, null, { timeout: 60_000 });
      const result = await page.evaluate(() => (window as { __result?: unknown }).__result);
      expect(result).toMatchObject({
        zlib: 'fflate',
        runtimeUuid: '699db17b-8efb-34ff-b1d8-da6f60c15dd1',
        mapIdentical: true,
        asyncMapIdentical: true,
        asyncDecompressionStreams: 7,
        mapToolsRoundTrip: true,
        previewIsPng: true,
        mapErrors: 0,
        teehistorianMap: 'ctf2',
        teehistorianMessages: 5872,
        streamedMessages: 5872,
        syncMessages: 5872,
      });
      expect((result as { demoSnapshots: number }).demoSnapshots).toBeGreaterThan(10);
    } finally {
      await browser.close();
    }
  });
});
