// The start of a teehistorian file: its UUID, then the header JSON up to a NUL; and the error every reader
// and the writer throw.
import { BinaryError, CodecError, decodeUtf8Escaped, uuidFromBytes } from '@twcodec/runtime';
import type { TeehistorianErrorCode } from './error-codes.js';
import { TEEHISTORIAN_UUID } from './generated/constants.gen.js';

/** Errors of teehistorian reading and writing. */
export class TeehistorianError extends CodecError<TeehistorianErrorCode> {}

/** A BinaryError of a message's bytes as a TeehistorianError, its path under `path`. */
export function asTeehistorianError(e: BinaryError, path: string): TeehistorianError {
  return new TeehistorianError(e.code, e.detail, e.offset, path + (e.path ? `.${e.path}` : ''), { cause: e });
}

/** The JSON header. Values are strings except `config`/`tuning` (objects) and `uuids`; unknown keys are kept. */
export interface TeehistorianHeader {
  version?: string;
  version_minor?: string;
  game_uuid?: string;
  server_version?: string;
  start_time?: string;
  map_name?: string;
  map_sha256?: string;
  map_crc?: string;
  prng_description?: string;
  config?: Record<string, string>;
  tuning?: Record<string, string>;
  uuids?: string[];
  [key: string]: unknown;
}

/**
 * How deep a header's JSON may nest. DDNet writes depth 2 (`config` and `tuning` are objects); a limit keeps
 * every later step (comparing, printing) away from recursion as deep as a hostile file could make it.
 */
export const MAX_HEADER_DEPTH = 64;

/** The deepest nesting of arrays and objects in JSON text (a linear scan that skips strings). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) max = Math.max(max, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/**
 * Reads the header: UUID, then NUL-terminated JSON. Returns undefined when `bytes` may not hold it all yet;
 * `searchFrom` lets a stream reader look for the NUL only in bytes it has not searched before.
 */
export function parseHeader(
  bytes: Uint8Array,
  complete: boolean,
  searchFrom = 16,
): { header: TeehistorianHeader; headerText: string; size: number } | undefined {
  if (bytes.length < 16) {
    if (!complete) return undefined;
    throw new TeehistorianError('TRUNCATED', `file has ${bytes.length} bytes, the UUID needs 16`, bytes.length, 'header.uuid');
  }
  const uuid = uuidFromBytes(bytes);
  if (uuid !== TEEHISTORIAN_UUID) throw new TeehistorianError('BAD_MAGIC', `starts with ${uuid}, not the teehistorian UUID`, 0, 'header.uuid');
  const nul = bytes.indexOf(0, Math.max(16, searchFrom));
  if (nul < 0) {
    if (!complete) return undefined;
    throw new TeehistorianError('TRUNCATED', 'the header JSON has no NUL terminator', bytes.length, 'header.json');
  }
  const headerText = decodeUtf8Escaped(bytes.subarray(16, nul));
  const depth = jsonDepth(headerText);
  if (depth > MAX_HEADER_DEPTH) {
    throw new TeehistorianError('BAD_HEADER', `header JSON nests ${depth} deep, more than ${MAX_HEADER_DEPTH}`, 16, 'header.json');
  }
  let header: unknown;
  try {
    header = JSON.parse(headerText);
  } catch (e) {
    throw new TeehistorianError('BAD_HEADER', `header is not JSON: ${(e as Error).message}`, 16, 'header.json');
  }
  if (!header || typeof header !== 'object' || Array.isArray(header)) throw new TeehistorianError('BAD_HEADER', 'header is not a JSON object', 16, 'header.json');
  return { header: header as TeehistorianHeader, headerText, size: nul + 1 };
}
