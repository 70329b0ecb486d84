// Tile ids a physics layer does not accept, by the generated per-layer rules (schemas/map/tile-meanings.yaml,
// DDNet's IsValid*Tile). DDNet loads such maps unchanged (its editor does not place such ids), so these are
// warnings; docs/formats/map-tiles.md says what DDNet does with them.
import { TILE_BYTE_OFFSETS, TILEMAP_KINDS, type TileView } from './generated/index.gen.js';
import {
  ENTITY_OFFSET,
  EntityId,
  FrontTileId,
  GameTileId,
  SpeedupTileId,
  SwitchTileId,
  TeleTileId,
  TILE_ID_VALIDITY,
  TileId,
  TuneTileId,
} from './generated/tile-meanings.gen.js';
import type { MapIssue, TilemapLayer, TwMap } from './model.js';
import { invalidTileIds, type TileScans } from './tile-scans.js';

export interface TileIdOptions {
  /** How many invalid tiles to list per layer; the rest are counted in one more issue. Default 10. */
  maxListedPerLayer?: number;
  /** Scans of tiles seen before, to reuse while their bytes are unchanged (see TileScans). */
  scans?: TileScans;
}

let names: Map<number, string> | undefined;
/** A name for an id, to make a finding readable: the tile names first, then the entities. */
function nameOf(id: number): string | undefined {
  if (!names) {
    names = new Map();
    const entities = Object.entries(EntityId).flatMap(([name, id]): [string, number][] => (id > 0 ? [[`entity ${name}`, ENTITY_OFFSET + id]] : []));
    for (const [name, value] of [...Object.entries(TileId), ...entities]) {
      names.set(value, names.has(value) ? `${names.get(value)}/${name}` : name);
    }
  }
  return names.get(id);
}

/**
 * The name of tile id `id` in a physics layer of `kind` (`game`, `front`, `tele`, ...), when that layer accepts
 * the id and the tile meanings name it (schemas/map/tile-meanings.yaml); undefined otherwise (id 0, ids the
 * layer does not accept, plain tiles layers, whose ids are tileset indices).
 */
export function tileIdName(kind: string, id: number): string | undefined {
  const isValid = TILE_ID_VALIDITY[kind];
  if (id === TileId.Air || !isValid?.(id)) return undefined;
  // An id some layers give another meaning (22: solo end in the game layer, a timed switch in the switch
  // layer) is named by the layer's own set first.
  const own = Object.entries(LAYER_TILE_IDS[kind] ?? {}).find(([, value]) => value === id);
  return own ? own[0] : nameOf(id);
}

const LAYER_TILE_IDS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  game: GameTileId,
  front: FrontTileId,
  tele: TeleTileId,
  speedup: SpeedupTileId,
  switch: SwitchTileId,
  tune: TuneTileId,
};

const ACCEPTED = new Map<string, Uint8Array>();
/**
 * Which byte ids a layer of `kind` takes without a warning (air and the ids its predicate accepts), as a table:
 * one lookup per tile instead of a call, for maps of millions of tiles and short runs alike (issue 41).
 */
function acceptedIds(kind: string, isValid: (id: number) => boolean): Uint8Array {
  let table = ACCEPTED.get(kind);
  if (!table) {
    table = new Uint8Array(256);
    for (let id = 0; id < 256; id++) table[id] = id === TileId.Air || isValid(id) ? 1 : 0;
    ACCEPTED.set(kind, table);
  }
  return table;
}

/** The tiles holding a physics layer's tile ids (the generated kind table says where) and their model path. */
function physicsTiles(layer: TilemapLayer): { tiles: TileView | undefined; field: string } {
  const info = TILEMAP_KINDS.find((k) => k.kind === layer.tilemapKind)!;
  const tiles = info.property ? (layer as unknown as Record<string, TileView | undefined>)[info.property] : layer.tiles;
  return { tiles, field: info.field };
}

let viewLayouts: Map<unknown, { size: number; id: number }> | undefined;
/**
 * Where a tile view class keeps a tile's id (its tile size and the id's byte), for the view classes the kind
 * table makes; undefined for any other class (the scan then asks the view).
 */
function idLayoutOf(tiles: TileView): { size: number; id: number } | undefined {
  viewLayouts ??= new Map(
    TILEMAP_KINDS.map((k) => [k.view(new Uint8Array(0)).constructor, { size: k.tileBytes, id: (TILE_BYTE_OFFSETS as Record<string, { id: number }>)[k.tile]!.id }]),
  );
  return viewLayouts.get(tiles.constructor);
}

/**
 * Tiles of physics layers whose id the layer does not accept (`TILE_ID_INVALID`, with the tile's x and y), as
 * warnings: DDNet loads them unchanged. Id 0 is empty in every layer and never reported, although DDNet's
 * tele, speedup, switch and tune predicates reject it. Plain tiles layers are not checked (any id is a tileset index).
 */
export function validateTileIds(map: TwMap, options: TileIdOptions = {}): MapIssue[] {
  const cap = options.maxListedPerLayer ?? 10;
  const issues: MapIssue[] = [];
  map.groups.forEach((group, g) => {
    group.layers.forEach((layer, l) => {
      if (layer.kind !== 'tilemap') return;
      const kind = layer.tilemapKind;
      const isValid = TILE_ID_VALIDITY[kind];
      if (!isValid) return;
      const { tiles, field } = physicsTiles(layer);
      if (!tiles) return;
      const path = `groups[${g}].layers[${l}].${field}`;
      const width = Math.max(1, layer.item.width);
      const count = Math.min(tiles.length, layer.item.width * layer.item.height);
      const accepted = acceptedIds(kind, isValid);
      const layout = idLayoutOf(tiles);
      let found: { listed: readonly number[]; total: number };
      if (layout) found = invalidTileIds(tiles.bytes, layout.size, layout.id, count, accepted, cap, kind, options.scans);
      else {
        const listed: number[] = [];
        let total = 0;
        for (let i = 0; i < count; i++) if (accepted[tiles.getId(i)] !== 1 && ++total <= cap) listed.push(i);
        found = { listed, total };
      }
      for (const i of found.listed) {
        const id = tiles.getId(i);
        const name = nameOf(id);
        issues.push({
          severity: 'warning',
          code: 'TILE_ID_INVALID',
          path: `${path}[${i}]`,
          message: `tile (${i % width}, ${Math.floor(i / width)}): id ${id}${name ? ` (${name})` : ''} is not one DDNet accepts in a ${kind} layer; DDNet loads it unchanged`,
        });
      }
      const invalid = found.total;
      if (invalid > cap) {
        issues.push({
          severity: 'warning',
          code: 'TILE_ID_INVALID_MORE',
          path,
          message: `${invalid - cap} more tiles with ids the ${kind} layer does not accept (${invalid} in all, the first ${cap} listed)`,
        });
      }
    });
  });
  return issues;
}
