import { describe, expect, it } from 'vitest';
import { type CodecError, Datafile, DatafileError } from '@twcodec/datafile';
import { encodeI32String, uuidFromName } from '@twcodec/runtime';
import { fixtureMaps, readBytes } from '../../../test/corpus.js';
import { MapError } from './errors.js';
import { LayerType, TeleTiles, TilemapFlags, tilemapKind, Tiles, TILE_TILE_BYTES } from './generated/index.gen.js';
import type { MapLayer, TilemapLayer, TilemapLayerOf, TwMap } from './model.js';
import { readMap } from './read.js';
import { compressSkippedTiles, expandSkippedTiles } from './tilemap.js';
import { validateMap } from './validate.js';
import { writeMap } from './write.js';
import { fflateZlib } from '@twcodec/datafile/zlib-fflate';
import { deflateLikeZlib } from '@twcodec/datafile/deflate';
import { writerDeflate as browserWriterDeflate } from './deflate.js';
import { writerDeflate as nodeWriterDeflate } from './deflate-node.js';

const fixture = (name: string) => readBytes(fixtureMaps().find((m) => m.name === name)!.path);

function gameLayer(map: TwMap): TilemapLayer {
  for (const g of map.groups) for (const l of g.layers) if (l.kind === 'tilemap' && l.item.tilemapFlags & TilemapFlags.Game) return l;
  throw new Error('no game layer');
}

function tilemap(name: string, flags: number, width: number, height: number): TilemapLayer {
  return {
    kind: 'tilemap',
    tilemapKind: tilemapKind(flags),
    item: {
      layerVersion: 0, type: LayerType.Tilemap, flags: 0, kind: 'tilemap', version: 3, width, height, tilemapFlags: flags,
      color: { r: 255, g: 255, b: 255, a: 255 }, colorEnv: -1, colorEnvOffset: 0, image: -1, data: -1, name,
      dataTele: -1, dataSpeedup: -1, dataFront: -1, dataSwitch: -1, dataTune: -1,
    },
    tiles: Tiles.create(width * height),
  } as TilemapLayer;
}

/** A minimal valid map built from nothing. */
function newMap(layers: MapLayer[] = [tilemap('Game', TilemapFlags.Game, 4, 3)]): TwMap {
  return {
    version: { version: 1 },
    info: undefined,
    images: [],
    envelopes: [],
    groups: [{ item: { version: 3, offsetX: 0, offsetY: 0, parallaxX: 100, parallaxY: 100, startLayer: 0, numLayers: 0, clipping: false, clipX: 0, clipY: 0, clipW: 0, clipH: 0, name: 'Game' }, layers }],
    sounds: [],
    items: {},
    unknownItems: [],
    datafile: undefined,
    envelopePointLayout: 'ddnet',
    readIssues: [],
  };
}

describe('readMap/writeMap on the fixtures', () => {
  it.each(fixtureMaps())('$name: reads, validates without errors, writes back identical bytes', ({ path }) => {
    const bytes = readBytes(path);
    const map = readMap(bytes);
    expect(validateMap(map).filter((i) => i.severity === 'error')).toEqual([]);
    expect(Buffer.from(writeMap(map)).equals(bytes)).toBe(true);
  });

  it('changes exactly the data item of an edited tile', () => {
    const bytes = fixture('dm7-legacy-size.map');
    const map = readMap(bytes);
    const game = gameLayer(map);
    const before = Datafile.read(bytes);
    game.tiles.setId(5, game.tiles.getId(5) === 1 ? 0 : 1);
    const out = Datafile.read(writeMap(map));
    const changed = out.data.map((d, i) => (d.stored && before.data[i]!.stored && Buffer.from(d.stored).equals(before.data[i]!.stored!) ? -1 : i)).filter((i) => i >= 0);
    expect(changed).toEqual([game.item.data]);
    const again = readMap(out);
    expect(gameLayer(again).tiles.getId(5)).toBe(game.tiles.getId(5));
  });

  it('reads 0.7 skip-compressed tiles and writes them compressed again', () => {
    const map = readMap(fixture('ctf1.map'));
    const game = gameLayer(map);
    expect(game.item.version).toBe(4);
    expect(game.tiles.length).toBe(game.item.width * game.item.height);
    const stored = compressSkippedTiles(game.tiles.bytes);
    expect(expandSkippedTiles(stored, game.tiles.length, 'x')).toEqual(game.tiles.bytes);
  });

  it('keeps items it does not understand', () => {
    const df = Datafile.read(fixture('ctf1.map'));
    df.addItem(uuidFromName('mapitemtype-future@example.org'), 0, Int32Array.of(7, 8, 9));
    df.addItem(1234, 0, Int32Array.of(1));
    const bytes = df.write();
    const map = readMap(bytes);
    expect(map.unknownItems.map((i) => i.type)).toEqual([0xfffe, 1234]);
    const out = writeMap(map);
    expect(Buffer.from(out).equals(bytes)).toBe(true);
    const back = Datafile.read(out);
    expect(back.findItem(uuidFromName('mapitemtype-future@example.org'), 0)?.data).toEqual(Int32Array.of(7, 8, 9));
  });
});

