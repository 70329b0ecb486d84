// The shape of a generated packet-layer table (src/generated/<protocol>.gen.ts, from schemas/net): the
// header codecs are generated functions, control and connectionless payloads field lists that payload.ts reads.
import type { NetJsonWriter, NetProtocolDef } from '@twcodec/netmsg';
import type { SnapshotProtocol } from '@twcodec/snapshot';

export type PacketPayloadFieldType = 'u8' | 'token' | 'magic' | 'string' | 'int' | 'decimal_string' | 'padding' | 'list_rest';

export interface PacketPayloadFieldDef {
  /** Schema name (snake_case). */
  readonly name: string;
  /** Property name in the decoded object (camelCase). */
  readonly key: string;
  readonly type: PacketPayloadFieldType;
  /** magic: the bytes (ASCII). */
  readonly value?: string;
  /** Present only when bytes remain (magic: when they match). */
  readonly optional?: boolean;
  /** list_rest: the fields of one entry. */
  readonly fields?: readonly PacketPayloadFieldDef[];
}

export interface ControlMessageDef {
  readonly name: string;
  readonly id: number;
  /** The message (re)starts a connection: vital sequences start again (schemas/net `new_connection`). */
  readonly newConnection?: true;
  readonly fields: readonly PacketPayloadFieldDef[];
}

export interface ConnlessHeaderDef {
  readonly name: string;
  readonly size: number;
  /** The bytes the header starts with. */
  readonly prefix?: readonly number[];
  /** Or: the first byte, masked, equals value. */
  readonly match?: { readonly mask: number; readonly value: number };
  readonly decode?: (bytes: Uint8Array, offset?: number) => object;
  readonly encode?: (value: never, out: Uint8Array, offset?: number) => number;
}

export interface ConnlessMessageDef {
  readonly name: string;
  readonly magic: string;
  readonly direction: 'server' | 'client' | 'both';
  readonly fields: readonly PacketPayloadFieldDef[];
}

export interface PacketProtocolDef {
  readonly protocol: string;
  /** The net messages the chunks carry (schemas/netmsg). */
  readonly messages: NetProtocolDef;
  /** The snapshot objects the server's snapshots hold (schemas/snapshot). */
  readonly snapshots: SnapshotProtocol;
  readonly headerSize: number;
  readonly decodeHeader: (bytes: Uint8Array, offset?: number) => { flags: number; ack?: number; numChunks?: number; token?: number };
  readonly encodeHeader: (value: never, out: Uint8Array, offset?: number) => number;
  readonly headerFields: readonly string[];
  /** The header decodeHeader gave, with the schema's field names (as decoded packets show it). */
  readonly namedHeader: (header: never) => Record<string, number>;
  /** namedHeader(decodeHeader(bytes, offset)) with no header object in between. */
  readonly namedHeaderAt: (bytes: Uint8Array, offset: number) => Record<string, number>;
  /** namedHeaderAt's object written as a JSON object through `w` (its keys in schema order). */
  readonly namedHeaderJson: (header: Record<string, number>, w: NetJsonWriter) => void;
  /** The header's flags field alone. */
  readonly headerFlagsAt: (bytes: Uint8Array, offset: number) => number;
  /** The header's num_chunks field alone. */
  readonly headerNumChunksAt: (bytes: Uint8Array, offset: number) => number;
  readonly packetFlags: Readonly<Record<string, number>>;
  /** Bytes of DDNet's security token at the end of the data (0: the protocol has none). */
  readonly securityTokenSize: number;
  readonly chunkHeaderSize: number;
  readonly vitalChunkHeaderSize: number;
  readonly decodeChunkHeader: (bytes: Uint8Array, offset?: number) => { flags: number; size: number };
  readonly decodeChunkHeaderVital: (bytes: Uint8Array, offset?: number) => { sequence: number };
  /** A chunk header's flags, size and (vital chunk) sequence fields alone. */
  readonly chunkFlagsAt: (bytes: Uint8Array, offset: number) => number;
  readonly chunkSizeAt: (bytes: Uint8Array, offset: number) => number;
  readonly chunkSequenceAt: (bytes: Uint8Array, offset: number) => number;
  /** Sequence numbers wrap at this (NET_MAX_SEQUENCE): the values the vital chunk header's sequence field holds. */
  readonly sequenceModulo: number;
  readonly encodeChunkHeader: (value: never, out: Uint8Array, offset?: number) => number;
  readonly chunkFlags: Readonly<Record<string, number>>;
  readonly controlMessages: readonly ControlMessageDef[];
  readonly connlessHeaders: readonly ConnlessHeaderDef[];
  readonly connlessMagicPrefix: readonly number[];
  readonly connlessMessages: readonly ConnlessMessageDef[];
}
