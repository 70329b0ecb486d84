import { defaultDeflate, defaultZlib } from '#zlib';
import { asUint8Array, ByteWriter, bytesEqual, type Uuid, uuidFromInts, uuidToInts } from '@twcodec/runtime';
import { DatafileError } from './errors.js';
import { type DeflateFunction, InflateLimitError, maxInflatedSize, type ZlibCodec } from './zlib/types.js';

/** Type id of the items that map internal type ids to UUIDs. */
export const ITEMTYPE_EX = 0xffff;
/** Internal type ids above this one may stand for a UUID type (DDNet's OFFSET_UUID_TYPE). */
export const OFFSET_UUID_TYPE = 0x8000;
/** zlib level DDNet's writer uses (compress2 with Z_DEFAULT_COMPRESSION). */
export const DDNET_COMPRESSION_LEVEL = 6;

const HEADER_SIZE = 36;
/** magic, version, size and swaplen are not counted in size and swaplen. */
const SIZE_OFFSET = 16;

export interface DatafileItem {
  /** The type id as stored in the file (0..0xFFFF); for a UUID-typed item its internal id (0xFFFE, ...). */
  type: number;
  id: number;
  /** Set when `type` is declared in the file's UUID index (type 0xFFFF items). */
  uuid?: Uuid | undefined;
  data: Int32Array;
  /** Byte offset of the item's ints in the file it was read from, for error messages. */
  offset?: number;
}

export interface DatafileReadOptions {
  zlib?: ZlibCodec;
}

export type DatafileWriteMode = 'lossless' | 'ddnet';

export interface DatafileWriteOptions {
  /**
   * `lossless` (default) writes the file as it was read: same magic, version, item order, duplicate UUID
   * index items and original compressed bytes of unchanged data; an unchanged file comes back byte for byte.
   * `ddnet` lays the file out as DDNet's CDataFileWriter does when `map_resave` copies it.
   */
  mode?: DatafileWriteMode;
  zlib?: ZlibCodec;
  /**
   * Compresses data that needs compressing. Without it, the codec's (`zlib`, else the datafile's) `deflate`
   * is used, else in Node pako. Browser builds have no deflater by default (so that bundles which only read
   * stay small): pass `deflateLikeZlib` from `@twcodec/datafile/deflate` (writeMap does).
   */
  deflate?: DeflateFunction;
  /** Compress all data again, even data that still has its original bytes (`ddnet` mode only). */
  recompress?: boolean;
}

/**
 * One data item. Its bytes are inflated on first access and checked against the declared size; until it is
 * replaced, the original stored bytes are kept so that writing gives them back unchanged.
 */
export class DatafileData {
  /** Uncompressed size: declared in the file (v4) or the stored size (v3). */
  size: number;
  /** The bytes as stored in the file (a zlib stream for v4, raw for v3), while unchanged. */
  stored: Uint8Array | undefined;
  /** Whether `stored` is a zlib stream. */
  storedCompressed: boolean;
  /** Absolute offset of the stored bytes in the file they came from, for errors; -1 for new data. */
  readonly fileOffset: number;
  readonly index: number;
  private raw: Uint8Array | undefined;
  private readonly zlib: ZlibCodec;

  constructor(init: {
    index: number;
    size: number;
    stored?: Uint8Array | undefined;
    storedCompressed?: boolean;
    raw?: Uint8Array | undefined;
    fileOffset?: number;
    zlib: ZlibCodec;
  }) {
    this.index = init.index;
    this.size = init.size;
    this.stored = init.stored;
    this.storedCompressed = init.storedCompressed ?? false;
    this.raw = init.raw;
    this.fileOffset = init.fileOffset ?? -1;
    this.zlib = init.zlib;
  }

  /** Whether the uncompressed bytes were produced already (by access or because they were set). */
  get loaded(): boolean {
    return this.raw !== undefined;
  }

