import { CodecError, type Uuid, uuidFromInts } from '@twcodec/runtime';
import type { SnapshotErrorCode } from './error-codes.js';

/** Errors of snapshot and delta parsing, building and applying. */
export class SnapshotError extends CodecError<SnapshotErrorCode> {}

// DDNet's limits (src/engine/shared/snapshot.h, 16.4).
export const SNAPSHOT_MAX_ITEMS = 1024;
export const SNAPSHOT_MAX_SIZE = 64 * 1024;
export const SNAPSHOT_MAX_TYPE = 0x7fff;
export const SNAPSHOT_MAX_ID = 0xffff;
/** Internal type ids from here up may be UUID types declared by type-0 items. */
export const SNAPSHOT_OFFSET_UUID_TYPE = 0x4000;

export interface SnapshotItem {
  type: number;
  id: number;
  /**
   * The item's ints; shared between snapshots while unchanged, so do not modify them in place. May be a view
   * on a buffer that holds other items' data too (fromInts' and applyDelta's): use byteOffset and length, not
   * `.buffer` alone.
   */
  data: Int32Array;
}

export const itemKey = (type: number, id: number) => ((type << 16) | id) | 0;

/** A snapshot: items in their order, looked up by key. Immutable once built. */
export class Snapshot {
  readonly items: readonly SnapshotItem[];
  private byKey: Map<number, number> | undefined;
  private size: number | undefined;
  /** checksum(), once known (given by applyDelta, or summed at the first call). */
  private crc: number | undefined;

  /**
   * `index`, `dataSize` and `crc` (internal): a key -> position map already known to be right for `items`, e.g.
   * that of a snapshot with the same keys in the same order, the size `items` are known to have, and their
   * checksum; they save building the map and summing the sizes and the ints again for every snapshot of a demo
   * or a capture.
   */
  constructor(items: readonly SnapshotItem[], index?: Map<number, number>, dataSize?: number, crc?: number) {
    this.items = items;
    this.byKey = index;
    this.size = dataSize;
    this.crc = crc;
  }

  /** checksum() when it is known without summing the ints (internal: applyDelta goes on from its base's). */
  get knownChecksum(): number | undefined {
    return this.crc;
  }

  /** The key -> first position map (built once; shared with snapshots that have the same keys in the same order). */
  keyIndex(): Map<number, number> {
    if (!this.byKey) {
      // Keys are unique in every snapshot but those built by hand: each set at once (one look-up per item
      // rather than a test and a set: applyDelta builds the index of every snapshot whose items came or went,
      // issue 41), and only when a key turned out repeated (fewer entries than items) is the index made again
      // keeping each key's first position.
      let byKey = new Map<number, number>();
      const items = this.items;
      for (let i = 0; i < items.length; i++) {
        const item = items[i]!;
        byKey.set(itemKey(item.type, item.id), i);
      }
      if (byKey.size !== items.length) {
        byKey = new Map<number, number>();
        for (let i = 0; i < items.length; i++) {
          const item = items[i]!;
          const k = itemKey(item.type, item.id);
          if (!byKey.has(k)) byKey.set(k, i);
        }
      }
      this.byKey = byKey;
    }
    return this.byKey;
  }

  /** Index of the item with `key` (type << 16 | id), or -1. */
  indexOf(key: number): number {
    return this.keyIndex().get(key) ?? -1;
  }

  get(type: number, id: number): SnapshotItem | undefined {
    return this.items[this.indexOf(itemKey(type, id))];
  }

  /** The wrapping i32 sum of all item data (keys excluded), as DDNet's CSnapshot::Crc. */
  checksum(): number {
    if (this.crc !== undefined) return this.crc;
    let sum = 0;
    for (const item of this.items) for (let i = 0; i < item.data.length; i++) sum = (sum + item.data[i]!) | 0;
    return (this.crc = sum);
  }

  /** Internal type id -> UUID, from the type-0 declaration items. */
  uuidTypes(): Map<number, Uuid> {
    const out = new Map<number, Uuid>();
    for (const item of this.items) {
      if (item.type === 0 && item.id >= SNAPSHOT_OFFSET_UUID_TYPE && item.data.length >= 4 && !out.has(item.id)) out.set(item.id, uuidFromInts(item.data));
    }
    return out;
  }

