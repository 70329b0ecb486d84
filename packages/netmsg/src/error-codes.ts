// The codes of NetMessageError, with what each means: `err.code` is typed from this table, and docs/library.md
// lists it (test/docs/error-codes.test.ts checks). Errors of the runtime's reader (TRUNCATED, VARINT_*) are
// handed on as NetMessageErrors with their code.
import type { RuntimeErrorCode } from '@twcodec/runtime';

/** Each error code of the net message codec (besides the runtime's) and what it means. */
export const NET_MESSAGE_ERROR_CODES = {
  BAD_MESSAGE_ID: 'a negative message id',
  UNKNOWN_MESSAGE: 'a message kind the protocol table does not have (encoding)',
  BAD_BOOL: 'a bool field that is not 0 or 1',
  BAD_LENGTH: 'a negative or too large length or count field',
  BAD_FIELD: 'a field value of the wrong type or out of range (encoding)',
  MISSING_FIELD: 'a required field missing (encoding)',
  NOT_CANONICAL: 'a message that would not be written back as read (strict decoding)',
} as const satisfies Record<string, string>;

export type NetMessageErrorCode = keyof typeof NET_MESSAGE_ERROR_CODES | RuntimeErrorCode;
