import { describe, expect, it } from 'vitest';
import { fixtureMaps, readBytes } from '../../../test/corpus.js';
import { Tiles, type TilemapKind } from './generated/index.gen.js';
import {
  ENTITY_OFFSET,
  EntityId,
  isValidEntity,
  isValidFrontTile,
  isValidGameTile,
  isValidSpeedupTile,
  isValidSwitchTile,
  isValidTeleTile,
  isValidTuneTile,
  SwitchTileId,
  TileId,
} from './generated/tile-meanings.gen.js';
import type { TilemapLayer, TilemapLayerOf, TwMap } from './model.js';
import { readMap } from './read.js';
import { TileScans } from './tile-scans.js';
import { validateTileIds } from './tile-validity.js';
import { validateMap } from './validate.js';
import { writeMap } from './write.js';

function layerWith<K extends TilemapKind>(map: TwMap, kind: K): { layer: TilemapLayerOf<K>; path: string } {
  for (const [g, group] of map.groups.entries()) {
    for (const [l, layer] of group.layers.entries()) {
      if (layer.kind === 'tilemap' && layer.tilemapKind === kind) return { layer: layer as TilemapLayerOf<K>, path: `groups[${g}].layers[${l}]` };
    }
  }
  throw new Error(`no ${kind} layer`);
}

describe('tile id predicates', () => {
  // Spot checks against DDNet's src/game/mapitems.cpp (IsValid*Tile, IsValidEntity).
  it('accept what DDNet accepts per layer', () => {
    expect(ENTITY_OFFSET).toBe(191);
    expect(ENTITY_OFFSET + EntityId.Spawn).toBe(192);
    expect(isValidEntity(ENTITY_OFFSET + EntityId.Door)).toBe(true);
    expect(isValidEntity(ENTITY_OFFSET + 28)).toBe(false);
    expect(isValidEntity(EntityId.Spawn)).toBe(false);
    expect([0, 1, 3, 9, 22, 59, 191, 192].every(isValidGameTile)).toBe(true);
    expect([7, 8, 10, 26, 28, 68, 98, 140, 219, 241].some(isValidGameTile)).toBe(false);
    expect([0, 2, 98, 99, 240].every(isValidFrontTile)).toBe(true);
    expect([1, 3].some(isValidFrontTile)).toBe(false);
    expect([10, 14, 15, 26, 27, 29, 30, 31, 63].every(isValidTeleTile)).toBe(true);
    expect([0, 28, 32].some(isValidTeleTile)).toBe(false);
    expect([TileId.SpeedBoostOld, TileId.SpeedBoost].every(isValidSpeedupTile)).toBe(true);
    expect(isValidSpeedupTile(0)).toBe(false);
    expect([7, 9, 22, 25, 79, 95, 98, 144, ENTITY_OFFSET + EntityId.Armor1, ENTITY_OFFSET + EntityId.Door].every(isValidSwitchTile)).toBe(true);
    expect([0, 11, 21, ENTITY_OFFSET + EntityId.Spawn, ENTITY_OFFSET + EntityId.FlagstandBlue].some(isValidSwitchTile)).toBe(false);
    expect(isValidTuneTile(TileId.Tune)).toBe(true);
    expect(isValidTuneTile(0)).toBe(false);
  });

  it('name an id by its meaning in each layer', () => {
    expect(TileId.SoloDisable).toBe(22);
    expect(SwitchTileId.SwitchTimedOpen).toBe(22);
    expect('SoloDisable' in SwitchTileId).toBe(false);
    expect(TileId.TeleCheck).toBe(TileId.SpeedBoost);
  });
});

