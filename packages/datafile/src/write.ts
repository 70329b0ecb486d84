// Writing a datafile: lossless (the file as it was read) or laid out as DDNet's map_resave does.
import { defaultDeflate } from '#zlib';
import { ByteWriter, type Uuid, uuidToInts } from '@twcodec/runtime';
import type { DatafileData } from './data.js';
import { DatafileError } from './errors.js';
import { DATAFILE_ITEM_HEADER_SIZE, DATAFILE_ITEM_TYPE_SIZE, DATAFILE_MAGIC, DATAFILE_VERSIONS } from './generated/datafile.gen.js';
import { buildUuidIndex, type DatafileContents, type DatafileItem, type DatafileVersion, type DatafileWriteOptions, DDNET_COMPRESSION_LEVEL, hasDataSizes, HEADER_SIZE, isCompressedVersion, ITEMTYPE_EX, SIZE_OFFSET } from './layout.js';
import type { DeflateFunction } from './zlib/types.js';

interface PlannedItem {
  key: number;
  data: Int32Array;
}

export function writeDatafile(df: DatafileContents, options: DatafileWriteOptions): Uint8Array {
  const mode = options.mode ?? 'lossless';
  const zlib = options.zlib ?? df.zlib;
  const deflate = options.deflate ?? (zlib.deflate ? (data: Uint8Array, level: number) => zlib.deflate!(data, level) : defaultDeflate);
  const ddnet = mode === 'ddnet';
  // DDNet writes the newest version and the first magic (DATA).
  const version = ddnet ? DATAFILE_VERSIONS[DATAFILE_VERSIONS.length - 1]! : df.version;
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
  const itemSize = items.reduce((sum, item) => sum + DATAFILE_ITEM_HEADER_SIZE + item.data.length * 4, 0);
  const dataSize = stored.reduce((sum, s) => sum + s.length, 0);
  const sizeTable = hasDataSizes(version) ? numData * 4 : 0;
  const fileSize = HEADER_SIZE + types.length * DATAFILE_ITEM_TYPE_SIZE + items.length * 4 + numData * 4 + sizeTable + itemSize + dataSize;
  const legacyFix = (flag: boolean) => (!ddnet && flag ? sizeTable : 0);

  const w = new ByteWriter(fileSize);
  const magic = ddnet ? DATAFILE_MAGIC[0] : df.magic;
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
    offset += DATAFILE_ITEM_HEADER_SIZE + item.data.length * 4;
  }
  offset = 0;
  for (const s of stored) {
    w.writeI32LE(offset);
    offset += s.length;
  }
  if (hasDataSizes(version)) for (const d of df.data) w.writeI32LE(d.size);
  for (const item of items) {
    w.writeU32LE(item.key);
    w.writeI32LE(item.data.length * 4);
    for (const v of item.data) w.writeI32LE(v);
  }
  for (const s of stored) w.writeBytes(s);
  return w.finish();
}

function storedBytes(d: DatafileData, version: DatafileVersion, deflate: DeflateFunction | undefined, recompress: boolean): Uint8Array {
  const compressed = isCompressedVersion(version);
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
