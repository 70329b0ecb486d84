// The codes of TeehistorianError, with what each means: `err.code` is typed from this table, and
// docs/library.md lists it (test/docs/error-codes.test.ts checks). The generated message decoders throw the
// runtime's BinaryError (TRUNCATED, BAD_LENGTH, UNKNOWN_MESSAGE, ...), handed on with its code.
import type { NetMessageErrorCode } from '@twcodec/netmsg';
import type { RuntimeErrorCode } from '@twcodec/runtime';

/** Each error code of teehistorian files (besides the runtime's) and what it means. */
export const TEEHISTORIAN_ERROR_CODES = {
  BAD_MAGIC: 'a file that does not start with the teehistorian UUID',
  HEADER_TOO_LARGE: 'no end of the JSON header within the limit',
  BAD_HEADER: 'a header that is not a JSON object of strings, or nests too deep',
  MESSAGE_TOO_LARGE: 'a message longer than the stream reader holds',
  TICK_ORDER: 'a tick before the one before it (writing)',
  PLAYER_ORDER: 'players of a tick out of order (writing)',
  TRAILING_DATA: 'bytes after FINISH',
} as const satisfies Record<string, string>;

export type TeehistorianErrorCode = keyof typeof TEEHISTORIAN_ERROR_CODES | RuntimeErrorCode | NetMessageErrorCode;