describe("writeMap's deflater (#deflate)", () => {
  it('brings pako where the codec has none (browsers), nothing in Node, whose codec has it; the bytes are the same', () => {
    expect(browserWriterDeflate).toBe(deflateLikeZlib);
    expect(nodeWriterDeflate).toBeUndefined();
    const { path } = fixtureMaps()[0]!;
    const map = readMap(readBytes(path));
    // New tiles, so that the layer's data is deflated again.
    const layer = map.groups.flatMap((g) => g.layers).find((l): l is TilemapLayer => l.kind === 'tilemap')!;
    layer.tiles.setId(0, layer.tiles.getId(0) === 1 ? 2 : 1);
    const out = writeMap(map);
    expect(writeMap(map, { zlib: fflateZlib })).toEqual(out);
    expect(writeMap(map, { deflate: browserWriterDeflate })).toEqual(out);
  });
});

describe('maps built from scratch', () => {
  it('writes a valid map that reads back the same', () => {
    const map = newMap([tilemap('Game', TilemapFlags.Game, 4, 3), tilemap('Tele', TilemapFlags.Tele, 4, 3)]);
    const tele = map.groups[0]!.layers[1] as TilemapLayerOf<'tele'>;
    tele.tele = TeleTiles.create(12);
    tele.tele.set(2, { number: 7, id: 26 });
    gameLayer(map).tiles.set(1, { id: 1, flags: 0, skip: 0, reserved: 0 });
    const back = readMap(writeMap(map));
    expect(validateMap(back).filter((i) => i.severity === 'error')).toEqual([]);
    expect(gameLayer(back).tiles.getId(1)).toBe(1);
    const backTele = back.groups[0]!.layers[1]!;
    // Narrowed by kind: a tele layer's tiles are not optional.
    if (backTele.kind !== 'tilemap' || backTele.tilemapKind !== 'tele') throw new Error('not a tele layer');
    expect(backTele.tele.get(2)).toEqual({ number: 7, id: 26 });
    expect(back.groups[0]!.item).toMatchObject({ startLayer: 0, numLayers: 2, name: 'Game' });
  });

  it('keeps deprecated sounds layers, presenting their sources as current ones', () => {
    const source = { position: { x: 1, y: 2 }, loop: true, pan: true, timeDelay: 3, falloff: 0, posEnv: -1, posEnvOffset: 0, soundEnv: -1, soundEnvOffset: 0, shape: 1, width: 500, height: 0 };
    const map = newMap();
    map.sounds.push({ item: { version: 1, external: false, name: 0, data: 0, dataSize: 0 }, name: 'wind', data: Uint8Array.of(1, 2, 3) });
    map.groups[0]!.layers.push({
      kind: 'sounds_deprecated',
      item: { layerVersion: 0, type: LayerType.SoundsDeprecated, flags: 0, kind: 'sounds_deprecated', version: 1, numSources: 0, data: -1, sound: 0, name: 'Old' },
      sources: [source],
    });
    const back = readMap(writeMap(map));
    const layer = back.groups[0]!.layers[1]!;
    expect(layer.kind).toBe('sounds_deprecated');
    expect(layer.kind === 'sounds_deprecated' && layer.sources).toEqual([source]);
    expect(back.sounds[0]).toMatchObject({ name: 'wind', data: Uint8Array.of(1, 2, 3) });
  });
});

describe('two items of a one-per-map type (issue 36 row 15)', () => {
  it('a map written afresh whose second info item is kept as unknown with id 0: the info gets the next id, and comes first', () => {
    const map = readMap(writeMap(newMap()));
    map.info = { item: { version: 1, author: -1, mapVersion: -1, credits: -1, license: -1 }, author: 'a', mapVersion: undefined, credits: undefined, license: undefined, settings: undefined };
    map.datafile = undefined;
    map.unknownItems.push({ type: 1, id: 0, data: Int32Array.of(1, -1, -1, -1, -1) });
    const bytes = writeMap(map);
    const infoItems = Datafile.read(bytes).itemsOfType(1);
    expect(infoItems.map((i) => i.id)).toEqual([1, 0]);
    const back = readMap(bytes);
    expect(back.info?.author).toBe('a');
    expect(back.unknownItems.map((i) => [i.type, i.id])).toEqual([[1, 0]]);
  });

  it('two items of one type and id in the model: refused, not written', () => {
    const map = readMap(writeMap(newMap()));
    map.unknownItems.push({ type: 100, id: 3, data: Int32Array.of(1) }, { type: 100, id: 3, data: Int32Array.of(2) });
    expect(() => writeMap(map)).toThrow(expect.objectContaining({ code: 'WRITE_DUPLICATE_ID' }));
  });
});

