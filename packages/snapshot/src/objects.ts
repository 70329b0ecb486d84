// Typed views over snapshot items, driven by the field layouts generated from schemas/snapshot: a view reads
// its item's Int32Array through getters (nothing is copied), decodeObject/encodeObject turn an item into a
// plain object and back int for int, validateObject reports what DDNet's snapshot validation would.
import { decodeI32String, encodeI32String, uuidFromInts } from '@twcodec/runtime';
import type { SnapshotField, SnapshotLayout, SnapshotProtocol, SnapshotValueSet } from './generated/tables.gen.js';
import { type Snapshot, SNAPSHOT_OFFSET_UUID_TYPE, SnapshotError, type SnapshotItem } from './snapshot.js';

/** A typed, read-only view of one item: its named fields plus where it came from. */
export type ObjectView<Fields> = Fields & {
  /** The layout the item is read with (`layout.name`, e.g. `character`). */
  readonly layout: SnapshotLayout;
  /** The item: its internal type id (UUID types: the id the snapshot declared), id and ints (shared with the snapshot). */
  readonly item: Pick<SnapshotItem, 'type' | 'id' | 'data'>;
  /** Every field as a plain object (see decodeObject). */
  toObject(): DecodedObject;
};

/** An item as a plain object: fields by name, `extra` the ints after the known fields. */
export type DecodedObject = Record<string, number | boolean | string | number[] | undefined> & {
  /** Ints after the last known field (an item of a newer server), kept so that encoding gives them back. */
  extra?: number[];
  /** Ints of fields whose value cannot hold them exactly (a string not packed as DDNet packs it, a bool other than 0/1). */
  raw?: Record<string, number[]>;
};

/** An out-of-range or missing field, as DDNet's snapshot validation sees it. */
export interface ObjectProblem {
  name: string;
  type: number;
  id: number;
  field: string;
  /** `range`: value outside min..max (DDNet clamps it); `mask`: bits outside the flags' mask (0.7 refuses the item); `missing`: the item ends before a field without default (DDNet refuses the item). */
  code: 'range' | 'mask' | 'missing';
  value?: number;
  min?: number;
  max?: number;
  mask?: number;
  message: string;
}

/** The names of a protocol's layouts (typed when the protocol carries its object types). */
export type ObjectName<Objects> = keyof Objects & string;

/**
 * What a view reads for a field an older server's shorter item leaves out: the default is the raw int, as it
 * would be stored (DDNet's defaults are ints of its structs), so it is read as a stored int would be.
 */
function defaultValue(field: SnapshotField): number | boolean | Int32Array | undefined {
  const raw = field.default;
  if (raw === undefined) return undefined;
  switch (field.kind) {
    case 'fixed':
      return raw / field.scale!;
    case 'bool':
      return raw !== 0;
    case 'i32array':
      return new Int32Array(field.ints).fill(raw);
    default:
      return raw;
  }
}

function readField(field: SnapshotField, data: Int32Array): number | boolean | string | Int32Array | undefined {
  const at = field.offset;
  if (at + field.ints > data.length) {
    if (at < data.length) return data.subarray(at);
    return defaultValue(field);
  }
  switch (field.kind) {
    case 'bool':
      return data[at] !== 0;
    case 'fixed':
      return data[at]! / field.scale!;
    case 'i32string':
      return packedString(data, at, field.ints);
    case 'i32array':
      return data.subarray(at, at + field.ints);
    default:
      return data[at]!;
  }
}

// Decoded packed strings by item data: an item's ints are shared between snapshots while it is unchanged (a
// client info over a whole demo), so each is decoded once.
const stringCache = new WeakMap<Int32Array, Map<number, string>>();

/** IntsToStr with a fast path for ASCII (names are mostly ASCII) and a cache per item data. */
function packedString(data: Int32Array, at: number, ints: number): string {
  let cached = stringCache.get(data);
  const hit = cached?.get(at);
  if (hit !== undefined) return hit;
  let text = '';
  let ascii = true;
  scan: for (let i = 0; i < ints; i++) {
    const v = data[at + i]!;
    for (let shift = 24; shift >= 0; shift -= 8) {
      const b = ((v >>> shift) - 128) & 0xff;
      if (b === 0 || (i === ints - 1 && shift === 0)) break scan;
      if (b >= 0x80) {
        ascii = false;
        break scan;
      }
      text += String.fromCharCode(b);
    }
  }
  if (!ascii || (text === '' && data[at] === 0)) text = decodeI32String(data, at, ints);
  if (!cached) stringCache.set(data, (cached = new Map()));
  cached.set(at, text);
  return text;
}

