import type { MapErrorCode } from './error-codes.js';
import { CodecError, Datafile, type DatafileItem, type DatafileReadOptions, ITEMTYPE_EX, OFFSET_UUID_TYPE } from '@twcodec/datafile';
import { decodeCString, decodeUtf8 } from '@twcodec/runtime';
import { MapError } from './errors.js';
import { inflateAhead } from './inflate-ahead.js';
import {
  decodeEnvelopeItem,
  decodeEnvelopePointArray,
  decodeEnvelopePointBezier07Array,
  decodeEnvelopePointBezierArray,
  decodeGroupItem,
  decodeImageItem,
  decodeInfoItem,
  decodeLayerItem,
  decodeQuadArray,
  decodeSoundItem,
  decodeSoundSourceArray,
  decodeSoundSourceDeprecatedArray,
  decodeVersionItem,
  ENVELOPE_POINT_BEZIER_07_INTS,
  ENVELOPE_POINT_BEZIER_INTS,
  ENVELOPE_POINT_INTS,
  type LayerItem,
  MAP_ITEM_TYPES,
  type MapItemName,
  type MapItemTypeInfo,
  QUAD_INTS,
  SOUND_SOURCE_DEPRECATED_INTS,
  SOUND_SOURCE_INTS,
  TILE_TILE_BYTES,
  TilemapLayerVersion,
  TILEMAP_KINDS,
  type TilemapLayerItem,
  tilemapKind,
  Tiles,
  EnvelopeVersion,
  type EnvelopeItem,
  type EnvelopePointBezier07,
  LARGEST_TILE_BYTES,
  type TilemapKindInfo,
} from './generated/index.gen.js';
import {
  type CollectedItemName,
  deprecatedToSoundSource,
  type MapEnvelopePoint,
  type MapGroup,
  type MapIssue,
  type MapItems,
  type MapLayer,
  type StructureItemName,
  type TilemapLayer,
  type TwMap,
} from './model.js';
import { type RecordCountRule, usedRecords } from './records.js';
import { expandSkippedTiles } from './tilemap.js';

/** The structure item types (see StructureItemName); the compiler checks the names against the schemas. */
const STRUCTURE: Record<StructureItemName, true> = {
  version: true,
  info: true,
  image: true,
  envelope: true,
  envelope_points: true,
  envelope_points_bezier: true,
  group: true,
  layer: true,
  sound: true,
};

/** Whether the model keeps items of this type in `TwMap.items`. */
export function isCollectedItemType(name: MapItemName): name is CollectedItemName {
  return !(name in STRUCTURE);
}

export interface ReadMapOptions extends DatafileReadOptions {
  /**
   * Strict (default): anything DDNet's loader would refuse that the model cannot represent (data indices
   * past the end, tile data of the wrong size, groups sharing layers) throws a MapError. Lenient: such
   * problems are recorded in `readIssues`, the element gets empty data, and validateMap reports them.
   */
  strict?: boolean;
  /**
   * Items only (default false): tile, pixel and sound data are not inflated, and the elements get empty
   * tiles, no pixels and no sound data (`TwMap.dataSkipped` is set, and writeMap refuses such a model). For
   * summaries such as `map info`, whose cost then stays that of the items whatever the layers' sizes.
   */
  skipData?: boolean;
  /**
   * Which data items to inflate for tiles, pixels and sounds (default: all). An element whose data item it
   * refuses is read as skipData reads it (empty tiles, no pixels or sound data) and `TwMap.dataSkipped` is
   * set; items, strings, quads and sound sources are read as always. For a reader that already knows such data
   * from elsewhere: `map diff` leaves out data whose stored bytes equal its counterpart's (issue 28).
   */
  inflateData?: (index: number) => boolean;
}

const BY_TYPE_ID = new Map(MAP_ITEM_TYPES.filter((t) => t.typeId !== undefined).map((t) => [t.typeId!, t]));
const BY_UUID = new Map(MAP_ITEM_TYPES.filter((t) => t.uuid !== undefined).map((t) => [t.uuid!, t]));