describe('validateMap: tile ids', () => {
  const coverage = () => readMap(readBytes(fixtureMaps().find((m) => m.name === 'coverage.map')!.path));

  it('reports ids a physics layer does not accept, with x and y, after a write and read', () => {
    const map = coverage();
    expect(validateTileIds(map)).toEqual([]);
    const game = layerWith(map, 'game');
    const front = layerWith(map, 'front');
    const tele = layerWith(map, 'tele');
    const speedup = layerWith(map, 'speedup');
    const w = game.layer.item.width;
    game.layer.tiles.setId(2 * w + 3, 8); // (3, 2): no tile 8
    front.layer.front.setId(front.layer.item.width + 1, TileId.Solid); // (1, 1): front has no walls
    tele.layer.tele.setId(0, TileId.SpeedBoostOld); // (0, 0)
    speedup.layer.speedup.setId(5, TileId.Tune); // (5, 0)
    tele.layer.tele.setId(1, TileId.TeleIn); // valid
    game.layer.tiles.setId(0, ENTITY_OFFSET + EntityId.Spawn); // valid

    const again = readMap(writeMap(map));
    const found = validateMap(again).filter((i) => i.code.startsWith('TILE_ID'));
    const byPath = (a: string[], b: string[]) => a[1]!.localeCompare(b[1]!, 'en', { numeric: true });
    expect(found.map((i) => [i.severity, i.path, i.message]).sort(byPath)).toEqual([
      ['warning', `${game.path}.data[${2 * w + 3}]`, "tile (3, 2): id 8 is not one DDNet accepts in a game layer; DDNet loads it unchanged"],
      ['warning', `${front.path}.dataFront[${front.layer.item.width + 1}]`, "tile (1, 1): id 1 (Solid) is not one DDNet accepts in a front layer; DDNet loads it unchanged"],
      ['warning', `${tele.path}.dataTele[0]`, "tile (0, 0): id 28 (SpeedBoostOld) is not one DDNet accepts in a tele layer; DDNet loads it unchanged"],
      ['warning', `${speedup.path}.dataSpeedup[5]`, "tile (5, 0): id 68 (Tune) is not one DDNet accepts in a speedup layer; DDNet loads it unchanged"],
    ].sort(byPath));
  });

  it('lists a limited number per layer and counts the rest', () => {
    const map = coverage();
    const game = layerWith(map, 'game');
    for (let i = 0; i < 25; i++) game.layer.tiles.setId(i, 8);
    const issues = validateTileIds(map);
    expect(issues.filter((i) => i.code === 'TILE_ID_INVALID')).toHaveLength(10);
    expect(issues.at(-1)).toMatchObject({ code: 'TILE_ID_INVALID_MORE', path: `${game.path}.data`, message: expect.stringContaining('15 more') });
    expect(validateTileIds(map, { maxListedPerLayer: 0 })).toHaveLength(1);
    expect(validateTileIds(map, { maxListedPerLayer: 100 })).toHaveLength(25);
  });

  it('leaves plain tiles layers alone: any id is a tileset index there', () => {
    const map = coverage();
    const tiles = map.groups.flatMap((g) => g.layers).find((l): l is TilemapLayer => l.kind === 'tilemap' && l.tilemapKind === 'tiles')!;
    tiles.tiles.setId(0, 8);
    expect(validateTileIds(map)).toEqual([]);
  });
});

describe('validateMap with TileScans (issue 41)', () => {
  const coverage = () => readMap(readBytes(fixtureMaps().find((m) => m.name === 'coverage.map')!.path));

  it('reports what it reports without, and reuses a scan only for the same unchanged memory', () => {
    const map = coverage();
    const game = layerWith(map, 'game');
    const speedup = layerWith(map, 'speedup');
    for (let i = 0; i < 12; i++) game.layer.tiles.setId(i, 8);
    game.layer.tiles.bytes[4 * 5 + 3] = 1; // padding (TILE_RESERVED_NONZERO)
    game.layer.tiles.bytes[4 * 3 + 2] = 2; // skip (TILE_SKIP_NONZERO)
    speedup.layer.speedup.bytes[6 * 2 + 3] = 9;
    const plain = validateMap(map);
    expect(plain.map((i) => i.code)).toEqual(expect.arrayContaining(['TILE_RESERVED_NONZERO', 'TILE_SKIP_NONZERO', 'TILE_ID_INVALID', 'TILE_ID_INVALID_MORE']));
    const scans = new TileScans();
    expect(validateMap(map, { scans })).toEqual(plain);
    expect(validateMap(map, { scans })).toEqual(plain);

    // The same bytes read again through another view (as fixMap's read-back gets them): the kept findings.
    const sameMemory = { ...game.layer, tiles: new Tiles(game.layer.tiles.bytes.subarray(0)) };
    map.groups[Number(/groups\[(\d+)\]/.exec(game.path)![1])]!.layers[Number(/layers\[(\d+)\]/.exec(game.path)![1])] = sameMemory;
    expect(validateMap(map, { scans })).toEqual(plain);

    // A copy with the problems gone is new memory: scanned, not taken from the kept findings.
    const clean = game.layer.tiles.bytes.slice();
    clean.fill(0);
    sameMemory.tiles = new Tiles(clean);
    const codes = validateMap(map, { scans }).map((i) => i.code);
    expect(codes).not.toContain('TILE_SKIP_NONZERO');
    expect(codes.filter((c) => c.startsWith('TILE_ID'))).toEqual([]);
    expect(validateMap(map, { scans })).toEqual(validateMap(map));
  });
});
