// The item and data side of writeMap: which of the source file's items and data items an element keeps (an
// unchanged element keeps its ints and stored bytes, a changed one replaces them in place), item ids, and the
// order of the items in the file. write.ts lays out the map's structure on top of it.
import { Datafile, DatafileData, type DatafileItem, ITEMTYPE_EX } from '@twcodec/datafile';
import { concatBytes, decodeCString, deepEqual, encodeUtf8, type Uuid } from '@twcodec/runtime';
import { MAP_ITEM_TYPES, type MapItemName } from './generated/index.gen.js';
import type { TwMap } from './model.js';
import { isCollectedItemType, mapItemTypeOf } from './read.js';

export const encodeCString = (text: string) => {
  const bytes = encodeUtf8(text);
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  return out;
};

export const encodeCStringList = (list: string[]) => concatBytes(list.map(encodeCString));

/**
 * A changed item's ints, with the ints of each string field that did not change copied from the original
 * item: a name is held as text, and bytes that are not UTF-8 (read as U+FFFD) or follow its NUL cannot be
 * encoded back from it, so an item changed elsewhere (a count, a data index) would otherwise get another name
 * (fuzzer finding: a layer named "Quad" and four invalid bytes came back with three U+FFFD). Where a field's
 * ints are is found by encoding it with two different texts; it is copied only when it takes the same ints
 * in both items.
 */
function keepStringInts<T>(
  ints: Int32Array,
  item: T,
  positional: { read: T; ints: Int32Array } | undefined,
  others: () => { read: T; ints: Int32Array }[],
  encode: (item: T) => Int32Array,
): Int32Array {
  const fields = Object.entries(item as object).filter(([, value]) => typeof value === 'string');
  let out = ints;
  let candidates: { read: T; ints: Int32Array }[] | undefined;
  for (const [key, value] of fields) {
    const same = (c: { read: T }) => (c.read as Record<string, unknown>)[key] === value;
    let source = positional && same(positional) ? positional : undefined;
    // Only text that cannot be encoded back is worth a search among the other items.
    if (!source && (value as string).includes('\uFFFD')) source = (candidates ??= others()).find(same);
    if (!source) continue;
    const now = firstStringInt(item, key, encode);
    const before = firstStringInt(source.read, key, encode);
    if (now === undefined || before === undefined) continue;
    const span = stringSpan(item, key, encode, now);
    if (span === 0 || stringSpan(source.read, key, encode, before) !== span) continue;
    if (out === ints) out = ints.slice();
    out.set(source.ints.subarray(before, before + span), now);
  }
  return out;
}

/** The first int of string field `key` in `value`'s encoding: the one int two one-byte texts differ in. */
function firstStringInt<T>(value: T, key: string, encode: (item: T) => Int32Array): number | undefined {
  try {
    const a = encode({ ...value, [key]: '\u0001' });
    const b = encode({ ...value, [key]: '\u0002' });
    if (a.length !== b.length) return undefined;
    const at: number[] = [];
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) at.push(i);
    return at.length === 1 ? at[0] : undefined;
  } catch {
    return undefined;
  }
}

/** How many ints the string field `key` starting at int `at` takes: the run that a long text changes. */
function stringSpan<T>(value: T, key: string, encode: (item: T) => Int32Array, at: number): number {
  try {
    const empty = encode({ ...value, [key]: '' });
    const full = encode({ ...value, [key]: '\u0001'.repeat(4096) });
    if (empty.length !== full.length) return 0;
    let n = 0;
    while (at + n < empty.length && empty[at + n] !== full[at + n]) n++;
    return n;
  } catch {
    return 0;
  }
}

export abstract class MapItemWriter {
  protected readonly src: Datafile | undefined;
  protected readonly out: Datafile;
  /** Source data items already given to an element; a second user gets a new data item. */
  protected readonly claimed = new Set<number>();
  /** The regenerated blocks of item ints, by map item type name. */
  protected readonly blocks = new Map<MapItemName, Int32Array[]>();
  protected readonly srcItems = new Map<MapItemName, DatafileItem[]>();
  /** The item ids of each collected type's block, once worked out (see itemId). */
  protected readonly collectedIds = new Map<MapItemName, number[]>();
  /** Unknown items written as part of a block (layers no group uses). */
  protected readonly absorbed = new Set<DatafileItem>();

  constructor(protected readonly map: TwMap) {
    this.src = map.datafile;
    this.out = new Datafile({ zlib: this.src?.zlib });
    if (this.src) {
      this.out.magic = this.src.magic;
      this.out.version = this.src.version;
      this.out.legacySize = this.src.legacySize;
      this.out.legacySwaplen = this.src.legacySwaplen;
      this.out.data = this.src.data.slice();
      for (const item of this.src.items) {
        const info = mapItemTypeOf(item);
        if (!info) continue;
        let list = this.srcItems.get(info.name);
        if (!list) this.srcItems.set(info.name, (list = []));
        // As readMap reads them: a second item of a one-per-map type (info, version) is an unknown item, kept
        // with its id; the first keeps its own (issue 36: it was numbered 0 beside a second one of id 0, and
        // the file had two info items of id 0, which readers refuse). DDNet's map_resave copies every item with
        // its id (DDNet 16.4 src/tools/map_resave.cpp).
        if (info.oneItem && list.length > 0) continue;
        list.push(item);
      }
    }
  }

