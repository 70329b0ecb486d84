// @twcodec/teehistorian: DDNet's server recordings (teehistorian files), read, scanned and written with the
// message layouts generated from schemas/teehistorian.
export { type TeehistorianMessageOf } from './message-of.js';
// Generated: the messages' ids, kinds and extensions, the int fields a scan gives, the union of the extension
// messages the schemas know (one message's type: TeehistorianMessageOf<'EX:player-name'>), the file's UUID and
// the protocol's player limit.
export { EXTENSIONS, type KnownExMessage, MESSAGE_IDS, MESSAGE_INT_FIELDS, MESSAGE_KINDS } from './generated/messages.gen.js';
export { MAX_CLIENTS, TEEHISTORIAN_UUID, TEEHISTORIAN_UUID_NAME } from './generated/constants.gen.js';
export { parseHeader, TeehistorianError, type TeehistorianHeader } from './header.js';
export { PlayerTracker, type PlayerState, readMessage, type ReaderOptions, type TeehistorianEnd, type TeehistorianMessage, type TickedMessage, TickTracker, type UnknownExMessage } from './messages.js';
export { readTeehistorian, TeehistorianReader } from './reader.js';
export { type ByteSource, readTeehistorianStream, TeehistorianStreamReader } from './stream.js';
export { type MessageColumns, scanTeehistorian, scanTeehistorianStream, teehistorianColumns, type TeehistorianColumns, TeehistorianScanner, TeehistorianStreamScanner } from './scanner.js';
export { statsKey, type TeehistorianStats, teehistorianStats } from './stats.js';
export { type HeaderInput, maxClientsOf, TeehistorianWriter, type TeehistorianWriterOptions, writeTeehistorian, writeTeehistorianTicked } from './writer.js';
export { decodeClientMessage, type TeehistorianChatLine, teehistorianChat, TeehistorianNames } from './net.js';
// Errors: TeehistorianError's codes, and the runtime's base class of every error thrown for bad input.
export { TEEHISTORIAN_ERROR_CODES, type TeehistorianErrorCode } from './error-codes.js';
export { BinaryError, CodecError } from '@twcodec/runtime';
