// The deflater writing needs (pako 2, byte-identical to DDNet's zlib), as its own entry point so that only
// code that writes pulls it into a browser bundle.
export { deflateLikeZlib } from './zlib/deflate.js';
export type { DeflateFunction } from './zlib/types.js';