describe('validateMap', () => {
  const codes = (map: TwMap) => validateMap(map).filter((i) => i.severity === 'error').map((i) => `${i.code} ${i.path}`);

  it('reports a missing game layer and version', () => {
    const map = newMap([tilemap('Tiles', 0, 4, 3)]);
    map.version = undefined;
    expect(codes(map)).toEqual(['VERSION_MISSING version', 'GAME_LAYER_MISSING groups']);
  });

  it('reports physics layers smaller than the game layer, bad sizes and references', () => {
    const small = tilemap('Front', TilemapFlags.Front, 2, 2) as TilemapLayerOf<'front'>;
    small.front = Tiles.create(4);
    const tiles = tilemap('Tiles', 0, 4, 3);
    tiles.item.image = 3;
    tiles.tiles = new Tiles(new Uint8Array(8 * TILE_TILE_BYTES));
    const map = newMap([tilemap('Game', TilemapFlags.Game, 4, 3), small, tiles]);
    expect(codes(map)).toEqual(['PHYSICS_LAYER_SMALL groups[0].layers[1]', 'TILE_DATA_SIZE groups[0].layers[2].data']);
    // DDNet renders a layer whose image does not exist without a texture: a warning.
    expect(validateMap(map).filter((i) => i.code === 'REFERENCE_RANGE').map((i) => `${i.severity} ${i.path}`)).toEqual(['warning groups[0].layers[2].image']);
  });
});

describe('validateMap rules DDNet master has', () => {
  it('refuses non-zero reserved bytes in front layer tiles and two layers sharing tile data', () => {
    const front = tilemap('Front', TilemapFlags.Front, 4, 3) as TilemapLayerOf<'front'>;
    front.front = Tiles.create(12);
    front.front.setReserved(5, 1);
    const map = newMap([tilemap('Game', TilemapFlags.Game, 4, 3), front]);
    expect(validateMap(map).filter((i) => i.severity === 'error').map((i) => `${i.code} ${i.path}`)).toEqual(['TILE_RESERVED_NONZERO groups[0].layers[1].dataFront']);
    const shared = readMap(writeMap(map));
    const [game, second] = shared.groups[0]!.layers as TilemapLayer[];
    second!.item.dataFront = game!.item.data;
    expect(validateMap(shared).map((i) => i.code)).toContain('TILE_DATA_SHARED');
  });

  it('warns about non-RGBA images and out-of-range sounds layer and group versions', () => {
    const map = newMap();
    map.images.push({ item: { version: 2, width: 1, height: 1, external: false, name: 0, data: 0, format: 0 }, name: 'rgb', pixels: new Uint8Array(3) });
    map.groups[0]!.item.version = 4;
    map.groups[0]!.layers.push({
      kind: 'sounds',
      item: { layerVersion: 0, type: LayerType.Sounds, flags: 0, kind: 'sounds', version: 3, numSources: 0, data: -1, sound: -1, name: 'S' },
      sources: [],
    });
    const found = validateMap(map).map((i) => `${i.severity} ${i.code} ${i.path}`);
    expect(found).toEqual(
      expect.arrayContaining(['warning IMAGE_FORMAT images[0].format', 'warning VERSION_UNSUPPORTED groups[0].version', 'warning VERSION_UNSUPPORTED groups[0].layers[1].version']),
    );
    expect(found.filter((f) => f.startsWith('error'))).toEqual([]);
  });
});

