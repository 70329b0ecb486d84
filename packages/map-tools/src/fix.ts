import { defaultZlib, rememberingZlib } from '@twcodec/datafile';
import { rgbToRgba } from './rgb.js';
import {
  IMAGE_FORMAT_BYTES,
  ImageFormat,
  ImageVersion,
  type ItemRefField,
  LAYER_LOAD_FIXES,
  MAP_ITEM_TYPE,
  MAP_RECORD_REFS,
  type MapIssue,
  readMap,
  TILE_BYTE_OFFSETS,
  TILE_TILE_BYTES,
  TILEMAP_KINDS,
  tilemapKind,
  Tiles,
  TileScans,
  type TwMap,
  validateMap,
  writeMap,
} from '@twcodec/map';

export interface FixResult {
  bytes: Uint8Array;
  /** What the input had that the output no longer has (validateMap issues: DDNet's silent fixes and the safe fixes). */
  fixed: MapIssue[];
  /** Problems left in the output (what cannot be fixed without changing what the map means; see fixMapModel). */
  remaining: MapIssue[];
}

/**
 * Copies of `bytes` with the given byte offsets of every `size`-byte tile zeroed, or undefined when they are
 * all zero already. (A copy: the model's tiles may share memory with what the writer compares them against.)
 */
function zeroed(bytes: Uint8Array, size: number, offsets: readonly number[], scans: TileScans): Uint8Array | undefined {
  // Nearly every layer has nothing to zero: found out in one pass (none when validateMap scanned these bytes
  // with the same TileScans; issue 41).
  const firsts = scans.firstNonZero(bytes, size, offsets).filter((i) => i >= 0);
  if (!firsts.length) return undefined;
  const first = Math.min(...firsts);
  const out = bytes.slice();
  const end = bytes.length - size;
  for (const z of offsets) for (let o = first * size; o <= end; o += size) out[o + z] = 0;
  return out;
}

/**
 * Applies to the model what DDNet's loader silently changes (checked against DDNet src/engine/shared/map.cpp:
 * layer version reset to 0; physics layers named after their kind, white, not detail; data indices of other
 * physics kinds reset to -1) and what validateMap reports that can be fixed without changing what any client
 * shows or plays:
 * - references to images, envelopes and sounds that do not exist become -1 (DDNet ignores them);
 * - an envelope whose point range lies outside the points becomes empty (DDNet treats it as empty);
 * - tiles beyond a layer's width x height are dropped (DDNet uses the first width x height);
 * - 0.7 RGB images become RGBA (DDNet 18.3 and later load only RGBA);
 * - non-zero padding bytes and skip bytes of layers without skip compression are zeroed (DDNet refuses them);
 * - a tile layer that shares its data item with another gets its own copy (DDNet refuses shared tile data).
 * Not fixed (it would change or drop content): unknown items and layers, versions DDNet does not load, tile
 * ids a layer does not accept, missing or too small layers, envelope points out of time order.
 * `scans`: the TileScans a validateMap of this model was given, so that tiles it found clean are not scanned
 * again (the tiles must not have changed since).
 */
