import { defaultZlib } from '#zlib';
import { asUint8Array, type Uuid, uuidToInts } from '@twcodec/runtime';
import { DatafileData } from './data.js';
import type { DatafileErrorCode } from './error-codes.js';
import { DatafileError } from './errors.js';
import { DATAFILE_HEADER as H, DATAFILE_ITEM_HEADER_SIZE, DATAFILE_ITEM_TYPE_SIZE, DATAFILE_MAGIC, DATAFILE_VERSIONS } from './generated/datafile.gen.js';
import { buildUuidIndex, type DatafileItem, type DatafileMagic, type DatafileReadOptions, type DatafileVersion, type DatafileWriteOptions, hasDataSizes, HEADER_SIZE, isCompressedVersion, ITEMTYPE_EX, OFFSET_UUID_TYPE, SIZE_OFFSET } from './layout.js';
import { writeDatafile } from './write.js';
import type { ZlibCodec } from './zlib/types.js';

// The model's parts, from where they are defined (this module was all of them).
export { DatafileData } from './data.js';
export { DDNET_COMPRESSION_LEVEL, type DatafileItem, type DatafileMagic, type DatafileReadOptions, type DatafileVersion, type DatafileWriteMode, type DatafileWriteOptions, ITEMTYPE_EX, OFFSET_UUID_TYPE } from './layout.js';