  /** The uncompressed bytes. Inflates on first call; throws DatafileError on corrupt or lying data. */
  bytes(): Uint8Array {
    if (this.raw) return this.raw;
    const stored = this.stored!;
    const path = `data[${this.index}]`;
    if (!this.storedCompressed) {
      this.raw = stored;
      return stored;
    }
    if (this.size === 0) {
      // DDNet loads such files but refuses to load this data item.
      throw new DatafileError('DATA_SIZE_ZERO', 'data item has uncompressed size 0', this.fileOffset, path);
    }
    if (this.size > maxInflatedSize(stored.length)) {
      throw new DatafileError(
        'DATA_SIZE_IMPOSSIBLE',
        `declared size ${this.size} cannot come from ${stored.length} compressed bytes`,
        this.fileOffset,
        path,
      );
    }
    let out: Uint8Array;
    try {
      out = this.zlib.inflate(stored, this.size);
    } catch (e) {
      if (e instanceof InflateLimitError) {
        throw new DatafileError('DATA_SIZE_MISMATCH', `inflates to more than the declared ${this.size} bytes`, this.fileOffset, path);
      }
      throw new DatafileError('INFLATE_FAILED', `zlib: ${(e as Error).message}`, this.fileOffset, path, { cause: e });
    }
    if (out.length !== this.size) {
      throw new DatafileError(
        'DATA_SIZE_MISMATCH',
        out.length > this.size
          ? `inflates to more than the declared ${this.size} bytes`
          : `inflates to ${out.length} bytes, declared ${this.size}`,
        this.fileOffset,
        path,
      );
    }
    this.raw = out;
    return out;
  }

  /**
   * Inflates ahead of access with the codec's `inflateAsync`, when it has one (the browser codec: the
   * platform's DecompressionStream for large items), so that `bytes()` finds the data ready. Never rejects:
   * whatever the async path cannot inflate to exactly the declared size is left for `bytes()`, which
   * inflates it with the sync codec and reports it as a sync read always does.
   */
  async preload(): Promise<void> {
    const stored = this.stored;
    if (this.raw || !stored || !this.storedCompressed || !this.zlib.inflateAsync) return;
    if (this.size === 0 || this.size > maxInflatedSize(stored.length)) return;
    try {
      const out = await this.zlib.inflateAsync(stored, this.size);
      // Unless the item was replaced or read meanwhile.
      if (out.length === this.size && this.stored === stored && this.raw === undefined) this.raw = out;
    } catch {
      // Left for bytes().
    }
  }

  /**
   * Whether the uncompressed bytes equal `expected`, without keeping them: with the codec's inflateEquals
   * when the item is not inflated, so that no copy of its size is made. False for data that does not
   * inflate (where bytes() throws).
   */
  equals(expected: Uint8Array): boolean {
    const stored = this.stored;
    if (this.raw || !stored || !this.storedCompressed || !this.zlib.inflateEquals) {
      try {
        return bytesEqual(this.bytes(), expected);
      } catch {
        return false;
      } finally {
        this.unload();
      }
    }
    // What bytes() refuses is unequal to anything.
    if (this.size !== expected.length || this.size === 0 || this.size > maxInflatedSize(stored.length)) return false;
    return this.zlib.inflateEquals(stored, expected);
  }

  /** Replaces the content; the item will be compressed again on write. */
  set(bytes: Uint8Array): void {
    this.raw = bytes;
    this.size = bytes.length;
    this.stored = undefined;
    this.storedCompressed = false;
  }

  /** Drops the inflated copy of unchanged data to save memory; it is inflated again on next access. */
  unload(): void {
    if (this.stored) this.raw = undefined;
  }
}

/** A datafile (the container of Teeworlds/DDNet maps): its items and data items. */
export class Datafile {
  magic: 'DATA' | 'ATAD' = 'DATA';
  version: 3 | 4 = 4;
  items: DatafileItem[] = [];
  data: DatafileData[] = [];
  /**
   * Old version-4 writers did not count the data size table in the header's size and swaplen fields (corpus:
   * ddnet's dm7.map). DDNet loads these; lossless writing keeps the quirk.
   */
  legacySize = false;
  legacySwaplen = false;
  zlib: ZlibCodec;

