// Regression tests for hostile maps a fuzzing campaign found (issue 17): each input is generated here, small.
import { describe, expect, it } from 'vitest';
import { Datafile } from '@twcodec/datafile';
import { encodeI32String } from '@twcodec/runtime';
import { MAX_SKIP_EXPANDED_TILES, MapError, readMap, validateMap, writeMap } from '@twcodec/map';
import { diffMaps, fixMap } from '@twcodec/map-tools';
import { fixturesDir, readBytes } from '../corpus.js';
import { join } from 'node:path';
import { codeOf as codeOfError } from '../error-code.js';

// Layer item ints (src/game/mapitems.h CMapItemLayer + CMapItemLayerTilemap): 1 = layer type (2 tiles),
// 4/5 = width/height, 6 = tilemap flags (1 = game), 14 = data index.
const LAYER_TYPE = 1;
const WIDTH = 4;
const HEIGHT = 5;
const TILEMAP_FLAGS = 6;
const DATA = 14;

/** ctf1 (Teeworlds 0.7, skip-compressed tiles) with its game layer resized and given `tiles` as stored data. */
function ctf1WithGameLayer(width: number, height: number, stored: Uint8Array): Uint8Array {
  const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'ctf1.map')));
  const game = df.items.find((i) => i.type === 5 && i.data[LAYER_TYPE] === 2 && (i.data[TILEMAP_FLAGS]! & 1) === 1)!;
  const ints = game.data.slice();
  ints[WIDTH] = width;
  ints[HEIGHT] = height;
  game.data = ints;
  df.data[ints[DATA]!]!.set(stored);
  return df.write();
}

/** `count` stored tiles of id 1, each standing for 256 tiles (skip 255). */
function skipTiles(count: number): Uint8Array {
  const out = new Uint8Array(count * 4);
  for (let i = 0; i < count; i++) {
    out[i * 4] = 1;
    out[i * 4 + 2] = 255;
  }
  return out;
}

const codeOf = (fn: () => unknown) => codeOfError(fn, MapError);

describe('skip-compressed tile bomb', () => {
  it('a layer declaring more tiles than the limit is refused before it is expanded', () => {
    // 8192 x 8192 = 2^26 tiles, exactly what 2^18 stored tiles of skip 255 expand to: a few KB compressed.
    const bytes = ctf1WithGameLayer(8192, 8192, skipTiles(1 << 18));
    expect(bytes.length).toBeLessThan(64 * 1024);
    expect(codeOf(() => readMap(bytes))).toBe('TILEMAP_TOO_LARGE');
    const lenient = readMap(bytes, { strict: false });
    expect(lenient.readIssues.map((i) => i.code)).toContain('TILEMAP_TOO_LARGE');
  });

  it('at the limit, stored tiles that cannot fill the layer are refused before allocating it', () => {
    const side = Math.sqrt(MAX_SKIP_EXPANDED_TILES);
    const bytes = ctf1WithGameLayer(side, side, skipTiles(10));
    expect(codeOf(() => readMap(bytes))).toBe('TILE_DATA_SHORT');
  });

  it('a layer within the limit that its stored tiles fill exactly reads', () => {
    const bytes = ctf1WithGameLayer(256, 256, skipTiles(256));
    const map = readMap(bytes);
    const game = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap' && (l.item.tilemapFlags & 1) === 1);
    expect(game && game.kind === 'tilemap' ? game.tiles.length : 0).toBe(256 * 256);
  });
});

