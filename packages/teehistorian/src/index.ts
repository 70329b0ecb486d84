// @twcodec/teehistorian: DDNet's server recordings (teehistorian files), read, scanned and written with the
// message layouts generated from schemas/teehistorian.
export { type TeehistorianMessageOf } from './message-of.js';
// Generated: the messages' ids, kinds and extensions, the int fields a scan gives, and the union of the
// extension messages the schemas know (one message's type: TeehistorianMessageOf<'EX:player-name'>).
export { EXTENSIONS, type KnownExMessage, MESSAGE_IDS, MESSAGE_INT_FIELDS, MESSAGE_KINDS } from './generated/messages.gen.js';
export {
  type ByteSource,
  parseHeader,
  PlayerTracker,
  type PlayerState,
  readMessage,
  type ReaderOptions,
  readTeehistorian,
  readTeehistorianStream,
  scanTeehistorian,
  scanTeehistorianStream,
  teehistorianColumns,
  type TeehistorianColumns,
  type MessageColumns,
  TeehistorianScanner,
  TeehistorianStreamScanner,
  TEEHISTORIAN_UUID,
  type TeehistorianEnd,
  TeehistorianError,
  type TeehistorianHeader,
  type TeehistorianMessage,
  TeehistorianReader,
  TeehistorianStreamReader,
  type TickedMessage,
  TickTracker,
  type UnknownExMessage,
} from './reader.js';
export { statsKey, type TeehistorianStats, teehistorianStats } from './stats.js';
export { type HeaderInput, TeehistorianWriter, writeTeehistorian, writeTeehistorianTicked } from './writer.js';
export { decodeClientMessage, type TeehistorianChatLine, teehistorianChat, TeehistorianNames } from './net.js';
// Errors: TeehistorianError's codes, and the runtime's base class of every error thrown for bad input.
export { TEEHISTORIAN_ERROR_CODES, type TeehistorianErrorCode } from './error-codes.js';
export { BinaryError, CodecError } from '@twcodec/runtime';