  constructor(options: DatafileReadOptions = {}) {
    this.zlib = options.zlib ?? defaultZlib;
  }

  /**
   * Inflates every data item now, asynchronously where the codec can (in browsers DecompressionStream for
   * items of 64 KB and more, faster there than fflate), all at once. Never rejects: an item that does not
   * inflate exactly is left to its first access, which throws as in a sync read.
   */
  async preloadData(): Promise<void> {
    await Promise.all(this.data.map((d) => d.preload()));
  }

  /** Parses a datafile with every check of DDNet's loader. Data items are inflated lazily. */
  static read(bytes: Uint8Array, options: DatafileReadOptions = {}): Datafile {
    return readDatafile(bytes, options);
  }

  /** The items of one type, by type id or by UUID. */
  itemsOfType(type: number | Uuid): DatafileItem[] {
    if (typeof type === 'string') return this.items.filter((item) => item.uuid === type);
    return this.items.filter((item) => item.type === type && item.uuid === undefined);
  }

  findItem(type: number | Uuid, id: number): DatafileItem | undefined {
    return this.itemsOfType(type).find((item) => item.id === id);
  }

  /** Internal type id -> UUID, from the first index item for each id (as DDNet looks it up). */
  uuidIndex(): Map<number, Uuid> {
    return buildUuidIndex(this.items);
  }

  /**
   * Adds an item. A UUID type gets an internal type id (reusing the one the file has, or the next free one
   * below 0xFFFF) and an index item when it has none yet.
   */
  addItem(type: number | Uuid, id: number, data: Int32Array): DatafileItem {
    let item: DatafileItem;
    if (typeof type === 'string') {
      const index = this.uuidIndex();
      const known = [...index].find(([, uuid]) => uuid === type)?.[0];
      let internal = known ?? ITEMTYPE_EX - 1;
      if (known === undefined) {
        const used = new Set(this.items.map((i) => i.type));
        while (used.has(internal)) internal--;
      }
      item = { type: internal, id, uuid: type, data };
      this.insertItem(item);
      if (known === undefined) this.insertItem({ type: ITEMTYPE_EX, id: internal, data: uuidToInts(type) });
    } else {
      item = { type, id, data };
      this.insertItem(item);
    }
    return item;
  }

  /** Inserts after the last item of the same type, so that types stay contiguous. */
  private insertItem(item: DatafileItem): void {
    let last = -1;
    for (let i = 0; i < this.items.length; i++) if (this.items[i]!.type === item.type) last = i;
    if (last < 0) this.items.push(item);
    else this.items.splice(last + 1, 0, item);
  }

  /** Adds a data item and returns its index. */
  addData(bytes: Uint8Array): number {
    const index = this.data.length;
    this.data.push(new DatafileData({ index, size: bytes.length, raw: bytes, zlib: this.zlib }));
    return index;
  }

  write(options: DatafileWriteOptions = {}): Uint8Array {
    return writeDatafile(this, options);
  }
}

function buildUuidIndex(items: readonly DatafileItem[]): Map<number, Uuid> {
  const index = new Map<number, Uuid>();
  for (const item of items) {
    if (item.type === ITEMTYPE_EX && item.data.length >= 4 && !index.has(item.id)) {
      index.set(item.id, uuidFromInts(item.data));
    }
  }
  return index;
}

function fail(code: string, message: string, offset: number, path: string): never {
  throw new DatafileError(code, message, offset, path);
}

