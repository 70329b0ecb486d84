import { Datafile } from '@twcodec/datafile';
import { bytesEqual } from '@twcodec/runtime';
import {
  MAP_ITEM_TYPE,
  type MapEnvelope,
  type MapImage,
  type MapItemName,
  type MapItemTypeInfo,
  type MapLayer,
  type MapSound,
  mapItemTypeOf,
  readMap,
  type ReadMapOptions,
  TILEMAP_KINDS,
  tileIdName,
  type TileView,
  type TwMap,
} from '@twcodec/map';

export interface TileChange {
  group: number;
  layer: number;
  /** The layer's name (as DDNet's map_diff prints it). */
  name: string;
  /** Which tiles: `tiles` (the layer's own tiles), or a physics kind's (`tele`, `speedup`, ...). */
  kind: string;
  x: number;
  y: number;
  /** The tile's bytes before and after, in hex (for `tiles`: index, flags, skip, reserved). */
  from: string;
  to: string;
  /** The tile id before and after (the tileset index of `tiles`; the kind byte of tele, speedup, ... tiles). */
  fromIndex: number;
  toIndex: number;
  /** The ids' names in this layer (schemas/map/tile-meanings.yaml), where the layer gives them one. */
  fromName?: string;
  toName?: string;
}

export interface MapDifference {
  /** Where, with the model's names: `images[2]`, `groups[1].layers[0]`, `info`, `items.automapper[0]`, ... */
  path: string;
  what: string;
  /** For a changed element: the fields that differ (item fields camelCase, as in the model). */
  fields?: FieldChange[];
}

/** A field of a changed element: its value before and after (byte data and record lists by their size). */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface MapDiff {
  /** Element-level differences (added/removed/changed items, layers, images, sounds, envelopes, quads). */
  changes: MapDifference[];
  /** Tile by tile differences of tilemap layers present in both maps with the same size. */
  tiles: TileChange[];
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a, replacer) === JSON.stringify(b, replacer);
function replacer(_key: string, value: unknown) {
  if (value instanceof Uint8Array || value instanceof Int32Array) return `bytes:${value.length}:${hash(value)}`;
  if (value && typeof value === 'object' && 'bytes' in value && value.bytes instanceof Uint8Array) return `tiles:${hash(value.bytes)}`;
  return value;
}
function hash(a: ArrayLike<number>): number {
  let h = 2166136261;
  for (let i = 0; i < a.length; i++) h = Math.imul(h ^ (a[i]! & 0xffffffff), 16777619);
  return h >>> 0;
}
/** The model's collections whose elements hold an item in `item`, and the item type they hold. */
const ELEMENT_ITEM_TYPES: Readonly<Record<string, MapItemName>> = { info: 'info', images: 'image', sounds: 'sound', envelopes: 'envelope', groups: 'group' };

/** The item type of an element's `item` at a model path (`['images', 2, 'item']`; a group's layers are layers). */
export function itemTypeAtPath(path: readonly (string | number)[]): MapItemName | undefined {
  if (path[0] === 'groups' && path[2] === 'layers') return 'layer';
  return ELEMENT_ITEM_TYPES[path[0] as string];
}

/**
 * Whether a field of an item of `type` is one writeMap derives from the map's layout (a data index, a range of
 * items, a count: the registry's `derived`, variants' included), not content.
 */
export function isDerivedField(type: MapItemName, item: object, key: string): boolean {
  const info = MAP_ITEM_TYPE[type] as MapItemTypeInfo;
  if (info.derived.includes(key)) return true;
  const kind = (item as { kind?: unknown }).kind;
  return info.variants.some((v) => v.name === kind && v.derived.includes(key));
}
const content = (type: MapItemName, item: object) => Object.fromEntries(Object.entries(item).filter(([k]) => !isDerivedField(type, item, k)));