/** A datafile (the container of Teeworlds/DDNet maps): its items and data items. */
export class Datafile {
  magic: DatafileMagic = DATAFILE_MAGIC[0];
  version: DatafileVersion = DATAFILE_VERSIONS[DATAFILE_VERSIONS.length - 1]!;
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

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

function fail(code: DatafileErrorCode, message: string, offset: number, path: string): never {
  throw new DatafileError(code, message, offset, path);
}

const isMagic = (text: string): text is DatafileMagic => (DATAFILE_MAGIC as readonly string[]).includes(text);
const isVersion = (version: number): version is DatafileVersion => (DATAFILE_VERSIONS as readonly number[]).includes(version);

/** The type-and-id keys of the items before item `end` but the UUID index items (all checked already). */
function keysBefore(view: DataView, itemsAt: number, itemOffsets: Int32Array, end: number): Set<number> {
  const keys = new Set<number>();
  for (let k = 0; k < end; k++) {
    const key = view.getUint32(itemsAt + itemOffsets[k]!, true);
    if (key >>> 16 !== ITEMTYPE_EX) keys.add(key);
  }
  return keys;
}

/** A little-endian int of the file (a module function: a closure made per read was optimised again on every read). */
function i32(view: DataView, offset: number): number {
  return view.getInt32(offset, true);
}

function readDatafile(input: Uint8Array, options: DatafileReadOptions): Datafile {
  const bytes = asUint8Array(input);
  const df = new Datafile(options);
  const fileSize = bytes.length;
  if (fileSize < HEADER_SIZE) fail('TRUNCATED_HEADER', `file has ${fileSize} bytes, the header needs ${HEADER_SIZE}`, 0, 'header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  const magic = String.fromCharCode(bytes[H.magic]!, bytes[H.magic + 1]!, bytes[H.magic + 2]!, bytes[H.magic + 3]!);
  // Bytes outside printable ASCII as \xNN: a PNG's 0x89 "PNG" would print as "PNG" (U+0089 shows as nothing).
  if (!isMagic(magic)) {
    const shown = Array.from(bytes.subarray(H.magic, H.magic + 4), (b) => (b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
    fail('BAD_MAGIC', `magic is "${shown}"`, 0, 'header.magic');
  }
  df.magic = magic;
  const version = i32(view, H.version);
  if (!isVersion(version)) fail('BAD_VERSION', `version ${version} is not ${DATAFILE_VERSIONS.join(' or ')}`, H.version, 'header.version');
  df.version = version;

  const sizeField = i32(view, H.size);
  const swaplenField = i32(view, H.swaplen);
  const numItemTypes = i32(view, H.numItemTypes);
  const numItems = i32(view, H.numItems);
  const numData = i32(view, H.numData);
  const itemSize = i32(view, H.itemSize);
  const dataSize = i32(view, H.dataSize);
  const checks: [boolean, number, string][] = [
    [numItemTypes < 0 || numItemTypes > ITEMTYPE_EX + 1, H.numItemTypes, 'num_item_types'],
    [numItems < 0, H.numItems, 'num_items'],
    [numData < 0, H.numData, 'num_data'],
    [itemSize < 0 || itemSize % 4 !== 0, H.itemSize, 'item_size'],
    [dataSize < 0, H.dataSize, 'data_size'],
  ];
  for (const [bad, offset, field] of checks) {
    if (bad) fail('BAD_HEADER', `invalid ${field} ${i32(view, offset)}`, offset, `header.${field}`);
  }

  // Every size below is checked against the real file size before anything is allocated.
  const sizeTable = hasDataSizes(version) ? numData * 4 : 0;
  const metaSize = numItemTypes * DATAFILE_ITEM_TYPE_SIZE + numItems * 4 + numData * 4 + sizeTable + itemSize;
  if (HEADER_SIZE + metaSize + dataSize !== fileSize) {
    fail(
      'FILE_SIZE_MISMATCH',
      `header describes ${HEADER_SIZE + metaSize + dataSize} bytes, file has ${fileSize}`,
      fileSize < HEADER_SIZE + metaSize + dataSize ? fileSize : H.dataSize,
      'header.data_size',
    );
  }
  if (sizeField + SIZE_OFFSET !== fileSize) {
    if (sizeTable !== 0 && sizeField + SIZE_OFFSET + sizeTable === fileSize) df.legacySize = true;
    else fail('BAD_HEADER_SIZE', `size ${sizeField} does not match file size ${fileSize}`, H.size, 'header.size');
  }
  if (swaplenField + SIZE_OFFSET !== fileSize - dataSize) {
    if (swaplenField % 4 === 0 && sizeTable !== 0 && swaplenField + SIZE_OFFSET + sizeTable === fileSize - dataSize) {
      df.legacySwaplen = true;
    } else {
      fail('BAD_HEADER_SWAPLEN', `swaplen ${swaplenField} does not match the file`, H.swaplen, 'header.swaplen');
    }
  }

  const typesAt = HEADER_SIZE;
  const itemOffsetsAt = typesAt + numItemTypes * DATAFILE_ITEM_TYPE_SIZE;
  const dataOffsetsAt = itemOffsetsAt + numItems * 4;
  const dataSizesAt = dataOffsetsAt + numData * 4;
  const itemsAt = dataSizesAt + sizeTable;
  const dataAt = itemsAt + itemSize;

  // Item types: valid, unique, non-empty, and covering the items contiguously in table order.
  const usedTypes = new Set<number>();
  let counted = 0;
  const typeOfIndex: number[] = [];
  for (let t = 0; t < numItemTypes; t++) {
    const at = typesAt + t * DATAFILE_ITEM_TYPE_SIZE;
    const path = `item_types[${t}]`;
    const type = i32(view, at);
    const start = i32(view, at + 4);
    const num = i32(view, at + 8);
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
    fail('ITEM_COUNT_MISMATCH', `item types count ${counted} items, header says ${numItems}`, H.numItems, 'header.num_items');
  }

  // Item offsets: start at 0, strictly increasing, inside the item area.
  const itemOffsets = new Int32Array(numItems);
  for (let i = 0; i < numItems; i++) {
    const at = itemOffsetsAt + i * 4;
    const offset = i32(view, at);
    // Paths are made only for an error: a string per item and data item was about a tenth of Datafile.read on
    // the corpus maps.
    if (i === 0 ? offset !== 0 : offset <= itemOffsets[i - 1]!) {
      fail('ITEM_OFFSET_ORDER', `offset ${offset} out of order`, at, `item_offsets[${i}]`);
    }
    if (offset >= itemSize) fail('ITEM_OFFSET_RANGE', `offset ${offset} past item area of ${itemSize}`, at, `item_offsets[${i}]`);
    itemOffsets[i] = offset;
  }

  // Items: header fits, type matches its table entry, ids unique per type, sizes consistent. The item area is
  // copied once as ints (item_size is a multiple of 4, checked above) and each item's data is a view of its
  // ints in that copy: one allocation for all items instead of one each (an Int32Array over 64 bytes is a
  // separately allocated buffer), the area's bytes as the file has them.
  const itemInts = new Int32Array(itemSize / 4);
  if (LITTLE_ENDIAN) new Uint8Array(itemInts.buffer).set(bytes.subarray(itemsAt, itemsAt + itemSize));
  else for (let k = 0; k < itemInts.length; k++) itemInts[k] = i32(view, itemsAt + k * 4);
  // Type and id are the item's first word: a key seen twice is an id used twice within one type. Writers put
  // the items in ascending key order (types ascending, ids ascending within a type), where a key above every
  // earlier one is new; the set of keys is made only at the first key out of that order (it was garbage of
  // every read: about 0.3 MB a pass over the 80 corpus maps; issue 41).
  let usedKeys: Set<number> | undefined;
  let highestKey = -1;
  for (let i = 0; i < numItems; i++) {
    const rel = itemOffsets[i]!;
    const next = i + 1 < numItems ? itemOffsets[i + 1]! : itemSize;
    const at = itemsAt + rel;
    if (next - rel < DATAFILE_ITEM_HEADER_SIZE) fail('ITEM_TOO_SMALL', `item has ${next - rel} bytes, its header needs ${DATAFILE_ITEM_HEADER_SIZE}`, at, `items[${i}]`);
    const key = view.getUint32(at, true);
    const type = key >>> 16;
    const id = key & 0xffff;
    const size = i32(view, at + 4);
    if (type !== typeOfIndex[i]) {
      fail('ITEM_TYPE_MISMATCH', `item has type ${type}, its table entry ${typeOfIndex[i]}`, at, `items[${i}].type`);
    }
    // Many old maps carry duplicate UUID index items (a bug in old DDNet tools); DDNet accepts those.
    if (type !== ITEMTYPE_EX) {
      if (key > highestKey && usedKeys === undefined) highestKey = key;
      else {
        usedKeys ??= keysBefore(view, itemsAt, itemOffsets, i);
        if (usedKeys.has(key)) fail('ITEM_DUPLICATE_ID', `type ${type} has id ${id} twice`, at, `items[${i}].id`);
        usedKeys.add(key);
      }
    }
    if (size < 0 || size % 4 !== 0 || size !== next - rel - DATAFILE_ITEM_HEADER_SIZE) {
      fail('ITEM_SIZE', `size ${size} does not match the ${next - rel - DATAFILE_ITEM_HEADER_SIZE} bytes the offsets give`, at + 4, `items[${i}].size`);
    }
    const intsAt = at + DATAFILE_ITEM_HEADER_SIZE;
    const first = (intsAt - itemsAt) / 4;
    df.items.push({ type, id, data: itemInts.subarray(first, first + size / 4), offset: intsAt });
  }

  // Data offsets and sizes.
  const dataOffsets = new Int32Array(numData);
  for (let d = 0; d < numData; d++) {
    const at = dataOffsetsAt + d * 4;
    const offset = i32(view, at);
    if (d === 0 ? offset !== 0 : offset <= dataOffsets[d - 1]!) fail('DATA_OFFSET_ORDER', `offset ${offset} out of order`, at, `data_offsets[${d}]`);
    if (offset >= dataSize) fail('DATA_OFFSET_RANGE', `offset ${offset} past data area of ${dataSize}`, at, `data_offsets[${d}]`);
    dataOffsets[d] = offset;
  }
  for (let d = 0; d < numData; d++) {
    const start = dataOffsets[d]!;
    const end = d + 1 < numData ? dataOffsets[d + 1]! : dataSize;
    let size = end - start;
    if (hasDataSizes(version)) {
      size = i32(view, dataSizesAt + d * 4);
      if (size < 0) fail('DATA_SIZE_NEGATIVE', `uncompressed size ${size}`, dataSizesAt + d * 4, `data_sizes[${d}]`);
    }
    df.data.push(
      new DatafileData({
        index: d,
        size,
        stored: bytes.subarray(dataAt + start, dataAt + end),
        storedCompressed: isCompressedVersion(version),
        fileOffset: dataAt + start,
        zlib: df.zlib,
      }),
    );
  }

  // Resolve UUID types the way DDNet does: internal ids above 0x8000 found in the index. Such an item is made
  // again with `uuid` in its literal rather than given the property: the shape an added property makes is held
  // only while some item has it, and each time it was collected between reads, V8 threw away the optimised
  // code of everything that reads items (readDatafile, the map reader's decoders) and compiled it again.
  const index = buildUuidIndex(df.items);
  const items = df.items;
  for (let i = 0; i < items.length; i++) {
    const { type, id, data, offset } = items[i]!;
    if (type > OFFSET_UUID_TYPE && type !== ITEMTYPE_EX) items[i] = { type, id, data, offset, uuid: index.get(type) };
  }
  return df;
}
