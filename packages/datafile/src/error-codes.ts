// The codes of DatafileError, with what each means: `err.code` is typed from this table, and docs/library.md
// lists it (test/docs/error-codes.test.ts checks).

/** Each error code of the datafile container and what it means. */
export const DATAFILE_ERROR_CODES = {
  // Reading: the header.
  TRUNCATED_HEADER: 'the file is shorter than the 36-byte header',
  BAD_MAGIC: 'the file does not start with DATA or ATAD',
  BAD_VERSION: 'a datafile version other than 3 or 4',
  BAD_HEADER: 'a header count or size that is negative or too large',
  BAD_HEADER_SIZE: "the header's size field does not match the file",
  BAD_HEADER_SWAPLEN: "the header's swaplen field does not match the file",
  FILE_SIZE_MISMATCH: 'the header describes more or fewer bytes than the file has',
  // Reading: the item types and items.
  ITEM_TYPE_INVALID: 'an item type id outside 0..0xFFFF',
  ITEM_TYPE_DUPLICATE: 'an item type listed twice',
  ITEM_TYPE_EMPTY: 'an item type with no items',
  ITEM_TYPE_START: "an item type whose start is not where the types before it end",
  ITEM_COUNT_MISMATCH: 'the item types count other than the header says',
  ITEM_OFFSET_ORDER: 'item offsets out of order',
  ITEM_OFFSET_RANGE: 'an item offset past the item area',
  ITEM_TOO_SMALL: 'an item smaller than its 8-byte header',
  ITEM_TYPE_MISMATCH: 'an item whose type is not the one its type entry says',
  ITEM_DUPLICATE_ID: 'two items of one type with the same id',
  ITEM_SIZE: "an item's size field does not match its offsets",
  // Reading: the data items.
  DATA_OFFSET_ORDER: 'data offsets out of order',
  DATA_OFFSET_RANGE: 'a data offset past the data area',
  DATA_SIZE_NEGATIVE: 'a negative uncompressed data size',
  DATA_SIZE_ZERO: 'a compressed data item of uncompressed size 0 (DDNet refuses to load it)',
  DATA_SIZE_IMPOSSIBLE: 'an uncompressed size that the compressed bytes cannot give (zlib expands at most about 1032:1)',
  DATA_SIZE_MISMATCH: 'data that inflates to another size than declared',
  INFLATE_FAILED: 'data that is not a readable zlib stream',
  INFLATE_LIMIT: 'a zlib codec stopped inflating at the size limit (InflateLimitError)',
  // Writing.
  DEFLATE_MISSING: 'data needs compressing and no deflater is set (browser builds: pass deflateLikeZlib)',
  WRITE_UUID_MISMATCH: "an item's UUID is not the one its type id is indexed as",
  DATA_EMPTY: 'an empty data item (DDNet cannot read one back)',
  WRITE_BAD_TYPE: 'an item type outside 0..0xFFFF',
  WRITE_BAD_ID: 'an item id outside 0..0xFFFF',
  WRITE_DUPLICATE_ID: 'two items of one type with the same id',
} as const satisfies Record<string, string>;

export type DatafileErrorCode = keyof typeof DATAFILE_ERROR_CODES;
