// Issue 25's budget for a valid large input: an 8192x8192 layer costs at most DDNet's own tool's time and 2x
// its peak memory. Builds the inputs (a map with an 8192x8192 game layer; an 8192x8192 RGBA PNG), then runs
// twcodec's CLI and DDNet's tools (Debian ddnet-tools) on the same files, alternating, each under
// /usr/bin/time -v, and prints CPU time (user + sys) and peak RSS with their ratios (best of the rounds).
//
//   node bench/large-layer.mjs [rounds]     (npm run build first; CASES=name,name runs only those)
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { readMap, Tiles, writeMap } from '../packages/map/dist/index.js';
import { readBytes, repoRoot } from './common.mjs';

const SIDE = 8192;
const rounds = Number(process.argv[2] ?? 3);
const ddnetDir = '/usr/lib/x86_64-linux-gnu/ddnet';
const ddnetUserDir = join(homedir(), '.local', 'share', 'ddnet');
const cli = join(repoRoot, 'packages', 'cli', 'dist', 'bin.js');
// KEEP=DIR writes the inputs and outputs there and leaves them (to run the tools by hand).
const work = process.env.KEEP ? (mkdirSync(process.env.KEEP, { recursive: true }), process.env.KEEP) : mkdtempSync(join(tmpdir(), 'twcodec-large-layer-'));

/** dm7 (DDNet tiles) with a SIDE x SIDE game layer: a border, a diagonal and a filled block. */
function bigLayerMap() {
  const map = readMap(readBytes(join(repoRoot, 'fixtures', 'maps', 'dm7-legacy-size.map')));
  const game = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap' && l.tilemapKind === 'game');
  game.item = { ...game.item, width: SIDE, height: SIDE };
  game.tiles = new Tiles(new Uint8Array(SIDE * SIDE * 4));
  for (let i = 0; i < SIDE; i++) {
    game.tiles.setId(i * SIDE + i, 1);
    game.tiles.setId(i, 1);
    game.tiles.setId(i * SIDE, 1);
  }
  for (let y = 100; y < 400; y++) for (let x = 100; x < 400; x++) game.tiles.setId(y * SIDE + x, 2);
  // node:zlib, not the default pako: building the input is not what is measured.
  return writeMap(map, { deflate: (data, level) => deflateSync(data, { level }) });
}

/**
 * dm7 with its game layer and its first tiles layer SIDE x SIDE, half of their tiles set (cave-like 32-tile
 * blocks): what a large real map costs, beyond a mostly empty layer.
 */
function filledLayersMap() {
  const map = readMap(readBytes(join(repoRoot, 'fixtures', 'maps', 'dm7-legacy-size.map')));
  const layers = map.groups.flatMap((g) => g.layers).filter((l) => l.kind === 'tilemap');
  const game = layers.find((l) => l.tilemapKind === 'game');
  const tiles = layers.find((l) => l.tilemapKind === 'tiles');
  for (const [layer, id] of [[game, 1], [tiles, 17]]) {
    layer.item = { ...layer.item, width: SIDE, height: SIDE };
    const bytes = new Uint8Array(SIDE * SIDE * 4);
    for (let y = 0; y < SIDE; y++) for (let x = 0; x < SIDE; x++) if (((x >> 5) * 7 + (y >> 5) * 3) % 4 < 2) bytes[(y * SIDE + x) * 4] = id + ((x + y) & 3);
    layer.tiles = new Tiles(bytes);
  }
  return writeMap(map, { deflate: (data, level) => deflateSync(data, { level }) });
}

/** A PNG chunk: length, type, body, CRC-32 of type and body (node:zlib's crc32, Node 20.15 and later). */
function chunk(type, body) {
  const out = new Uint8Array(12 + body.length);
  new DataView(out.buffer).setUint32(0, body.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(body, 8);
  new DataView(out.buffer).setUint32(8 + body.length, crc32(out.subarray(4, 8 + body.length)));
  return out;
}

/**
 * A side x side RGBA PNG: a colour gradient in 64-pixel squares (compressible, but not all one value), its
 * rows filtered with each of the five filter types in turn (unfiltering is part of what a decoder pays for).
 */
function png(side) {
  const stride = side * 4;
  const raw = new Uint8Array((1 + stride) * side);
  let previous = new Uint8Array(stride);
  let pixels = new Uint8Array(stride);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) pixels.set([(x >> 6) & 255, (y >> 6) & 255, ((x ^ y) >> 6) & 255, 255], x * 4);
    const filter = y % 5;
    const line = y * (1 + stride);
    raw[line] = filter;
    for (let i = 0; i < stride; i++) {
      const a = i >= 4 ? pixels[i - 4] : 0;
      const b = previous[i];
      const c = i >= 4 ? previous[i - 4] : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter];
      raw[line + 1 + i] = (pixels[i] - predicted) & 255;
    }
    [previous, pixels] = [pixels, previous];
  }
  const idat = [deflateSync(raw, { level: 6 })];
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, side);
  new DataView(ihdr.buffer).setUint32(4, side);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const parts = [Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), chunk('IHDR', ihdr), ...idat.map((c) => chunk('IDAT', c)), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}