function readDatafile(input: Uint8Array, options: DatafileReadOptions): Datafile {
  const bytes = asUint8Array(input);
  const df = new Datafile(options);
  const fileSize = bytes.length;
  if (fileSize < HEADER_SIZE) fail('TRUNCATED_HEADER', `file has ${fileSize} bytes, the header needs 36`, 0, 'header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const i32 = (offset: number) => view.getInt32(offset, true);

  const magic = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  // Bytes outside printable ASCII as \xNN: a PNG's 0x89 "PNG" would print as "PNG" (U+0089 shows as nothing).
  if (magic !== 'DATA' && magic !== 'ATAD') {
    const shown = Array.from(bytes.subarray(0, 4), (b) => (b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
    fail('BAD_MAGIC', `magic is "${shown}"`, 0, 'header.magic');
  }
  df.magic = magic;
  const version = i32(4);
  if (version !== 3 && version !== 4) fail('BAD_VERSION', `version ${version} is not 3 or 4`, 4, 'header.version');
  df.version = version;

  const sizeField = i32(8);
  const swaplenField = i32(12);
  const numItemTypes = i32(16);
  const numItems = i32(20);
  const numData = i32(24);
  const itemSize = i32(28);
  const dataSize = i32(32);
  const checks: [boolean, number, string][] = [
    [numItemTypes < 0 || numItemTypes > ITEMTYPE_EX + 1, 16, 'num_item_types'],
    [numItems < 0, 20, 'num_items'],
    [numData < 0, 24, 'num_data'],
    [itemSize < 0 || itemSize % 4 !== 0, 28, 'item_size'],
    [dataSize < 0, 32, 'data_size'],
  ];
  for (const [bad, offset, field] of checks) {
    if (bad) fail('BAD_HEADER', `invalid ${field} ${i32(offset)}`, offset, `header.${field}`);
  }

  // Every size below is checked against the real file size before anything is allocated.
  const sizeTable = version === 4 ? numData * 4 : 0;
  const metaSize = numItemTypes * 12 + numItems * 4 + numData * 4 + sizeTable + itemSize;
  if (HEADER_SIZE + metaSize + dataSize !== fileSize) {
    fail(
      'FILE_SIZE_MISMATCH',
      `header describes ${HEADER_SIZE + metaSize + dataSize} bytes, file has ${fileSize}`,
      fileSize < HEADER_SIZE + metaSize + dataSize ? fileSize : 32,
      'header.data_size',
    );
  }
  if (sizeField + SIZE_OFFSET !== fileSize) {
    if (sizeTable !== 0 && sizeField + SIZE_OFFSET + sizeTable === fileSize) df.legacySize = true;
    else fail('BAD_HEADER_SIZE', `size ${sizeField} does not match file size ${fileSize}`, 8, 'header.size');
  }
  if (swaplenField + SIZE_OFFSET !== fileSize - dataSize) {
    if (swaplenField % 4 === 0 && sizeTable !== 0 && swaplenField + SIZE_OFFSET + sizeTable === fileSize - dataSize) {
      df.legacySwaplen = true;
    } else {
      fail('BAD_HEADER_SWAPLEN', `swaplen ${swaplenField} does not match the file`, 12, 'header.swaplen');
    }
  }

  const typesAt = HEADER_SIZE;
  const itemOffsetsAt = typesAt + numItemTypes * 12;
  const dataOffsetsAt = itemOffsetsAt + numItems * 4;
  const dataSizesAt = dataOffsetsAt + numData * 4;
  const itemsAt = dataSizesAt + sizeTable;
  const dataAt = itemsAt + itemSize;

  // Item types: valid, unique, non-empty, and covering the items contiguously in table order.
  const usedTypes = new Set<number>();
  let counted = 0;
  const typeOfIndex: number[] = [];
  for (let t = 0; t < numItemTypes; t++) {
    const at = typesAt + t * 12;
    const path = `item_types[${t}]`;
    const type = i32(at);
    const start = i32(at + 4);
    const num = i32(at + 8);
    if (type < 0 || type > ITEMTYPE_EX) fail('ITEM_TYPE_INVALID', `type ${type} out of range`, at, `${path}.type`);
    if (usedTypes.has(type)) fail('ITEM_TYPE_DUPLICATE', `type ${type} listed twice`, at, `${path}.type`);
    usedTypes.add(type);
    if (num <= 0) fail('ITEM_TYPE_EMPTY', `type ${type} has ${num} items`, at + 8, `${path}.num`);
    if (start !== counted) fail('ITEM_TYPE_START', `start ${start}, expected ${counted}`, at + 4, `${path}.start`);
    counted += num;
    if (counted > numItems) break;
    for (let k = 0; k < num; k++) typeOfIndex.push(type);
  }
  if (counted !== numItems) {
    fail('ITEM_COUNT_MISMATCH', `item types count ${counted} items, header says ${numItems}`, 20, 'header.num_items');
  }

  // Item offsets: start at 0, strictly increasing, inside the item area.
  const itemOffsets = new Int32Array(numItems);
  for (let i = 0; i < numItems; i++) {
    const at = itemOffsetsAt + i * 4;
    const offset = i32(at);
    const path = `item_offsets[${i}]`;
    if (i === 0 ? offset !== 0 : offset <= itemOffsets[i - 1]!) {
      fail('ITEM_OFFSET_ORDER', `offset ${offset} out of order`, at, path);
    }
    if (offset >= itemSize) fail('ITEM_OFFSET_RANGE', `offset ${offset} past item area of ${itemSize}`, at, path);
    itemOffsets[i] = offset;
  }

  // Items: header fits, type matches its table entry, ids unique per type, sizes consistent.
  const usedIds = new Map<number, Set<number>>();
  for (let i = 0; i < numItems; i++) {
    const rel = itemOffsets[i]!;
    const next = i + 1 < numItems ? itemOffsets[i + 1]! : itemSize;
    const at = itemsAt + rel;
    const path = `items[${i}]`;
    if (next - rel < 8) fail('ITEM_TOO_SMALL', `item has ${next - rel} bytes, its header needs 8`, at, path);
    const key = view.getUint32(at, true);
    const type = key >>> 16;
    const id = key & 0xffff;
    const size = i32(at + 4);
    if (type !== typeOfIndex[i]) {
      fail('ITEM_TYPE_MISMATCH', `item has type ${type}, its table entry ${typeOfIndex[i]}`, at, `${path}.type`);
    }
    // Many old maps carry duplicate UUID index items (a bug in old DDNet tools); DDNet accepts those.
    if (type !== ITEMTYPE_EX) {
      let ids = usedIds.get(type);
      if (!ids) usedIds.set(type, (ids = new Set()));
      if (ids.has(id)) fail('ITEM_DUPLICATE_ID', `type ${type} has id ${id} twice`, at, `${path}.id`);
      ids.add(id);
    }
    if (size < 0 || size % 4 !== 0 || size !== next - rel - 8) {
      fail('ITEM_SIZE', `size ${size} does not match the ${next - rel - 8} bytes the offsets give`, at + 4, `${path}.size`);
    }
    const data = new Int32Array(size / 4);
    for (let k = 0; k < data.length; k++) data[k] = i32(at + 8 + k * 4);
    df.items.push({ type, id, data, offset: at + 8 });
  }

  // Data offsets and sizes.
  const dataOffsets = new Int32Array(numData);
  for (let d = 0; d < numData; d++) {
    const at = dataOffsetsAt + d * 4;
    const offset = i32(at);
    const path = `data_offsets[${d}]`;
    if (d === 0 ? offset !== 0 : offset <= dataOffsets[d - 1]!) fail('DATA_OFFSET_ORDER', `offset ${offset} out of order`, at, path);
    if (offset >= dataSize) fail('DATA_OFFSET_RANGE', `offset ${offset} past data area of ${dataSize}`, at, path);
    dataOffsets[d] = offset;
  }
  for (let d = 0; d < numData; d++) {
    const start = dataOffsets[d]!;
    const end = d + 1 < numData ? dataOffsets[d + 1]! : dataSize;
    let size = end - start;
    if (version === 4) {
      size = i32(dataSizesAt + d * 4);
      if (size < 0) fail('DATA_SIZE_NEGATIVE', `uncompressed size ${size}`, dataSizesAt + d * 4, `data_sizes[${d}]`);
    }
    df.data.push(
      new DatafileData({
        index: d,
        size,
        stored: bytes.subarray(dataAt + start, dataAt + end),
        storedCompressed: version === 4,
        fileOffset: dataAt + start,
        zlib: df.zlib,
      }),
    );
  }

  // Resolve UUID types the way DDNet does: internal ids above 0x8000 found in the index.
  const index = buildUuidIndex(df.items);
  for (const item of df.items) {
    if (item.type > OFFSET_UUID_TYPE && item.type !== ITEMTYPE_EX) item.uuid = index.get(item.type);
  }
  return df;
}

interface PlannedItem {
  key: number;
  data: Int32Array;
}

function writeDatafile(df: Datafile, options: DatafileWriteOptions): Uint8Array {
  const mode = options.mode ?? 'lossless';
  const zlib = options.zlib ?? df.zlib;
  const deflate = options.deflate ?? (zlib.deflate ? (data: Uint8Array, level: number) => zlib.deflate!(data, level) : defaultDeflate);
  const ddnet = mode === 'ddnet';
  const version = ddnet ? 4 : df.version;
  checkUniqueIds(df.items, ddnet);
  const items = ddnet ? planDdnetItems(df.items) : planLosslessItems(df.items);

  // Item types in order of appearance (lossless keeps the file's order, ddnet's plan is sorted already).
  const types: { type: number; start: number; num: number }[] = [];
  items.forEach((item, i) => {
    const type = item.key >>> 16;
    const last = types[types.length - 1];
    if (last && last.type === type) last.num++;
    else types.push({ type, start: i, num: 1 });
  });

  const stored = df.data.map((d) => storedBytes(d, version, deflate, ddnet && options.recompress === true));
  const numData = stored.length;
  const itemSize = items.reduce((sum, item) => sum + 8 + item.data.length * 4, 0);
  const dataSize = stored.reduce((sum, s) => sum + s.length, 0);
  const sizeTable = version === 4 ? numData * 4 : 0;
  const fileSize = HEADER_SIZE + types.length * 12 + items.length * 4 + numData * 4 + sizeTable + itemSize + dataSize;
  const legacyFix = (flag: boolean) => (!ddnet && flag && version === 4 ? sizeTable : 0);

  const w = new ByteWriter(fileSize);
  const magic = ddnet ? 'DATA' : df.magic;
  for (let i = 0; i < 4; i++) w.writeU8(magic.charCodeAt(i));
  w.writeI32LE(version);
  w.writeI32LE(fileSize - SIZE_OFFSET - legacyFix(df.legacySize));
  w.writeI32LE(fileSize - dataSize - SIZE_OFFSET - legacyFix(df.legacySwaplen));
  w.writeI32LE(types.length);
  w.writeI32LE(items.length);
  w.writeI32LE(numData);
  w.writeI32LE(itemSize);
  w.writeI32LE(dataSize);
  for (const t of types) {
    w.writeI32LE(t.type);
    w.writeI32LE(t.start);
    w.writeI32LE(t.num);
  }
  let offset = 0;
  for (const item of items) {
    w.writeI32LE(offset);
    offset += 8 + item.data.length * 4;
  }
  offset = 0;
  for (const s of stored) {
    w.writeI32LE(offset);
    offset += s.length;
  }
  if (version === 4) for (const d of df.data) w.writeI32LE(d.size);
  for (const item of items) {
    w.writeU32LE(item.key);
    w.writeI32LE(item.data.length * 4);
    for (const v of item.data) w.writeI32LE(v);
  }
  for (const s of stored) w.writeBytes(s);
  return w.finish();
}

function storedBytes(d: DatafileData, version: 3 | 4, deflate: DeflateFunction | undefined, recompress: boolean): Uint8Array {
  const compressed = version === 4;
  if (d.stored && d.storedCompressed === compressed && !recompress) return d.stored;
  const raw = d.bytes();
  // DDNet's writer never stores empty data (CDataFileWriter::AddData asserts a size above 0), and readers
  // refuse it (v3: two equal offsets; v4: uncompressed size 0), so a file holding it is not written.
  if (raw.length === 0) throw new DatafileError('DATA_EMPTY', 'data item is empty; use no data item (index -1) instead', -1, `data[${d.index}]`);
  if (!compressed) return raw;
  if (!deflate) {
    throw new DatafileError(
      'DEFLATE_MISSING',
      "data needs compressing and no deflater is set: pass { deflate: deflateLikeZlib } (from '@twcodec/datafile/deflate') or a zlib codec with deflate",
      -1,
      `data[${d.index}]`,
    );
  }
  return deflate(raw, DDNET_COMPRESSION_LEVEL);
}

function checkItem(item: DatafileItem, index: number): void {
  const path = `items[${index}]`;
  if (!Number.isInteger(item.type) || item.type < 0 || item.type > ITEMTYPE_EX) {
    throw new DatafileError('WRITE_BAD_TYPE', `type ${item.type} out of range`, -1, `${path}.type`);
  }
  if (!Number.isInteger(item.id) || item.id < 0 || item.id > 0xffff) {
    throw new DatafileError('WRITE_BAD_ID', `id ${item.id} out of range`, -1, `${path}.id`);
  }
}

/**
 * Two items of one type with one id: the reader refuses such a file (ITEM_DUPLICATE_ID), so it is not
 * written (issue 36: `map resave` wrote one and exited 0). UUID index items are exempt, as in the reader. The
 * type is the one written: the internal type, or in `ddnet` mode the UUID (planDdnetItems gives each UUID one).
 */
function checkUniqueIds(items: readonly DatafileItem[], byUuid: boolean): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (item.type === ITEMTYPE_EX) return;
    const key = `${(byUuid ? item.uuid : undefined) ?? item.type}:${item.id}`;
    if (seen.has(key)) throw new DatafileError('WRITE_DUPLICATE_ID', `type ${(byUuid ? item.uuid : undefined) ?? item.type} has id ${item.id} twice`, -1, `items[${i}].id`);
    seen.add(key);
  });
}

