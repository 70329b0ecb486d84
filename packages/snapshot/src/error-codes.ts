// The codes of SnapshotError, with what each means: `err.code` is typed from this table, and docs/library.md
// lists it (test/docs/error-codes.test.ts checks).
import type { RuntimeErrorCode } from '@twcodec/runtime';

/** Each error code of snapshots and deltas (besides the runtime's) and what it means. */
export const SNAPSHOT_ERROR_CODES = {
  // Snapshots.
  BAD_HEADER: 'an item count or data size that is negative or does not fit',
  BAD_OFFSET: 'an item offset out of order or past the data',
  BAD_LAYOUT: 'data bytes before the first item, or without items',
  BAD_KEY: 'an item type or id out of range',
  DUPLICATE_KEY: 'two items with the same type and id',
  LIMIT: "more items or bytes than DDNet's limits",
  // Deltas.
  BAD_COUNT: 'a deleted or updated item count that does not fit the delta',
  BAD_SIZE: 'an item size that is negative or too large',
  DELETE_ABSENT: 'a deleted item that is not in the old snapshot',
  DUPLICATE_UPDATE: 'an item updated twice',
  SIZE_MISMATCH: 'an update of another size than the item it updates',
  TRAILING_DATA: 'ints after the last update',
  // Objects.
  UNKNOWN_OBJECT: 'an object name the protocol does not have',
  BAD_FIELD: 'an object field value of the wrong type (encoding)',
} as const satisfies Record<string, string>;

export type SnapshotErrorCode = keyof typeof SNAPSHOT_ERROR_CODES | RuntimeErrorCode;