describe('quads and sound sources against their counts', () => {
  // Quads layer item ints (CMapItemLayerQuads): 1 = layer type (3), 4 = num_quads, 5 = data index.
  const quadsItem = (df: Datafile) => df.items.find((i) => i.type === 5 && i.data[LAYER_TYPE] === 3 && i.data[4]! > 2)!;
  const withQuads = (edit: (ints: Int32Array, data: Uint8Array) => Uint8Array | void) => {
    const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'ctf1.map')));
    const item = quadsItem(df);
    const ints = item.data.slice();
    const data = df.data[ints[5]!]!;
    const replaced = edit(ints, data.bytes());
    if (replaced) data.set(replaced);
    item.data = ints;
    return df.write();
  };

  it('an empty quads layer is written as DDNet writes it: one zeroed quad, count 0, and reads back', () => {
    const map = readMap(readBytes(join(fixturesDir, 'maps', 'ctf1.map')));
    const layer = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'quads' && l.quads.length > 0)!;
    if (layer.kind !== 'quads') throw new Error('fixture has no quads');
    layer.quads = [];
    const bytes = writeMap(map);
    const df = Datafile.read(bytes);
    for (const d of df.data) expect(d.bytes().length).toBeGreaterThan(0);
    const emptyItem = df.items.find((i) => i.type === 5 && i.data[LAYER_TYPE] === 3 && i.data[4] === 0)!;
    expect(emptyItem).toBeDefined();
    expect(df.data[emptyItem.data[5]!]!.bytes()).toEqual(new Uint8Array(152));
    const again = readMap(bytes);
    expect(again.readIssues).toEqual([]);
    expect(writeMap(again)).toEqual(bytes);
  });

  it('a count above the quads in the data is a warning, and resaves byte for byte', () => {
    const bytes = withQuads((ints) => {
      ints[4] = ints[4]! + 3;
    });
    const map = readMap(bytes);
    expect(map.readIssues.map((i) => [i.code, i.severity])).toContainEqual(['RECORD_COUNT', 'warning']);
    expect(writeMap(map)).toEqual(bytes);
  });

  it('a quads layer without data (index -1) stays as it was (fuzzer finding)', () => {
    const bytes = withQuads((ints) => {
      ints[5] = -1;
    });
    const map = readMap(bytes);
    expect(map.readIssues.map((i) => i.code)).toContain('DATA_INDEX_RANGE');
    expect(writeMap(map)).toEqual(bytes);
  });

  it('data that is not a whole number of quads is a warning, and resaves byte for byte', () => {
    const bytes = withQuads((_ints, data) => {
      const longer = new Uint8Array(data.length + 7);
      longer.set(data);
      return longer;
    });
    const map = readMap(bytes);
    expect(map.readIssues.map((i) => i.code)).toContain('RECORD_COUNT');
    expect(writeMap(map)).toEqual(bytes);
  });

  it('extra quads behind a smaller count are kept while the used ones are unchanged, dropped once they change', () => {
    let count = 0;
    const bytes = withQuads((ints) => {
      count = ints[4]! - 1;
      ints[4] = count;
    });
    const map = readMap(bytes);
    expect(writeMap(map)).toEqual(bytes);
    const layer = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'quads' && l.item.numQuads === count)!;
    if (layer.kind !== 'quads') throw new Error('no quads layer');
    expect(layer.quads.length).toBe(count);
    layer.quads = layer.quads.slice(1);
    const edited = readMap(writeMap(map));
    const after = edited.groups.flatMap((g) => g.layers).find((l) => l.kind === 'quads' && l.item.numQuads === count - 1);
    expect(after && after.kind === 'quads' ? after.quads.length : -1).toBe(count - 1);
    expect(edited.readIssues).toEqual([]);
  });
});

describe('datafile writer', () => {
  it('refuses an empty data item rather than write a file its reader (and DDNet) refuses', () => {
    for (const version of [3, 4] as const) {
      const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'ctf1.map')));
      df.version = version;
      df.data[0]!.set(new Uint8Array(0));
      try {
        df.write();
        throw new Error('expected DATA_EMPTY');
      } catch (e) {
        expect((e as { code?: string }).code).toBe('DATA_EMPTY');
      }
    }
  });
});

