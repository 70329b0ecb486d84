// The shapes the datafile's reader and writer share. The layout itself (magic values, versions, header offsets,
// entry sizes, the UUID index type) is generated from schemas/datafile/datafile.yaml into generated/datafile.gen.ts.
import { type Uuid, uuidFromInts } from '@twcodec/runtime';
import type { DatafileData } from './data.js';
import { DATAFILE_COMPRESSED_FROM, DATAFILE_DATA_SIZES_FROM, DATAFILE_DDNET_COMPRESSION_LEVEL, DATAFILE_HEADER_SIZE, DATAFILE_ITEMTYPE_EX, type DATAFILE_MAGIC, DATAFILE_OFFSET_UUID_TYPE, DATAFILE_SIZE_OFFSET, type DATAFILE_VERSIONS } from './generated/datafile.gen.js';
import type { DeflateFunction, ZlibCodec } from './zlib/types.js';

/** Type id of the items that map internal type ids to UUIDs. */
export const ITEMTYPE_EX = DATAFILE_ITEMTYPE_EX;
/** Internal type ids above this one may stand for a UUID type (DDNet's OFFSET_UUID_TYPE). */
export const OFFSET_UUID_TYPE = DATAFILE_OFFSET_UUID_TYPE;
/** zlib level DDNet's writer uses (compress2 with Z_DEFAULT_COMPRESSION). */
export const DDNET_COMPRESSION_LEVEL = DATAFILE_DDNET_COMPRESSION_LEVEL;

export const HEADER_SIZE = DATAFILE_HEADER_SIZE;
/** magic, version, size and swaplen are not counted in size and swaplen. */
export const SIZE_OFFSET = DATAFILE_SIZE_OFFSET;

/** A magic value a datafile may start with. */
export type DatafileMagic = (typeof DATAFILE_MAGIC)[number];
/** A datafile version. */
export type DatafileVersion = (typeof DATAFILE_VERSIONS)[number];
/** Whether a version's data items are zlib streams. */
export const isCompressedVersion = (version: DatafileVersion) => version >= DATAFILE_COMPRESSED_FROM;
/** Whether a version has the data_sizes table. */
export const hasDataSizes = (version: DatafileVersion) => version >= DATAFILE_DATA_SIZES_FROM;

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

/** What the writer needs of a datafile (the Datafile class is one). */
export interface DatafileContents {
  magic: DatafileMagic;
  version: DatafileVersion;
  items: DatafileItem[];
  data: DatafileData[];
  legacySize: boolean;
  legacySwaplen: boolean;
  zlib: ZlibCodec;
}

/** Internal type id -> UUID, from the first index item (type 0xFFFF) for each id, as DDNet looks it up. */
export function buildUuidIndex(items: readonly DatafileItem[]): Map<number, Uuid> {
  const index = new Map<number, Uuid>();
  for (const item of items) {
    if (item.type === ITEMTYPE_EX && item.data.length >= 4 && !index.has(item.id)) {
      index.set(item.id, uuidFromInts(item.data));
    }
  }
  return index;
}