interface ViewBase {
  readonly item: Pick<SnapshotItem, 'type' | 'id' | 'data'>;
}
type ViewClass = new (item: Pick<SnapshotItem, 'type' | 'id' | 'data'>) => ViewBase;

const viewClasses = new WeakMap<SnapshotLayout, ViewClass>();

/** One class per layout with a getter per field, so that views of one layout share a shape. */
function viewClassOf(layout: SnapshotLayout): ViewClass {
  let cls = viewClasses.get(layout);
  if (cls) return cls;
  cls = class {
    // Assigned, not a class field: a field's initializer (define semantics, ES2022) cost a quarter of reading
    // every view of a demo, one initializer per class made here.
    declare readonly item: Pick<SnapshotItem, 'type' | 'id' | 'data'>;
    constructor(item: Pick<SnapshotItem, 'type' | 'id' | 'data'>) {
      (this as { item: typeof item }).item = item;
    }
    get layout() {
      return layout;
    }
    toObject() {
      return decodeObject(layout, this.item.data);
    }
  };
  for (const field of layout.fields) {
    const at = field.offset;
    const plain = field.kind === 'i32' || field.kind === 'tick' || field.kind === 'enum' || field.kind === 'flags';
    const get = plain
      ? function (this: ViewBase) {
          const data = this.item.data;
          return at < data.length ? data[at] : field.default;
        }
      : function (this: ViewBase) {
          return readField(field, this.item.data);
        };
    Object.defineProperty(cls.prototype, camel(field.name), { get, enumerable: true });
  }
  viewClasses.set(layout, cls);
  return cls;
}

const camelNames = new Map<string, string>();
/** A field's property name (`reload_timer` -> `reloadTimer`), made once per name: decodeObject asks per item. */
function camel(name: string): string {
  let out = camelNames.get(name);
  if (out === undefined) camelNames.set(name, (out = name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())));
  return out;
}

/** A typed view of `data` under `layout`. */
export function viewObject<Fields = Record<string, unknown>>(layout: SnapshotLayout, item: Pick<SnapshotItem, 'type' | 'id' | 'data'>): ObjectView<Fields> {
  const cls = viewClassOf(layout);
  return new cls(item) as unknown as ObjectView<Fields>;
}

/**
 * The item's fields as a plain object (camelCase names). Fields past the item's end are left out (an
 * older server's shorter item), so that encodeObject gives back exactly the item's ints.
 */
export function decodeObject(layout: SnapshotLayout, data: Int32Array): DecodedObject {
  const out: DecodedObject = {};
  let end = 0;
  for (const field of layout.fields) {
    const key = camel(field.name);
    const at = field.offset;
    if (at >= data.length) break;
    if (at + field.ints > data.length) {
      // Cut inside a string or array: keep what there is.
      (out.raw ??= {})[key] = Array.from(data.subarray(at));
      end = data.length;
      break;
    }
    end = at + field.ints;
    const value = readField(field, data);
    if (field.kind === 'i32string') {
      const again = encodeI32String(value as string, field.ints);
      for (let i = 0; i < field.ints; i++) {
        if (again[i] !== data[at + i]) {
          (out.raw ??= {})[key] = Array.from(data.subarray(at, at + field.ints));
          break;
        }
      }
      out[key] = value as string;
    } else if (field.kind === 'bool' && data[at] !== 0 && data[at] !== 1) {
      (out.raw ??= {})[key] = [data[at]!];
      out[key] = true;
    } else if (field.kind === 'i32array') {
      out[key] = Array.from(value as Int32Array);
    } else out[key] = value as number | boolean;
  }
  if (end < data.length) out.extra = Array.from(data.subarray(end));
  return out;
}

/** The name of an enum value (`weapon` 1 -> `gun`), or undefined for a value the set does not name. */
export function valueName(set: SnapshotValueSet, value: number): string | undefined {
  for (const v of set.values) if (v.value === value) return v.name;
  return undefined;
}

/**
 * The names of the bits set in a flags value, lowest bit first (`character_flags` 3 -> `['solo', 'jetpack']`);
 * a bit the set does not name is `bit_N`, so that no set bit goes unmentioned.
 */
export function flagNames(set: SnapshotValueSet, value: number): string[] {
  const out: string[] = [];
  for (let bit = 0; bit < 32; bit++) {
    if (((value >>> bit) & 1) === 0) continue;
    const named = set.values.find((v) => (v.value | 0) === 1 << bit);
    out.push(named ? named.name : `bit_${bit}`);
  }
  return out;
}