/** The schema's item type of a datafile item (by type id, or by UUID for DDNet's extension types). */
export function mapItemTypeOf(item: DatafileItem): MapItemTypeInfo | undefined {
  if (item.uuid !== undefined) return BY_UUID.get(item.uuid);
  return item.type < OFFSET_UUID_TYPE ? BY_TYPE_ID.get(item.type) : undefined;
}

/**
 * The envelope points of a map from the points item's ints (6-int or 22-int points) and, for 6-int points,
 * DDNet's bezier item, which applies only when it has one record per point.
 */
export function envelopePointsFromInts(
  layout: TwMap['envelopePointLayout'],
  ints: Int32Array,
  bezierInts: Int32Array | undefined,
): { points: MapEnvelopePoint[]; bezierUsed: boolean } {
  if (layout === 'teeworlds07') return { points: decodeEnvelopePointBezier07Array(ints).map(withBezier07), bezierUsed: false };
  const points: MapEnvelopePoint[] = decodeEnvelopePointArray(ints);
  if (!bezierInts) return { points, bezierUsed: false };
  const tangents = decodeEnvelopePointBezierArray(bezierInts);
  if (tangents.length !== points.length || bezierInts.length % ENVELOPE_POINT_BEZIER_INTS !== 0) return { points, bezierUsed: false };
  for (let i = 0; i < tangents.length; i++) points[i]!.bezier = tangents[i];
  return { points, bezierUsed: true };
}

// The reader's callbacks and loops are module functions and plain loops, not closures made per read: V8 did not
// reuse the optimised code of a closure for the next read's closure, so every readMap compiled its callbacks
// with TurboFan again (11 compiles per pass over the 80 corpus maps in the steady state, 3 without the closures;
// --trace-opt, Node 20).
function withBezier07({ time, curveType, values, ...bezier }: EnvelopePointBezier07): MapEnvelopePoint {
  return { time, curveType, values, bezier };
}

function addInternalType(this: Map<string, number[]>, uuid: string, internal: number): void {
  const types = this.get(uuid);
  if (types) types.push(internal);
  else this.set(uuid, [internal]);
}

// Made on the first tilemap, not at import: a loop at a module's top level has V8 compile the bundle chunk's
// whole top level (the CLI's startup.test; issue 41).
let kindInfoByKind: Map<string, TilemapKindInfo> | undefined;
function kindInfoOf(kind: string): TilemapKindInfo {
  if (kindInfoByKind === undefined) {
    kindInfoByKind = new Map();
    for (const info of TILEMAP_KINDS) if (!kindInfoByKind.has(info.kind)) kindInfoByKind.set(info.kind, info);
  }
  return kindInfoByKind.get(kind)!;
}

/** Consecutive NUL-terminated strings (the settings data item). */
export function decodeCStringList(bytes: Uint8Array): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0) {
      out.push(decodeUtf8(bytes.subarray(start, i)));
      start = i + 1;
    }
  }
  if (start < bytes.length) out.push(decodeUtf8(bytes.subarray(start)));
  return out;
}

/**
 * Reads a map: every item decoded, all data inflated, tiles viewed in place. Throws MapError (also for a
 * broken container: the DatafileError is its `cause`, with the same code, offset and path).
 */
export function readMap(input: Uint8Array | Datafile, options: ReadMapOptions = {}): TwMap {
  return new MapReader(openDatafile(input, options), options.strict ?? true, options.skipData ?? false, options.inflateData).read();
}

/**
 * readMap for pages: the data items are inflated first, asynchronously where the zlib codec can, then the map
 * is read as readMap reads it (same model, same errors). In browsers that is DecompressionStream for items
 * of 64 KB and more, which Chromium inflates faster than fflate on some machines and slower on others
 * (`node bench/browser-inflate.mjs` measures yours). Node's codec (node:zlib) has no async path: there it
 * reads as readMap does.
 */
export async function readMapAsync(input: Uint8Array | Datafile, options: ReadMapOptions = {}): Promise<TwMap> {
  const df = openDatafile(input, options);
  await df.preloadData();
  return new MapReader(df, options.strict ?? true, options.skipData ?? false, options.inflateData).read();
}

