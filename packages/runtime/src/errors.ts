/**
 * Base class of every error the twcodec packages throw for bad input.
 *
 * `code` is stable and meant for programs (tests assert it); `offset` is the byte offset in the input
 * where the problem was found (or -1 when it is not about a position), `path` names the field, such as
 * `items[3].size` or `groups[2].layers[0].data`.
 */
export class CodecError extends Error {
  readonly code: string;
  readonly offset: number;
  readonly path: string;
  /** The message without code and location, for wrapping the error with a more precise path. */
  readonly detail: string;

  constructor(code: string, message: string, offset = -1, path = '', options?: { cause?: unknown }) {
    const where = [path && `at ${path}`, offset >= 0 && `offset ${offset}`].filter(Boolean).join(', ');
    super(`${code}: ${message}${where ? ` (${where})` : ''}`, options);
    this.name = new.target.name;
    this.code = code;
    this.offset = offset;
    this.path = path;
    this.detail = message;
  }
}

/** Errors of the binary primitives (truncation, bad varints, bad strings). */
export class BinaryError extends CodecError {}
