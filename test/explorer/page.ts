// Driving the explorer page in headless Chromium (Debian's, through playwright-core), for the page's tests
// (test/explorer/explorer.test.ts) and the extension test (test/extension): a static server for the built
// page, the browser, opening a file and finding rows of the (virtualised) tree.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** Serves the built page in `dir` on a free port of 127.0.0.1; paths it does not have are added to `notFound`. */
export async function serveDir(dir: string, notFound: string[] = []): Promise<Server> {
  const server = createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0]!;
    const file = join(dir, url === '/' ? 'index.html' : url);
    if (!file.startsWith(dir) || !existsSync(file)) {
      notFound.push(url);
      return void res.writeHead(404).end();
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Headless Chromium, without the background traffic of a first run. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export type Loaded = { kind: string; ms: number; workerMs: number; overviewMs: number; error: string; overview?: { players: number; tracks: number; events: number } };
/** Opens a file with the Open button, or with `how` (a click on a sample). */
export async function openFile(page: Page, path: string, how = () => page.setInputFiles('#file', path)): Promise<Loaded> {
  await page.evaluate(() => {
    const api = (window as unknown as { __explorer: { ready: boolean; overviewReady: boolean } }).__explorer;
    api.ready = false;
    api.overviewReady = false;
  });
  await how();
  await page.waitForFunction(() => (window as unknown as { __explorer: { ready: boolean; overviewReady: boolean } }).__explorer.ready, null, { timeout: 60_000 });
  await page.waitForFunction(() => (window as unknown as { __explorer: { overviewReady: boolean } }).__explorer.overviewReady, null, { timeout: 60_000 });
  return page.evaluate(() => JSON.parse(JSON.stringify((window as unknown as { __explorer: Loaded }).__explorer)) as Loaded);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A row's label as findRow matches it: a text whole, or a pattern as it is. */
const labelPattern = (label: string | RegExp) => (typeof label === 'string' ? new RegExp(`^${escape(label)}$`) : label);
export type Details = { selected: { start: number; end: number; label: string }; highlighted: number[]; description: string; value: string };

/**
 * The tree row whose label matches, scrolling the (virtualised) tree down from where it is until it is there:
 * only the rows in view exist.
 */
export async function findRow(page: Page, label: string | RegExp, value?: string) {
  let row = page.locator('#tree .row', { has: page.locator('.label', { hasText: labelPattern(label) }) });
  if (value !== undefined) row = row.filter({ has: page.locator('.value', { hasText: new RegExp(`^${escape(value)}$`) }) });
  row = row.first();
  for (let i = 0; i < 2000 && (await row.count()) === 0; i++) {
    const moved = await page.evaluate(() => {
      const tree = document.getElementById('tree')!;
      const before = tree.scrollTop;
      tree.scrollTop += tree.clientHeight - 40;
      tree.dispatchEvent(new Event('scroll'));
      return tree.scrollTop !== before;
    });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    if (!moved) break;
  }
  return row;
}

export async function shown(page: Page): Promise<Details> {
  return page.evaluate(() => ({
    selected: (window as unknown as { __explorer: { selected: { start: number; end: number; label: string } } }).__explorer.selected,
    highlighted: Array.from(document.querySelectorAll('#hex .byte.sel')).map((b) => Number((b as HTMLElement).dataset.offset)),
    description: document.querySelector('#details .description')?.textContent ?? '',
    value: document.querySelector('#details dd.value')?.textContent ?? '',
  }));
}

/** Clicks the tree rows with these labels in turn (each one opens the next level) and returns what the page shows. */
export async function clickPath(page: Page, labels: (string | RegExp)[]): Promise<Details> {
  for (const label of labels) {
    // On a loaded machine a click can be handled late, or land on another row when lazy children arriving from
    // the worker redraw the tree between finding the row and clicking it: wait until the row with this label is
    // the selected one, and click again if it is not (read at once, a pattern's label gave the row before it).
    const pattern = labelPattern(label);
    for (let attempt = 1; ; attempt++) {
      await (await findRow(page, label)).click();
      const selected = await page
        .waitForFunction(([source, flags]) => new RegExp(source!, flags).test(document.querySelector('#tree .row.selected .label')?.textContent ?? ''), [pattern.source, pattern.flags], {
          timeout: 10_000,
        })
        .then(
          () => true,
          () => false,
        );
      if (selected) break;
      if (attempt === 3) throw new Error(`clickPath: the row ${pattern} was clicked ${attempt} times and is not selected`);
    }
    // Lazy children come from the worker: wait until the clicked node is open.
    await page.waitForFunction(() => !document.querySelector('#tree .row.selected .toggle')?.textContent?.includes('▸'), null, { timeout: 30_000 });
  }
  return shown(page);
}

/**
 * The built page in `dist`, served once for a test file (`close` it in afterAll), and `inPage`: a fresh browser on
 * it for each call, closed after `run`.
 */
export function servedPage(dist: string) {
  let server: Server | undefined;
  return {
    async inPage(run: (page: Page) => Promise<void>, viewport = { width: 1400, height: 900 }): Promise<void> {
      server ??= await serveDir(dist);
      const { port } = server.address() as { port: number };
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport });
        await page.goto(`http://127.0.0.1:${port}/`);
        await run(page);
      } finally {
        await browser.close();
      }
    },
    close: () => server?.close(),
  };
}

/** Moves the player's timeline to `tick`, as dragging its slider does. */
export async function showTick(page: Page, tick: number): Promise<void> {
  await page.evaluate((t) => {
    const input = document.getElementById('p-time') as HTMLInputElement;
    input.value = String(t);
    input.dispatchEvent(new Event('input'));
  }, tick);
}