function openDatafile(input: Uint8Array | Datafile, options: ReadMapOptions): Datafile {
  if (input instanceof Datafile) return input;
  try {
    return Datafile.read(input, options);
  } catch (e) {
    if (e instanceof CodecError && !(e instanceof MapError)) throw new MapError(e.code, e.detail, e.offset, e.path, { cause: e });
    throw e;
  }
}

class MapReader {
  private readonly issues: MapIssue[] = [];
  private readonly unread = new Set<number>();
  /** Indices of layer items no group uses. */
  private orphans: number[] = [];

  constructor(
    private readonly df: Datafile,
    private readonly strict: boolean,
    private readonly skipData: boolean,
    private readonly inflateData?: (index: number) => boolean,
  ) {}

  /** The data items inflateAhead inflated that no element has used yet (1 at their index); see read(). */
  private ahead: Uint8Array | undefined;

  /** Whether readMap leaves out the tiles, pixels or sound behind data item `index` (skipData, inflateData). */
  private skipped = false;
  private skips(index: number): boolean {
    if (this.skipData) return true;
    if (!this.inflateData || this.inflateData(index)) return false;
    this.skipped = true;
    return true;
  }

  private problem(code: MapErrorCode, path: string, message: string, offset = -1): void {
    if (this.strict) throw new MapError(code, message, offset, path);
    this.issues.push({ severity: 'error', code, path, message });
  }

  /** Something DDNet loads anyway (it ignores or skips the element): a warning, in strict reads too. */
  private warn(code: string, path: string, message: string): void {
    this.issues.push({ severity: 'warning', code, path, message });
  }

  /** Runs a generated decoder, giving its errors the element's path. */
  private decode<T>(decoder: (d: Int32Array, offset: number) => T, item: DatafileItem, path: string): T {
    try {
      return decoder(item.data, item.offset ?? -1);
    } catch (e) {
      if (e instanceof MapError) throw new MapError(e.code, e.detail, e.offset, path + e.path.replace(/^[a-z_]+/, ''), { cause: e });
      throw e;
    }
  }

  /**
   * The bytes of data item `index`, or undefined when there are none. `loads`: DDNet loads the map without
   * this data (it skips the element), so a bad index or corrupt data is a warning, not a problem; writeMap
   * keeps such references as they are.
   */
  private data(index: number, path: string, optional = false, loads = false): Uint8Array | undefined {
    if (optional && index === -1) return undefined;
    if (!Number.isInteger(index) || index < 0 || index >= this.df.data.length) {
      const message = `data index ${index} is not one of the ${this.df.data.length} data items${loads ? '; DDNet skips it' : ''}`;
      if (loads) this.warn('DATA_INDEX_RANGE', path, message);
      else this.problem('DATA_INDEX_RANGE', path, message);
      return undefined;
    }
    if (this.ahead) this.ahead[index] = 0;
    try {
      return this.df.data[index]!.bytes();
    } catch (e) {
      if (!(e instanceof CodecError)) throw e;
      this.unread.add(index);
      if (loads) this.warn(e.code, path, `${e.message}; DDNet skips it`);
      else if (this.strict) throw new MapError(e.code, e.detail, e.offset, path, { cause: e });
      else this.issues.push({ severity: 'error', code: e.code, path, message: e.message });
      return undefined;
    }
  }

  /** A string DDNet reads only for display or settings: a bad reference is a warning. */
  private string(index: number, path: string, optional = false): string | undefined {
    const bytes = this.data(index, path, optional, true);
    return bytes ? decodeCString(bytes) : undefined;
  }

  /**
   * Reads the map. Unless only some data is wanted (skipData, inflateData), every data item is inflated first
   * (inflateAhead). A read that throws leaves the container's data as reading it in model order would have:
   * what inflateAhead inflated and no element used is dropped again.
   */
  read(): TwMap {
    if (this.skipData || this.inflateData) return this.build();
    const ahead = (this.ahead = inflateAhead(this.df));
    try {
      return this.build();
    } catch (e) {
      for (let d = 0; d < ahead.length; d++) if (ahead[d] === 1) this.df.data[d]!.unload();
      throw e;
    }
  }