/** Runs a command under /usr/bin/time -v: CPU seconds (user + sys) and peak RSS in MB. */
function measure(command, args) {
  // DDNet's tools take map paths relative to the current directory (or their user directory).
  const result = spawnSync('/usr/bin/time', ['-v', command, ...args], { cwd: work, encoding: 'utf8', maxBuffer: 1 << 26 });
  const field = (name) => Number(new RegExp(`${name}: ([\\d.]+)`).exec(result.stderr)?.[1]);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 2000)}`);
  return { cpu: field('User time \\(seconds\\)') + field('System time \\(seconds\\)'), rssMb: field('Maximum resident set size \\(kbytes\\)') / 1024 };
}

const mapPath = join(work, 'big-layer.map');
const pngPath = join(work, 'big.png');
writeFileSync(mapPath, bigLayerMap());
writeFileSync(join(work, 'filled-layers.map'), filledLayersMap());
writeFileSync(pngPath, png(SIDE));
// ctf1 with grass_main embedded (64x64): map_replace_image replaces only embedded images, by name.
const imageName = 'grass_main';
const smallPngPath = join(work, 'small.png');
writeFileSync(smallPngPath, png(64));
const embedded = 'ctf1-embedded.map';
measure(process.execPath, [cli, 'map', 'replace-image', join(repoRoot, 'fixtures', 'maps', 'ctf1.map'), '--name', imageName, smallPngPath, join(work, embedded)]);
mkdirSync(ddnetUserDir, { recursive: true });
const ddnetOut = `twcodec-bench-${process.pid}.map`;

const cases = {
  'replace-image': {
    twcodec: () => measure(process.execPath, [cli, 'map', 'replace-image', embedded, '--name', imageName, 'big.png', 'replaced.map']),
    ddnet: () => measure(join(ddnetDir, 'map_replace_image'), [embedded, ddnetOut, imageName, 'big.png']),
  },
  'resave (replaced image)': {
    // The map DDNet's map_replace_image wrote (the case above), resaved by both.
    twcodec: () => measure(process.execPath, [cli, 'map', 'resave', 'ddnet-replaced.map', 'resaved-image.map']),
    ddnet: () => measure(join(ddnetDir, 'map_resave'), ['ddnet-replaced.map', ddnetOut]),
  },
  'resave (large layer)': {
    twcodec: () => measure(process.execPath, [cli, 'map', 'resave', mapPath, join(work, 'resaved.map')]),
    ddnet: () => measure(join(ddnetDir, 'map_resave'), ['big-layer.map', ddnetOut]),
  },
  'render vs map_resave': {
    twcodec: () => measure(process.execPath, [cli, 'map', 'render', mapPath, join(work, 'render.png')]),
    ddnet: () => measure(join(ddnetDir, 'map_resave'), ['big-layer.map', ddnetOut]),
  },
  'render --layer game vs map_resave': {
    twcodec: () => measure(process.execPath, [cli, 'map', 'render', mapPath, join(work, 'render-game.png'), '--layer', 'game']),
    ddnet: () => measure(join(ddnetDir, 'map_resave'), ['big-layer.map', ddnetOut]),
  },
  'render (two filled layers) vs map_resave': {
    twcodec: () => measure(process.execPath, [cli, 'map', 'render', 'filled-layers.map', 'render-filled.png']),
    ddnet: () => measure(join(ddnetDir, 'map_resave'), ['filled-layers.map', ddnetOut]),
  },
  'resave (two filled layers)': {
    twcodec: () => measure(process.execPath, [cli, 'map', 'resave', 'filled-layers.map', 'resaved-filled.map']),
    ddnet: () => measure(join(ddnetDir, 'map_resave'), ['filled-layers.map', ddnetOut]),
  },
};

const only = process.env.CASES?.split(',');
console.log(`inputs: ${basename(mapPath)} ${readBytes(mapPath).length} bytes, ${basename(pngPath)} ${readBytes(pngPath).length} bytes; best of ${rounds}`);
try {
  for (const [name, tools] of Object.entries(cases)) {
    if (only && !only.includes(name)) continue;
    const best = { twcodec: { cpu: Infinity, rssMb: Infinity }, ddnet: { cpu: Infinity, rssMb: Infinity } };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? ['ddnet', 'twcodec'] : ['twcodec', 'ddnet'];
      for (const tool of order) {
        const m = tools[tool]();
        best[tool] = { cpu: Math.min(best[tool].cpu, m.cpu), rssMb: Math.min(best[tool].rssMb, m.rssMb) };
      }
    }
    if (name === 'replace-image') copyFileSync(join(ddnetUserDir, ddnetOut), join(work, 'ddnet-replaced.map'));
    const { twcodec: t, ddnet: d } = best;
    console.log(
      `${name.padEnd(34)} twcodec ${t.cpu.toFixed(2)} s ${t.rssMb.toFixed(0)} MB | DDNet ${d.cpu.toFixed(2)} s ${d.rssMb.toFixed(0)} MB | time x${(t.cpu / d.cpu).toFixed(2)} (budget 1), memory x${(t.rssMb / d.rssMb).toFixed(2)} (budget 2)`,
    );
  }
} finally {
  if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
  rmSync(join(ddnetUserDir, ddnetOut), { force: true });
  if (existsSync(join(ddnetUserDir, 'maps', ddnetOut))) rmSync(join(ddnetUserDir, 'maps', ddnetOut), { force: true });
}