  /**
   * The data index for an element whose content is `bytes()`: its original data item when the content did
   * not change (`same` decides, given the original data item), else that item replaced, else a new one.
   */
  protected dataIndex(original: number | undefined, bytes: () => Uint8Array, same: (orig: DatafileData) => boolean): number {
    const src = this.src;
    if (original !== undefined && this.unreadable(original) && bytes().length === 0) return original;
    if (src && original !== undefined && original >= 0 && original < src.data.length && !this.claimed.has(original)) {
      this.claimed.add(original);
      const srcData = src.data[original]!;
      let unchanged = false;
      try {
        unchanged = same(srcData);
      } catch {
        unchanged = false; // corrupt original data: write the element's content instead
      } finally {
        srcData.unload();
      }
      if (!unchanged) {
        const raw = bytes();
        this.out.data[original] = new DatafileData({ index: original, size: raw.length, raw, zlib: this.out.zlib });
      }
      return original;
    }
    // A second element read from the same data item (DDNet refuses this for tiles): it shares the item
    // while both are unchanged, and gets its own data item once it differs.
    if (src && original !== undefined && this.claimed.has(original) && this.out.data[original] === src.data[original]) {
      const srcData = src.data[original]!;
      try {
        if (same(srcData)) return original;
      } catch {
        // corrupt original data: written as a new data item below
      } finally {
        srcData.unload();
      }
    }
    return this.out.addData(bytes());
  }

  /**
   * Whether `index` is a data reference readMap could not follow (out of range, or data that does not
   * inflate): an element read from it is empty, and while it stays empty the reference is written back as
   * it was, so that maps DDNet loads despite such references keep their bytes.
   */
  protected unreadable(index: number): boolean {
    const src = this.src;
    if (!src || index === -1) return false;
    if (!Number.isInteger(index) || index < 0 || index >= src.data.length || this.map.unreadData?.has(index)) return true;
    // readMap listed every reference it could not follow: the others need not be inflated to know (a 256 MB
    // layer was inflated once more here on every resave, issue 25).
    if (this.map.unreadData) return false;
    try {
      src.data[index]!.bytes();
      return false;
    } catch {
      return true;
    } finally {
      src.data[index]!.unload();
    }
  }

  /** Bytes of an element whose data may be missing (undefined): such a reference is kept when it was unreadable. */
  protected optionalBytes(original: number, bytes: Uint8Array | undefined): number {
    if (bytes === undefined) return this.unreadable(original) ? original : -1;
    return this.bytesData(original, bytes);
  }

  protected bytesData(original: number | undefined, bytes: Uint8Array): number {
    // Compared as the original inflates, without a copy of its size (see DatafileData#equals).
    return this.dataIndex(original, () => bytes, (orig) => orig.equals(bytes));
  }

  protected stringData(original: number | undefined, text: string): number {
    return this.dataIndex(original, () => encodeCString(text), (orig) => decodeCString(orig.bytes()) === text);
  }

  protected optionalString(original: number, text: string | undefined): number {
    if (text === undefined) return this.unreadable(original) ? original : -1;
    return this.stringData(original, text);
  }

  /** Adds an item's ints to its block, reusing the original ints when the item decodes to the same value. */
  protected emit<T>(name: MapItemName, item: T, encode: (item: T) => Int32Array, decode: (d: Int32Array) => T): void {
    let block = this.blocks.get(name);
    if (!block) this.blocks.set(name, (block = []));
    const original = this.srcItems.get(name)?.[block.length];
    let ints: Int32Array | undefined;
    let read: T | undefined;
    if (original) {
      try {
        read = decode(original.data);
        if (deepEqual(read, item)) ints = original.data;
      } catch {
        ints = undefined;
      }
    }
    if (ints) return void block.push(ints);
    // The items this one may have been read from: the one at its position, else (layers written in another
    // order than read) any of its type with the same text in a field that cannot be encoded back.
    const others = () =>
      (this.srcItems.get(name) ?? []).flatMap((raw) => {
        try {
          return [{ read: decode(raw.data), ints: raw.data }];
        } catch {
          return [];
        }
      });
    block.push(keepStringInts(encode(item), item, original && read !== undefined ? { read, ints: original.data } : undefined, others, encode));
  }

  /** Array items: their ints are compared directly. */
  protected emitRaw(name: MapItemName, ints: Int32Array): void {
    const original = this.srcItems.get(name)?.[0]?.data;
    const same = original && original.length === ints.length && original.every((v, i) => v === ints[i]);
    this.blocks.set(name, [same ? original : ints]);
  }

