// Node-only entry point: the native zlib codec, for callers who want to pick it explicitly.
export { nodeZlib } from './zlib/node.js';
