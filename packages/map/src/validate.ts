// What DDNet's map loader (src/engine/shared/map.cpp, CMap::Load and the tile layer checks, current
// master) refuses or silently fixes, and what its client and editor ignore, reported on the map model with
// the element's path. Version ranges and item references come from the schemas (generated registry).
import {
  ImageFormat,
  ImageVersion,
  type ItemRefField,
  MAP_ITEM_TYPE,
  MAP_ITEM_TYPES,
  MAP_RECORD_REFS,
  type MapItemName,
  type MapItemTypeInfo,
  type SinceVersionField,
  TILE_BYTE_OFFSETS,
  TILEMAP_KIND_FLAGS,
  TILEMAP_KINDS,
  tilemapKind,
  type VersionRange,
} from './generated/index.gen.js';
import { LAYER_LOAD_FIXES } from './load-fixes.js';
import { imagePixelBytes, type MapIssue, type MapLayer, type TilemapLayer, type TwMap } from './model.js';
import { firstNonZeroTiles, type TileScans } from './tile-scans.js';
import { validateTileIds } from './tile-validity.js';

/** The least size DDNet loads a tilemap layer of (`min:` in schemas/map). */
const TILEMAP_MIN = MAP_ITEM_TYPE.layer.variants.find((v) => v.name === 'tilemap')!.min;

export interface ValidateOptions {
  /**
   * Scans of tiles seen before (by an earlier validateMap given the same TileScans), reused where a layer's tiles
   * are the same unchanged memory; the issues are the same as without it.
   */
  scans?: TileScans;
}

