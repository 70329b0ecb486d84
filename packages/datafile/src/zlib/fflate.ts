import { Unzlib, unzlibSync } from 'fflate';
import { type DeflateFunction, initialOutputSize, type ZlibCodec } from './types.js';

const STREAM_SLICE = 16 * 1024;

/**
 * Inflate with fflate (pure JS, works in browsers; faster than pako here). No deflate: a browser bundle that
 * only reads maps must not carry pako (writers pass `deflate`, see deflate.ts and writeMap). When the declared size is plausible for the input, inflate straight
 * into a buffer of that size; otherwise stream in slices and stop as soon as the output passes the limit,
 * so memory follows the real output, never a hostile size field.
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
    const out = new Uint8Array(Math.min(total, limit));
    let p = 0;
    for (const c of chunks) {
      out.set(c, p);
      p += c.length;
    }
    return out;
  },
};

export const defaultZlib: ZlibCodec = fflateZlib;

/** Browsers: no deflater unless the caller brings one (keeps pako out of read-only bundles). */
export const defaultDeflate: DeflateFunction | undefined = undefined;
