// The format explorer page in real headless Chromium (Debian's, driven by playwright-core): built by Vite as
// static files, it opens a map, a demo and a teehistorian file; clicking a field highlights its bytes and shows
// the schema's description.
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { Datafile } from '@twcodec/datafile';
import { corpusDir, fixturesDir, repoRoot } from '../corpus.js';
import { CHROMIUM, clickPath, findRow, launchChromium, type Loaded, openFile, serveDir, shown } from './page.js';

// EXPLORER_SCREENSHOTS=1 refreshes the screenshots in docs/ (docs/explorer.md shows them).
const SCREENSHOTS = process.env.EXPLORER_SCREENSHOTS === '1';
// EXPLORER_DEMO=path times another demo.
const BIG_DEMO = process.env.EXPLORER_DEMO ?? join(corpusDir, 'demos', 'ctf2_server_autorecord_2026-11-22_10-09-35.demo');
const TILESET_MAP = join(corpusDir, 'maps', 'ddnet', 'Tsunami.map');

/** How many pixels of a canvas are not transparent (something was drawn). */
async function canvasInk(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const c = document.querySelector(sel) as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]) n++;
    return n;
  }, selector);
}

/** How many pixels of a canvas are (about) this colour, at any opacity (a thin line is half transparent). */
async function canvasPixels(page: Page, selector: string, rgb: [number, number, number]): Promise<number> {
  return page.evaluate(
    ([sel, [r, g, b]]) => {
      const c = document.querySelector(sel) as HTMLCanvasElement;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - r) + Math.abs(data[i + 1]! - g) + Math.abs(data[i + 2]! - b) < 30 && data[i + 3]! > 0) n++;
      return n;
    },
    [selector, rgb] as const,
  );
}

/** A canvas pixel as [r, g, b, a]. */
async function canvasPixel(page: Page, selector: string, x: number, y: number): Promise<number[]> {
  return page.evaluate(([sel, px, py]) => Array.from((document.querySelector(sel) as HTMLCanvasElement).getContext('2d')!.getImageData(px, py, 1, 1).data), [selector, x, y] as const);
}

let server: Server | undefined;
afterAll(() => server?.close());