/** Items grouped by type in order of first appearance; an unchanged file keeps its exact order. */
function planLosslessItems(items: readonly DatafileItem[]): PlannedItem[] {
  const index = buildUuidIndex(items);
  const groups = new Map<number, PlannedItem[]>();
  items.forEach((item, i) => {
    checkItem(item, i);
    if (item.uuid !== undefined && index.get(item.type) !== item.uuid) {
      throw new DatafileError(
        'WRITE_UUID_MISMATCH',
        `item has UUID ${item.uuid} but type ${item.type} is indexed as ${index.get(item.type) ?? 'nothing'}`,
        -1,
        `items[${i}].type`,
      );
    }
    let group = groups.get(item.type);
    if (!group) groups.set(item.type, (group = []));
    group.push({ key: ((item.type << 16) | item.id) >>> 0, data: item.data });
  });
  return [...groups.values()].flat();
}

/**
 * DDNet's map_resave: index items are dropped and regenerated; UUID types get internal ids 0xFFFE, 0xFFFD, ...
 * in order of first use, each with one index item; types are written in ascending order, items of a type
 * in their original order (checked against DDNet 16.4's CDataFileWriter::Finish and map_resave.cpp).
 * DDNet 16.4 aborts on UUIDs it does not know; we keep them like known ones.
 */
function planDdnetItems(items: readonly DatafileItem[]): PlannedItem[] {
  const byType = new Map<number, PlannedItem[]>();
  const add = (type: number, id: number, data: Int32Array) => {
    let group = byType.get(type);
    if (!group) byType.set(type, (group = []));
    group.push({ key: ((type << 16) | id) >>> 0, data });
  };
  const uuidTypes = new Map<Uuid, number>();
  items.forEach((item, i) => {
    checkItem(item, i);
    if (item.type === ITEMTYPE_EX) return;
    let type = item.type;
    if (item.uuid !== undefined) {
      let internal = uuidTypes.get(item.uuid);
      if (internal === undefined) {
        internal = ITEMTYPE_EX - 1 - uuidTypes.size;
        uuidTypes.set(item.uuid, internal);
        add(ITEMTYPE_EX, internal, uuidToInts(item.uuid));
      }
      type = internal;
    }
    add(type, item.id, item.data);
  });
  return [...byType.keys()].sort((a, b) => a - b).flatMap((type) => byType.get(type)!);
}