/** A value as a diff shows it: byte data and lists of records by their size; none as null. */
function shown(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Uint8Array) return plural(value.length, 'byte');
  if (value instanceof Int32Array) return plural(value.length, 'int');
  if (value && typeof value === 'object' && 'bytes' in value && value.bytes instanceof Uint8Array) return `${plural(value.bytes.length, 'byte')} of tiles`;
  if (isRecordList(value)) return entries(value.length);
  return value;
}
const isRecordList = (v: unknown): v is unknown[] => Array.isArray(v) && v.some((x) => x !== null && typeof x === 'object');
const entries = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;
/** Records of a list shown one by one when at most this many of them changed. */
const LISTED_RECORDS = 8;

/** The fields of two versions of an element that differ, with their values as the diff shows them. */
function fieldChanges(a: Record<string, unknown>, b: Record<string, unknown>): FieldChange[] {
  const out: FieldChange[] = [];
  for (const field of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const [x, y] = [a[field], b[field]];
    if (same(x, y)) continue;
    if (isRecordList(x) && isRecordList(y) && x.length === y.length) {
      // Records of a list (envelope points): the ones that changed, or how many.
      const changed = x.flatMap((r, i) => (same(r, y[i]) ? [] : [i]));
      if (changed.length <= LISTED_RECORDS) out.push(...changed.map((i) => ({ field: `${field}[${i}]`, from: x[i], to: y[i] })));
      else out.push({ field, from: entries(x.length), to: `${entries(y.length)}, ${changed.length} changed` });
      continue;
    }
    const [from, to] = [shown(x), shown(y)];
    // Data of the same size: say that it changed rather than "10 bytes -> 10 bytes".
    out.push({ field, from, to: same(from, to) ? `${to}, changed` : to });
  }
  return out;
}

/**
 * Differences of two lists by position. A changed element is reported by `detail`, or as changed with the
 * fields of `fieldsOf` (the element itself by default) that differ.
 */
function compareList<T>(
  out: MapDifference[],
  path: string,
  a: T[],
  b: T[],
  label: (x: T) => string,
  eq: (x: T, y: T) => boolean,
  detail?: (p: string, x: T, y: T) => void,
  fieldsOf: (x: T) => Record<string, unknown> = (x) => x as Record<string, unknown>,
) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const p = `${path}[${i}]`;
    if (i >= a.length) out.push({ path: p, what: `added ${label(b[i]!)}` });
    else if (i >= b.length) out.push({ path: p, what: `removed ${label(a[i]!)}` });
    else if (!eq(a[i]!, b[i]!)) (detail ?? ((pp) => out.push({ path: pp, what: `changed ${label(b[i]!)}`, ...changedFields(fieldsOf(a[i]!), fieldsOf(b[i]!)) })))(p, a[i]!, b[i]!);
  }
}

/** `fields` of a MapDifference, when some can be named. */
function changedFields(a: Record<string, unknown>, b: Record<string, unknown>): { fields?: FieldChange[] } {
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b) || ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) return {};
  const fields = fieldChanges(a, b);
  return fields.length ? { fields } : {};
}

const layerLabel = (l: MapLayer) => `${l.kind === 'tilemap' ? `${l.tilemapKind} ` : ''}${l.kind} layer "${(l.item as { name?: string }).name ?? ''}"`;

// The layer's own tiles and every physics kind's tile property, from the generated kind table.
const TILE_PROPERTIES = ['tiles', ...new Set(TILEMAP_KINDS.flatMap((k) => (k.property ? [k.property] : [])))];