async function scrollTreeTop(page: Page) {
  await page.evaluate(() => {
    const tree = document.getElementById('tree')!;
    tree.scrollTop = 0;
    tree.dispatchEvent(new Event('scroll'));
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
}

describe.skipIf(!CHROMIUM)('format explorer page', () => {
  it('opens a map, a demo and a teehistorian file and shows fields with their schema descriptions', async () => {
    // Built by test/global-setup.ts before the tests.
    const dist = inject('explorerDist');
    // What the page asked for and did not get (a browser asks for /favicon.ico when the page names no icon).
    const notFound: string[] = [];
    server = await serveDir(dist, notFound);
    const { port } = server.address() as { port: number };
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`http://127.0.0.1:${port}/`);

      // The start page says what to do and offers a sample of each kind; the three panes wait for a file.
      expect(await page.isVisible('#welcome')).toBe(true);
      expect(await page.isVisible('#tree')).toBe(false);
      expect(await page.textContent('#welcome')).toMatch(/Drop a map \(\.map\), a demo \(\.demo\), a teehistorian file \(\.teehistorian\)\s+or a network capture \(\.pcap, \.pcapng\)/);
      expect(await page.locator('#welcome button[data-sample]').allTextContents()).toEqual(['a map (ctf1)', 'a demo (ctf2, a server recording)', 'a teehistorian file (ctf2)']);
      if (SCREENSHOTS) await page.screenshot({ path: join(repoRoot, 'docs', 'explorer-start.png') });

      // A map (the sample, ctf1): the version of the first layer item is a schema field (schemas/map/items/layer.yaml).
      expect(await openFile(page, '', () => page.locator('#welcome button[data-sample="map"]').click())).toMatchObject({ kind: 'map', error: '' });
      expect(await page.textContent('#status')).toMatch(/^ctf1\.map: map, 5731 bytes/);
      expect(await page.isVisible('#welcome')).toBe(false);
      const header = await clickPath(page, ['header', 'num_items']);
      expect(header.selected).toEqual({ start: 20, end: 24, label: 'num_items' });
      expect(header.highlighted).toEqual([20, 21, 22, 23]);
      // The hex view has a text column, highlighted with the selection.
      expect(await page.locator('#hex .hexrow').first().locator('.char').allTextContents()).toEqual([...'DATA....S.......']);
      expect(await page.locator('#hex .char.sel').evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.offset)))).toEqual([20, 21, 22, 23]);
      const layerYaml = readFileSync(join(repoRoot, 'schemas', 'map', 'items', 'layer.yaml'), 'utf8');
      // The groups and layers (opened first) are closed here: the item list as the file holds it is below them.
      await (await findRow(page, 'groups and layers')).locator('.toggle').click();
      await clickPath(page, ['items']);
      // Images show their names (kept in a data item, not in the item's ints).
      expect(await (await findRow(page, 'image #0')).locator('.value').textContent()).toBe('"grass_doodads"');
      const layerRows = page.locator('#tree .row', { has: page.locator('.label', { hasText: /^layer #\d+$/ }) });
      for (let i = 0; (await page.locator('#tree .label', { hasText: /^width$/ }).count()) === 0; i++) await layerRows.nth(i).click();
      // The selected layer shows its tiles as a picture, one pixel per tile.
      const canvas = await page.evaluate(() => {
        const c = document.querySelector('#details canvas.preview') as HTMLCanvasElement | null;
        return c && { width: c.width, height: c.height };
      });
      if (SCREENSHOTS) await page.screenshot({ path: join(repoRoot, 'docs', 'explorer-map.png') });
      await clickPath(page, ['width']);
      // The details pane fills in after the click; on a loaded machine the first read can still be empty.
      await page.waitForFunction(() => /^\d+$/.test(document.querySelector('#details dd.value')?.textContent ?? ''), null, { timeout: 30_000 });
      const layer = await shown(page);
      expect(canvas).toEqual({ width: Number(layer.value), height: expect.any(Number) });
      expect(layer.selected.end - layer.selected.start).toBe(4);
      expect(layer.highlighted).toEqual([0, 1, 2, 3].map((i) => layer.selected.start + i));
      expect(layerYaml).toContain(`description: "${layer.description}"`);
      expect(Number(layer.value)).toBeGreaterThan(1);

      // Validation findings are shown at their fields (ctf1's layers carry uninitialised layer_version ints).
      expect(await page.textContent('#status')).toMatch(/, 9 validation findings$/);
      const version = await clickPath(page, ['layer_version']);
      expect(version.selected.label).toBe('layer_version');
      expect(await page.locator('#details .finding').count()).toBe(1);
      await clickPath(page, ['width']);

      // Hovering a byte shows the field under it.
      await page.locator(`#hex .byte[data-offset="${layer.selected.start + 1}"]`).hover();
      expect(await page.textContent('#details h3')).toBe('width');

      // An envelope is plotted: one line per channel.
      await scrollTreeTop(page);
      await clickPath(page, ['envelope #1']);
      // ctf1's envelope #1 is a colour envelope: r, g, b, a.
      expect(await page.locator('#details svg.envelope path[data-channel]').evaluateAll((els) => els.map((e) => e.getAttribute('data-channel')))).toEqual(['r', 'g', 'b', 'a']);
      // A quads layer is drawn as polygons (ctf1's first layers are quads), outlined on a dark background: layer
      // #3 is one white quad, which on the page's light background looked like nothing.
      await scrollTreeTop(page);
      await (await findRow(page, 'layer #3')).locator('.label').click();
      const quads = '#details canvas.preview.quads';
      const size = await page.evaluate((sel) => [(document.querySelector(sel) as HTMLCanvasElement).width, (document.querySelector(sel) as HTMLCanvasElement).height], quads);
      expect(await canvasPixel(page, quads, 0, 0)).toEqual([42, 46, 54, 255]); // the background
      expect(await canvasPixel(page, quads, size[0]! >> 1, size[1]! >> 1)).toEqual([255, 255, 255, 255]); // the quad
      expect(await canvasPixels(page, quads, [255, 176, 0])).toBeGreaterThan(size[0]!); // its outline
      // Sixteen white quads fading to transparent (layer #1): each outlined.
      await (await findRow(page, 'layer #1')).locator('.label').click();
      if (SCREENSHOTS) await page.screenshot({ path: join(repoRoot, 'docs', 'explorer-quads.png') });

      // A corpus map with embedded images: a tiles layer is drawn with its tileset, an image as a picture.
      if (existsSync(TILESET_MAP)) {
        expect(await openFile(page, TILESET_MAP)).toMatchObject({ kind: 'map', error: '' });
        await clickPath(page, ['items', /^image #\d+$/]);
        expect(await page.locator('#details canvas.preview').count()).toBe(1);
        // Layers show their names: Tsunami's "bot" is a tiles layer drawn with its embedded grass tileset.
        await scrollTreeTop(page);
        await (await findRow(page, /^layer #\d+$/, '"bot"')).locator('.label').click();
        const drawn = await page
          .waitForSelector('#details canvas.preview.tileset', { timeout: 30_000 })
          .then(() => true)
          .catch(() => false);
        expect(await page.textContent('#details .note')).toMatch(/grass_ravie_white/);
        expect(await canvasInk(page, '#details canvas.preview.tileset')).toBeGreaterThan(1000);
        expect(drawn).toBe(true);
        if (SCREENSHOTS) await page.screenshot({ path: join(repoRoot, 'docs', 'explorer-tileset.png') });
      } else console.log('explorer: corpus absent, tileset rendering skipped');

      // A demo: its header fields, then chunks by tick; the overview shows the timeline, players and positions.
      const demo = await openFile(page, join(fixturesDir, 'demos', 'ctf2_server_Alpha_server_manual.demo'));
      expect(demo).toMatchObject({ kind: 'demo', error: '', overview: { players: 1, tracks: 1 } });
      expect(await page.isVisible('#overview')).toBe(true);
      expect(await page.locator('#players tbody tr td').allTextContents()).toEqual(['', '0', 'Alpha', 'corpus', '616–686']);
      // The player's bar on the timeline and its positions, in client 0's colour (#d33).
      expect(await canvasPixels(page, '#timeline', [0xdd, 0x33, 0x33])).toBeGreaterThan(500);
      expect(await canvasPixels(page, '#plot', [0xdd, 0x33, 0x33])).toBeGreaterThan(500);
      const mapName = await clickPath(page, ['header', 'map_name']);
      expect(mapName).toMatchObject({ selected: { start: 72, end: 136 }, value: '"ctf2"', description: 'Name of the map played.' });
      expect(mapName.highlighted).toHaveLength(64);
      await clickPath(page, ['chunks']);
      expect(await page.locator('#tree .label', { hasText: /^tick \d+$/ }).count()).toBeGreaterThan(1);
      // A snapshot's items with their named fields (schemas/snapshot/ddnet-0.6.yaml); a field's bytes are its chunk's.
      const snapshotYaml = readFileSync(join(repoRoot, 'schemas', 'snapshot', 'ddnet-0.6.yaml'), 'utf8');
      const chunk = await clickPath(page, [/^tick \d+$/, 'snapshot']);
      expect(chunk.highlighted.length).toBe(Math.min(chunk.selected.end - chunk.selected.start, chunk.highlighted.length));
      const weapon = await clickPath(page, [/^character \d+$/, 'weapon']);
      expect(weapon.selected).toMatchObject({ start: chunk.selected.start, end: chunk.selected.end });
      expect(weapon.highlighted[0]).toBe(chunk.selected.start);
      expect(snapshotYaml).toContain(weapon.description);
      expect(weapon.description).toBe('The active weapon, -1 none (16.4: 0..5).');
      // The timeline goes to a tick: clicking its middle selects a tick node.
      await page.locator('#timeline').click({ position: { x: 300, y: 40 } });
      expect((await shown(page)).selected.label).toMatch(/^tick \d+$/);
      // A message chunk: the decoded net message with its fields and their descriptions (schemas/netmsg/ddnet-0.6.yaml).
      const netYaml = readFileSync(join(repoRoot, 'schemas', 'netmsg', 'ddnet-0.6.yaml'), 'utf8');
      await scrollTreeTop(page);
      const message = await clickPath(page, [/^message sv_\w+$/]);
      expect(netYaml).toContain(message.description);
      // Its first field is the row after it.
      await page.locator('#tree .row.selected + .row .label').click();
      const field = await shown(page);
      expect(field.selected.label).toMatch(/^[a-z_]+$/);
      expect(field.selected).toMatchObject({ start: message.selected.start, end: message.selected.end });
      expect(netYaml).toContain(field.description);

      // A teehistorian file: the messages carry the descriptions of schemas/teehistorian/*.yaml.
      const th = await openFile(page, join(fixturesDir, 'teehistorian', 'ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian'));
      expect(th).toMatchObject({ kind: 'teehistorian', error: '', overview: { players: 4, tracks: 4 } });
      // Names and clans (from the players' start info).
      expect(await page.locator('#players tbody tr td:nth-child(3)').allTextContents()).toEqual(['Alpha', 'AlphaDmy', 'Bravo', 'BravoDmy']);
      expect(await page.locator('#players tbody tr td:nth-child(4)').allTextContents()).toEqual(['corpus', 'corpus', 'corpus', 'corpus']);
      expect(await canvasInk(page, '#plot')).toBeGreaterThan(1000);
      const uuid = await clickPath(page, ['uuid']);
      expect(uuid.highlighted).toHaveLength(16);
      // The JSON header opens key by key; a key highlights its own bytes.
      const headerKey = await clickPath(page, ['header', 'map_name']);
      expect(headerKey.value).toBe('"ctf2"');
      expect(await page.locator('#hex .char.sel').allTextContents()).toEqual([...'"map_name":"ctf2"']);
      const core = readFileSync(join(repoRoot, 'schemas', 'teehistorian', 'core.yaml'), 'utf8');
      const playerNew = await clickPath(page, ['messages', /: PLAYER_NEW$/]);
      expect(playerNew.description).toBe("A player's character appeared at a position.");
      expect(core).toContain(playerNew.description);
      const x = await clickPath(page, ['x']);
      expect(x).toMatchObject({ description: 'Position x.', selected: { start: playerNew.selected.start, end: playerNew.selected.end } });
      expect(x.highlighted[0]).toBe(playerNew.selected.start);
      // The keyboard moves through the tree: down to the next field, left to the record.
      await page.keyboard.press('ArrowDown');
      expect((await shown(page)).selected.label).toBe('y');
      await page.keyboard.press('ArrowLeft');
      expect((await shown(page)).selected.label).toMatch(/: PLAYER_NEW$/);
      if (SCREENSHOTS) await page.screenshot({ path: join(repoRoot, 'docs', 'explorer-teehistorian.png') });

      // A capture (pcap): a node per UDP datagram, opened into its headers and its packet; the packet header is
      // the datagram's first bytes after the UDP header, the chunks' messages carry the net schemas' descriptions.
      const pcap = await openFile(page, join(fixturesDir, 'net', 'teeworlds-0.7-cut.pcap'));
      expect(pcap).toMatchObject({ kind: 'capture', error: '' });
      expect(await page.textContent('#status')).toMatch(/^teeworlds-0\.7-cut\.pcap: capture, \d+ bytes/);
      const link = await clickPath(page, ['file header', 'link_type']);
      expect(link).toMatchObject({ value: '1', selected: { start: 20, end: 24 } });
      const udpHeaders = await clickPath(page, ['datagrams', /^#0 /, 'link, IP and UDP headers']);
      // Ethernet (14), IPv4 (20), UDP (8) after the 16-byte record header at 24.
      expect(udpHeaders.selected).toMatchObject({ start: 40, end: 82 });
      const packetHeader = await clickPath(page, ['header']);
      expect(packetHeader.selected).toMatchObject({ start: 82, end: 89 });
      expect(packetHeader.highlighted).toEqual([82, 83, 84, 85, 86, 87, 88]);
      // Packet fields carry the descriptions of schemas/net (the header's fields, the control message and its fields).
      const packetYaml07 = readFileSync(join(repoRoot, 'schemas', 'net', 'teeworlds-0.7.yaml'), 'utf8');
      const ack = await clickPath(page, ['ack']);
      expect(ack.description).toBe('The sequence of the last vital chunk received (10 bits).');
      expect(packetYaml07).toContain(ack.description);
      const token = await clickPath(page, ['control token']);
      expect(token.selected.start).toBe(89);
      expect(packetYaml07).toContain(token.description);
      const responseToken = await clickPath(page, ['response_token']);
      expect(packetYaml07).toContain(responseToken.description);
      expect(responseToken.description).toMatch(/^The sender's token/);
      const info = await clickPath(page, [/^#4 /, /^chunk 0: info$/]);
      const netYaml07 = readFileSync(join(repoRoot, 'schemas', 'netmsg', 'teeworlds-0.7.yaml'), 'utf8');
      expect(netYaml07).toContain(info.description);
      // An uncompressed chunk's bytes are its own: a 2- or 3-byte chunk header, then the message.
      const chunkHeader = await clickPath(page, ['chunk header']);
      expect(chunkHeader.selected.start).toBe(info.selected.start);
      expect(chunkHeader.selected.end - chunkHeader.selected.start).toBeGreaterThanOrEqual(2);
      await page.screenshot({ path: join(tmpdir(), 'twcodec-explorer-capture.png') });
      if (SCREENSHOTS) await page.screenshot({ path: join(repoRoot, 'docs', 'explorer-capture.png') });

      // Anything else gets a clear message.
      const other = await openFile(page, join(repoRoot, 'package.json'));
      expect(other.error).toMatch(/Not a file this page knows/);

      // A demo cut short: the error, and the tree of what was read before it.
      const cutDir = mkdtempSync(join(tmpdir(), 'twcodec-explorer-cut-'));
      const demoBytes = readFileSync(join(fixturesDir, 'demos', 'ctf2_server_Alpha_server_manual.demo'));
      writeFileSync(join(cutDir, 'cut.demo'), demoBytes.subarray(0, Math.floor(demoBytes.length * 0.8)));
      const cut = await openFile(page, join(cutDir, 'cut.demo'));
      expect(cut).toMatchObject({ kind: 'demo', error: expect.stringMatching(/^This demo is damaged: TRUNCATED: /) });
      expect(await page.textContent('#status')).toMatch(/^cut\.demo: This demo is damaged: TRUNCATED: .*; the tree shows what was read before the error; overview \(1 player, 1 position track\)/);
      expect(await page.locator('#tree .row .label').allTextContents()).toEqual(['demo', 'header', 'timeline_markers', 'map_sha256', 'map', 'chunks', 'not read']);
      expect(cut.overview).toMatchObject({ players: 1 });
      // A map whose last data item does not inflate: the container's layout stays (the map reader refuses it).
      const mapBytes = new Uint8Array(readFileSync(join(fixturesDir, 'maps', 'ctf1.map')));
      const last = Datafile.read(mapBytes).data.at(-1)!;
      for (let i = 2; i < last.stored!.length; i++) mapBytes[last.fileOffset + i]! ^= 0x55;
      writeFileSync(join(cutDir, 'bad-data.map'), mapBytes);
      const badData = await openFile(page, join(cutDir, 'bad-data.map'));
      expect(badData).toMatchObject({ kind: 'map', error: expect.stringMatching(/^This map is damaged: INFLATE_FAILED: .*; no pictures or validation findings$/) });
      expect(await page.locator('#tree .row .label').allTextContents()).toEqual(['map (datafile)', 'header', 'item_types', 'item_offsets', 'data_offsets', 'data_sizes', 'items', 'data']);
      if (SCREENSHOTS) {
        // Looked at, not kept in docs/.
        await page.screenshot({ path: join(cutDir, 'explorer-damaged.png') });
        console.log(`explorer: a cut-short demo, ${join(cutDir, 'explorer-damaged.png')}`);
      }

      // Measured, not asserted: a 3 MB demo from the corpus (the page is usable once the tree is shown; the
      // overview, which replays every snapshot, follows).
      if (existsSync(BIG_DEMO)) {
        // EXPLORER_RUNS=5 opens it five times and prints the median (the machine is shared: single runs vary).
        const runs: Loaded[] = [];
        for (let i = 0; i < Math.max(1, Number(process.env.EXPLORER_RUNS ?? 1)); i++) runs.push(await openFile(page, BIG_DEMO));
        const big = runs[runs.length - 1]!;
        expect(big.error).toBe('');
        const median = (f: (r: Loaded) => number) => runs.map(f).sort((a, b) => a - b)[runs.length >> 1]!;
        console.log(
          `explorer: ${(statSync(BIG_DEMO).size / 1e6).toFixed(1)} MB demo (${big.overview?.players} players, ${big.overview?.tracks} tracks), median of ${runs.length}: ` +
            `tree shown after ${Math.round(median((r) => r.ms))} ms (worker ${Math.round(median((r) => r.workerMs))} ms), overview after ${Math.round(median((r) => r.overviewMs))} ms; ` +
            `all runs (tree/overview): ${runs.map((r) => `${Math.round(r.ms)}/${Math.round(r.overviewMs)}`).join(' ')}`,
        );
        if (SCREENSHOTS) {
          await clickPath(page, ['chunks']);
          await page.locator('#timeline').click({ position: { x: 500, y: 40 } });
          await page.waitForFunction(() => !document.querySelector('#tree .row.selected .toggle')?.textContent?.includes('▸'));
          await clickPath(page, [/^(snapshot|delta)$/, /^character \d+$/, 'x']);
          await page.screenshot({ path: join(repoRoot, 'docs', 'explorer-demo.png') });
        }
      } else console.log('explorer: corpus absent, 3 MB demo timing skipped');

      // Works offline once loaded: the service worker serves the page's files with the network gone.
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await page.context().setOffline(true);
      await page.reload();
      expect(await openFile(page, join(fixturesDir, 'maps', 'ctf1.map'))).toMatchObject({ kind: 'map', error: '' });
      expect((await clickPath(page, ['header', 'num_items'])).highlighted).toEqual([20, 21, 22, 23]);
      await page.context().setOffline(false);
      expect(notFound).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
