// The codes of the errors the runtime throws (BinaryError, and CodecError for UUIDs and Huffman data), with
// what each means: `err.code` is typed from this table, and docs/library.md lists it (test/docs checks).

/** Each error code of the runtime and what it means. */
export const RUNTIME_ERROR_CODES = {
  TRUNCATED: 'the input ends before a value it needs',
  VARINT_OVERLONG: 'a variable-width int longer than 5 bytes or out of the 32-bit range',
  VARINT_NONCANONICAL: 'a variable-width int not in its shortest form (DDNet never writes one)',
  BAD_LENGTH: 'a length or count field is negative',
  UNKNOWN_MESSAGE: 'a message id the table does not know',
  BAD_UUID: 'a string that is not a UUID (8-4-4-4-12 hex digits)',
  HUFFMAN_TRUNCATED: 'Huffman-coded data that ends inside a code or before its EOF symbol',
  HUFFMAN_OVERFLOW: 'Huffman-coded data that decodes to more bytes than allowed',
} as const satisfies Record<string, string>;

export type RuntimeErrorCode = keyof typeof RUNTIME_ERROR_CODES;
