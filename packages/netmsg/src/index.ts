export {
  type AnyNetMessage,
  type DecodeOptions,
  decodeNetMessage,
  decodeNetMessageAt,
  type Direction,
  encodeNetMessage,
  type NetFieldDef,
  type NetFieldType,
  type NetMessageBase,
  type NetMessageDef,
  netMessageDef,
  peekNetMessage,
  NetMessageError,
  type NetProtocolDef,
  type SanitizeRule,
  sanitizeNetString,
  type UnknownNetMessage,
} from './codec.js';
export * from './generated/ddnet-0.6.gen.js';
// 0.7's message interfaces share names with 0.6's (SvChatMessage...): they live in the `seven` namespace.
export * as seven from './generated/teeworlds-0.7.gen.js';
export { decodeTeeworlds07Message, encodeTeeworlds07Message, TEEWORLDS_0_7_MESSAGES, type Teeworlds07Message, type Teeworlds07MessageKind } from './generated/teeworlds-0.7.gen.js';
// The base class of every error thrown for bad input (code, byte offset, field path), to catch them all.
export { BinaryError, CodecError } from '@twcodec/runtime';
