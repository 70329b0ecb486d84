// The schema model after loading and checking: what the emitters work from.

export type FieldType =
  | 'i32'
  | 'bool'
  | 'u8'
  | 'point'
  | 'color'
  | 'i32color'
  | 'i32string'
  | 'i32array'
  | 'enum'
  | 'flags'
  | 'data_ref'
  | 'item_ref'
  | 'version';

export interface FieldDef {
  name: string;
  type: FieldType;
  description: string;
  ints?: number;
  enum?: string;
  flags?: string;
  optional?: boolean;
  ref?: string;
  data?: string;
}

export type FieldEntry =
  | { kind: 'field'; field: FieldDef }
  | { kind: 'since_version'; version: number; description?: string; fields: FieldDef[] }
  | { kind: 'if_room'; description?: string; fields: FieldDef[] };

/** The values of an item's version field DDNet reads, and what it does with an item outside them. */
export interface VersionRange {
  min: number;
  max: number;
  outside: 'refused' | 'ignored';
  description?: string;
}

/** Kinds of a variant told apart by the one flag set in `on`; each kind's tiles are behind its `tiles` field. */
export interface KindsDef {
  on: string;
  none: { name: string; tiles: string };
  flags: { flag: string; tiles: string }[];
}

export interface VariantDef {
  name: string;
  value: number;
  description: string;
  notes: string[];
  fields: FieldEntry[];
  versions?: VersionRange;
  kinds?: KindsDef;
}

export interface ItemDef {
  kind: 'item';
  name: string;
  file: string;
  description: string;
  notes: string[];
  typeId?: number;
  uuidName?: string;
  uuid?: string;
  ddnetOnly: boolean;
  oneItem: boolean;
  fields: FieldEntry[];
  variants?: { on: string; cases: VariantDef[] };
  array?: { records: string[]; description: string };
  versions?: VersionRange;
}

export interface RecordDef {
  kind: 'record';
  name: string;
  file: string;
  description: string;
  notes: string[];
  extends?: string;
  /** All fields, including those of the record it extends. */
  fields: FieldDef[];
  ints: number;
}

export interface TileFieldDef {
  name: string;
  type: 'u8' | 'i16' | 'u16' | 'padding';
  flags?: string;
  must_be_zero?: true;
  description: string;
}

export interface TileDef {
  kind: 'tile';
  name: string;
  file: string;
  description: string;
  notes: string[];
  bytes: number;
  fields: TileFieldDef[];
}

export interface EnumDef {
  name: string;
  kind: 'enum' | 'flags';
  description: string;
  values: { name: string; value: number; description: string }[];
}

export interface SchemaSet {
  items: ItemDef[];
  records: RecordDef[];
  tiles: TileDef[];
  enums: EnumDef[];
}

/** The fields of a layout, groups flattened, in order. */
export function flatFields(entries: FieldEntry[]): FieldDef[] {
  return entries.flatMap((e) => (e.kind === 'field' ? [e.field] : e.fields));
}

/** Width of a field in i32. */
export function fieldInts(field: FieldDef): number {
  switch (field.type) {
    case 'point':
      return 2;
    case 'color':
    case 'i32color':
      return 4;
    case 'i32string':
    case 'i32array':
      return field.ints!;
    default:
      return 1;
  }
}

export function tileFieldBytes(field: TileFieldDef): number {
  return field.type === 'i16' || field.type === 'u16' ? 2 : 1;
}

export const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const pascal = (name: string) => camel(name).replace(/^[a-z]/, (c) => c.toUpperCase());

// Teehistorian

export type ThFieldType = 'int' | 'str' | 'raw' | 'rest' | 'uuid' | 'int_array' | 'str_array';

export interface ThFieldDef {
  name: string;
  type: ThFieldType;
  count?: number;
  description: string;
}

export interface ThMessageDef {
  name: string;
  id: number;
  description: string;
  fields: ThFieldDef[];
}

export interface ThExtensionDef {
  name: string;
  uuid_name: string;
  uuidName: string;
  uuid: string;
  since: string;
  description: string;
  fields: ThFieldDef[];
}

export interface TeehistorianSchema {
  messages: ThMessageDef[];
  extensions: ThExtensionDef[];
}

// Snapshots

export interface SnapshotUuidItemDef extends SnapshotLayoutDef {
  name: string;
  uuidName: string;
  uuid: string;
  size: number;
  variableSize: boolean;
  description: string;
}

/** An enum or flag set of a snapshot protocol: names with their values (flags: one bit each). */
export interface SnapshotEnumDef {
  name: string;
  kind: 'enum' | 'flags';
  /** The prefix of DDNet's constants, e.g. EMOTE. */
  ddnet?: string;
  description?: string;
  values: { name: string; value: number }[];
}

export interface SnapshotProtocolDef {
  protocol: string;
  description: string;
  enums: SnapshotEnumDef[];
  /** size: the ints the layout fixes; sizeInDelta: delta updates carry the size (always when size is unset). */
  items: (SnapshotLayoutDef & { type_id: number; size?: number; sizeInDelta: boolean })[];
  uuidItems: SnapshotUuidItemDef[];
}

export type SnapshotFieldKind = 'int' | 'bool' | 'tick' | 'enum' | 'flags' | 'fixed' | 'string' | 'array';

/** A field of a snapshot object or event, at its offset (in i32) in the item. */
export interface SnapshotFieldDef {
  name: string;
  kind: SnapshotFieldKind;
  offset: number;
  ints: number;
  min?: number;
  max?: number;
  mask?: number;
  default?: number;
  since?: string;
  scale?: number;
  enum?: string;
  flags?: string;
  description?: string;
}

/** What numbered and UUID-typed snapshot items share: their layout. */
export interface SnapshotLayoutDef {
  name: string;
  description: string;
  event: boolean;
  since?: string;
  /** The item of the same protocol whose fields come first. */
  extends?: string;
  /** All fields, those of the item it extends first. */
  fields: SnapshotFieldDef[];
}