describe('corrupt maps', () => {
  /** The dm7 fixture with one item's ints changed. */
  function corrupt(type: number, id: number, change: (d: Int32Array) => Int32Array): Uint8Array {
    const df = Datafile.read(fixture('dm7-legacy-size.map'));
    const item = df.findItem(type, id)!;
    item.data = change(item.data);
    return df.write();
  }

  it('gives typed errors with a path', () => {
    const df = Datafile.read(fixture('dm7-legacy-size.map'));
    const tilemapId = df.itemsOfType(5).find((i) => i.data[1] === LayerType.Tilemap)!.id;
    const cases: [Uint8Array, string, RegExp][] = [
      [corrupt(5, tilemapId, (d) => d.subarray(0, 8)), 'ITEM_TOO_SHORT', new RegExp(`^layers\\[${tilemapId}\\]\\.tilemap\\.`)],
      [corrupt(5, tilemapId, (d) => d.map((v, i) => (i === 14 ? 999 : v))), 'DATA_INDEX_RANGE', /^groups\[\d+\]\.layers\[\d+\]\.data$/],
      [corrupt(4, 0, (d) => d.map((v, i) => (i === 6 ? 99 : v))), 'GROUP_LAYERS_RANGE', /^groups\[0\]$/],
      [corrupt(5, tilemapId, (d) => d.map((v, i) => (i === 4 ? 1000 : v))), 'TILE_DATA_SIZE', /^groups\[\d+\]\.layers\[\d+\]\.data$/],
    ];
    for (const [bytes, code, path] of cases) {
      try {
        readMap(bytes);
        expect.unreachable(code);
      } catch (e) {
        expect(e).toBeInstanceOf(MapError);
        expect((e as MapError).code).toBe(code);
        expect((e as MapError).path).toMatch(path);
      }
      // Lenient reading records the same problem for validateMap instead (an item too short to decode
      // is an error in both modes).
      if (code !== 'ITEM_TOO_SHORT') expect(validateMap(readMap(bytes, { strict: false })).map((i) => i.code)).toContain(code);
    }
  });

  it('throws MapError on garbage, with the container error as its cause', () => {
    const garbage = Uint8Array.from({ length: 64 }, (_, i) => (i * 37) & 0xff);
    try {
      readMap(garbage);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(MapError);
      expect((e as MapError).code).toBe(((e as MapError).cause as CodecError).code);
      expect((e as MapError).cause).toBeInstanceOf(DatafileError);
    }
  });

  it('ignores garbage in I32String padding but keeps it when writing back', () => {
    const bytes = corrupt(4, 0, (d) => Int32Array.of(...d.subarray(0, 12), ...encodeI32String('Game', 3).map((v, i) => (i === 2 ? v | 0x11 : v))));
    expect(Buffer.from(writeMap(readMap(bytes))).equals(bytes)).toBe(true);
  });

  it("keeps an empty group's start as read, so that such a file resaves byte for byte (fuzzer finding)", () => {
    const map = readMap(fixture('coverage.map'));
    const group = map.groups[0]!;
    map.groups.push({ item: { ...group.item, startLayer: 0, numLayers: 0 }, layers: [] });
    const once = writeMap(map);
    const reread = readMap(once);
    expect(reread.groups.at(-1)!.item.startLayer).toBe(0);
    expect(writeMap(reread)).toEqual(once);
  });
});

describe('mapInfo (moved from the CLI: issue 37)', () => {
  it('summarises a map without reading its data: layers by kind, the game layer, the registry item types', async () => {
    const { mapInfo, readMap } = await import('./index.js');
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { fixturesDir } = await import('../../../test/corpus.js');
    const bytes = new Uint8Array(readFileSync(join(fixturesDir, 'maps', 'ctf1.map')));
    const map = readMap(bytes);
    const info = mapInfo(bytes);
    expect(info.groups).toBe(map.groups.length);
    expect(info.layers.byKind.game).toBe(1);
    expect(info.gameLayer).toBeDefined();
    expect(Object.keys(info.layers.byKind)).toEqual(Object.keys(info.layers.byKind).sort());
  });

  it('names the images and sounds, gives the info strings and settings, and lists only item types the map holds (issue 39)', async () => {
    const { mapInfo, readMap, writeMap } = await import('./index.js');
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { fixturesDir } = await import('../../../test/corpus.js');
    const map = readMap(new Uint8Array(readFileSync(join(fixturesDir, 'maps', 'ctf1.map'))));
    map.info = { ...map.info!, author: 'nameless tee', credits: 'thanks', settings: ['sv_gametype ctf', 'tune gravity 0.5'] };
    const info = mapInfo(writeMap(map));
    expect(info.info).toMatchObject({ author: 'nameless tee', credits: 'thanks', license: null, settings: ['sv_gametype ctf', 'tune gravity 0.5'] });
    expect(info.images.list.map((i) => i.name)).toEqual(map.images.map((i) => i.name));
    expect(info.images.list[0]).toMatchObject({ external: true, width: 1024, height: 1024 });
    expect(info.sounds).toEqual({ count: 0, names: [] });
    expect(info.items).toEqual({});
  });
});
