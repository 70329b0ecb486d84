// The codes of DemoError, with what each means: `err.code` is typed from this table, and docs/library.md lists
// it (test/docs/error-codes.test.ts checks). A message or snapshot of the demo that does not decode is a
// DemoError with the code of the net message, snapshot or runtime error it stands for.
import type { NetMessageErrorCode } from '@twcodec/netmsg';
import type { SnapshotErrorCode } from '@twcodec/snapshot';

/** Each error code of demos (besides those of messages, snapshots and the runtime) and what it means. */
export const DEMO_ERROR_CODES = {
  // Reading.
  BAD_MAGIC: 'not a demo (no TWDEMO marker)',
  BAD_VERSION: 'a demo version other than 3 to 6',
  BAD_CHUNK: 'a chunk of unknown type or size',
  BAD_TICK: 'a timeline marker out of range',
  DELTA_WITHOUT_SNAPSHOT: 'a snapshot delta before the first snapshot',
  // Writing and editing.
  HEADER_FIELD: 'a header value that does not fit its field',
  TOO_MANY_MARKERS: 'more than 64 timeline markers',
  CHUNK_TOO_LARGE: 'chunk data larger than a demo chunk holds',
  FINISHED: 'writing to a demo writer that has finished',
  BAD_RANGE: 'a slice range without a recorded tick',
  UNKNOWN_MESSAGE: 'stripDemo was asked to drop a message its protocol does not have',
  NOT_LOSSLESS: 'a demo that resaveDemo would not write back byte for byte',
} as const satisfies Record<string, string>;

export type DemoErrorCode = keyof typeof DEMO_ERROR_CODES | NetMessageErrorCode | SnapshotErrorCode;
