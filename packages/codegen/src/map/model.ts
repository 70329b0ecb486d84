// The map schema model after loading and checking: what the map emitters work from.

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
  /** The writer derives it from the map's layout (a range, a count, a size); not content of its own. */
  derived?: true;
  /** The least value DDNet accepts (i32 fields). */
  min?: number;
  /** What a value counts in (`ms`, `22.10 world units`, `0-255`, ...), shown in the docs' unit column. */
  unit?: string;
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

/** A named value of an item's version field, for code that depends on it (`known_versions` in YAML). */
export interface KnownVersion {
  name: string;
  value: number;
  description: string;
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
  knownVersions?: KnownVersion[];
  kinds?: KindsDef;
}

export interface ItemDef {
  kind: 'item';
  name: string;
  file: string;
  description: string;
  /** Where the layout was checked (a source file with its tag, a corpus file): `checked` in YAML. */
  checked: string[];
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
  knownVersions?: KnownVersion[];
}

export interface RecordDef {
  kind: 'record';
  name: string;
  file: string;
  description: string;
  /** Where the layout was checked (a source file with its tag, a corpus file): `checked` in YAML. */
  checked: string[];
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
  /** Where the layout was checked (a source file with its tag, a corpus file): `checked` in YAML. */
  checked: string[];
  notes: string[];
  bytes: number;
  fields: TileFieldDef[];
}

export interface EnumDef {
  name: string;
  kind: 'enum' | 'flags';
  description: string;
  /** `bytes`: the size of one element of the kind (a pixel of an image format), for every value or none. */
  values: { name: string; value: number; description: string; bytes?: number }[];
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