/** Everything DDNet would refuse (`error`), change (`fixed`) or ignore (`warning`) when loading this map, plus read issues. */
export function validateMap(map: TwMap, options: ValidateOptions = {}): MapIssue[] {
  const issues: MapIssue[] = [...map.readIssues];
  const error = (code: string, path: string, message: string) => issues.push({ severity: 'error', code, path, message });
  const fixed = (code: string, path: string, message: string) => issues.push({ severity: 'fixed', code, path, message });
  const warning = (code: string, path: string, message: string) => issues.push({ severity: 'warning', code, path, message });

  const layers = map.groups.flatMap((g) => g.layers);
  /** How many items of a type the map has, for references to them. */
  const countOf = (name: MapItemName): number => {
    switch (name) {
      case 'image':
        return map.images.length;
      case 'envelope':
        return map.envelopes.length;
      case 'group':
        return map.groups.length;
      case 'layer':
        return layers.length;
      case 'sound':
        return map.sounds.length;
      default:
        return (map.items as Record<string, unknown[] | undefined>)[name]?.length ?? 0;
    }
  };
  /** References out of range: DDNet's client treats them as none (checked against DDNet mapimages.cpp, render_layer.cpp, envelope_extrema.cpp, mapsounds.cpp). */
  const checkRefs = (value: object, refs: readonly ItemRefField[], path: string) => {
    for (const ref of refs) {
      const index = (value as Record<string, unknown>)[ref.field];
      if (typeof index !== 'number' || (ref.optional && index === -1)) continue;
      const count = countOf(ref.ref);
      if (index < 0 || index >= count) warning('REFERENCE_RANGE', `${path}.${ref.field}`, `${ref.ref} ${index} does not exist (the map has ${count}); DDNet ignores the reference`);
    }
  };
  const checkVersion = (versions: VersionRange | undefined, version: number | undefined, what: string, path: string) => {
    if (!versions || version === undefined || (version >= versions.min && version <= versions.max)) return;
    const message = `${what} version ${version} is not ${versions.min === versions.max ? versions.min : `${versions.min}..${versions.max}`}`;
    if (versions.outside === 'refused') error('VERSION_UNSUPPORTED', `${path}.version`, `${message}; DDNet refuses the map`);
    else warning('VERSION_UNSUPPORTED', `${path}.version`, `${message}; DDNet ignores the ${what}`);
  };
  /** Fields an item of its version should have but is too short for. */
  const checkSince = (since: readonly SinceVersionField[], versions: VersionRange | undefined, fields: Record<string, unknown>, what: string, path: string) => {
    const version = fields.version as number | undefined;
    for (const s of since) {
      if (version === undefined || version < s.version || fields[s.field] !== undefined) continue;
      const message = `a version ${version} ${what} is too short for ${s.field}`;
      if (versions?.outside === 'refused' && version <= versions.max) error('ITEM_TRUNCATED', `${path}.${s.field}`, `${message}; DDNet refuses the map`);
      else warning('ITEM_TRUNCATED', `${path}.${s.field}`, message);
    }
  };
  /** Version range, length and references of an element's item, from the registry. */
  const checkItem = (type: MapItemTypeInfo, item: object, path: string) => {
    const fields = item as Record<string, unknown>;
    checkVersion(type.versions, fields.version as number | undefined, type.name, path);
    checkSince(type.since, type.versions, fields, type.name, path);
    checkRefs(item, type.refs, path);
    const variant = type.variants.find((v) => v.name === fields.kind);
    if (variant) {
      checkVersion(variant.versions, fields.version as number | undefined, `${variant.name} ${type.name}`, path);
      checkSince(variant.since, variant.versions, fields, `${variant.name} ${type.name}`, path);
      checkRefs(item, variant.refs, path);
    }
  };

  if (!map.version) error('VERSION_MISSING', 'version', 'the map version item is missing');
  else checkItem(MAP_ITEM_TYPE.version, map.version, 'version');

  map.images.forEach((image, i) => {
    const path = `images[${i}]`;
    checkItem(MAP_ITEM_TYPE.image, image.item, path);
    if (image.name === undefined) warning('IMAGE_NAME_MISSING', `${path}.name`, 'the image has no readable name; DDNet names it "(error)" and cannot load it if it is external');
    if (image.item.external) return;
    if (image.item.version >= ImageVersion.Teeworlds07 && image.item.format !== ImageFormat.Rgba) {
      // DDNet 18.3 and later load embedded images as RGBA only (src/game/client/components/mapimages.cpp,
      // "invalid map image type"; DDNet commit 8a64feabc3 removed RGB images from the format).
      warning('IMAGE_FORMAT', `${path}.format`, `pixel format ${image.item.format} is not RGBA; DDNet (since 18.3) does not load the image`);
    }
    if (image.pixels) {
      const bpp = imagePixelBytes(image.item);
      const want = image.item.width * image.item.height * bpp;
      if (image.pixels.length < want) warning('IMAGE_DATA_SIZE', `${path}.data`, `${image.pixels.length} bytes of pixels, ${image.item.width}x${image.item.height}x${bpp} needs ${want}; DDNet does not load the image`);
    } else warning('IMAGE_DATA_MISSING', `${path}.data`, 'an embedded image has no pixel data; DDNet does not load the image');
  });

  map.envelopes.forEach((envelope, e) => {
    checkItem(MAP_ITEM_TYPE.envelope, envelope.item, `envelopes[${e}]`);
    let last = -Infinity;
    envelope.points.forEach((p, k) => {
      if (p.time < last) warning('ENVELOPE_TIME_ORDER', `envelopes[${e}].points[${k}]`, `time ${p.time} before the previous point's ${last}`);
      last = p.time;
    });
  });

  map.sounds.forEach((sound, i) => {
    checkItem(MAP_ITEM_TYPE.sound, sound.item, `sounds[${i}]`);
    if (!sound.data) warning('SOUND_DATA_MISSING', `sounds[${i}].data`, 'the sound has no readable data; DDNet skips it');
  });

  let gameLayer: TilemapLayer | undefined;
  let gamePath = '';
  const tilemaps: [TilemapLayer, string][] = [];
  map.groups.forEach((group, g) => {
    checkItem(MAP_ITEM_TYPE.group, group.item, `groups[${g}]`);
    group.layers.forEach((layer, l) => {
      const path = `groups[${g}].layers[${l}]`;
      checkItem(MAP_ITEM_TYPE.layer, layer.item, path);
      for (const [record, list] of recordsOf(layer)) list.forEach((r, k) => checkRefs(r, MAP_RECORD_REFS[record] ?? [], `${path}.${record === 'quad' ? 'quads' : 'sources'}[${k}]`));
      for (const rule of LAYER_LOAD_FIXES) for (const f of rule.find(layer.item)) fixed(rule.code, `${path}.${f.field}`, f.message);
      if (layer.kind === 'tilemap') {
        tilemaps.push([layer, path]);
        if (layer.tilemapKind === 'game') {
          if (gameLayer) warning('GAME_LAYER_DUPLICATE', path, `another game layer (${gamePath}); DDNet uses the last one`);
          gameLayer = layer;
          gamePath = path;
        }
      } else if (layer.kind === 'unknown') warning('LAYER_TYPE_UNKNOWN', `${path}.type`, `layer type ${layer.item.type} is unknown; DDNet ignores the layer`);
    });
  });
  if (!gameLayer) error('GAME_LAYER_MISSING', 'groups', 'the map has no game layer');

  // DDNet refuses two tile layers reading one data item (map.cpp, "is not unique").
  const tileDataUsers = new Map<number, string>();
  for (const [layer, path] of tilemaps) {
    const item = layer.item;
    const kind = TILEMAP_KINDS.find((k) => k.kind === layer.tilemapKind)!;
    if (tilemapKind(item.tilemapFlags) !== layer.tilemapKind) {
      error('TILEMAP_KIND_MISMATCH', `${path}.tilemapFlags`, `flags ${item.tilemapFlags} make a ${tilemapKind(item.tilemapFlags)} layer, the model says ${layer.tilemapKind}; writeMap goes by the flags`);
    }
    if (((item.tilemapFlags & TILEMAP_KIND_FLAGS) & ((item.tilemapFlags & TILEMAP_KIND_FLAGS) - 1)) !== 0) {
      error('TILEMAP_FLAGS', `${path}.tilemapFlags`, `flags ${item.tilemapFlags} set more than one physics layer kind`);
    }
    if (item.width < TILEMAP_MIN.width! || item.height < TILEMAP_MIN.height!) {
      error('TILEMAP_SIZE', path, `size ${item.width}x${item.height}: DDNet needs at least ${TILEMAP_MIN.width}x${TILEMAP_MIN.height}`);
    }
    const dataIndex = item[kind.field] as number | undefined;
    if (dataIndex !== undefined && dataIndex >= 0) {
      const other = tileDataUsers.get(dataIndex);
      if (other) error('TILE_DATA_SHARED', `${path}.${kind.field}`, `data item ${dataIndex} also holds the tiles of ${other}`);
      else tileDataUsers.set(dataIndex, path);
    }
    const count = item.width * item.height;
    const own = kind.property ? (layer as unknown as Record<string, { bytes: Uint8Array } | undefined>)[kind.property] : layer.tiles;
    if (own && own.bytes.length < count * kind.tileBytes) error('TILE_DATA_SIZE', `${path}.${kind.field}`, `${own.bytes.length / kind.tileBytes} tiles for a ${item.width}x${item.height} layer`);
    if (own) {
      // DDNet refuses non-zero padding (map.cpp: tiles, game and front layers; speedup layers): the first tile
      // with one, and its first such byte in the table's order. Without skip compression (tilemap version 4)
      // the skip byte of tiles must be 0 too. One scan for all of these bytes.
      const bytes = own.bytes;
      const skip = TILE_BYTE_OFFSETS.tile.skip;
      const offsets = kind.tile === 'tile' ? [...kind.zeroBytes, skip] : kind.zeroBytes;
      const firsts = firstNonZeroTiles(bytes, kind.tileBytes, offsets, options.scans);
      let first = -1;
      let firstAt = 0;
      kind.zeroBytes.forEach((z, k) => {
        const tile = firsts[k]!;
        if (tile >= 0 && (first < 0 || tile < first)) [first, firstAt] = [tile, z];
      });
      if (first >= 0) error('TILE_RESERVED_NONZERO', `${path}.${kind.field}`, `tile ${first} has non-zero byte ${bytes[first * kind.tileBytes + firstAt]} at offset ${firstAt}, which must be 0`);
      if (kind.tile === 'tile') {
        const tile = firsts[kind.zeroBytes.length]!;
        if (tile >= 0) error('TILE_SKIP_NONZERO', `${path}.${kind.field}`, `tile ${tile} has skip ${bytes[tile * kind.tileBytes + skip]} but the layer does not use skip compression`);
      }
    }
    if (kind.property && gameLayer && count < gameLayer.item.width * gameLayer.item.height) {
      error('PHYSICS_LAYER_SMALL', path, `${kind.kind} layer ${item.width}x${item.height} is smaller than the game layer ${gameLayer.item.width}x${gameLayer.item.height}`);
    }
    // Physics layers: what DDNet's loader changes is reported with the other LAYER_LOAD_FIXES above.
    if (kind.flag === 0) {
      const c = item.color;
      if ([c.r, c.g, c.b, c.a].some((v) => v < 0 || v > 255)) error('TILEMAP_COLOR', `${path}.color`, `colour (${c.r}, ${c.g}, ${c.b}, ${c.a}) out of range`);
    }
  }

  // Items in map.items: version ranges and references from the registry.
  for (const type of MAP_ITEM_TYPES) {
    const list = (map.items as Record<string, object[] | undefined>)[type.name];
    list?.forEach((item, i) => checkItem(type, item, `items.${type.name}[${i}]`));
  }
  const automapperVersions = MAP_ITEM_TYPE.automapper.versions;
  map.items.automapper?.forEach((a, i) => {
    // Only DDNet's editor reads these, and only the versions of its range (checked above).
    if (automapperVersions && (a.version < automapperVersions.min || a.version > automapperVersions.max)) return;
    const group = map.groups[a.group];
    if (group && (a.layer < 0 || a.layer >= group.layers.length)) {
      warning('AUTOMAPPER_TARGET', `items.automapper[${i}].layer`, `group ${a.group} has no layer ${a.layer}; the editor ignores this config`);
    }
  });
  issues.push(...validateTileIds(map, { scans: options.scans }));
  return issues;
}

/** The records of a layer's data, by record type (schemas/map/records). */
function recordsOf(layer: MapLayer): [string, object[]][] {
  switch (layer.kind) {
    case 'quads':
      return [['quad', layer.quads]];
    case 'sounds':
    case 'sounds_deprecated':
      return [['sound_source', layer.sources]];
    default:
      return [];
  }
}
