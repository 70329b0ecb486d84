import { inflateSync } from 'node:zlib';
import { deflateLikeZlib } from './deflate.js';
import { InflateLimitError, initialOutputSize, type ZlibCodec } from './types.js';

/** Inflate with node:zlib (native, about 5x faster than fflate here), deflate with pako (see deflate.ts). Output is capped with maxOutputLength, so a zip bomb stops at the declared size. */
export const nodeZlib: ZlibCodec = {
  name: 'node:zlib',
  inflate(compressed, maxSize) {
    const limit = maxSize + 1;
    // One chunk of exactly limit bytes: zlib sees the stream end without asking for another chunk, and no
    // concatenation follows. initialOutputSize caps what a lying size field can make us allocate.
    const chunkSize = Math.max(64, Math.min(limit, initialOutputSize(compressed.length)));
    let out: Uint8Array;
    try {
      out = inflateSync(compressed, { maxOutputLength: limit, chunkSize });
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new InflateLimitError(maxSize);
      throw e;
    }
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  },
  deflate: deflateLikeZlib,
};

export const defaultZlib: ZlibCodec = nodeZlib;