  private build(): TwMap {
    const df = this.df;
    const map: TwMap = {
      version: undefined,
      info: undefined,
      images: [],
      envelopes: [],
      groups: [],
      sounds: [],
      items: {},
      unknownItems: [],
      datafile: df,
      envelopePointLayout: 'ddnet',
      readIssues: this.issues,
      unreadData: this.unread,
      ...(this.skipData ? { dataSkipped: true as const } : {}),
    };

    // Internal types the UUID index gives one UUID are read as one type (items.<name> holds the items of
    // all of them, in file order); writeMap writes them as one, with unique ids (issue 26).
    // (forEach and indexed loops: a for-of here, until V8 optimised read, made an iterator result or an entry
    // array per step, about 0.3 MB of garbage a pass over the 80 corpus maps; issue 41.)
    const internalTypes = new Map<string, number[]>();
    df.uuidIndex().forEach(addInternalType, internalTypes);
    internalTypes.forEach(this.warnUuidDuplicate, this);

    const byName = new Map<MapItemName, DatafileItem[]>();
    const items = df.items;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (item.type === ITEMTYPE_EX) continue; // the UUID index belongs to the container
      const info = mapItemTypeOf(item);
      if (!info) {
        map.unknownItems.push(item);
        continue;
      }
      let list = byName.get(info.name);
      if (!list) byName.set(info.name, (list = []));
      if (info.oneItem && list.length > 0) {
        this.warn('DUPLICATE_ITEM', info.name, `more than one ${info.name} item; the others are kept as unknown items`);
        map.unknownItems.push(item);
        continue;
      }
      list.push(item);
    }

    const versionItem = this.structureItems(byName, 'version')[0];
    if (versionItem) map.version = this.decode(decodeVersionItem, versionItem, 'version');

    const infoItem = this.structureItems(byName, 'info')[0];
    if (infoItem) {
      const item = this.decode(decodeInfoItem, infoItem, 'info');
      const settings = item.settings !== undefined ? this.data(item.settings, 'info.settings', true) : undefined;
      map.info = {
        item,
        author: this.string(item.author, 'info.author', true),
        mapVersion: this.string(item.mapVersion, 'info.mapVersion', true),
        credits: this.string(item.credits, 'info.credits', true),
        license: this.string(item.license, 'info.license', true),
        settings: settings ? decodeCStringList(settings) : undefined,
      };
    }

    const imageItems = this.structureItems(byName, 'image');
    for (let i = 0; i < imageItems.length; i++) {
      const path = `images[${i}]`;
      const item = this.decode(decodeImageItem, imageItems[i]!, path);
      // DDNet loads maps whose images it cannot load (it warns and renders without them).
      map.images.push({
        item,
        name: this.string(item.name, `${path}.name`),
        pixels: item.external || this.skips(item.data) ? undefined : this.data(item.data, `${path}.data`, true, true),
      });
    }

    this.readEnvelopes(map, this.structureItems(byName, 'envelope'), this.structureItems(byName, 'envelope_points'), this.structureItems(byName, 'envelope_points_bezier'));

    const layerItems = this.structureItems(byName, 'layer');
    const layers: LayerItem[] = [];
    for (let i = 0; i < layerItems.length; i++) layers.push(this.decode(decodeLayerItem, layerItems[i]!, `layers[${i}]`));
    map.groups = this.readGroups(this.structureItems(byName, 'group'), layers);
    // Layers no group uses: DDNet never looks at them; they are kept as they are.
    for (let k = 0; k < this.orphans.length; k++) map.unknownItems.push(layerItems[this.orphans[k]!]!);

