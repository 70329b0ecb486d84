// The pure-JS zlib codec (the browser default), for callers who want to pick it explicitly.
export { DECOMPRESSION_STREAM_MIN_SIZE, fflateZlib } from './zlib/fflate.js';
