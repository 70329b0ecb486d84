// Maps with fields real community maps have: references out of range, missing names, odd versions,
// layers no group uses. DDNet loads some of them (its client ignores or fixes the field) and refuses others;
// its map_resave copies all of them. `map resave` through the model must give the same bytes for every
// one (strict reading where DDNet loads the map, lenient where it refuses it), and validateMap must say
// what DDNet does: warnings (ignored) or fixed where it loads the map, errors where it refuses it.
import { describe, expect, it } from 'vitest';
import { Datafile } from '@twcodec/datafile';
import * as M from '@twcodec/map';
import { fixtureMaps, readBytes } from '../corpus.js';
import { ddnetTool, mapResave } from '../ddnet-tools.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const fixture = (name: string) => readBytes(fixtureMaps().find((m) => m.name === name)!.path);

/** dm7 with an embedded image, a sound and a sounds layer added (through the model), as a base to mutate. */
function base(): Uint8Array {
  const map = M.readMap(fixture('dm7-legacy-size.map'));
  map.images.push({
    item: { version: 1, width: 2, height: 2, external: false, name: 0, data: -1 },
    name: 'checker',
    pixels: new Uint8Array(16).fill(200),
  });
  map.sounds.push({ item: { version: 1, external: false, name: 0, data: 0, dataSize: 0 }, name: 'wind', data: Uint8Array.of(79, 103, 103, 83) });
  const source = { position: { x: 0, y: 0 }, loop: true, pan: true, timeDelay: 0, falloff: 0, posEnv: -1, posEnvOffset: 0, soundEnv: -1, soundEnvOffset: 0, shape: 1, width: 500, height: 0 };
  map.groups[0]!.layers.push({
    kind: 'sounds',
    item: { layerVersion: 0, type: M.LayerType.Sounds, flags: 0, kind: 'sounds', version: 2, numSources: 1, data: -1, sound: 0, name: 'Wind' },
    sources: [source],
  });
  return M.writeMap(map);
}

type Mutation = (df: Datafile) => void;

/** The ints of the `n`th item of a type. */
const itemOf = (df: Datafile, type: number, n = 0) => df.itemsOfType(type)[n]!;
const layerWhere = (df: Datafile, pred: (d: Int32Array) => boolean) => df.itemsOfType(5).find((i) => pred(i.data))!;
const set = (item: { data: Int32Array }, index: number, value: number) => {
  const data = item.data.slice();
  data[index] = value;
  item.data = data;
};
const isTilemap = (d: Int32Array) => d[1] === M.LayerType.Tilemap;
const isGame = (d: Int32Array) => isTilemap(d) && (d[6]! & M.TilemapFlags.Game) !== 0;
const isPlainTiles = (d: Int32Array) => isTilemap(d) && d[6] === 0;

// Layer ints: 0 layer_version, 1 type, 2 flags, then the variant: tilemap 3 version, 4 width, 5 height,
// 6 tilemap_flags, 7-10 color, 11 color_env, 12 color_env_offset, 13 image, 14 data; quads 3 version,
// 4 num_quads, 5 data, 6 image; sounds 3 version, 4 num_sources, 5 data, 6 sound.
const LOADS: [string, Mutation, string[]][] = [
  ['an image whose name index is -1', (df) => set(itemOf(df, 2, 0), 4, -1), ['warning IMAGE_NAME_MISSING images[0].name']],
  ['an image whose name index is past the data', (df) => set(itemOf(df, 2, 1), 4, 999), ['warning DATA_INDEX_RANGE images[1].name', 'warning IMAGE_NAME_MISSING images[1].name']],
  ['an embedded image without pixel data', (df) => set(itemOf(df, 2, 4), 5, 999), ['warning DATA_INDEX_RANGE images[4].data', 'warning IMAGE_DATA_MISSING images[4].data']],
  ['a colour envelope far outside the envelope list', (df) => set(layerWhere(df, isPlainTiles), 11, 1_000_000), ['warning REFERENCE_RANGE groups[3].layers[0].colorEnv']],
  ['a tiles layer image that does not exist', (df) => set(layerWhere(df, isPlainTiles), 13, 77), ['warning REFERENCE_RANGE groups[3].layers[0].image']],
  ['a quads layer image that does not exist', (df) => set(layerWhere(df, (d) => d[1] === M.LayerType.Quads), 6, 12), ['warning REFERENCE_RANGE groups[0].layers[0].image']],
  ['a sounds layer of an unknown version', (df) => set(layerWhere(df, (d) => d[1] === M.LayerType.Sounds), 3, 7), ['warning VERSION_UNSUPPORTED groups[0].layers[1].version']],
  ['a sounds layer whose sound does not exist', (df) => set(layerWhere(df, (d) => d[1] === M.LayerType.Sounds), 6, 5), ['warning REFERENCE_RANGE groups[0].layers[1].sound']],
  ['a group of an unknown version', (df) => set(itemOf(df, 4, 1), 0, 9), ['warning VERSION_UNSUPPORTED groups[1].version']],
  ['a sound without data', (df) => set(itemOf(df, 7, 0), 3, -5), ['warning DATA_INDEX_RANGE sounds[0].data', 'warning SOUND_DATA_MISSING sounds[0].data']],
  ['a quads layer whose data index is past the data', (df) => set(layerWhere(df, (d) => d[1] === M.LayerType.Quads), 5, 999), ['warning DATA_INDEX_RANGE groups[0].layers[0].data']],
  ['an author string past the data', (df) => df.addItem(1, 0, Int32Array.of(1, 999, -1, -1, -1)), ['warning DATA_INDEX_RANGE info.author']],
  [
    'a layer no group uses',
    (df) => df.addItem(5, df.itemsOfType(5).length, layerWhere(df, isPlainTiles).data.slice()),
    [`warning LAYER_ORPHAN layers[${Datafile.read(base()).itemsOfType(5).length}]`],
  ],
  // Issue 36 row 15: a second item of a one-per-map type is kept as an unknown item; the first keeps its id,
  // so that no two items share one (map resave wrote the first as id 0 beside a second of id 0, which every
  // reader refuses: ITEM_DUPLICATE_ID). DDNet's map_resave copies every item with its id.
  ['two info items, ids 1 and 0', (df) => [1, 0].forEach((id) => df.addItem(1, id, Int32Array.of(1, -1, -1, -1, -1))), ['warning DUPLICATE_ITEM info', 'warning ITEM_ID_ORDER info[0]']],
  ['two info items, ids 3 and 0', (df) => [3, 0].forEach((id) => df.addItem(1, id, Int32Array.of(1, -1, -1, -1, -1))), ['warning DUPLICATE_ITEM info', 'warning ITEM_ID_ORDER info[0]']],
  ['two info items, ids 5 and 3', (df) => [5, 3].forEach((id) => df.addItem(1, id, Int32Array.of(1, -1, -1, -1, -1))), ['warning DUPLICATE_ITEM info', 'warning ITEM_ID_ORDER info[0]']],
  [
    'two version items, ids 1 and 0',
    (df) => {
      itemOf(df, 0).id = 1;
      df.addItem(0, 0, Int32Array.of(1));
    },
    ['warning DUPLICATE_ITEM version', 'warning ITEM_ID_ORDER version[0]'],
  ],
  ['an envelope whose points are past the points item', (df) => set(itemOf(df, 3, 0), 2, 500), ['warning ENVELOPE_POINTS_RANGE envelopes[0]']],
  ['a tile layer with an unused physics data index and layer version', (df) => {
    const layer = layerWhere(df, isPlainTiles);
    set(layer, 0, 3);
  }, ['fixed LAYER_VERSION groups[3].layers[0].layerVersion']],
];

