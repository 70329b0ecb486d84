// The packet-layer schema model (schemas/net) after loading and checking.

export interface PacketBitPart {
  byte: number;
  mask: number;
  shift: number;
}
export interface PacketBitField {
  name: string;
  description: string;
  parts: PacketBitPart[];
}
export interface PacketFlag {
  name: string;
  value: number;
  description: string;
}
export type PacketPayloadFieldType = 'u8' | 'token' | 'magic' | 'string' | 'int' | 'decimal_string' | 'padding' | 'list_rest';
export interface PacketPayloadField {
  name: string;
  type: PacketPayloadFieldType;
  description: string;
  value?: string;
  optional?: boolean;
  fields?: PacketPayloadField[];
}
export interface PacketMessage {
  name: string;
  description: string;
  fields: PacketPayloadField[];
}
export interface PacketProtocolSchema {
  packet_protocol: string;
  /** The schemas/netmsg protocol of the chunks' messages, and the schemas/snapshot protocol of the snapshots. */
  net_messages: string;
  snapshots: string;
  description: string;
  /** Schema file, relative to the repository root. */
  file: string;
  header: { size: number; fields: PacketBitField[] };
  packet_flags: PacketFlag[];
  security_token?: { size: number; description: string };
  /** The token while none is known, and the data size a token request is padded to. */
  token?: { none: number; request_size?: number; description: string };
  /** Where the file's facts were checked (sources, corpus files), shown on the page. */
  checked?: string[];
  /** The connection's sizes and timers. */
  connection?: { limits: { name: string; value: number; unit: string; description: string }[] };
  chunk_header: { size: number; vital_size: number; fields: PacketBitField[]; vital_fields: PacketBitField[] };
  chunk_flags: PacketFlag[];
  control_messages: (PacketMessage & { id: number; new_connection?: true })[];
  connless: {
    description: string;
    headers: { name: string; description: string; prefix?: string; match?: { mask: number; value: number }; size?: number; fields?: PacketBitField[] }[];
    magic_prefix: string;
    messages: (PacketMessage & { magic: string; direction: 'server' | 'client' | 'both' })[];
  };
}

/** The network layer's Huffman code (schemas/net/huffman.yaml). */
export interface HuffmanSchema {
  file: string;
  name: string;
  description: string;
  eofSymbol: number;
  /** Where the code was checked (sources, corpus files), shown on the page. */
  checked: string[];
  /** One per symbol: bytes 0..eofSymbol-1, then EOF. */
  frequencies: number[];
}