    const soundItems = this.structureItems(byName, 'sound');
    for (let i = 0; i < soundItems.length; i++) {
      const path = `sounds[${i}]`;
      const item = this.decode(decodeSoundItem, soundItems[i]!, path);
      // DDNet skips sounds it cannot load.
      map.sounds.push({ item, name: this.string(item.name, `${path}.name`), data: this.skips(item.data) ? undefined : this.data(item.data, `${path}.data`, false, true) });
    }
    map.items = this.readCollected(byName);

    // The model owns the inflated bytes now; the container keeps only the stored ones for writing.
    for (let d = 0; d < df.data.length; d++) df.data[d]!.unload();
    if (this.skipped) map.dataSkipped = true;
    return map;
  }

  private warnUuidDuplicate(types: number[], uuid: string): void {
    if (types.length < 2) return;
    const name = BY_UUID.get(uuid)?.name;
    this.warn('UUID_INDEX_DUPLICATE', name ? (isCollectedItemType(name) ? `items.${name}` : name) : 'uuidIndex', `the UUID index names ${name ?? uuid} for ${types.length} internal types (${types.join(', ')}): read as one type, written as one with unique item ids`);
  }

  /** The items of a structure type, warning where an item's id is not its position. */
  private structureItems(byName: Map<MapItemName, DatafileItem[]>, name: StructureItemName): DatafileItem[] {
    const list = byName.get(name) ?? [];
    for (let i = 0; i < list.length; i++) {
      const item = list[i]!;
      if (item.id !== i) this.warn('ITEM_ID_ORDER', `${name}[${i}]`, `item id ${item.id} at position ${i}; writeMap keeps the ids while the number of ${name} items is unchanged, else numbers them by position`);
    }
    return list;
  }

  /** Every item of a non-structure schema type, decoded by the generated registry into `items.<type>`. */
  private readCollected(byName: Map<MapItemName, DatafileItem[]>): MapItems {
    const out: Record<string, unknown[]> = {};
    for (let t = 0; t < MAP_ITEM_TYPES.length; t++) {
      const info = MAP_ITEM_TYPES[t]!;
      const list = byName.get(info.name);
      if (!list || !isCollectedItemType(info.name)) continue;
      const decoded: unknown[] = [];
      for (let i = 0; i < list.length; i++) decoded.push(this.decode(info.decode, list[i]!, `items.${info.name}[${i}]`));
      out[info.name] = decoded;
    }
    return out as MapItems;
  }

  private readEnvelopes(map: TwMap, envelopeItems: DatafileItem[], pointItems: DatafileItem[], bezierItems: DatafileItem[]): void {
    const envelopes: EnvelopeItem[] = [];
    let bezierVersion = false;
    for (let i = 0; i < envelopeItems.length; i++) {
      const envelope = this.decode(decodeEnvelopeItem, envelopeItems[i]!, `envelopes[${i}]`);
      envelopes.push(envelope);
      // DDNet reads 22-int points when any envelope has the bezier points version or more (render_map.cpp).
      if (envelope.version >= EnvelopeVersion.BezierPoints) bezierVersion = true;
    }
    const layout = bezierVersion ? 'teeworlds07' : 'ddnet';
    map.envelopePointLayout = layout;
    const ints = pointItems[0]?.data ?? new Int32Array();
    const size = layout === 'teeworlds07' ? ENVELOPE_POINT_BEZIER_07_INTS : ENVELOPE_POINT_INTS;
    if (ints.length % size !== 0) {
      this.warn('ENVELOPE_POINTS_PARTIAL', 'envelopePoints', `${ints.length % size} ints after the last whole ${size}-int point are dropped`);
    }
    const bezierItem = bezierItems[0];
    const { points, bezierUsed } = envelopePointsFromInts(layout, ints, bezierItem?.data);
    if (bezierItem && !bezierUsed) {
      this.warn('BEZIER_COUNT', 'envelopePointsBezier', `the bezier item does not have one record per point (${points.length}); DDNet ignores it, kept as an unknown item`);
      map.unknownItems.push(bezierItem);
    }
    let covered = 0;
    map.envelopes = [];
    for (let i = 0; i < envelopes.length; i++) {
      const item = envelopes[i]!;
      if (item.startPoint < 0 || item.numPoints < 0 || item.startPoint + item.numPoints > points.length) {
        // DDNet's loader does not check this; its client evaluates such an envelope as having no points.
        this.warn('ENVELOPE_POINTS_RANGE', `envelopes[${i}]`, `points ${item.startPoint}..${item.startPoint + item.numPoints - 1} of ${points.length}: DDNet treats the envelope as empty`);
        map.envelopes.push({ item, points: [] });
        continue;
      }
      if (item.startPoint !== covered) this.warn('ENVELOPE_POINTS_ORDER', `envelopes[${i}]`, 'envelopes do not use the points in order; writeMap keeps the order while the points are unchanged');
      covered = item.startPoint + item.numPoints;
      map.envelopes.push({ item, points: points.slice(item.startPoint, covered) });
    }
    if (covered !== points.length && envelopes.length) {
      this.warn('ENVELOPE_POINTS_UNUSED', 'envelopePoints', `${points.length - covered} points after the last envelope's; writeMap keeps them while the envelopes' points are unchanged`);
    }
  }

  private readGroups(groupItems: DatafileItem[], layers: LayerItem[]): MapGroup[] {
    const owner = new Array<number>(layers.length).fill(-1);
    const groups: MapGroup[] = [];
    for (let g = 0; g < groupItems.length; g++) {
      const path = `groups[${g}]`;
      const item = this.decode(decodeGroupItem, groupItems[g]!, path);
      const { startLayer: start, numLayers: num } = item;
      if (start < 0 || num < 0 || start + num > layers.length) {
        this.problem('GROUP_LAYERS_RANGE', path, `uses layers ${start}..${start + num - 1} of ${layers.length}`);
        groups.push({ item, layers: [] as MapLayer[] });
        continue;
      }
      const groupLayers: MapLayer[] = [];
      for (let l = 0; l < num; l++) {
        const index = start + l;
        if (owner[index] !== -1) {
          this.problem('GROUP_LAYERS_SHARED', `${path}.layers[${l}]`, `layer ${index} also belongs to group ${owner[index]}`);
          continue;
        }
        owner[index] = g;
        groupLayers.push(this.readLayer(layers[index]!, `${path}.layers[${l}]`));
      }
      groups.push({ item, layers: groupLayers });
    }
    for (let index = 0; index < owner.length; index++) {
      if (owner[index] !== -1) continue;
      this.warn('LAYER_ORPHAN', `layers[${index}]`, 'layer is in no group: DDNet never uses it; kept as an unknown item');
      this.orphans.push(index);
    }
    return groups;
  }

  /** The records a layer uses (see usedRecords); a count that disagrees with the data is a warning. */
  private records(index: number, count: number, recordInts: number, rule: RecordCountRule, path: string): Int32Array {
    const bytes = this.data(index, path, false, true);
    if (!bytes) return new Int32Array(0);
    const { ints, mismatch } = usedRecords(bytes, recordInts, count, rule);
    if (mismatch) this.warn('RECORD_COUNT', path, mismatch);
    return ints;
  }

  private readLayer(item: LayerItem, path: string): MapLayer {
    switch (item.kind) {
      case 'tilemap':
        return this.readTilemap(item, path);
      // DDNet's loader does not check quads and sounds data; the client skips layers whose data is bad.
      case 'quads': {
        const ints = this.records(item.data, item.numQuads, QUAD_INTS, 'all', `${path}.data`);
        return { kind: 'quads', item, quads: decodeQuadArray(ints) };
      }
      case 'sounds': {
        const ints = this.records(item.data, item.numSources, SOUND_SOURCE_INTS, 'min', `${path}.data`);
        return { kind: 'sounds', item, sources: decodeSoundSourceArray(ints) };
      }
      case 'sounds_deprecated': {
        const ints = this.records(item.data, item.numSources, SOUND_SOURCE_DEPRECATED_INTS, 'min', `${path}.data`);
        return { kind: 'sounds_deprecated', item, sources: decodeSoundSourceDeprecatedArray(ints).map(deprecatedToSoundSource) };
      }
      default:
        return { kind: 'unknown', item };
    }
  }

  private readTilemap(item: TilemapLayerItem, path: string): TilemapLayer {
    const kind = tilemapKind(item.tilemapFlags);
    const kindInfo = kindInfoOf(kind);
    const count = item.width * item.height;
    // DDNet refuses sizes whose byte count overflows; a lenient read treats such a layer as empty.
    const sizeOk = item.width > 0 && item.height > 0 && count <= 0x7fffffff / LARGEST_TILE_BYTES;
    if (!sizeOk) this.problem('TILEMAP_SIZE', path, `invalid size ${item.width}x${item.height}`);
    const tileCount = sizeOk ? count : 0;
    // Skip compression is for the tiles behind `data` of tiles and game layers only.
    const skip = item.version >= TilemapLayerVersion.SkipCompressed;
    if (skip && kindInfo.field !== 'data') {
      this.problem('TILESKIP_PHYSICS', path, `${kind} layers cannot use skip compression (version ${item.version})`);
    }
    const tiles = this.tiles(item, path, kindInfo, tileCount, 'data', TILE_TILE_BYTES, skip && kindInfo.field === 'data');
    const layer = { kind: 'tilemap', tilemapKind: kind, item, tiles: new Tiles(tiles) } as TilemapLayer;
    if (kindInfo.property) (layer as unknown as Record<string, unknown>)[kindInfo.property] = kindInfo.view(this.tiles(item, path, kindInfo, tileCount, kindInfo.field, kindInfo.tileBytes, false));
    return layer;
  }

  /** The tile bytes behind one data index field of a tilemap layer (expanded when skip-compressed). */
  private tiles(
    item: TilemapLayerItem,
    path: string,
    kindInfo: TilemapKindInfo,
    tileCount: number,
    field: keyof TilemapLayerItem,
    tileBytes: number,
    skipCompressed: boolean,
  ): Uint8Array {
    if (this.skipData) return new Uint8Array(0);
    const kind = kindInfo.kind;
    const dataPath = `${path}.${field}`;
    const dataIndex = item[field] as number | undefined;
    if (dataIndex === undefined) {
      this.problem('TILEMAP_TRUNCATED', dataPath, `a ${kind} layer item needs the ${field} index`);
      return new Uint8Array(0);
    }
    // A DDNet physics layer's `data` only holds zeroed tiles for Teeworlds; DDNet never reads it.
    const compat = field === 'data' && kindInfo.field !== 'data';
    if (compat && (dataIndex < 0 || dataIndex >= this.df.data.length)) {
      this.warn('PHYSICS_COMPAT_DATA', dataPath, `data index ${dataIndex} of a ${kind} layer is not a data item`);
      return new Uint8Array(0);
    }
    if (this.skips(dataIndex)) return new Uint8Array(0);
    const bytes = this.data(dataIndex, dataPath);
    if (!bytes) return new Uint8Array(0);
    if (skipCompressed) {
      try {
        return expandSkippedTiles(bytes, tileCount, dataPath);
      } catch (e) {
        if (this.strict || !(e instanceof MapError)) throw e;
        this.issues.push({ severity: 'error', code: e.code, path: dataPath, message: e.message });
        this.unread.add(dataIndex);
        return new Uint8Array(0);
      }
    }
    if (bytes.length < tileCount * tileBytes || bytes.length % tileBytes !== 0) {
      this.problem('TILE_DATA_SIZE', dataPath, `${bytes.length} bytes for ${tileCount} tiles of ${tileBytes} bytes`);
      return bytes.subarray(0, bytes.length - (bytes.length % tileBytes));
    }
    if (bytes.length > tileCount * tileBytes) {
      // DDNet loads such a layer and uses its first width x height tiles; the model keeps them all, so a
      // resave keeps the extra tiles too.
      this.warn('TILE_DATA_LONG', dataPath, `${bytes.length / tileBytes} tiles for a ${item.width}x${item.height} layer: DDNet uses the first ${tileCount}`);
    }
    return bytes;
  }
}