/** The differences of two maps, by element and tile by tile. */
export function diffMaps(a: TwMap, b: TwMap): MapDiff {
  const changes: MapDifference[] = [];
  const tiles: TileChange[] = [];
  if (!same(a.version, b.version)) changes.push({ path: 'version', what: 'changed version item', ...changedFields({ ...a.version }, { ...b.version }) });
  // An element as compared: its item's content fields beside the element's own (the item's data indices give
  // way to what they hold: names, pixels, strings).
  const element = <E extends { item: object }>(type: MapItemName, e: E) => {
    const { item, ...rest } = e;
    return { ...content(type, item), ...rest } as Record<string, unknown>;
  };
  const info = (m: TwMap) => m.info && element('info', m.info);
  if (!same(info(a), info(b))) changes.push({ path: 'info', what: 'changed map info', ...changedFields(info(a) ?? {}, info(b) ?? {}) });
  const image = (i: MapImage) => element('image', i);
  compareList(changes, 'images', a.images, b.images, (i) => `image "${i.name}"${i.item.external ? ' (external)' : ` ${i.item.width}x${i.item.height}`}`, (x, y) => same(image(x), image(y)), undefined, image);
  const sound = (s: MapSound) => ({ name: s.name, data: s.data });
  compareList(changes, 'sounds', a.sounds, b.sounds, (s) => `sound "${s.name}"`, (x, y) => same(sound(x), sound(y)), undefined, sound);
  const envelope = (e: MapEnvelope) => element('envelope', e);
  compareList(changes, 'envelopes', a.envelopes, b.envelopes, (e) => `envelope${e.item.name ? ` "${e.item.name}"` : ''} (${plural(e.points.length, 'point')})`, (x, y) => same(envelope(x), envelope(y)), undefined, envelope);
  compareList(changes, 'groups', a.groups, b.groups, (g) => `group "${g.item.name ?? ''}" (${plural(g.layers.length, 'layer')})`, (x, y) => same(x, y), (gp, ga, gb) => {
    const [ia, ib] = [content('group', ga.item), content('group', gb.item)];
    if (!same(ia, ib)) changes.push({ path: gp, what: `changed group "${gb.item.name ?? ''}" properties`, ...changedFields(ia, ib) });
    compareList(changes, `${gp}.layers`, ga.layers, gb.layers, layerLabel, (x, y) => same(x, y), (lp, la, lb) => {
      if (la.kind !== lb.kind) return changes.push({ path: lp, what: `replaced ${layerLabel(la)} by ${layerLabel(lb)}` });
      const [ca, cb] = [content('layer', la.item), content('layer', lb.item)];
      if (!same(ca, cb)) changes.push({ path: lp, what: `changed ${layerLabel(lb)} properties`, ...changedFields(ca, cb) });
      if (la.kind === 'quads' && lb.kind === 'quads') {
        compareList(changes, `${lp}.quads`, la.quads, lb.quads, () => 'quad', same);
      } else if ((la.kind === 'sounds' || la.kind === 'sounds_deprecated') && (lb.kind === 'sounds' || lb.kind === 'sounds_deprecated')) {
        compareList(changes, `${lp}.sources`, la.sources, lb.sources, () => 'sound source', same);
      } else if (la.kind === 'tilemap' && lb.kind === 'tilemap') {
        const g = Number(gp.slice(7, -1));
        const l = Number(lp.slice(lp.lastIndexOf('[') + 1, -1));
        if (la.item.width !== lb.item.width || la.item.height !== lb.item.height) {
          return changes.push({ path: lp, what: `resized ${layerLabel(lb)} from ${la.item.width}x${la.item.height} to ${lb.item.width}x${lb.item.height}` });
        }
        for (const prop of TILE_PROPERTIES) {
          const ta = (la as unknown as Record<string, TileView | undefined>)[prop];
          const tb = (lb as unknown as Record<string, TileView | undefined>)[prop];
          if (!ta || !tb) continue;
          const size = TILEMAP_KINDS.find((k) => (k.property ?? 'tiles') === prop)!.tileBytes;
          // The ids' meanings: the layer's own kind for its physics tiles and a game layer's tiles; none for
          // tileset indices.
          const meaning = prop === 'tiles' ? (la.tilemapKind === 'game' ? 'game' : undefined) : la.tilemapKind;
          const before = tiles.length;
          const common = Math.min(ta.bytes.length, tb.bytes.length);
          for (let i = 0; i * size < common; i++) {
            let differs = false;
            for (let k = 0; k < size; k++) if (ta.bytes[i * size + k] !== tb.bytes[i * size + k]) differs = true;
            if (!differs) continue;
            const hex = (t: Uint8Array) => [...t.subarray(i * size, (i + 1) * size)].map((v) => v.toString(16).padStart(2, '0')).join('');
            const fromIndex = ta.getId(i);
            const toIndex = tb.getId(i);
            const fromName = meaning && tileIdName(meaning, fromIndex);
            const toName = meaning && tileIdName(meaning, toIndex);
            tiles.push({ group: g, layer: l, name: lb.item.name ?? '', kind: prop, x: i % la.item.width, y: Math.floor(i / la.item.width), from: hex(ta.bytes), to: hex(tb.bytes), fromIndex, toIndex, ...(fromName ? { fromName } : {}), ...(toName ? { toName } : {}) });
          }
          if (tiles.length > before) changes.push({ path: lp, what: `${plural(tiles.length - before, prop === 'tiles' ? 'tile' : `${prop} tile`)} changed in ${layerLabel(lb)}` });
          // Tile data of another length under the same size (a short layer read leniently, or extra tiles
          // DDNet does not use): a difference even where the common tiles agree.
          if (ta.bytes.length !== tb.bytes.length) {
            changes.push({ path: lp, what: `${prop} data of ${layerLabel(lb)} has ${plural(ta.bytes.length / size, 'tile')} before and ${tb.bytes.length / size} after` });
          }
        }
      }
      return undefined;
    });
  });
  const kinds = new Set([...Object.keys(a.items), ...Object.keys(b.items)]);
  for (const k of kinds) compareList(changes, `items.${k}`, (a.items as Record<string, unknown[]>)[k] ?? [], (b.items as Record<string, unknown[]>)[k] ?? [], () => `${k} item`, same);
  // A layer no group uses (kept with the unknown items) is identified by its ints, not its id: a layer item's
  // id is its position, which writeMap has to give it anew when the groups' layer ranges are laid out again
  // (ranges that overlap or run past the layers; fuzzer finding of map-diff). Such layers stay in their order.
  compareList(changes, 'unknownItems', a.unknownItems, b.unknownItems, (i) => `item type ${i.type} id ${i.id}`, (x, y) => x.type === y.type && (x.id === y.id || mapItemTypeOf(x)?.name === 'layer') && same(x.data, y.data));
  return { changes, tiles };
}