describe('references DDNet ignores', () => {
  it('an external image keeps a data reference it has', () => {
    const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'ctf1.map')));
    const image = df.items.find((i) => i.type === 2)!;
    const ints = image.data.slice();
    expect(ints[3]).toBe(1); // CMapItemImage: version, width, height, external, name, data
    ints[5] = df.addData(new Uint8Array(64).fill(7)); // data DDNet never reads for an external image
    image.data = ints;
    const bytes = df.write();
    const map = readMap(bytes);
    expect(map.images[0]!.pixels).toBeUndefined();
    expect(writeMap(map)).toEqual(bytes);
  });

  it('tile data longer than the layer is a warning, and resaves byte for byte', () => {
    const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'coverage.map')));
    const layer = df.items.find((i) => i.type === 5 && i.data[LAYER_TYPE] === 2 && i.data[3]! < 4)!;
    const data = df.data[layer.data[DATA]!]!;
    const longer = new Uint8Array(data.bytes().length + 16);
    longer.set(data.bytes());
    data.set(longer);
    const bytes = df.write();
    const map = readMap(bytes);
    expect(map.readIssues.map((i) => [i.code, i.severity])).toContainEqual(['TILE_DATA_LONG', 'warning']);
    expect(writeMap(map)).toEqual(bytes);
  });
});

describe('item ids out of order (found by the fuzzer)', () => {
  it('are kept while the number of items is unchanged, so the map resaves byte for byte', () => {
    const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'coverage.map')));
    const images = df.items.filter((i) => i.type === 2);
    expect(images.length).toBeGreaterThan(1);
    images[0]!.id = 16;
    const bytes = df.write();
    const map = readMap(bytes);
    expect(map.readIssues.map((i) => i.code)).toContain('ITEM_ID_ORDER');
    expect(writeMap(map)).toEqual(bytes);
  });
});

describe('an empty group among orphan layers (found by the fuzzer)', () => {
  it('keeps its place before the orphan layer, so the map resaves byte for byte', () => {
    const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'coverage.map')));
    const groups = df.items.filter((i) => i.type === 4);
    const layers = df.items.filter((i) => i.type === 5);
    const group = groups.at(-1)!.data.slice();
    group[5] = layers.length; // CMapItemGroup: version, offset x/y, parallax x/y, start_layer, num_layers, ...
    group[6] = 0;
    df.addItem(4, groups.length, group);
    df.addItem(5, layers.length, layers.at(-1)!.data.slice()); // a layer no group uses
    const bytes = df.write();
    const map = readMap(bytes, { strict: false });
    expect(map.readIssues.map((i) => i.code)).toContain('LAYER_ORPHAN');
    expect(writeMap(map)).toEqual(bytes);
  });
});

describe('groups that use the layers out of order (found by the fuzzer)', () => {
  // CMapItemGroup ints: 5 = start_layer, 6 = num_layers.
  const START = 5;
  const NUM = 6;
  /** coverage.map with its first two non-empty groups' layer ranges swapped in the file (layers moved to match). */
  function swappedGroups(): { bytes: Uint8Array; first: number; second: number } {
    const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'coverage.map')));
    const groups = df.items.filter((i) => i.type === 4 && i.data[NUM]! > 0);
    const layers = df.items.filter((i) => i.type === 5);
    const [a, b] = [groups[0]!, groups[1]!];
    const [aStart, aNum, bStart, bNum] = [a.data[START]!, a.data[NUM]!, b.data[START]!, b.data[NUM]!];
    expect(aStart + aNum).toBe(bStart);
    // New layer order: b's layers first, then a's; the groups point at their own layers' new places.
    const order = [...layers.slice(bStart, bStart + bNum), ...layers.slice(aStart, aStart + aNum)].map((l) => l.data);
    order.forEach((data, k) => (layers[aStart + k]!.data = data));
    const aInts = a.data.slice();
    const bInts = b.data.slice();
    aInts[START] = aStart + bNum;
    bInts[START] = aStart;
    a.data = aInts;
    b.data = bInts;
    return { bytes: df.write(), first: aStart + bNum, second: aStart };
  }

  it('keeps the ranges as read, so the map resaves byte for byte', () => {
    const { bytes, first, second } = swappedGroups();
    const map = readMap(bytes);
    expect(map.readIssues.filter((i) => i.severity === 'error')).toEqual([]);
    const out = writeMap(map);
    expect(out).toEqual(bytes);
    const groups = Datafile.read(out).items.filter((i) => i.type === 4 && i.data[NUM]! > 0);
    expect([groups[0]!.data[START], groups[1]!.data[START]]).toEqual([first, second]);
  });

  it('are written in group order once a group gets another number of layers', () => {
    const { bytes } = swappedGroups();
    const map = readMap(bytes);
    const moved = map.groups.find((g) => g.layers.length > 0)!;
    moved.layers.push(moved.layers[0]!);
    const again = readMap(writeMap(map));
    const starts = again.datafile!.items.filter((i) => i.type === 4).map((g) => g.data[START]!);
    const nums = again.datafile!.items.filter((i) => i.type === 4).map((g) => g.data[NUM]!);
    // In group order: each non-empty group starts where the one before it ended.
    let next = 0;
    starts.forEach((start, g) => {
      if (nums[g]! === 0) return;
      expect(start).toBe(next);
      next += nums[g]!;
    });
    expect(again.groups.map((g) => g.layers.length)).toEqual(map.groups.map((g) => g.layers.length));
  });
});