  /**
   * Lays the items out in the source file's order: each regenerated block where its type was, unknown items
   * where they were, the UUID index as it was; blocks of types the source did not have go last.
   */
  protected assemble(): void {
    const out = this.out;
    const unknown = new Set(this.map.unknownItems.filter((item) => !this.absorbed.has(item)));
    const placed = new Set<string>();
    const blockItems = (name: MapItemName, internalType: number, uuid: Uuid | undefined): DatafileItem[] =>
      (this.blocks.get(name) ?? []).map((data, i) => ({ type: internalType, id: this.itemId(name, i), uuid, data }));
    // The unknown item that stands for a source item: the item itself, or (map pack revives the model from
    // map.json, as new objects) one of the same type, id and ints, which then keeps its place too.
    const unknownFor = (item: DatafileItem): DatafileItem | undefined => {
      if (unknown.has(item)) return item;
      for (const other of unknown) if (sameItem(other, item)) return other;
      return undefined;
    };
    for (const item of this.src?.items ?? []) {
      const info = mapItemTypeOf(item); // undefined for the UUID index, which is kept as it is
      const kept = item.type === ITEMTYPE_EX ? undefined : unknownFor(item);
      if (item.type === ITEMTYPE_EX) out.items.push(item);
      else if (kept) {
        out.items.push(kept);
        unknown.delete(kept);
      } else if (info && !placed.has(info.name)) {
        placed.add(info.name);
        out.items.push(...blockItems(info.name, item.type, item.uuid));
      }
    }
    // Unknown items the source did not have (added by the caller), then new blocks in type order. A new block
    // of a one-per-map type goes before unknown items of its type: readMap takes the first such item as the
    // map's, the others as unknown items (a map packed without original.map whose second info item is kept
    // as unknown, issue 36).
    const addBlock = (info: (typeof MAP_ITEM_TYPES)[number]) => {
      if (placed.has(info.name) || !this.blocks.get(info.name)?.length) return;
      placed.add(info.name);
      this.blocks.get(info.name)!.forEach((data, i) => out.addItem(info.typeId ?? info.uuid!, this.itemId(info.name, i), data));
    };
    for (const info of MAP_ITEM_TYPES) if (info.oneItem && [...unknown].some((item) => item.type === info.typeId && item.uuid === undefined)) addBlock(info);
    for (const item of unknown) out.items.push(item);
    for (const info of MAP_ITEM_TYPES) addBlock(info);
  }

  /**
   * The item id of the `i`th item of a type. Structure items are numbered by position (DDNet refers to them
   * by index) unless the source's ids are kept (see below); items in `map.items` keep the ids they were read
   * with (DDNet's group extension uses the id as the group's index), new ones count on from the largest. Ids
   * stay unique within the type: items read from two internal types the UUID index gives one UUID (read as
   * one type, written as one) can carry the same id, and a later one gets the next free id (issue 26).
   */
  protected itemId(name: MapItemName, i: number): number {
    const src = this.srcItems.get(name) ?? [];
    if (!isCollectedItemType(name)) {
      // Ids out of order are kept while the type has as many items as it was read with: DDNet sees the same file.
      const count = this.blocks.get(name)?.length ?? 0;
      if (count === src.length && new Set(src.map((item) => item.id)).size === count) return src[i]!.id;
      return this.positionalIds(name, count)[i]!;
    }
    let ids = this.collectedIds.get(name);
    if (!ids) {
      const count = this.blocks.get(name)?.length ?? 0;
      const used = new Set<number>();
      // Fresh ids count on from past every id read, so that they meet none of them.
      let next = Math.max(src.length, ...src.map((item) => item.id + 1));
      ids = [];
      for (let k = 0; k < count; k++) {
        let id = k < src.length ? src[k]!.id : next++;
        if (used.has(id)) id = next++;
        used.add(id);
        ids.push(id);
      }
      this.collectedIds.set(name, ids);
    }
    return ids[i]!;
  }

  /**
   * Ids by position (0, 1, ...) for a structure block written afresh, past the ids of unknown items of the same
   * type written beside it (a second info item kept as unknown with id 0 would otherwise share its id with
   * the info item: issue 36).
   */
  protected positionalIds(name: MapItemName, count: number): number[] {
    let ids = this.collectedIds.get(name);
    if (!ids) {
      const typeId = MAP_ITEM_TYPES.find((t) => t.name === name)?.typeId;
      const taken = new Set(this.map.unknownItems.filter((item) => !this.absorbed.has(item) && item.uuid === undefined && item.type === typeId).map((item) => item.id));
      ids = [];
      for (let next = 0; ids.length < count; next++) if (!taken.has(next)) ids.push(next);
      this.collectedIds.set(name, ids);
    }
    return ids;
  }
}

/** Whether `a` is `b` or a copy of it: the same type, id and ints (item ids are unique within a type). */
export function sameItem(a: DatafileItem, b: DatafileItem): boolean {
  return a === b || (a.type === b.type && a.id === b.id && sameInts(a.data, b.data));
}

function sameInts(a: Int32Array, b: Int32Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