  /** Size in bytes of the serialised snapshot. */
  get dataSize(): number {
    return (this.size ??= this.items.reduce((s, item) => s + 4 + item.data.length * 4, 0));
  }

  /** Parses the snapshot layout: data_size, num_items, offsets, items. Checks what DDNet's IsValid checks, and its limits. */
  static fromInts(ints: Int32Array, path = 'snapshot'): Snapshot {
    const fail = (code: SnapshotErrorCode, message: string, at: number): never => {
      throw new SnapshotError(code, message, at * 4, path);
    };
    if (ints.length < 2) fail('TRUNCATED', `${ints.length} ints, the header needs 2`, ints.length);
    const dataSize = ints[0]!;
    const numItems = ints[1]!;
    if (numItems < 0 || dataSize < 0 || dataSize % 4 !== 0) fail('BAD_HEADER', `num_items ${numItems}, data_size ${dataSize}`, 0);
    if (numItems > SNAPSHOT_MAX_ITEMS || dataSize > SNAPSHOT_MAX_SIZE) fail('LIMIT', `${numItems} items, ${dataSize} bytes: over DDNet's limits`, 0);
    if (ints.length !== 2 + numItems + dataSize / 4) fail('SIZE_MISMATCH', `header describes ${2 + numItems + dataSize / 4} ints, got ${ints.length}`, 0);
    // DDNet's IsValid allows bytes that belong to no item (data before the first offset, or data with no
    // items); its builder never writes them and the item model cannot hold them, so they are refused.
    if (numItems === 0 ? dataSize !== 0 : ints[2] !== 0) fail('BAD_LAYOUT', `data bytes before the first item or without items (data_size ${dataSize})`, 2);
    const dataAt = 2 + numItems;
    // One copy of the data area, each item a view on it: a typed array over 64 bytes of its own costs a
    // backing store (~20 times a view, Node 20), and neighbouring items stay neighbours in memory.
    const copy = ints.slice(dataAt).buffer;
    const items: SnapshotItem[] = [];
    // DDNet's IsValid does not look at keys, but its builder never repeats one and every lookup (deltas,
    // the client's item access) finds only the first: a repeated key is an item no delta can reach.
    const byKey = new Map<number, number>(); // kept as the snapshot's key index
    for (let i = 0; i < numItems; i++) {
      const offset = ints[2 + i]!;
      const end = i + 1 < numItems ? ints[3 + i]! : dataSize;
      if (offset < 0 || offset > dataSize || offset % 4 !== 0) fail('BAD_OFFSET', `item ${i} at offset ${offset}`, 2 + i);
      if (end - offset < 4) fail('BAD_OFFSET', `item ${i} has ${end - offset} bytes, its key needs 4`, 2 + i);
      const at = dataAt + offset / 4;
      const key = ints[at]!;
      if (byKey.has(key)) fail('DUPLICATE_KEY', `item ${i} repeats the key ${(key >>> 16) & 0xffff}:${key & 0xffff}`, at);
      byKey.set(key, i);
      // The next item's offset, checked now (as its own turn would) because this item's view ends there.
      if (end > dataSize || end % 4 !== 0) fail('BAD_OFFSET', `item ${i + 1} at offset ${end}`, 3 + i);
      items.push({ type: (key >>> 16) & 0xffff, id: key & 0xffff, data: new Int32Array(copy, offset + 4, (end - offset - 4) / 4) });
    }
    return new Snapshot(items, byKey, dataSize);
  }

  /** Builds the snapshot layout. */
  toInts(): Int32Array {
    const dataSize = this.dataSize;
    const out = new Int32Array(2 + this.items.length + dataSize / 4);
    out[0] = dataSize;
    out[1] = this.items.length;
    let offset = 0;
    let at = 2 + this.items.length;
    this.items.forEach((item, i) => {
      out[2 + i] = offset;
      out[at++] = itemKey(item.type, item.id);
      out.set(item.data, at);
      at += item.data.length;
      offset += 4 + item.data.length * 4;
    });
    return out;
  }
}
