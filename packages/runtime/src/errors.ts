import type { RuntimeErrorCode } from './error-codes.js';

/** Where in which input an error was found: what CodecError's message says after its text. */
export interface CodecErrorSource {
  /**
   * The input the error is about, when the code that threw takes more than one: a file of a directory form
   * (`map.json`, `layers/0-game.txt`), or the name of the argument (`png`, `opus`). Undefined: the main input.
   */
  input?: string | undefined;
  /** 1-based line and column in a text input (map.json, a tile rows file). */
  line?: number | undefined;
  column?: number | undefined;
  path?: string | undefined;
  offset?: number | undefined;
}

/**
 * The location part of an error message: `(in map.json, line 3, column 5, at groups[0], offset 12)`, or
 * nothing. Programs that know the input by another name (the CLI: the user's file) format it again with this.
 */
export function describeSource(source: CodecErrorSource): string {
  const where = [
    source.input && `in ${source.input}`,
    source.line !== undefined && `line ${source.line}`,
    source.column !== undefined && `column ${source.column}`,
    source.path && `at ${source.path}`,
    source.offset !== undefined && source.offset >= 0 && `offset ${source.offset}`,
  ].filter(Boolean);
  return where.length ? ` (${where.join(', ')})` : '';
}

/** The 1-based line and column of character `index` of `text`. */
export function lineColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < index && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: index - start + 1 };
}

/**
 * Base class of every error the twcodec packages throw for bad input.
 *
 * `code` is stable and meant for programs (tests assert it); `offset` is the byte offset in the input
 * where the problem was found (or -1 when it is not about a position), `path` names the field, such as
 * `items[3].size` or `groups[2].layers[0].data`; `input` says which input it is about when there are several,
 * `line` and `column` where in a text input.
 */
export class CodecError<Code extends string = string> extends Error {
  /** What went wrong, one of the package's error codes (each package's `*_ERROR_CODES` table lists them). */
  readonly code: Code;
  readonly offset: number;
  readonly path: string;
  /** The message without code and location, for wrapping the error with a more precise path. */
  readonly detail: string;
  readonly input: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(code: Code, message: string, offset = -1, path = '', options?: { cause?: unknown; input?: string | undefined; line?: number | undefined; column?: number | undefined }) {
    super(`${code}: ${message}${describeSource({ ...options, path, offset })}`, options);
    this.name = new.target.name;
    this.code = code;
    this.offset = offset;
    this.path = path;
    this.detail = message;
    this.input = options?.input;
    this.line = options?.line;
    this.column = options?.column;
  }
}

/** Errors of the binary primitives (truncation, bad varints, bad strings). */
export class BinaryError extends CodecError<RuntimeErrorCode> {}

/**
 * `e` as an error about `input` (a copy of the same class with the same fields), for code that passes several
 * inputs to readers that do not know which one they read. An error that names its input already is returned
 * as it is.
 */
export function errorAbout<E extends CodecError>(e: E, input: string): E {
  if (e.input !== undefined) return e;
  const Class = e.constructor as new (...args: ConstructorParameters<typeof CodecError>) => E;
  return new Class(e.code, e.detail, e.offset, e.path, { cause: e, input, line: e.line, column: e.column });
}
