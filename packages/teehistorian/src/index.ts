export * from './generated/messages.gen.js';
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
// The base class of every error thrown for bad input (code, byte offset, field path), to catch them all.
export { BinaryError, CodecError } from '@twcodec/runtime';
