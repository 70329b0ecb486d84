// Inflating the corpus maps' data items in headless Chromium: fflate (the browser entry's sync inflate)
// against the browser's own DecompressionStream('deflate') (async), by item size, as a ratio to fflate
// measured in the same page. It decides which one readMapAsync uses in browsers: DecompressionStream for
// items of 64 KB and more (DECOMPRESSION_STREAM_MIN_SIZE, inflateAsync in packages/datafile/src/zlib/fflate.ts),
// fflate below; the last row is that mix against fflate alone. Needs Chromium (/usr/bin/chromium); skipped
// without it.
// Run: node bench/browser-inflate.mjs
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { Datafile } from '@twcodec/datafile';
import { corpusDir, listFiles, mb, readBytes, report, repoRoot } from './common.mjs';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
if (!CHROMIUM) {
  console.log('browser inflate: skipped, no Chromium at /usr/bin/chromium');
  process.exit(0);
}
let files = listFiles(join(corpusDir, 'maps'), '.map');
const source = files.length ? 'corpus' : 'fixtures';
if (!files.length) files = listFiles(join(repoRoot, 'fixtures', 'maps'), '.map');

// Every compressed data item, back to back, with an index of [offset, length, inflated size].
const items = files.flatMap((f) => Datafile.read(readBytes(f)).data.filter((d) => d.storedCompressed && d.size > 0));
const blob = new Uint8Array(items.reduce((s, d) => s + d.stored.length, 0));
const index = [];
let at = 0;
for (const d of items) {
  blob.set(d.stored, at);
  index.push([at, d.stored.length, d.size]);
  at += d.stored.length;
}

const page = `<!doctype html><script type="module">
import { unzlibSync } from '/fflate.js';
const index = await (await fetch('/index.json')).json();
const blob = new Uint8Array(await (await fetch('/blob.bin')).arrayBuffer());
const streams = index.map(([o, n, size]) => [blob.subarray(o, o + n), size]);
function viaFflate(stored, size) {
  return unzlibSync(stored, { out: new Uint8Array(size + 1) });
}
async function viaStream(stored, size) {
  const ds = new DecompressionStream('deflate');
  const writer = ds.writable.getWriter();
  writer.write(stored).catch(() => {});
  writer.close().catch(() => {});
  const reader = ds.readable.getReader();
  const out = new Uint8Array(size + 1);
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (n + value.length > out.length) { await reader.cancel(); throw new Error('too long'); }
    out.set(value, n);
    n += value.length;
  }
  return out.subarray(0, n);
}
const classes = [['< 64 KB', 0, 65536], ['64 KB - 1 MB', 65536, 1 << 20], ['>= 1 MB', 1 << 20, Infinity]];
const best = {};
for (let round = 0; round < 3; round++) {
  for (const [name, lo, hi] of classes) {
    const picked = streams.filter(([, size]) => size >= lo && size < hi);
    let t = performance.now();
    for (const [s, size] of picked) if (viaFflate(s, size).length !== size) throw new Error('fflate: wrong size');
    const fflate = performance.now() - t;
    t = performance.now();
    for (const [s, size] of picked) if ((await viaStream(s, size)).length !== size) throw new Error('DecompressionStream: wrong size');
    const stream = performance.now() - t;
    t = performance.now();
    await Promise.all(picked.map(([s, size]) => viaStream(s, size)));
    const concurrent = performance.now() - t;
    const b = (best[name] ??= { items: picked.length, bytes: picked.reduce((a, [, size]) => a + size, 0), fflate: Infinity, stream: Infinity, concurrent: Infinity });
    b.fflate = Math.min(b.fflate, fflate);
    b.stream = Math.min(b.stream, stream);
    b.concurrent = Math.min(b.concurrent, concurrent);
  }
}
const all = { items: 0, bytes: 0, fflate: 0, stream: 0, concurrent: 0 };
for (const b of Object.values(best)) for (const k of Object.keys(all)) all[k] += b[k];
best.all = all;
window.__result = { userAgent: navigator.userAgent, best };
</script>`;

const routes = {
  '/': ['text/html', page],
  '/fflate.js': ['text/javascript', readFileSync(join(repoRoot, 'node_modules', 'fflate', 'esm', 'browser.js'))],
  '/index.json': ['application/json', JSON.stringify(index)],
  '/blob.bin': ['application/octet-stream', blob],
};
const server = createServer((req, res) => {
  const route = routes[(req.url ?? '/').split('?')[0]];
  if (!route) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': route[0] }).end(route[1]);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let result;
try {
  const tab = await browser.newPage();
  await tab.goto(`http://127.0.0.1:${server.address().port}/`);
  await tab.waitForFunction(() => window.__result !== undefined, null, { timeout: 300_000 });
  result = await tab.evaluate(() => window.__result);
} finally {
  await browser.close();
  server.close();
}

console.log(`browser inflate of ${items.length} ${source} map data items (${mb(result.best.all.bytes)} MB inflated), ${result.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? 'Chromium'}`);
for (const [name, b] of Object.entries(result.best)) {
  console.log(
    `  ${name.padEnd(13)} ${String(b.items).padStart(5)} items ${mb(b.bytes).padStart(6)} MB   fflate ${b.fflate.toFixed(1).padStart(7)} ms   DecompressionStream ${b.stream.toFixed(1).padStart(7)} ms (${(b.stream / b.fflate).toFixed(2)}x)   all at once ${b.concurrent.toFixed(1).padStart(7)} ms (${(b.concurrent / b.fflate).toFixed(2)}x)`,
  );
}
// readMapAsync's mix: fflate for the small items, every large item's DecompressionStream started at once.
const best = result.best;
const mix = best['< 64 KB'].fflate + best['64 KB - 1 MB'].concurrent + best['>= 1 MB'].concurrent;
console.log(`  readMapAsync's mix (fflate < 64 KB, DecompressionStream above, all at once): ${mix.toFixed(1)} ms (${(mix / best.all.fflate).toFixed(2)}x fflate alone)`);
for (const [name, b] of Object.entries(result.best)) {
  report('browser-inflate', `DecompressionStream, items ${name}`, b.stream / b.fflate, undefined, `floor: fflate in the same page; ${b.items} items, ${mb(b.bytes)} MB`);
}
report('browser-inflate', "readMapAsync's mix (DecompressionStream >= 64 KB)", mix / best.all.fflate, undefined, 'floor: fflate for every item; the mix readMapAsync uses in browsers');
