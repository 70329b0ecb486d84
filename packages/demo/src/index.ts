export { DemoError, type DemoChunk, type DemoHeader, DemoReader, type DemoSnapshot, readDemo, unpackChunk } from './demo.js';
export { Huffman, TEEWORLDS_FREQUENCIES, teeworldsHuffman } from './huffman.js';
export { decodeClientInfo, type DemoChatLine, demoChat, type DemoMessage, demoMessages, type DemoPlayer, type DemoPlayerInfo, demoPlayers } from './messages.js';