export function fixMapModel(map: TwMap, scans: TileScans = new TileScans()): void {
  const envelopes = map.envelopes.length;
  const count: Record<string, number> = { image: map.images.length, envelope: envelopes, sound: map.sounds.length };
  const clearRefs = (value: object, refs: readonly ItemRefField[]) => {
    const fields = value as Record<string, unknown>;
    for (const ref of refs) {
      const index = fields[ref.field];
      const n = count[ref.ref];
      if (!ref.optional || typeof index !== 'number' || index === -1 || n === undefined) continue;
      if (index < 0 || index >= n) fields[ref.field] = -1;
    }
  };

  for (const envelope of map.envelopes) {
    if (envelope.points.length === 0 && envelope.item.numPoints !== 0) envelope.item = { ...envelope.item, startPoint: 0, numPoints: 0 };
  }

  for (const image of map.images) {
    if (image.item.external || image.item.version < ImageVersion.Teeworlds07 || image.item.format === ImageFormat.Rgba || !image.pixels) continue;
    const { width, height } = image.item;
    if (image.pixels.length !== width * height * IMAGE_FORMAT_BYTES[ImageFormat.Rgb]!) continue;
    image.pixels = rgbToRgba(image.pixels, width, height);
    image.item = { ...image.item, version: ImageVersion.Ddnet };
    delete image.item.format;
  }

  const tileDataUsers = new Set<number>();
  for (const group of map.groups) {
    for (const layer of group.layers) {
      // What DDNet's loader changes (layer version, physics layer name, colour, detail flag, other kinds' data
      // indices): the table validateMap reports from.
      layer.item = LAYER_LOAD_FIXES.reduce((item, rule) => rule.apply(item), layer.item);
      const variant = MAP_ITEM_TYPE.layer.variants.find((v) => v.name === layer.kind);
      if (variant) clearRefs(layer.item, variant.refs);
      if (layer.kind === 'quads') layer.quads.forEach((q) => clearRefs(q, MAP_RECORD_REFS.quad ?? []));
      if (layer.kind === 'sounds' || layer.kind === 'sounds_deprecated') layer.sources.forEach((s) => clearRefs(s, MAP_RECORD_REFS.sound_source ?? []));
      if (layer.kind !== 'tilemap') continue;

      const item = { ...layer.item };
      const kind = TILEMAP_KINDS.find((k) => k.kind === tilemapKind(item.tilemapFlags))!;
      // Shared tile data: this layer's tiles go to a new data item.
      const own = item[kind.field] as number | undefined;
      if (own !== undefined && own >= 0) {
        if (tileDataUsers.has(own)) (item[kind.field] as number) = -1;
        else tileDataUsers.add(own);
      }
      layer.item = item;

      // Tiles past width x height dropped; padding (and skip, outside skip compression) zeroed: the tiles
      // behind `data` (their skip byte is 0 also in the model of a skip-compressed layer, which holds them
      // expanded), and those of the layer's physics kind.
      // Only a valid size says how many tiles the layer uses (a negative one would cut more each time; fuzzer
      // finding: fixing a 130x-1 layer again dropped 130 more tiles).
      const validSize = item.width > 0 && item.height > 0;
      const tileCount = validSize ? item.width * item.height : Infinity;
      let tiles = layer.tiles.bytes;
      if (tiles.length > tileCount * TILE_TILE_BYTES) tiles = tiles.slice(0, tileCount * TILE_TILE_BYTES);
      const tile = TILE_BYTE_OFFSETS.tile;
      tiles = zeroed(tiles, TILE_TILE_BYTES, [tile.skip, tile.reserved], scans) ?? tiles;
      if (tiles !== layer.tiles.bytes) layer.tiles = new Tiles(tiles);
      if (kind.property) {
        const views = layer as unknown as Record<string, { bytes: Uint8Array } | undefined>;
        const view = views[kind.property];
        if (view) {
          let bytes = view.bytes;
          if (bytes.length > tileCount * kind.tileBytes) bytes = bytes.slice(0, tileCount * kind.tileBytes);
          bytes = zeroed(bytes, kind.tileBytes, kind.tile === 'tile' ? [tile.skip, ...kind.zeroBytes] : kind.zeroBytes, scans) ?? bytes;
          if (bytes !== view.bytes) views[kind.property] = kind.view(bytes);
        }
      }
    }
  }
}

/**
 * The map with fixMapModel's fixes applied, written in DDNet's layout (which also recomputes every derived
 * count and index). Reads leniently, so what DDNet loads despite a problem is kept. Returns the new file and
 * the validateMap issues fixed and left.
 */
export function fixMap(bytes: Uint8Array): FixResult {
  // Each data item is inflated once: the writer's comparison and the read of the result, which holds the
  // unchanged data's stored bytes, get what the first read inflated (fixMapModel changes copies, never them).
  const zlib = rememberingZlib(defaultZlib);
  // The tile scans of the first validation are kept by the memory they read: fixMapModel and the read of the
  // result reuse them for every layer the fix leaves alone (the read gets the same inflated data back), so only
  // changed tiles are scanned again. Nothing writes to those bytes in between (fixMapModel changes copies).
  const scans = new TileScans();
  const map = readMap(bytes, { strict: false, zlib });
  const before = validateMap(map, { scans });
  fixMapModel(map, scans);
  const out = writeMap(map, { mode: 'ddnet' });
  const remaining = validateMap(readMap(out, { strict: false, zlib }), { scans });
  const key = (i: MapIssue) => `${i.code} ${i.path}`;
  const left = new Set(remaining.map(key));
  return { bytes: out, fixed: before.filter((i) => !left.has(key(i))), remaining };
}