/** A field's value as text: enum values by name, flags as names joined with `|` (`solo|jetpack`); undefined for other fields or unnamed enum values. */
export function fieldValueText(field: SnapshotField, value: number): string | undefined {
  if (!field.values) return undefined;
  return field.kind === 'flags' ? flagNames(field.values, value).join('|') : valueName(field.values, value);
}

/**
 * The names beside the numbers of an item's enum and flags fields, keyed like decodeObject's fields (camelCase):
 * `{ weapon: 'gun', playerFlags: ['playing', 'aim'] }`. Enum values the schema does not name, and fields past
 * the item's end, are left out.
 */
export function objectValueNames(layout: SnapshotLayout, data: Int32Array): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const field of layout.fields) {
    if (!field.values || field.offset >= data.length) continue;
    const value = data[field.offset]!;
    const name = field.kind === 'flags' ? flagNames(field.values, value) : valueName(field.values, value);
    if (name !== undefined) out[camel(field.name)] = name;
  }
  return out;
}

/** Packs a plain object into the item's ints: fields in layout order until the first absent one, then `extra`. */
export function encodeObject(layout: SnapshotLayout, object: DecodedObject, path = layout.name): Int32Array {
  const ints: number[] = [];
  for (const field of layout.fields) {
    const key = camel(field.name);
    const raw = object.raw?.[key];
    if (raw) {
      ints.push(...raw);
      if (raw.length < field.ints) break;
      continue;
    }
    const value = object[key];
    if (value === undefined) break;
    const bad = (what: string): never => {
      throw new SnapshotError('BAD_FIELD', `${key} must be ${what}, got ${typeof value}`, 0, `${path}.${key}`);
    };
    switch (field.kind) {
      case 'i32string':
        if (typeof value !== 'string') bad('a string');
        ints.push(...encodeI32String(value as string, field.ints));
        break;
      case 'i32array':
        if (!Array.isArray(value) || value.length !== field.ints) bad(`${field.ints} ints`);
        ints.push(...(value as number[]).map((v) => v | 0));
        break;
      case 'bool':
        if (typeof value !== 'boolean') bad('a boolean');
        ints.push(value ? 1 : 0);
        break;
      case 'fixed':
        if (typeof value !== 'number') bad('a number');
        ints.push(Math.round((value as number) * field.scale!) | 0);
        break;
      default:
        if (typeof value !== 'number') bad('a number');
        ints.push((value as number) | 0);
    }
  }
  if (object.extra) ints.push(...object.extra);
  return Int32Array.from(ints);
}

/** What DDNet's snapshot validation reports for one item: values out of range, flags outside their mask, missing fields. */
export function validateObject(layout: SnapshotLayout, item: Pick<SnapshotItem, 'type' | 'id' | 'data'>): ObjectProblem[] {
  const problems: ObjectProblem[] = [];
  const { data } = item;
  const where = `${layout.name} ${item.id}`;
  for (const field of layout.fields) {
    if (field.offset + field.ints > data.length) {
      if (field.default === undefined) {
        problems.push({ name: layout.name, type: item.type, id: item.id, field: field.name, code: 'missing', message: `${where}: the item ends (${data.length} ints) before ${field.name}, which has no default` });
      }
      continue;
    }
    for (let i = 0; i < field.ints; i++) {
      const value = data[field.offset + i]!;
      const name = field.ints > 1 ? `${field.name}[${i}]` : field.name;
      if ((field.min !== undefined && value < field.min) || (field.max !== undefined && value > field.max)) {
        problems.push({ name: layout.name, type: item.type, id: item.id, field: name, code: 'range', value, min: field.min, max: field.max, message: `${where}: ${name} ${value} is outside ${field.min}..${field.max}` });
      }
      if (field.mask !== undefined && (value & field.mask) !== value) {
        problems.push({ name: layout.name, type: item.type, id: item.id, field: name, code: 'mask', value, mask: field.mask, message: `${where}: ${name} ${value} has bits outside the mask ${field.mask}` });
      }
    }
  }
  return problems;
}

/** The layouts of a protocol by numbered type and by UUID. */
interface ProtocolIndex {
  byType: (SnapshotLayout | undefined)[];
  classByType: (ViewClass | undefined)[];
  byUuid: Map<string, SnapshotLayout>;
  byName: Map<string, SnapshotLayout>;
}
const indexes = new WeakMap<SnapshotProtocol, ProtocolIndex>();
function indexOf(protocol: SnapshotProtocol): ProtocolIndex {
  let index = indexes.get(protocol);
  if (!index) {
    index = { byType: [], classByType: [], byUuid: new Map(), byName: new Map() };
    for (const t of protocol.items) {
      index.byType[t.typeId] = t;
      index.classByType[t.typeId] = viewClassOf(t);
      index.byName.set(t.name, t);
    }
    for (const u of protocol.uuidItems) {
      index.byUuid.set(u.uuid, u);
      index.byName.set(u.name, u);
    }
    indexes.set(protocol, index);
  }
  return index;
}

