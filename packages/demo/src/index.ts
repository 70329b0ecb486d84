// @twcodec/demo: DDNet and Teeworlds 0.7 demos: read, written, resaved, sliced and stripped, with their
// messages (@twcodec/netmsg) and snapshots (@twcodec/snapshot) decoded.
export { DemoError, type DemoChunk, type DemoEnd, type DemoHeader, type DemoProtocol, type DemoProtocolName, demoProtocolOf, type DemoReadOptions, DemoReader, type DemoSnapshot, readDemo, unpackChunk } from './demo.js';
export { Huffman, TEEWORLDS_FREQUENCIES, teeworldsHuffman } from './huffman.js';
export { decodeClientInfo, type DemoChatLine, demoChat, type DemoMessage, demoMessages, type DemoPlayer, type DemoPlayerInfo, type DemoPlayerInfo06, type DemoPlayerInfo07, demoPlayers, snapshotPlayers } from './messages.js';
export { DEMO_KEYFRAME_INTERVAL, type DemoWriteHeader, DemoWriter, type DemoWriterOptions } from './writer.js';
// The server's tick rate (ticks a second), from the net-message schemas: demo ticks are server ticks.
export { SERVER_TICK_SPEED } from '@twcodec/netmsg';
export { type DemoInfo, demoInfo, demoTickAt } from './info.js';
export { type DemoEvent, demoEvents, resaveDemo, type ResaveOptions, sliceDemo, type SliceOptions, stripDemo, type StripOptions } from './edit.js';
// Errors: DemoError's codes, and the runtime's base class of every error thrown for bad input.
export { DEMO_ERROR_CODES, type DemoErrorCode } from './error-codes.js';
export { BinaryError, CodecError } from '@twcodec/runtime';
