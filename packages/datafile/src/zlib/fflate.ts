import { concatBytes } from '@twcodec/runtime';
import { Unzlib, unzlibSync } from 'fflate';
import { type DeflateFunction, InflateLimitError, initialOutputSize, type ZlibCodec } from './types.js';

const STREAM_SLICE = 16 * 1024;

/**
 * Inflate with fflate (pure JS, works in browsers; faster than pako here), and asynchronously with the
 * browser's DecompressionStream for large items. No deflate: a browser bundle that only reads maps must not
 * carry pako (writers pass `deflate`, see deflate.ts and writeMap). When the declared size is plausible for the
 * input, inflate straight into a buffer of that size; otherwise stream in slices and stop as soon as the
 * output passes the limit, so memory follows the real output, never a hostile size field.
 */
export const fflateZlib: ZlibCodec = {
  name: 'fflate',
  inflate(compressed, maxSize) {
    const limit = maxSize + 1;
    if (limit <= initialOutputSize(compressed.length)) {
      // fflate drops writes past the end of a fixed buffer, so a full buffer means "more than maxSize".
      return unzlibSync(compressed, { out: new Uint8Array(limit) });
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    const stream = new Unzlib((chunk) => {
      if (total < limit) chunks.push(chunk.length > limit - total ? chunk.subarray(0, limit - total) : chunk);
      total += chunk.length;
    });
    for (let pos = 0; pos < compressed.length && total < limit; pos += STREAM_SLICE) {
      const end = Math.min(compressed.length, pos + STREAM_SLICE);
      stream.push(compressed.subarray(pos, end), end === compressed.length);
    }
    return concatBytes(chunks, Math.min(total, limit));
  },
  inflateSlices(compressed, maxSize, onSlice) {
    let total = 0;
    const stream = new Unzlib((chunk) => {
      if (total + chunk.length > maxSize) throw new InflateLimitError(maxSize);
      total += chunk.length;
      if (chunk.length > 0) onSlice(chunk);
    });
    for (let pos = 0; pos < compressed.length; pos += STREAM_SLICE) {
      const end = Math.min(compressed.length, pos + STREAM_SLICE);
      stream.push(compressed.subarray(pos, end), end === compressed.length);
    }
    return total;
  },
  // DecompressionStream for items of DECOMPRESSION_STREAM_MIN_SIZE and more, where the platform has it
  // (readMapAsync, Datafile#preloadData); fflate for the others.
  async inflateAsync(compressed, maxSize) {
    if (maxSize < DECOMPRESSION_STREAM_MIN_SIZE || typeof DecompressionStream !== 'function') return fflateZlib.inflate(compressed, maxSize);
    return inflateWithDecompressionStream(compressed, maxSize);
  },
};

/**
 * From this declared size up, the browser's own DecompressionStream('deflate') inflates faster than fflate
 * (bench/browser-inflate.mjs, Chromium 156 on a 2-core Xeon: 0.63x to 0.71x fflate's time for the corpus'
 * items of 64 KB and more, 2.3x to 4.4x slower below, where its per-stream start-up dominates). On another
 * machine it measured slower at every size (1.1x to 3.4x), so this is the machine-independent part of the
 * choice: small items never go through it.
 */
export const DECOMPRESSION_STREAM_MIN_SIZE = 64 * 1024;

/**
 * Inflates through DecompressionStream into a buffer of the declared size when that size is plausible for the
 * input (as the sync path), else into chunks; stops as soon as the output passes `maxSize`. Rejects on any
 * failure, leaving the exact error to the sync path.
 */
async function inflateWithDecompressionStream(compressed: Uint8Array, maxSize: number): Promise<Uint8Array> {
  const stream = new DecompressionStream('deflate');
  const writer = stream.writable.getWriter();
  // Errors surface on the reading side; these promises only must not go unhandled.
  writer.write(compressed as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const whole = maxSize + 1 <= initialOutputSize(compressed.length) ? new Uint8Array(maxSize) : undefined;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.length > maxSize) {
      await reader.cancel().catch(() => {});
      throw new InflateLimitError(maxSize);
    }
    if (whole) whole.set(value, total);
    else chunks.push(value);
    total += value.length;
  }
  if (whole) return total === maxSize ? whole : whole.subarray(0, total);
  return concatBytes(chunks, total);
}

export const defaultZlib: ZlibCodec = fflateZlib;

/** Browsers: no deflater unless the caller brings one (keeps pako out of read-only bundles). */
export const defaultDeflate: DeflateFunction | undefined = undefined;
