// The pure-JS zlib codec (the browser default), for callers who want to pick it explicitly.
export { fflateZlib } from './zlib/fflate.js';
