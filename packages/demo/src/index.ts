export { DemoError, type DemoChunk, type DemoHeader, DemoReader, type DemoSnapshot, readDemo, unpackChunk } from './demo.js';
export { Huffman, TEEWORLDS_FREQUENCIES, teeworldsHuffman } from './huffman.js';
