export {
  type AnyNetMessage,
  type DecodeOptions,
  decodeNetMessage,
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
export * from './generated/ddnet-0.6.gen.js';