const REFUSED: [string, Mutation, string[]][] = [
  ['a group reaching past the last layer', (df) => set(itemOf(df, 4, 0), 6, 99), ['error GROUP_LAYERS_RANGE groups[0]']],
  ['a game layer whose data index is past the data', (df) => set(layerWhere(df, isGame), 14, 999), ['error DATA_INDEX_RANGE groups[4].layers[2].data']],
  [
    'two layers sharing one tile data item',
    (df) => {
      const game = layerWhere(df, isGame);
      set(layerWhere(df, isPlainTiles), 14, game.data[14]!);
    },
    ['error TILE_DATA_SHARED groups[4].layers[2].data'],
  ],
  [
    'a game layer tile with a non-zero reserved byte',
    (df) => {
      const game = layerWhere(df, isGame);
      const data = df.data[game.data[14]!]!;
      const bytes = data.bytes().slice();
      bytes[3] = 1;
      data.set(bytes);
    },
    ['error TILE_RESERVED_NONZERO groups[4].layers[2].data'],
  ],
  ['a tilemap of an unknown version', (df) => set(layerWhere(df, isPlainTiles), 3, 9), ['error VERSION_UNSUPPORTED groups[3].layers[0].version']],
];

function mutated(mutation: Mutation): Uint8Array {
  const df = Datafile.read(base());
  mutation(df);
  return df.write();
}

const issues = (map: M.TwMap) => M.validateMap(map).map((i) => `${i.severity} ${i.code} ${i.path}`);

/** DDNet's map_resave, when installed: it must accept the map (it copies any valid datafile). */
function checkWithMapResave(bytes: Uint8Array, tag: string, map: M.TwMap): void {
  if (!ddnetTool('map_resave')) return;
  const dir = mkdtempSync(join(tmpdir(), 'twcodec-accepts-'));
  const path = join(dir, 'in.map');
  writeFileSync(path, bytes);
  const resaved = mapResave(path, tag);
  expect(Buffer.from(M.writeMap(map, { mode: 'ddnet' })).equals(resaved)).toBe(true);
}

describe('maps DDNet loads despite odd fields', () => {
  it.each(LOADS)('%s: strict read, warnings only, identical bytes', (name, mutation, expected) => {
    const bytes = mutated(mutation);
    const map = M.readMap(bytes);
    const found = issues(map);
    expect(found).toEqual(expect.arrayContaining(expected));
    expect(found.filter((i) => i.startsWith('error'))).toEqual([]);
    expect(Buffer.from(M.writeMap(map)).equals(bytes)).toBe(true);
    checkWithMapResave(bytes, name, map);
  });
});

describe('maps DDNet refuses but map_resave copies', () => {
  it.each(REFUSED)('%s: lenient read, an error, identical bytes', (name, mutation, expected) => {
    const bytes = mutated(mutation);
    const map = M.readMap(bytes, { strict: false });
    expect(issues(map)).toEqual(expect.arrayContaining(expected));
    expect(Buffer.from(M.writeMap(map)).equals(bytes)).toBe(true);
    checkWithMapResave(bytes, name, map);
  });
});

it('the base map itself is valid and round-trips', () => {
  const bytes = base();
  const map = M.readMap(bytes);
  expect(issues(map).filter((i) => i.startsWith('error'))).toEqual([]);
  expect(Buffer.from(M.writeMap(map)).equals(bytes)).toBe(true);
});