describe('a UUID index that names one UUID twice (issue 25 row 12, issue 26)', () => {
  // coverage.map has automapper items (a UUID type); a second index item gives their UUID to another internal
  // type, with an item of id 0 there too.
  function twoAutomapperTypes(): Uint8Array {
    const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'coverage.map')));
    const ex = df.items.find((i) => i.type === 0xffff && df.uuidIndex().get(i.id) === '3e1b2716-178c-3978-9bd9-b11ae0410dd8')!;
    const automapper = df.items.find((i) => i.type === ex.id)!;
    const other = Math.min(...df.items.filter((i) => i.type > 0x8000).map((i) => i.type)) - 1;
    df.items.push({ type: 0xffff, id: other, data: ex.data.slice() });
    df.items.push({ type: other, id: automapper.id, data: automapper.data.slice() });
    return df.write();
  }

  it('validateMap says so, and writeMap keeps the item ids unique: what it writes reads back equal', () => {
    const bytes = twoAutomapperTypes();
    const map = readMap(bytes);
    expect(validateMap(map)).toContainEqual(expect.objectContaining({ code: 'UUID_INDEX_DUPLICATE', path: 'items.automapper', severity: 'warning' }));
    const written = writeMap(map);
    const again = readMap(written);
    expect(again.items.automapper).toEqual(map.items.automapper);
    expect(writeMap(again)).toEqual(written);
  });
});

describe('a physics layer whose Teeworlds tiles are no data item', () => {
  it('resaves byte for byte, and written afresh keeps -1 (an empty data item is refused by every reader)', () => {
    const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'coverage.map')));
    const tele = df.items.find((i) => i.type === 5 && i.data[LAYER_TYPE] === 2 && (i.data[TILEMAP_FLAGS]! & 2) === 2)!;
    const ints = tele.data.slice();
    ints[DATA] = -1;
    tele.data = ints;
    const bytes = df.write();
    const map = readMap(bytes);
    expect(writeMap(map)).toEqual(bytes);
    map.datafile = undefined;
    const afresh = readMap(writeMap(map));
    const layer = afresh.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap' && l.tilemapKind === 'tele')!;
    expect((layer.item as { data: number }).data).toBe(-1);
  });
});

