// The shapes of the generated message tables (a protocol, its messages and their fields) and of decoded
// messages: what the generator emits and the codec (codec.ts) reads.
import type { ByteReader, Uuid } from '@twcodec/runtime';
import type { NetJsonText } from './json-text.js';

/**
 * How DDNet cleans a string when it unpacks it (the bytes stay as sent; see sanitizeNetString):
 * `none` — kept; `sanitize` — control characters other than tab, newline and carriage return become spaces
 * (DDNet's plain GetString); `sanitize_cc` — every control character becomes a space (SANITIZE_CC);
 * `strict` — SANITIZE_CC, then leading whitespace is skipped (SKIP_START_WHITESPACES).
 */
export type SanitizeRule = 'none' | 'sanitize' | 'sanitize_cc' | 'strict';

export type NetFieldType = 'int' | 'bool' | 'tick' | 'string' | 'uuid' | 'raw' | 'raw_rest' | 'int_array' | 'string_array' | 'int_rest' | 'string_rest';

/**
 * An enum or flag set of a protocol, from its snapshot schema (schemas/snapshot, the one source of the
 * protocol's enums): each name with its value (flags: the bit).
 */
export interface NetValueSet {
  readonly name: string;
  readonly kind: 'enum' | 'flags';
  readonly values: readonly { readonly name: string; readonly value: number }[];
}

export interface NetFieldDef {
  /** Schema name (snake_case). */
  readonly name: string;
  /** Property name in the decoded object (camelCase). */
  readonly key: string;
  readonly type: NetFieldType;
  readonly description: string;
  /** May be missing at the end of the message (added in a later version); undefined when absent. */
  readonly optional?: boolean;
  readonly min?: number;
  readonly max?: number;
  /** Flags: the bits DDNet accepts (a value with another bit set is dropped). */
  readonly mask?: number;
  readonly sanitize?: SanitizeRule;
  /** raw: fixed size in bytes. int_array/string_array: fixed count. */
  readonly size?: number;
  readonly count?: number;
  /** raw/int_array/string_array: the earlier field that holds the length (divided by `countDivisor` for int_array). */
  readonly sizeField?: string;
  readonly countDivisor?: number;
  /** int_array with sizeField: the count is `countTable[value]`; a value outside the table does not read. */
  readonly countTable?: readonly number[];
  /**
   * int_rest: the numbers of ints senders write. A demo pads each message chunk with zeros to a multiple of 4
   * bytes (DDNet's demo.cpp); up to 3 zero ints after one of these counts are that padding, kept in `trailing`.
   */
  readonly counts?: readonly number[];
  /** string_rest: senders write no empty strings, so empty ones in a demo's padding are not data. */
  readonly nonempty?: boolean;
  /** An int whose values (enum) or bits (flags) have names: the set (see netValueName). Decoded as the number. */
  readonly values?: NetValueSet;
}

export type Direction = 'server' | 'client' | 'both';

export interface NetMessageDef {
  readonly name: string;
  readonly system: boolean;
  /** Numeric id; 0 for UUID messages. */
  readonly id: number;
  readonly uuid?: Uuid;
  readonly uuidName?: string;
  /** Who sends it: `server` (server to client), `client` (client to server) or `both`. */
  readonly direction: Direction;
  /** The DDNet release that added the message, when the schema says. */
  readonly since?: string;
  /** false: a recording client leaves the message out of its demo (it only applies it). */
  readonly recorded?: false;
  readonly description: string;
  readonly fields: readonly NetFieldDef[];
  /**
   * Makes the decoded message from the values of its fields in schema order, up to its first optional field
   * (generated: an object literal per message; the codec adds later fields that are present). Without it
   * the codec adds every field by name.
   */
  readonly build?: (values: readonly unknown[]) => AnyNetMessage;
  /**
   * Reads the message's fields up to its first optional one from `r` (after the id) and makes the message,
   * by the field readers of this module (generated: straight-line code per message, where the field
   * interpreter dispatched on each field's type and kept the values in an array). Without it the codec reads
   * the fields by the table. Errors are the interpreter's: the same checks, paths and offsets.
   */
  readonly read?: (r: ByteReader) => AnyNetMessage;
  /**
   * Writes the fields of a message this table decoded (not `kind`, not `trailing`) as a JSON object through
   * `w`, keys in schema order, each value by its type's method (generated: straight-line code per message, so
   * that a JSON writer need not walk the message's keys and test each value's type; issue 41). The text is
   * JSON.stringify's of the same members, byte arrays as `w.bytes` writes them.
   */
  readonly json?: (message: AnyNetMessage, w: NetJsonWriter) => void;
}

/** What a message's generated `json` writes with (a JSON text writer; the CLI's writes UTF-8 bytes). */
export interface NetJsonWriter {
  /** JSON text as it is: punctuation and keys, ASCII that needs no escape. */
  ascii(text: string): void;
  /** Kept JSON text as it is (a generated writer's keys: the same text as ascii(t.text)). */
  text(t: NetJsonText): void;
  /** One byte of ASCII JSON text (a brace). */
  byte(code: number): void;
  number(value: number): void;
  /** text(t) then number(value), in one call (a key and its int: most of what the writers write). */
  textNumber(t: NetJsonText, value: number): void;
  boolean(value: boolean): void;
  /** A JSON string, escaped as JSON.stringify escapes it. */
  string(value: string): void;
  /** A byte array (raw fields), in the writer's own form. */
  bytes(value: Uint8Array): void;
  numbers(values: readonly number[]): void;
  strings(values: readonly string[]): void;
}

export interface NetProtocolDef {
  readonly protocol: string;
  /** GAME_NETVERSION: what a client's info message and a demo's header carry. */
  readonly netVersion: string;
  readonly description: string;
  readonly messages: readonly NetMessageDef[];
}

/** What every decoded message carries besides its fields. */
export interface NetMessageBase {
  /** Bytes after the last known field: a demo's zero padding to 4 bytes, or fields a newer version added. */
  trailing?: Uint8Array;
}

/**
 * A message the protocol table does not name (or could not be read as its schema says, see `error`): its
 * bytes after the id (and UUID) are kept so that it is written back unchanged.
 */
export interface UnknownNetMessage {
  kind: 'unknown';
  system: boolean;
  id: number;
  uuid?: Uuid;
  data: Uint8Array;
  /** Why a named message was kept raw (lenient decoding only). */
  error?: string;
}

/** A decoded message: `kind` is a literal of the protocol's message names, the other keys its fields. */
export type AnyNetMessage = { kind: string } & NetMessageBase & Record<string, unknown>;

export interface DecodeOptions {
  /**
   * When a known message does not read as its schema says (truncated, non-canonical int, bad UTF-8), keep it
   * as an UnknownNetMessage with `error` instead of throwing. Default false: throw NetMessageError.
   */
  lenient?: boolean;
  /** Added to reported offsets (where the message sits in its file). */
  baseOffset?: number;
  /**
   * Whether the message was padded with zero bytes to a multiple of 4 (a demo's message chunk: DDNet 16.4
   * src/engine/shared/demo.cpp, CDemoRecorder::Write, pads the data before packing it as ints). Such padding
   * is kept in `trailing` and never read as a field: not as ints or strings to the end of the message
   * (`counts`, `nonempty`), nor as an optional last field the sender left out. `true` for demo chunks,
   * `false` for what comes from the network or a teehistorian file. Default (unset): a message whose length
   * is a multiple of 4 may be padded.
   */
  padded?: boolean;
}
