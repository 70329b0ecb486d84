export * from './generated/messages.gen.js';
export { parseHeader, TeehistorianError, type TeehistorianHeader } from './header.js';
export { PlayerTracker, type PlayerState, readMessage, type ReaderOptions, type TeehistorianEnd, type TeehistorianMessage, type TickedMessage, TickTracker, type UnknownExMessage } from './messages.js';
export { readTeehistorian, TeehistorianReader } from './reader.js';
export { type ByteSource, readTeehistorianStream, TeehistorianStreamReader } from './stream.js';
export { type MessageColumns, scanTeehistorian, scanTeehistorianStream, teehistorianColumns, type TeehistorianColumns, TeehistorianScanner, TeehistorianStreamScanner } from './scanner.js';
export { statsKey, type TeehistorianStats, teehistorianStats } from './stats.js';
export { type HeaderInput, TeehistorianWriter, writeTeehistorian, writeTeehistorianTicked } from './writer.js';
export { decodeClientMessage, type TeehistorianChatLine, teehistorianChat, TeehistorianNames } from './net.js';
// The base class of every error thrown for bad input (code, byte offset, field path), to catch them all.
export { BinaryError, CodecError } from '@twcodec/runtime';
