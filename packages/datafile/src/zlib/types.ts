import { DatafileError } from '../errors.js';

/**
 * The zlib (RFC 1950) codec the datafile reader and writer use. Node's entry point uses node:zlib, the
 * browser entry point fflate; a caller can pass any other implementation.
 */
export interface ZlibCodec {
  readonly name: string;
  /**
   * Inflates one zlib stream. Must never produce (or allocate for) more than `maxSize + 1` bytes: return
   * what was produced (more than `maxSize` bytes means the stream is longer than declared), throw
   * InflateLimitError when it stopped at the limit, or any error on a corrupt stream.
   */
  inflate(compressed: Uint8Array, maxSize: number): Uint8Array;
  /**
   * Inflates one zlib stream asynchronously, where that is faster than `inflate` (browsers: the platform's
   * DecompressionStream for large items). Optional. Resolves only to the complete output of a stream that
   * inflates to at most `maxSize` bytes, and allocates no more than `inflate` would; anything else may just
   * reject: the caller then inflates with `inflate`, whose outcome (or error) is the authoritative one.
   */
  inflateAsync?(compressed: Uint8Array, maxSize: number): Promise<Uint8Array>;
  /**
   * Whether the stream inflates to exactly `expected`, inflating a slice at a time against it rather than
   * into a copy of its size (writers compare unchanged data with what they read; for a 256 MB layer the copy
   * was a second 256 MB). Optional: without it the caller inflates and compares. False also for a corrupt
   * stream.
   */
  inflateEquals?(compressed: Uint8Array, expected: Uint8Array): boolean;
  /**
   * Inflates one zlib stream a slice at a time, handing each slice of output to `onSlice` (a view that is
   * valid only during that call; `onSlice` must not itself inflate with this codec), and returns how many
   * bytes it produced. Throws InflateLimitError as soon as the output passes `maxSize`, any error on a
   * corrupt stream, and whatever `onSlice` throws. A stream whose input ends early just produces less.
   * Optional (see inflateSlices below for the fallback): lets a caller that transforms the output as it comes
   * (the PNG decoder unfilters rows) hold a slice rather than the whole output.
   */
  inflateSlices?(compressed: Uint8Array, maxSize: number, onSlice: (slice: Uint8Array) => void): number;
  /**
   * Compresses into one zlib stream. Optional: the browser default (fflate) has none, so that bundles which
   * only read do not carry a deflater; writing then uses the `deflate` write option or, in Node, pako.
   */
  deflate?: DeflateFunction;
}

/** Compresses into one zlib stream at the given level (0-9; DDNet writes level 6). */
export type DeflateFunction = (data: Uint8Array, level: number) => Uint8Array;

/** Deflate cannot expand more than about 1032:1 (RFC 1951 limits); anything declaring more is a lie. */
export const MAX_DEFLATE_RATIO = 1032;

export function maxInflatedSize(compressedLength: number): number {
  return compressedLength * MAX_DEFLATE_RATIO + 64;
}

/**
 * Thrown by a ZlibCodec that stopped inflating at the size limit: a DatafileError (a CodecError, as every error
 * about bad input) with code INFLATE_LIMIT.
 */
export class InflateLimitError extends DatafileError {
  constructor(readonly limit: number) {
    super('INFLATE_LIMIT', `inflates to more than ${limit} bytes`);
  }
}

/**
 * How much output a codec may allocate before any has been produced. Allocating the declared size at once
 * is about 1.5x faster than growing chunk by chunk (measured with node:zlib on the corpus, whose largest
 * data item is 8 MiB), but a hostile size field must not buy a large allocation: up to 16 MiB, or 8x the
 * input, is allocated up front; beyond that, output memory grows only as real output arrives (node:zlib
 * allocates the declared size once that much real output has arrived).
 */
export function initialOutputSize(compressedLength: number): number {
  return Math.max(16 * 1024 * 1024, compressedLength * 8 + 65536);
}

/**
 * `codec.inflateSlices`, or for a codec without it the whole output of `codec.inflate` as one slice (same
 * contract: InflateLimitError past `maxSize`).
 */
export function inflateSlices(codec: ZlibCodec, compressed: Uint8Array, maxSize: number, onSlice: (slice: Uint8Array) => void): number {
  if (codec.inflateSlices) return codec.inflateSlices(compressed, maxSize, onSlice);
  const out = codec.inflate(compressed, maxSize);
  if (out.length > maxSize) throw new InflateLimitError(maxSize);
  if (out.length > 0) onSlice(out);
  return out.length;
}