describe('a name that is not UTF-8, in an item that changes elsewhere', () => {
  it('keeps its bytes (the model holds it as U+FFFD): the resave reads back the same name', () => {
    const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'ctf1.map')));
    // Quads layer item ints (CMapItemLayerQuads): 1 = layer type (3), 3 = version (2 has a name), 7..9 = name.
    const quads = df.items.find((i) => i.type === 5 && i.data[LAYER_TYPE] === 3 && i.data[3]! >= 2)!;
    const ints = quads.data.slice();
    ints.set(encodeI32String('Quad', 3), 7);
    ints[8] = 0x7f7f7f7f; // four 0xFF bytes (each stored plus 128)
    quads.data = ints;
    const map = readMap(df.write());
    const quadsLayers = (m: typeof map) => m.groups.flatMap((g) => g.layers).flatMap((l) => (l.kind === 'quads' ? [l] : []));
    const layer = quadsLayers(map).find((l) => l.item.name?.startsWith('Quad'))!;
    expect(layer.item.name).toBe('Quad\uFFFD\uFFFD\uFFFD\uFFFD');
    layer.item = { ...layer.item, flags: layer.item.flags ^ 1 };
    const again = readMap(writeMap(map));
    const back = quadsLayers(again).find((l) => l.item.name?.startsWith('Quad'))!;
    expect([back.item.name, back.item.flags]).toEqual([layer.item.name, layer.item.flags]);
  });
});

describe('info settings behind a data index out of range', () => {
  it('a lenient resave keeps the reference, as for the info strings', () => {
    const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'coverage.map')));
    // Info item ints (CMapItemInfoSettings): 0 version, 1 author, 2 map version, 3 credits, 4 license, 5 settings.
    const info = df.items.find((i) => i.type === 1)!;
    expect(info.data.length).toBeGreaterThan(5);
    const ints = info.data.slice();
    ints[5] = -129;
    info.data = ints;
    const bytes = df.write();
    const map = readMap(bytes, { strict: false });
    expect(map.readIssues).toContainEqual(expect.objectContaining({ code: 'DATA_INDEX_RANGE', path: 'info.settings' }));
    expect(writeMap(map)).toEqual(bytes);
  });
});

describe('map fix of a layer with an invalid size', () => {
  it('drops no tiles (a negative size cut more each time): fixing again changes nothing', () => {
    const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'coverage.map')));
    const tiles = df.items.find((i) => i.type === 5 && i.data[LAYER_TYPE] === 2 && i.data[TILEMAP_FLAGS] === 0)!;
    const ints = tiles.data.slice();
    ints[HEIGHT] = -1;
    tiles.data = ints;
    const first = fixMap(df.write());
    const second = fixMap(first.bytes);
    expect(second.fixed).toEqual([]);
    expect(second.bytes).toEqual(first.bytes);
  });
});

describe('a layer no group uses, when the groups must be laid out again (map-diff fuzzer finding)', () => {
  // CMapItemGroup ints: 5 = start_layer, 6 = num_layers.
  it('keeps its ints and order; map diff does not count its new id (its position) as a change', () => {
    const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'coverage.map')));
    const groups = df.items.filter((i) => i.type === 4);
    const layers = df.items.filter((i) => i.type === 5);
    const groupInts = groups.find((g) => g.data[6]! > 0)!.data;
    const layerInts = layers[0]!.data;
    df.items = df.items.filter((i) => i.type !== 4 && i.type !== 5);
    const range = (start: number, num: number) => Object.assign(groupInts.slice(), { 5: start, 6: num });
    // Group 0 uses layers 2-3, group 1 layer 0, layer 1 is no group's, and group 2's range 2-4 overlaps group
    // 0's: read leniently, the groups cannot keep their ranges, and writeMap lays them out in group order.
    [range(2, 2), range(0, 1), range(2, 3)].forEach((ints, id) => df.addItem(4, id, ints));
    for (let id = 0; id < 5; id++) df.addItem(5, id, layerInts.slice());
    const bytes = df.write();
    const map = readMap(bytes, { strict: false });
    expect(map.unknownItems.map((i) => [i.type, i.id])).toEqual([[5, 1]]);
    const again = readMap(writeMap(map), { strict: false });
    expect(again.unknownItems.map((i) => [i.type, Array.from(i.data)])).toEqual([[5, Array.from(layerInts)]]);
    // It did move (the case the diff compared by id, and called a change):
    expect(again.unknownItems[0]!.id).not.toBe(1);
    expect(diffMaps(map, again)).toEqual({ changes: [], tiles: [] });
  });
});
