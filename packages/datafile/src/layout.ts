// The datafile's fixed layout and the shapes its reader and writer share (DDNet 16.4
// src/engine/shared/datafile.cpp: CDatafileHeader, CDatafileItemType, CDatafileItem).
import { type Uuid, uuidFromInts } from '@twcodec/runtime';
import type { DatafileData } from './data.js';
import type { DeflateFunction, ZlibCodec } from './zlib/types.js';

/** Type id of the items that map internal type ids to UUIDs. */
export const ITEMTYPE_EX = 0xffff;
/** Internal type ids above this one may stand for a UUID type (DDNet's OFFSET_UUID_TYPE). */
export const OFFSET_UUID_TYPE = 0x8000;
/** zlib level DDNet's writer uses (compress2 with Z_DEFAULT_COMPRESSION). */
export const DDNET_COMPRESSION_LEVEL = 6;

export const HEADER_SIZE = 36;
/** magic, version, size and swaplen are not counted in size and swaplen. */
export const SIZE_OFFSET = 16;

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
  magic: 'DATA' | 'ATAD';
  version: 3 | 4;
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
