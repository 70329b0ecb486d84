// @twcodec/net: the UDP layer of Teeworlds 0.6/DDNet and 0.7 (packet and chunk headers, control and
// connectionless messages, generated from schemas/net), and capture files decoded down to net messages.
export { type CaptureDatagram, CaptureDecoder, decodeCapture, type DecodeCaptureOptions } from './capture.js';
export { type CaptureDemo, captureDemo, type CaptureDemoOptions, MAX_GROWTH } from './capture-demo.js';
export { CLIENT_LIMITS, type ClientClose, type ClientMap, type ClientMessage, type ClientOptions, type ClientSnapshot, type ClientState, type NetClock, type PlayerInput, SYSTEM_CLOCK } from './client-api.js';
export { DDNET_CLIENT_VERSION, NET_VERSIONS, NetClient } from './client.js';
export { ClientGame, type GameCharacter, type GameEvent, type GameEventType, type GamePlayer } from './game.js';
export { ClientRcon, MAX_RCON_ANSWER_LINES, MAX_RCON_COMMANDS, type RconAuthOptions, type RconCommandInfo, type RconCommandOptions } from './rcon.js';
export { DEFAULT_MAX_DEMO_SIZE, headerMapName, MAP_NAME_BYTES, type RecordDemoOptions, type RecordedDemo, recordDemo } from './record.js';
export { NetError } from './errors.js';
export { type ServerInfo, type ServerInfoClient, ServerInfoQuery } from './info.js';
export { type ConnlessMessage, type ControlMessage, type DecodedChunk, type DecodedPacket, decodePacket, decodePacketAt, encodePacket, type DecodePacketOptions, isConnless, MAX_PACKET_SIZE, type NetProtocolName, PACKET_PROTOCOLS } from './packet.js';
export { type CaptureFrame, isCapture, LINKTYPE, readCapture, udpOf, type UdpDatagram } from './pcap.js';
export { DEFAULT_MAX_MAP_SIZE, type MapDownload, MapDownloader } from './mapdownload.js';
export { type ChunkDelivery, ConnectionTracker, type ConnectionTrackerOptions, type TrackedDatagram, type TrackerHolding } from './tracker.js';
export { MAX_SNAPSHOT_PARTS, type RebuiltSnapshot, SnapshotReceiver } from './snapshot-receiver.js';
export type { ConnlessHeaderDef, ConnlessMessageDef, ControlMessageDef, PacketPayloadFieldDef, PacketPayloadFieldType, PacketProtocolDef } from './table.js';
// Generated (the packet schemas): each protocol's packet table, its header and flag layouts, and its control and
// connectionless messages as unions (one message: Extract<Ddnet06ControlMessage, { kind: 'close' }>).
export {
  DDNET_0_6_PACKET,
  Ddnet06ChunkFlag,
  type Ddnet06ChunkHeader,
  type Ddnet06ConnlessExtendedHeader,
  type Ddnet06ConnlessMessage,
  type Ddnet06ControlMessage,
  Ddnet06PacketFlag,
  type Ddnet06PacketHeader,
} from './generated/ddnet-0.6.gen.js';
export {
  TEEWORLDS_0_7_PACKET,
  Teeworlds07ChunkFlag,
  type Teeworlds07ChunkHeader,
  type Teeworlds07ConnlessMessage,
  type Teeworlds07ConnlessTokenHeader,
  type Teeworlds07ControlMessage,
  Teeworlds07PacketFlag,
  type Teeworlds07PacketHeader,
} from './generated/teeworlds-0.7.gen.js';

// Errors: NetError's codes, and the runtime's base class of every error thrown for bad input.
export { NET_ERROR_CODES, type NetErrorCode } from './error-codes.js';
export { BinaryError, CodecError } from '@twcodec/runtime';
