// `fixMap` on small crafted maps, one per kind of fix: validateMap reports the problem before and not after,
// the fix is what DDNet's loader does (or the safe fix described in packages/map-tools/src/fix.ts), the
// input bytes are untouched, and DDNet's map_resave accepts the output.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Datafile } from '@twcodec/datafile';
import { LayerFlags, readMap, type TilemapLayer, Tiles, type TwMap, validateMap, writeMap } from '@twcodec/map';
import { fixMap } from '@twcodec/map-tools';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturesDir, readBytes } from '../corpus.js';
import { ddnetTool, mapResave } from '../ddnet-tools.js';

const work = mkdtempSync(join(tmpdir(), 'twcodec-map-fix-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const coverage = () => readMap(readBytes(join(fixturesDir, 'maps', 'coverage.map'))); // DDNet: game, tele, speedup, front, 2 tile layers, quads
const ctf1 = () => readMap(readBytes(join(fixturesDir, 'maps', 'ctf1.map'))); // Teeworlds 0.7
const tilemaps = (map: TwMap) => map.groups.flatMap((g) => g.layers).filter((l): l is TilemapLayer => l.kind === 'tilemap');
const layerOf = (map: TwMap, kind: string) => tilemaps(map).find((l) => l.tilemapKind === kind)!;
const codes = (issues: { code: string }[]) => [...new Set(issues.map((i) => i.code))].sort();

/** fixMap on `bytes`: the code is reported before and fixed after; map_resave accepts the output. */
function fixes(bytes: Uint8Array, code: string, tag: string) {
  const copy = bytes.slice();
  const before = validateMap(readMap(bytes, { strict: false }));
  expect(codes(before)).toContain(code);
  const result = fixMap(bytes);
  expect(bytes).toEqual(copy);
  expect(codes(result.fixed)).toContain(code);
  expect(codes(result.remaining)).not.toContain(code);
  expect(validateMap(readMap(result.bytes, { strict: false }))).toEqual(result.remaining);
  if (ddnetTool('map_resave')) {
    const path = join(work, `${tag}.map`);
    writeFileSync(path, result.bytes);
    expect(mapResave(path, `fix-${tag}`).length).toBeGreaterThan(0);
  }
  return readMap(result.bytes, { strict: false });
}

describe("fixMap: what DDNet's loader fixes silently", () => {
  it('LAYER_VERSION: layer versions are reset to 0 (every 0.7 map has them)', () => {
    const out = fixes(writeMap(ctf1()), 'LAYER_VERSION', 'layer-version');
    expect(out.groups.flatMap((g) => g.layers).every((l) => l.item.layerVersion === 0)).toBe(true);
  });

  it('PHYSICS_LAYER_NAME, PHYSICS_LAYER_COLOR, PHYSICS_LAYER_DETAIL: physics layers named by kind, white, not detail', () => {
    const map = coverage();
    const game = layerOf(map, 'game');
    game.item = { ...game.item, name: 'Foo', color: { r: 1, g: 2, b: 3, a: 4 }, flags: game.item.flags | LayerFlags.Detail };
    const tele = layerOf(map, 'tele');
    tele.item = { ...tele.item, name: 'Teleporters' };
    const bytes = writeMap(map);
    for (const code of ['PHYSICS_LAYER_NAME', 'PHYSICS_LAYER_COLOR', 'PHYSICS_LAYER_DETAIL']) fixes(bytes, code, code);
    const out = fixMap(bytes);
    const fixed = readMap(out.bytes);
    expect(layerOf(fixed, 'game').item).toMatchObject({ name: 'Game', color: { r: 255, g: 255, b: 255, a: 255 } });
    expect(layerOf(fixed, 'game').item.flags & LayerFlags.Detail).toBe(0);
    expect(layerOf(fixed, 'tele').item.name).toBe('Tele');
  });

  it('PHYSICS_DATA_UNUSED: data indices of other physics kinds are reset to -1', () => {
    const map = coverage();
    const tiles = layerOf(map, 'tiles');
    tiles.item = { ...tiles.item, dataTele: 0, dataSwitch: 1 };
    const out = fixes(writeMap(map), 'PHYSICS_DATA_UNUSED', 'physics-data');
    expect(layerOf(out, 'tiles').item).toMatchObject({ dataTele: -1, dataSwitch: -1 });
  });
});

describe('fixMap: what validateMap reports and can be fixed safely', () => {
  it('REFERENCE_RANGE: references to images and envelopes that do not exist become -1', () => {
    const map = coverage();
    const tiles = layerOf(map, 'tiles');
    tiles.item = { ...tiles.item, image: 7, colorEnv: 9 };
    const quads = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'quads')!;
    if (quads.kind === 'quads') quads.quads[0]!.posEnv = 5;
    const out = fixes(writeMap(map), 'REFERENCE_RANGE', 'refs');
    expect(layerOf(out, 'tiles').item).toMatchObject({ image: -1, colorEnv: -1 });
    const outQuads = out.groups.flatMap((g) => g.layers).find((l) => l.kind === 'quads');
    expect(outQuads?.kind === 'quads' && outQuads.quads[0]!.posEnv).toBe(-1);
  });

  it('ENVELOPE_POINTS_RANGE: an envelope whose points are outside the points item becomes empty', () => {
    const df = Datafile.read(writeMap(ctf1()));
    const envelope = df.items.find((i) => i.type === 3)!; // MAPITEMTYPE_ENVELOPE: version, channels, start, count, ...
    envelope.data[3] = 9999;
    const out = fixes(df.write(), 'ENVELOPE_POINTS_RANGE', 'envelope-range');
    expect(out.envelopes[0]!.item.numPoints).toBe(0);
  });

  it('TILE_DATA_LONG: tiles past width x height are dropped', () => {
    const map = coverage();
    const layer = layerOf(map, 'tiles');
    const long = new Uint8Array(layer.tiles.bytes.length + 40);
    long.set(layer.tiles.bytes);
    for (let i = layer.tiles.bytes.length; i < long.length; i += 4) long[i] = 1; // ten extra tiles of index 1
    layer.tiles = new Tiles(long);
    const want = layerOf(coverage(), 'tiles').tiles.bytes;
    const out = fixes(writeMap(map), 'TILE_DATA_LONG', 'tiles-long');
    expect(layerOf(out, 'tiles').tiles.bytes).toEqual(want);
  });

  it('IMAGE_FORMAT: a 0.7 RGB image becomes an RGBA image with the same colours', () => {
    const map = ctf1();
    const rgb = new Uint8Array(32 * 16 * 3).map((_, i) => (i * 5) & 0xff);
    map.images[0] = { ...map.images[0]!, item: { ...map.images[0]!.item, external: false, width: 32, height: 16, format: 0, version: 2 }, pixels: rgb };
    const out = fixes(writeMap(map), 'IMAGE_FORMAT', 'image-format');
    expect(out.images[0]!.item).toMatchObject({ version: 1, external: false, width: 32, height: 16 });
    const px = out.images[0]!.pixels!;
    expect([...px.subarray(0, 8)]).toEqual([rgb[0], rgb[1], rgb[2], 255, rgb[3], rgb[4], rgb[5], 255]);
  });

  it('TILE_RESERVED_NONZERO and TILE_SKIP_NONZERO: padding and skip bytes are zeroed, index and flags kept', () => {
    const map = coverage();
    const layer = layerOf(map, 'tiles');
    const bytes = layer.tiles.bytes.slice();
    bytes[0] = 5;
    bytes[3] = 7; // padding
    bytes[4 * 3 + 2] = 2; // skip
    layer.tiles = new Tiles(bytes);
    const input = writeMap(map);
    fixes(input, 'TILE_RESERVED_NONZERO', 'padding');
    const out = fixes(input, 'TILE_SKIP_NONZERO', 'skip');
    const fixed = layerOf(out, 'tiles').tiles.bytes;
    expect([...fixed.subarray(0, 4)]).toEqual([5, bytes[1], 0, 0]);
    expect(fixed[4 * 3 + 2]).toBe(0);
  });

  it('TILE_DATA_SHARED: a tile layer sharing its data item gets its own copy', () => {
    const map = coverage();
    const [a, b] = tilemaps(map).filter((l) => l.tilemapKind === 'tiles');
    b!.tiles = new Tiles(a!.tiles.bytes.slice());
    b!.item = { ...b!.item, width: a!.item.width, height: a!.item.height, data: a!.item.data };
    const input = writeMap(map);
    const [ia, ib] = tilemaps(readMap(input)).filter((l) => l.tilemapKind === 'tiles');
    expect(ib!.item.data).toBe(ia!.item.data);
    const out = fixes(input, 'TILE_DATA_SHARED', 'shared');
    const [oa, ob] = tilemaps(out).filter((l) => l.tilemapKind === 'tiles');
    expect(ob!.item.data).not.toBe(oa!.item.data);
    expect(ob!.tiles.bytes).toEqual(oa!.tiles.bytes);
  });

  it('leaves what it cannot fix safely in `remaining` (an unknown layer type)', () => {
    const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'coverage.map')));
    const layer = df.items.filter((i) => i.type === 5)[1]!; // MAPITEMTYPE_LAYER: version, type, flags
    layer.data[1] = 77;
    const result = fixMap(df.write());
    expect(codes(result.remaining)).toContain('LAYER_TYPE_UNKNOWN');
  });
});
