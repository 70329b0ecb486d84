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
  type NetJsonText,
  netJsonText,
  type NetJsonWriter,
  type NetMessageBase,
  type NetMessageDef,
  netMessageDef,
  netMessageFirstInt,
  NetMessageError,
  type NetProtocolDef,
  type NetValueSet,
  peekNetMessage,
  type SanitizeRule,
  type UnknownNetMessage,
} from './codec.js';
export { netMessageValueNames, netValueName, sanitizeNetString } from './values.js';
export { type Ddnet06MessageOf, type Teeworlds07MessageOf } from './message-of.js';

// Generated (the net message schemas): each protocol's table, its messages as one union (one message's type:
// Ddnet06MessageOf<'sv_chat'>), and its typed decoder and encoder.
export { DDNET_0_6_MESSAGES, type Ddnet06Message, type Ddnet06MessageKind, decodeDdnet06Message, encodeDdnet06Message } from './generated/ddnet-0.6.gen.js';
// The protocol constants of the schemas (the server's tick rate), the enum and flag sets message fields name
// (one source with the snapshot schemas; every set of a protocol is also in its *_MESSAGE_ENUMS table), and
// the first int of each numbered message.
export {
  DDNET_0_6_MESSAGE_ENUMS,
  DDNET_0_6_PACKED_MSG_IDS,
  Ddnet06Emoticon,
  Ddnet06SaveState,
  Ddnet06Sound,
  Ddnet06Team,
  Ddnet06Weapon,
  SERVER_TICK_SPEED,
} from './generated/ddnet-0.6.gen.js';
export {
  TEEWORLDS_0_7_MESSAGE_ENUMS,
  TEEWORLDS_0_7_PACKED_MSG_IDS,
  Teeworlds07ChatMode,
  Teeworlds07Emoticon,
  Teeworlds07GameFlags,
  Teeworlds07GameMsg,
  Teeworlds07SpecMode,
  Teeworlds07Team,
  Teeworlds07Vote,
  Teeworlds07Weapon,
} from './generated/teeworlds-0.7.gen.js';
export { decodeTeeworlds07Message, encodeTeeworlds07Message, TEEWORLDS_0_7_MESSAGES, type Teeworlds07Message, type Teeworlds07MessageKind } from './generated/teeworlds-0.7.gen.js';

// Errors: NetMessageError's codes, and the runtime's base class of every error thrown for bad input.
export { NET_MESSAGE_ERROR_CODES, type NetMessageErrorCode } from './error-codes.js';
export { BinaryError, CodecError } from '@twcodec/runtime';