/** The layout named `name` in `protocol`. */
export function layoutNamed(protocol: SnapshotProtocol, name: string): SnapshotLayout | undefined {
  return indexOf(protocol).byName.get(name);
}

/** Where an item's type comes from when no layout fits: an undeclared UUID type id, a declared but unknown UUID, or an unknown numbered type. */
export type UnknownItemReason = 'unknown_type' | 'unknown_uuid' | 'undeclared_uuid_type';

/** One item of a snapshot, decoded: a typed view, or why its type is unknown. */
export type SnapshotObjectEntry =
  | { known: true; view: ObjectView<Record<string, unknown>> }
  | { known: false; item: SnapshotItem; reason: UnknownItemReason; uuid?: string };

const uuidOfDeclaration = new WeakMap<Int32Array, string>();

/** A snapshot read through a protocol's layouts. */
export class SnapshotObjects<Objects = unknown> {
  private readonly index: ProtocolIndex;
  private readonly layoutByType: Map<number, SnapshotLayout>;
  private readonly uuids: Map<number, string>;

  constructor(
    readonly snapshot: Snapshot,
    readonly protocol: SnapshotProtocol<Objects>,
  ) {
    this.index = indexOf(protocol as SnapshotProtocol);
    this.uuids = new Map();
    this.layoutByType = new Map();
    // As Snapshot.uuidTypes(), with each declaration's UUID text cached by its (shared) ints.
    for (const item of snapshot.items) {
      if (item.type !== 0 || item.id < SNAPSHOT_OFFSET_UUID_TYPE || item.data.length < 4 || this.uuids.has(item.id)) continue;
      let uuid = uuidOfDeclaration.get(item.data);
      if (uuid === undefined) uuidOfDeclaration.set(item.data, (uuid = uuidFromInts(item.data)));
      this.uuids.set(item.id, uuid);
      const layout = this.index.byUuid.get(uuid);
      if (layout) this.layoutByType.set(item.id, layout);
    }
  }

  /** The layout of an item's type, if the protocol knows it. */
  layoutOf(type: number): SnapshotLayout | undefined {
    return type < 64 ? this.index.byType[type] : this.layoutByType.get(type);
  }

  /** Typed views of the items of the layout `name` (e.g. `character`), in snapshot order. */
  items<Name extends ObjectName<Objects>>(name: Name): ObjectView<Objects[Name]>[] {
    const layout = this.index.byName.get(name);
    if (!layout) throw new SnapshotError('UNKNOWN_OBJECT', `protocol ${this.protocol.name} has no object named ${name}`, 0, 'snapshot');
    const out: ObjectView<Objects[Name]>[] = [];
    for (const item of this.snapshot.items) if (this.layoutOf(item.type) === layout) out.push(viewObject(layout, item));
    return out;
  }

  /** Every item: a typed view, or the item and why its type is unknown. */
  *entries(): Generator<SnapshotObjectEntry> {
    const classes = this.index.classByType;
    for (const item of this.snapshot.items) {
      const type = item.type;
      // The view class of a numbered type straight from the protocol's table: no lookup by layout per item.
      const cls = type < 64 ? classes[type] : undefined;
      if (cls) {
        yield { known: true, view: new cls(item) as unknown as ObjectView<Record<string, unknown>> };
        continue;
      }
      const layout = this.layoutOf(type);
      if (layout) {
        yield { known: true, view: viewObject(layout, item) };
        continue;
      }
      const uuid = this.uuids.get(item.type);
      if (uuid) yield { known: false, item, reason: 'unknown_uuid', uuid };
      else yield { known: false, item, reason: item.type >= 0x4000 ? 'undeclared_uuid_type' : 'unknown_type' };
    }
  }

  /** What DDNet's snapshot validation would report for every known item. */
  validate(): ObjectProblem[] {
    const problems: ObjectProblem[] = [];
    for (const item of this.snapshot.items) {
      const layout = this.layoutOf(item.type);
      if (layout && item.type !== 0) problems.push(...validateObject(layout, item));
    }
    return problems;
  }
}

/** Reads `snapshot` through the layouts of `protocol`: `snapshotObjects(s, DDNET_0_6).items('character')[0].x`. */
export function snapshotObjects<Objects>(snapshot: Snapshot, protocol: SnapshotProtocol<Objects>): SnapshotObjects<Objects> {
  return new SnapshotObjects(snapshot, protocol);
}
