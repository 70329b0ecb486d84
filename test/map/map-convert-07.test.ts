// DDNet -> Teeworlds 0.7 (convertDdnetTo07) against DDNet 16.4's map_convert_07, byte for byte.
//
// map_convert_07 copies the map as map_resave does and embeds each external image whose
// data/mapres/<name>.png (relative to its working directory) is an RGBA PNG. The tests run it in a directory
// without mapres and in one with generated RGBA PNGs (8- and 16-bit) for every external image name.
//
// Where its output is not deterministic: embedding an external image whose item has 0.7's 7-int layout
// (version 2, with a format int; Teeworlds 0.7 maps such as tw07/ctf1) makes DDNet 16.4 copy the item's
// original size from its 6-int image struct, so the 7th int is stack memory (it differs between runs). For
// those maps the converted file is compared with those ints masked; everything else must be identical.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Datafile } from '@twcodec/datafile';
import { readMap, writeMap } from '@twcodec/map';
import { convertDdnetTo07File, decodeRgbaPngFor07 } from '@twcodec/map-tools';
import { encode } from 'fast-png';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusDir, fixturesDir, hasCorpus, readBytes } from '../corpus.js';
import { ddnetTool, mapConvert07 } from '../ddnet-tools.js';

const haveTool = !!ddnetTool('map_convert_07');
const work = mkdtempSync(join(tmpdir(), 'twcodec-convert-07-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A deterministic RGBA PNG for an image name (sides multiples of 16; 16-bit when asked). */
function mapresPng(seed: number, depth: 8 | 16 = 8): Uint8Array {
  const width = 32 + 16 * (seed % 3);
  const height = 16 + 16 * (seed % 2);
  const n = width * height * 4;
  const data = depth === 8 ? new Uint8Array(n) : new Uint16Array(n);
  for (let i = 0; i < n; i++) data[i] = depth === 8 ? (i * 7 + seed * 13) & 0xff : (i * 7919 + seed * 131) & 0xffff;
  return encode({ width, height, data, channels: 4, depth });
}

/** A mapres directory (cwd for map_convert_07) with PNGs for `names`; returns the cwd and a lookup. */
function makeMapres(dir: string, pngs: Map<string, Uint8Array>) {
  mkdirSync(join(dir, 'data', 'mapres'), { recursive: true });
  for (const [name, png] of pngs) writeFileSync(join(dir, 'data', 'mapres', `${name}.png`), png);
  return { cwd: dir, mapres: (name: string) => pngs.get(name) };
}

/** Byte offsets of the format int of every 7-int image item that `bytes` has embedded (see the note at the top). */
function garbageOffsets(input: Uint8Array, converted: Uint8Array): number[] {
  const before = readMap(input, { strict: false });
  const df = Datafile.read(converted);
  const images = df.items.filter((item) => item.type === 2); // MAPITEMTYPE_IMAGE
  return images.flatMap((item, i) => {
    const wasExternal = before.images[i]?.item.external === true;
    return wasExternal && item.data[3] === 0 && item.data.length >= 7 ? [item.offset! + 6 * 4] : [];
  });
}

function masked(bytes: Uint8Array, offsets: number[]): Uint8Array {
  const out = bytes.slice();
  for (const at of offsets) out.fill(0, at, at + 4);
  return out;
}

describe('convertDdnetTo07 on a fixture', () => {
  const input = join(fixturesDir, 'maps', 'coverage.map');
  const bytes = readBytes(input);
  const externals = readMap(bytes).images.filter((i) => i.item.external).map((i) => i.name!);
  // The first external image gets an RGBA PNG (embedded), the second an RGB one (map_convert_07 keeps it external).
  const pngs = new Map<string, Uint8Array>([[externals[0]!, mapresPng(1)]]);
  if (externals[1]) pngs.set(externals[1], encode({ width: 16, height: 16, data: new Uint8Array(16 * 16 * 3).fill(90), channels: 3, depth: 8 }));
  const recorded = join(fixturesDir, 'maps-converted-07', 'coverage.map');

  it('embeds external images from RGBA PNGs only, after all existing data', () => {
    expect(externals.length).toBeGreaterThanOrEqual(2);
    const result = convertDdnetTo07File(bytes, { mapres: (n) => pngs.get(n) });
    expect(result.ok).toBe(true);
    expect(result.embedded).toEqual([externals[0]]);
    expect(result.notes.find((n) => n.code === 'image_not_embeddable')?.message).toMatch(/not RGBA/);
    const before = readMap(bytes);
    const after = readMap(result.bytes);
    const i = after.images.findIndex((im) => im.name === externals[0]);
    expect(after.images[i]!.item).toMatchObject({ external: false, width: 48, height: 32, version: before.images[i]!.item.version, data: before.datafile!.data.length });
    expect(after.images[i]!.pixels).toEqual((decodeRgbaPngFor07(pngs.get(externals[0]!)!) as { pixels: Uint8Array }).pixels);
    expect(after.images.filter((im) => im.item.external).map((im) => im.name)).toEqual(externals.slice(1));
  });

  it('equals the recorded map_convert_07 output (fixtures/maps-converted-07)', () => {
    expect(Buffer.from(convertDdnetTo07File(bytes, { mapres: (n) => pngs.get(n) }).bytes).equals(readBytes(recorded))).toBe(true);
  });

  it.skipIf(!haveTool)('equals map_convert_07 run now, and without mapres equals it too', () => {
    const { cwd, mapres } = makeMapres(join(work, 'fixture'), pngs);
    const theirs = mapConvert07(input, join(work, 'fixture.map'), cwd);
    expect(theirs.status).toBe(0);
    expect(Buffer.from(convertDdnetTo07File(bytes, { mapres }).bytes).equals(theirs.bytes!)).toBe(true);
    const plain = mapConvert07(input, join(work, 'fixture-plain.map'), work);
    expect(Buffer.from(convertDdnetTo07File(bytes).bytes).equals(plain.bytes!)).toBe(true);
  });

  it.skipIf(!haveTool)('refuses (exit code) a tile layer whose image sides are not multiples of 16, as map_convert_07 does', () => {
    const map = readMap(bytes);
    const layer = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap' && l.item.image >= 0);
    expect(layer).toBeDefined();
    if (layer?.kind !== 'tilemap') return;
    map.images[layer.item.image]!.item.width = 100;
    const crafted = join(work, 'not-16.map');
    writeFileSync(crafted, writeMap(map));
    const ours = convertDdnetTo07File(readBytes(crafted));
    expect(ours.ok).toBe(false);
    expect(ours.notes.some((n) => n.code === 'image_not_divisible_by_16')).toBe(true);
    const theirs = mapConvert07(crafted, join(work, 'not-16-out.map'), work);
    expect(theirs.status).not.toBe(0);
    expect(Buffer.from(ours.bytes).equals(theirs.bytes!)).toBe(true);
  });
});

const mapsDir = join(corpusDir, 'maps');
const mapFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? mapFiles(join(dir, n)) : n.endsWith('.map') ? [join(dir, n)] : [])).sort();
const corpus = hasCorpus ? mapFiles(mapsDir).map((p) => [p.slice(mapsDir.length + 1), p] as const) : [];