/** `1 tile`, `2 tiles`. */
export const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** diffMaps as text: one line per element difference, then one per changed tile (as DDNet's map_diff prints them). */
export function formatMapDiff(diff: MapDiff): string {
  // Sizes (`64 bytes`) as they are, other values as JSON (strings quoted), null as none.
  const value = (v: unknown) => (v === null ? 'none' : typeof v === 'string' && /^\d+ (bytes?|ints?|entry|entries)( of tiles)?(, .*changed)?$/.test(v) ? v : JSON.stringify(v));
  const lines = diff.changes.map((c) => `${c.path}: ${c.what}${c.fields ? `: ${c.fields.map((f) => `${f.field} ${value(f.from)} -> ${value(f.to)}`).join(', ')}` : ''}`);
  const named = (hex: string, name: string | undefined) => (name ? `${hex} (${name})` : hex);
  for (const t of diff.tiles) lines.push(`  [${t.group}.${t.layer}:${t.name}] ${t.kind} ${t.x}x${t.y}: ${named(t.from, t.fromName)} -> ${named(t.to, t.toName)}`);
  return lines.length ? `${lines.join('\n')}\n` : 'no differences\n';
}

/** Reads one of the two maps of diffMapFiles (`which`: a or b, for callers that name the input in errors). */
export type DiffMapReader = (input: Uint8Array | Datafile, options: ReadMapOptions, which: 'a' | 'b') => TwMap;

// The data fields of tile layers: `data` and each physics kind's.
const TILE_DATA_FIELDS = [...new Set(TILEMAP_KINDS.map((k) => k.field as string).concat('data'))];

/**
 * diffMaps of two map files (read leniently), inflating only the data whose comparison can tell something:
 * tiles, pixels and sounds whose data item has the same stored bytes (and declared size) as its counterpart's
 * in the other map are equal without inflating them, so both sides leave them out (issue 28: a map against
 * its resave inflated and hashed every layer and image of both). The result is diffMaps' on fully read maps.
 */
export function diffMapFiles(a: Uint8Array | Datafile, b: Uint8Array | Datafile, read: DiffMapReader = (input, options) => readMap(input, options)): MapDiff {
  // First the items only: what refers to which data item on each side.
  const itemsA = read(a, { strict: false, inflateData: () => false }, 'a');
  const itemsB = read(b, { strict: false, inflateData: () => false }, 'b');
  const [skipA, skipB] = equalStoredData(itemsA, itemsB);
  const full = (items: TwMap, skip: Set<number>, which: 'a' | 'b') => read(items.datafile!, { strict: false, ...(skip.size ? { inflateData: (i: number) => !skip.has(i) } : {}) }, which);
  const mapA = full(itemsA, skipA, 'a');
  const mapB = full(itemsB, skipB, 'b');
  // Left-out data reads as empty on both sides of a pair, which compares as equal, as the data does.
  return diffMaps(mapA, mapB);
}

/**
 * The data items of each map that diffMaps need not see: those of the tiles, pixels and sounds it pairs whose
 * stored bytes equal their counterpart's, read the same way (same layer kind, size and version for tiles),
 * and in no pair that differs (a data item two elements share is inflated for both when one pair differs).
 */
function equalStoredData(a: TwMap, b: TwMap): [Set<number>, Set<number>] {
  const pairs: { a: number; b: number; equal: boolean }[] = [];
  const stored = (map: TwMap, index: number) => (Number.isInteger(index) && index >= 0 ? map.datafile?.data[index] : undefined);
  const pair = (ia: unknown, ib: unknown, readAlike: boolean) => {
    if (typeof ia !== 'number' || typeof ib !== 'number') return;
    const da = stored(a, ia);
    const db = stored(b, ib);
    const equal = readAlike && !!da?.stored && !!db?.stored && da.size === db.size && da.storedCompressed === db.storedCompressed && bytesEqual(da.stored, db.stored);
    pairs.push({ a: ia, b: ib, equal });
  };
  for (let i = 0; i < Math.min(a.images.length, b.images.length); i++) {
    const [x, y] = [a.images[i]!.item, b.images[i]!.item];
    if (!x.external && !y.external) pair(x.data, y.data, true);
  }
  for (let i = 0; i < Math.min(a.sounds.length, b.sounds.length); i++) pair(a.sounds[i]!.item.data, b.sounds[i]!.item.data, true);
  for (let g = 0; g < Math.min(a.groups.length, b.groups.length); g++) {
    const [ga, gb] = [a.groups[g]!.layers, b.groups[g]!.layers];
    for (let l = 0; l < Math.min(ga.length, gb.length); l++) {
      const [la, lb] = [ga[l]!, gb[l]!];
      if (la.kind !== 'tilemap' || lb.kind !== 'tilemap') continue;
      // Tiles read from equal bytes are equal when they are read the same way: kind, size, skip compression.
      const alike = la.tilemapKind === lb.tilemapKind && la.item.width === lb.item.width && la.item.height === lb.item.height && la.item.version === lb.item.version;
      for (const field of TILE_DATA_FIELDS) pair((la.item as unknown as Record<string, unknown>)[field], (lb.item as unknown as Record<string, unknown>)[field], alike);
    }
  }
  const neededA = new Set<number>();
  const neededB = new Set<number>();
  for (const p of pairs) {
    if (p.equal) continue;
    neededA.add(p.a);
    neededB.add(p.b);
  }
  // A pair is left out on both sides or on neither.
  for (let changed = true; changed; ) {
    changed = false;
    for (const p of pairs) {
      if (neededA.has(p.a) === neededB.has(p.b)) continue;
      neededA.add(p.a);
      neededB.add(p.b);
      changed = true;
    }
  }
  return [new Set(pairs.filter((p) => !neededA.has(p.a)).map((p) => p.a)), new Set(pairs.filter((p) => !neededB.has(p.b)).map((p) => p.b))];
}
