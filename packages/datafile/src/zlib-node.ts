// Node-only entry point: the native zlib codec, for callers who want to pick it explicitly, and the native
// deflater for data without a byte-identity promise (see nodeDeflate).
export { nodeDeflate, nodeZlib } from './zlib/node.js';