describe.skipIf(!hasCorpus || !haveTool)('convertDdnetTo07 equals map_convert_07 on every corpus map (needs ../shared/corpus and ddnet-tools)', () => {
  // Generated PNGs for every external image name in the corpus; every third one 16-bit (DDNet keeps the high byte).
  const names = [...new Set(corpus.flatMap(([, p]) => readMap(readBytes(p), { strict: false }).images.filter((i) => i.item.external && i.name).map((i) => i.name!)))].sort();
  const { cwd, mapres } = makeMapres(join(work, 'corpus'), new Map(names.map((n, i) => [n, mapresPng(i, i % 3 === 2 ? 16 : 8)])));

  it('finds the corpus maps and external images', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    expect(names.length).toBeGreaterThan(10);
  });

  it.each(corpus)('%s without mapres: identical bytes', (_name, path) => {
    const theirs = mapConvert07(path, join(work, 'plain.map'), work);
    const ours = convertDdnetTo07File(readBytes(path));
    expect(ours.ok).toBe(theirs.status === 0);
    expect(Buffer.from(ours.bytes).equals(theirs.bytes!)).toBe(true);
  });

  it.each(corpus)('%s with every external image in mapres: identical bytes (7-int image items masked)', (name, path) => {
    const input = readBytes(path);
    const theirs = mapConvert07(path, join(work, 'embedded.map'), cwd);
    const ours = convertDdnetTo07File(input, { mapres });
    expect(ours.ok).toBe(theirs.status === 0);
    const offsets = garbageOffsets(input, ours.bytes);
    // Only Teeworlds 0.7 maps have 7-int image items.
    if (offsets.length > 0) expect(name.startsWith('tw07/')).toBe(true);
    if (offsets.length === 0) {
      // Deterministic: the ddnet/ and ddnet07/ maps and the 0.7 maps whose images have DDNet's 6-int layout.
      expect(Buffer.from(ours.bytes).equals(theirs.bytes!)).toBe(true);
    } else {
      expect(Buffer.from(masked(ours.bytes, offsets)).equals(masked(theirs.bytes!, offsets))).toBe(true);
    }
    expect(ours.embedded.length).toBe(readMap(input, { strict: false }).images.filter((i) => i.item.external && i.name).length);
  });
});
