// The snapshot schema model after loading and checking.

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
  /** Where the values were checked, when not where the protocol's `checked` says. */
  checked?: string;
  values: { name: string; value: number }[];
}

export interface SnapshotProtocolDef {
  protocol: string;
  description: string;
  /** Where the file's facts were checked (a source file and tag, a corpus file), shown on the docs page. */
  checked?: string;
  /** Where the enums' and flag sets' values were checked. */
  enumsChecked?: string;
  enums: SnapshotEnumDef[];
  /** size: the ints the layout fixes; sizeInDelta: delta updates carry the size (always when size is unset). */
  items: (SnapshotLayoutDef & { type_id: number; size?: number; sizeInDelta: boolean })[];
  uuidItems: SnapshotUuidItemDef[];
}

export type SnapshotFieldType = 'i32' | 'bool' | 'tick' | 'enum' | 'flags' | 'fixed' | 'i32string' | 'i32array';

/** A field of a snapshot object or event, at its offset (in i32) in the item. */
export interface SnapshotFieldDef {
  name: string;
  type: SnapshotFieldType;
  offset: number;
  ints: number;
  min?: number;
  max?: number;
  mask?: number;
  default?: number;
  since?: string;
  scale?: number;
  /** array: the number of packed strings it holds (each ints / strings ints). */
  strings?: number;
  enum?: string;
  flags?: string;
  /** enum: false when DDNet checks no range (no range is taken from the enum). */
  checked?: boolean;
  /** The unit of the stored int (world units, tick, 1/256 world unit per tick, ...). */
  unit?: string;
  description?: string;
}

/** What numbered and UUID-typed snapshot items share: their layout. */
export interface SnapshotLayoutDef {
  name: string;
  description: string;
  event: boolean;
  since?: string;
  /** Where this item's facts were checked, beyond the protocol's `checked`. */
  checked?: string;
  /** The item of the same protocol whose fields come first. */
  extends?: string;
  /** All fields, those of the item it extends first. */
  fields: SnapshotFieldDef[];
}
