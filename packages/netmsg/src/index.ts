// @twcodec/netmsg: the net messages of Teeworlds 0.6/DDNet and 0.7 (what demos record, teehistorian files and
// the network carry), decoded and encoded by tables generated from the net message schemas.

// The codec the generated tables run on.
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
  NetMessageError,
  type NetProtocolDef,
  type SanitizeRule,
  sanitizeNetString,
  type UnknownNetMessage,
} from './codec.js';
export { type Ddnet06MessageOf, type Teeworlds07MessageOf } from './message-of.js';

// Generated (the net message schemas): each protocol's table, its messages as one union (one message's type:
// Ddnet06MessageOf<'sv_chat'>), and its typed decoder and encoder.
export { DDNET_0_6_MESSAGES, type Ddnet06Message, type Ddnet06MessageKind, decodeDdnet06Message, encodeDdnet06Message } from './generated/ddnet-0.6.gen.js';
export { decodeTeeworlds07Message, encodeTeeworlds07Message, TEEWORLDS_0_7_MESSAGES, type Teeworlds07Message, type Teeworlds07MessageKind } from './generated/teeworlds-0.7.gen.js';

// Errors: NetMessageError's codes, and the runtime's base class of every error thrown for bad input.
export { NET_MESSAGE_ERROR_CODES, type NetMessageErrorCode } from './error-codes.js';
export { BinaryError, CodecError } from '@twcodec/runtime';
