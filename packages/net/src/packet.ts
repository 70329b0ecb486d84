// One UDP datagram of Teeworlds 0.6/DDNet or 0.7, decoded: the packet header (generated from
// schemas/net), the Huffman-compressed data inflated, then one control message, the chunks with their net
// messages (@twcodec/netmsg's tables), or a connectionless message. The structure lives here; what the bytes
// mean lives in the schemas.
import { type AnyNetMessage, decodeNetMessageAt, encodeNetMessage, type NetProtocolDef, type UnknownNetMessage } from '@twcodec/netmsg';
import { ByteReader, ByteWriter, CodecError, teeworldsHuffman } from '@twcodec/runtime';
import { NetError } from './errors.js';
import { DDNET_0_6_PACKET } from './generated/ddnet-0.6.gen.js';
import { TEEWORLDS_0_7_PACKET } from './generated/teeworlds-0.7.gen.js';
import { readFields, writeFields } from './payload.js';
import type { PacketProtocolDef } from './table.js';

/** The two packet layers: Teeworlds 0.6 with DDNet's additions, and Teeworlds 0.7. */
export type NetProtocolName = '0.6' | '0.7';

export const PACKET_PROTOCOLS: Readonly<Record<NetProtocolName, PacketProtocolDef>> = { '0.6': DDNET_0_6_PACKET, '0.7': TEEWORLDS_0_7_PACKET };

/** The biggest packet DDNet and Teeworlds send or accept (NET_MAX_PACKETSIZE), also the cap on inflated data. */
export const MAX_PACKET_SIZE = 1400;

export interface DecodedChunk {
  /** Names of the chunk flags set (vital, resend). */
  flags: string[];
  size: number;
  /** Sequence number of a vital chunk. */
  sequence?: number;
  /** The chunk's net message, decoded with the protocol's message table (`unknown` with `error` when it does not read). */
  message: AnyNetMessage | UnknownNetMessage;
  /** Not even the message id reads: `message.data` is the whole chunk (id -1). */
  unframed?: true;
}

export interface ControlMessage {
  kind: string;
  id: number;
  [field: string]: unknown;
}

export interface ConnlessMessage {
  /** The message name (get_info, info, info_extended, ...) or `unknown` (its bytes in `data`). */
  kind: string;
  data?: Uint8Array;
  [field: string]: unknown;
}

export interface DecodedPacket {
  protocol: NetProtocolName;
  /** `connection` (chunks), `control` or `connless`. */
  kind: 'connection' | 'control' | 'connless';
  /** The header's fields by name (flags, ack, num_chunks; 0.7's token; a connless header's tokens). */
  header: Record<string, number | string>;
  /** Names of the packet flags set. */
  flags: string[];
  /** DDNet's security token at the end of the data (0.6 only). */
  securityToken?: number;
  control?: ControlMessage;
  chunks?: DecodedChunk[];
  connless?: ConnlessMessage;
}

export interface DecodePacketOptions {
  /** The connection's protocol (connectionless packets tell theirs apart by their header). Default '0.6'. */
  protocol?: NetProtocolName;
  /**
   * Whether the 0.6 connection negotiated DDNet's security token (its connect had the TKEN magic): the last
   * 4 bytes of every control message are then the token. Undefined: 4 bytes left after the fields are taken
   * as the token. Chunk packets always take 4 bytes left after their chunks as the token.
   */
  securityToken?: boolean;
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const named = (header: object) => Object.fromEntries(Object.entries(header).map(([k, v]) => [snake(k), v as number]));

/** Each flag value's list of names (filled in as values are met: a field holds at most 8 bits). */
type FlagLists = (string[] | undefined)[];

function flagList(flags: Readonly<Record<string, number>>, lists: FlagLists, value: number): string[] {
  const list: string[] = [];
  for (const name in flags) if (value & flags[name]!) list.push(name);
  if (value >= 0 && value < 256) lists[value] = list;
  return list;
}

/**
 * The names of the flags set in `value`, in a new array of its exact length (each decoded packet and chunk
 * owns its list; an array grown by push from empty takes room for 17).
 */
function flagNames(flags: Readonly<Record<string, number>>, lists: FlagLists, value: number): string[] {
  const list = lists[value] ?? flagList(flags, lists, value);
  switch (list.length) {
    case 0:
      return [];
    case 1:
      return [list[0]!];
    case 2:
      return [list[0]!, list[1]!];
    default:
      return list.slice();
  }
}

/** What decoding a protocol's packets needs, looked up once per packet. */
interface ProtocolDecoding {
  name: NetProtocolName;
  table: PacketProtocolDef;
  messages: NetProtocolDef;
  packetFlagLists: FlagLists;
  chunkFlagLists: FlagLists;
}
const decodingOf = (name: NetProtocolName): ProtocolDecoding => ({ name, table: PACKET_PROTOCOLS[name], messages: PACKET_PROTOCOLS[name].messages, packetFlagLists: new Array(256).fill(undefined), chunkFlagLists: new Array(256).fill(undefined) });
const DECODING_0_6 = decodingOf('0.6');
const DECODING_0_7 = decodingOf('0.7');
/** The error of a `protocol` option that names no protocol (decodePacketAt, decodeCapture). */
export function unknownProtocol(name: string): never {
  throw new NetError('UNKNOWN_PROTOCOL', `protocol ${JSON.stringify(name)} (0.6 or 0.7 are read)`, -1, 'protocol');
}

/**
 * Inflated packet data is written here, not into a new array per packet: nothing decoded keeps a view of it
 * (messages copy their raw fields, an unframed chunk is copied).
 */
const inflated = new Uint8Array(MAX_PACKET_SIZE);
// Messages in packets are as the sender packed them: no demo padding after them.
const LENIENT = { lenient: true, padded: false } as const;

function wrap(e: unknown, offset: number, path: string): never {
  if (e instanceof NetError) throw e;
  if (e instanceof CodecError) throw new NetError(e.code, e.detail, offset + Math.max(0, e.offset), e.path || path, { cause: e });
  throw e;
}

/** The connless header a packet starts with, in either protocol's table. */
function connlessHeaderOf(bytes: Uint8Array) {
  for (const name of ['0.6', '0.7'] as const)
    for (const h of PACKET_PROTOCOLS[name].connlessHeaders) {
      if (bytes.length < h.size) continue;
      if (h.prefix && h.prefix.every((b, i) => bytes[i] === b)) return { protocol: name, def: h };
      if (h.match && (bytes[0]! & h.match.mask) === h.match.value) return { protocol: name, def: h };
    }
  return undefined;
}

/** Whether the datagram is connectionless (its connless flag, in the same bit in both protocols). */
export function isConnless(bytes: Uint8Array): boolean {
  return bytes.length > 0 && ((bytes[0]! >> 2) & DDNET_0_6_PACKET.packetFlags.connless!) !== 0;
}

function decodeConnless(bytes: Uint8Array): DecodedPacket {
  const found = connlessHeaderOf(bytes);
  if (!found) throw new NetError('BAD_CONNLESS_HEADER', 'a connectionless packet without a known header', 0, 'header');
  const table = PACKET_PROTOCOLS[found.protocol];
  const header: Record<string, number | string> = { form: found.def.name, ...(found.def.decode ? named(found.def.decode(bytes)) : {}) };
  const prefix = table.connlessMagicPrefix;
  const start = found.def.size;
  let connless: ConnlessMessage = { kind: 'unknown', data: bytes.subarray(start) };
  if (bytes.length >= start + prefix.length + 4 && prefix.every((b, i) => bytes[start + i] === b)) {
    const magic = String.fromCharCode(...bytes.subarray(start + prefix.length, start + prefix.length + 4));
    const def = table.connlessMessages.find((m) => m.magic === magic);
    if (def) {
      const r = new ByteReader(bytes, start + prefix.length + 4);
      try {
        connless = { kind: def.name, ...readFields(r, def.fields) };
      } catch (e) {
        wrap(e, 0, def.name);
      }
      if (r.remaining) connless.trailing = r.readBytes(r.remaining);
    }
  }
  return { protocol: found.protocol, kind: 'connless', header, flags: ['connless'], connless };
}

/*
 * The errors of decodePacketAt's checks are made by these functions, not where they are thrown: when the text
 * of several errors of a function held the same number (a chunk's index, the packet's length), V8 formatted it
 * once for all of them, above the checks, so for every packet and chunk (seen with perf on the corpus capture).
 */
function packetSizeError(protocol: NetProtocolName, headerSize: number, length: number): NetError {
  if (length < headerSize) return new NetError('TRUNCATED', `a ${protocol} packet needs ${headerSize} header bytes, has ${length}`, 0, 'header');
  return new NetError('PACKET_TOO_BIG', `${length} bytes, more than ${MAX_PACKET_SIZE}`, 0, 'header');
}
function chunkTruncated(i: number, numChunks: number, offset: number, detail: string): NetError {
  return new NetError('TRUNCATED', `chunk ${i} of ${numChunks}${detail}`, offset, `chunks[${i}]`);
}

/** Decodes one UDP payload; throws NetError when it does not read as a packet of the protocol. */
export function decodePacket(bytes: Uint8Array, options: DecodePacketOptions = {}): DecodedPacket {
  return decodePacketAt(bytes, 0, bytes.length, options);
}

/**
 * decodePacket of the payload `bytes[start, end)`, for decoders that hold many datagrams in one array (a
 * capture file): no view is made of a packet of chunks. Offsets in errors count from `start`.
 */
export function decodePacketAt(bytes: Uint8Array, start: number, end: number, options: DecodePacketOptions = {}): DecodedPacket {
  const length = end - start;
  if (length > 0 && ((bytes[start]! >> 2) & DDNET_0_6_PACKET.packetFlags.connless!) !== 0) return decodeConnless(bytes.subarray(start, end));
  const decoding = options.protocol === undefined || options.protocol === '0.6' ? DECODING_0_6 : options.protocol === '0.7' ? DECODING_0_7 : unknownProtocol(options.protocol);
  const protocol = decoding.name;
  const table = decoding.table;
  if (length < table.headerSize || length > MAX_PACKET_SIZE) throw packetSizeError(protocol, table.headerSize, length);
  const rawFlags = table.headerFlagsAt(bytes, start);
  const flags = flagNames(table.packetFlags, decoding.packetFlagLists, rawFlags);
  const header: Record<string, number | string> = table.namedHeaderAt(bytes, start);
  // The data after the header: data[dataStart, dataEnd), in the packet or inflated into the shared buffer.
  let data = bytes;
  let dataStart = start + table.headerSize;
  let dataEnd = end;
  if (rawFlags & table.packetFlags.compression!) {
    try {
      dataEnd = teeworldsHuffman().decompressInto(bytes, inflated, table.headerSize, dataStart, end);
    } catch (e) {
      wrap(e, 0, 'data');
    }
    data = inflated;
    dataStart = 0;
  }
  if (rawFlags & table.packetFlags.control!) return decodeControl(data.subarray(dataStart, dataEnd), table, protocol, header, flags, options);
  const messages = decoding.messages;
  const vitalFlag = table.chunkFlags.vital!;
  let pos = dataStart;
  const numChunks = table.headerNumChunksAt(bytes, start);
  // Most packets hold one or two chunks: they are kept in locals and put in an array literal of their exact
  // length at the end (an array grown by push from empty takes room for 17; a scratch array copied out and
  // cleared cost more in slice and fill than the chunks' decoding).
  let first: DecodedChunk | undefined;
  let second: DecodedChunk | undefined;
  let more: DecodedChunk[] | undefined;
  let count = 0;
  for (let i = 0; i < numChunks; i++) {
    // Offsets in errors count from the start of the data, as in the data alone.
    if (dataEnd - pos < table.chunkHeaderSize) throw chunkTruncated(i, numChunks, pos - dataStart, ': no room for its header');
    const chunkFlags = table.chunkFlagsAt(data, pos);
    const size = table.chunkSizeAt(data, pos);
    const vital = (chunkFlags & vitalFlag) !== 0;
    const headerSize = vital ? table.vitalChunkHeaderSize : table.chunkHeaderSize;
    if (dataEnd - pos < headerSize) throw chunkTruncated(i, numChunks, pos - dataStart, ': no room for its vital header');
    const sequence = vital ? table.chunkSequenceAt(data, pos) : -1;
    pos += headerSize;
    if (dataEnd - pos < size) throw chunkTruncated(i, numChunks, pos - dataStart, ` says ${size} bytes, ${dataEnd - pos} left`);
    let message: AnyNetMessage | UnknownNetMessage;
    let unframed = false;
    try {
      message = decodeNetMessageAt(messages, data, pos, pos + size, LENIENT);
    } catch (e) {
      // Not even the message id reads: kept raw (a copy: `data` may be the shared inflate buffer), like a
      // message the schema does not name.
      unframed = true;
      message = { kind: 'unknown', system: false, id: -1, data: data.slice(pos, pos + size), error: e instanceof CodecError ? e.message : String(e) };
    }
    const names = flagNames(table.chunkFlags, decoding.chunkFlagLists, chunkFlags);
    let chunk: DecodedChunk;
    if (unframed) chunk = vital ? { flags: names, size, sequence, unframed: true, message } : { flags: names, size, unframed: true, message };
    else chunk = vital ? { flags: names, size, sequence, message } : { flags: names, size, message };
    if (count === 0) first = chunk;
    else if (count === 1) second = chunk;
    else if (count === 2) more = [first!, second!, chunk];
    else more!.push(chunk);
    count++;
    pos += size;
  }
  const left = dataEnd - pos;
  const tokenSize = table.securityTokenSize;
  const list = more ?? (count === 0 ? [] : count === 1 ? [first!] : [first!, second!]);
  // securityToken is in the literal (not added after): same key order, and no property added to a made object.
  if (left === tokenSize && tokenSize > 0) return { protocol, kind: 'connection', header, flags, chunks: list, securityToken: readToken(data, pos) };
  if (left) throw new NetError('TRAILING_BYTES', `${left} bytes after ${numChunks} chunks`, pos - dataStart, 'chunks');
  return { protocol, kind: 'connection', header, flags, chunks: list };
}

/** A control packet's data (after the header, inflated): the message, then DDNet's token if any. */
function decodeControl(data: Uint8Array, table: PacketProtocolDef, protocol: NetProtocolName, header: Record<string, number | string>, flags: string[], options: DecodePacketOptions): DecodedPacket {
  const tokenSize = table.securityTokenSize;
  if (data.length < 1) throw new NetError('TRUNCATED', 'a control packet without its message id', table.headerSize, 'control');
  const def = table.controlMessages.find((m) => m.id === data[0]);
  if (!def) throw new NetError('UNKNOWN_CONTROL', `control message ${data[0]} is not in the ${protocol} schema`, table.headerSize, 'control');
  const tokenFirst = tokenSize > 0 && options.securityToken === true && data.length >= 1 + tokenSize;
  const end = tokenFirst ? data.length - tokenSize : data.length;
  const r = new ByteReader(data, 1, end);
  let control: ControlMessage;
  try {
    control = { kind: def.name, id: def.id, ...readFields(r, def.fields) };
  } catch (e) {
    if (tokenSize === 0 || options.securityToken !== undefined || data.length < 1 + tokenSize) wrap(e, table.headerSize, def.name);
    // The message's last field may have run into the token: read it again without the token.
    const r2 = new ByteReader(data, 1, data.length - tokenSize);
    try {
      control = { kind: def.name, id: def.id, ...readFields(r2, def.fields) };
    } catch (e2) {
      wrap(e2, table.headerSize, def.name);
    }
    r.pos = r2.pos;
  }
  const packet: DecodedPacket = { protocol, kind: 'control', header, flags, control };
  const left = data.length - r.pos;
  if (tokenFirst) packet.securityToken = readToken(data, data.length - tokenSize);
  else if (left === tokenSize && tokenSize > 0) packet.securityToken = readToken(data, r.pos);
  else if (left) throw new NetError('TRAILING_BYTES', `${left} bytes after the ${def.name} control message`, table.headerSize + r.pos, def.name);
  return packet;
}

const readToken = (data: Uint8Array, at: number) => ((data[at]! << 24) | (data[at + 1]! << 16) | (data[at + 2]! << 8) | data[at + 3]!) >>> 0;

const camelKeys = (header: Record<string, number | string>) => Object.fromEntries(Object.entries(header).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]));

/**
 * The bytes of a packet (the inverse of decodePacket): the header from `header` and `flags` as given, the
 * payload compressed when `flags` says so, DDNet's security token at the end of the data when present.
 * decodePacket's output encodes back to the same bytes.
 */
export function encodePacket(packet: DecodedPacket): Uint8Array {
  const table = PACKET_PROTOCOLS[packet.protocol];
  const w = new ByteWriter(256);
  if (packet.kind === 'connless') {
    const def = table.connlessHeaders.find((h) => h.name === packet.header.form);
    if (!def) throw new NetError('BAD_CONNLESS_HEADER', `no connless header ${String(packet.header.form)} in ${packet.protocol}`, -1, 'header');
    const head = new Uint8Array(def.size);
    if (def.encode) def.encode(camelKeys(packet.header) as never, head);
    if (def.prefix) head.set(def.prefix);
    if (def.match) head[0] = (head[0]! & ~def.match.mask) | def.match.value;
    w.writeBytes(head);
    const m = packet.connless!;
    const message = table.connlessMessages.find((x) => x.name === m.kind);
    if (message) {
      w.writeBytes(Uint8Array.from(table.connlessMagicPrefix));
      w.writeBytes(new TextEncoder().encode(message.magic));
      writeFields(w, message.fields, m);
      if (m.trailing instanceof Uint8Array) w.writeBytes(m.trailing);
    } else if (m.data) w.writeBytes(m.data);
    return w.finish();
  }
  const data = new ByteWriter(256);
  if (packet.kind === 'control') {
    const c = packet.control!;
    const def = table.controlMessages.find((x) => x.name === c.kind);
    if (!def) throw new NetError('UNKNOWN_CONTROL', `no control message ${c.kind} in ${packet.protocol}`, -1, 'control');
    data.writeU8(def.id);
    writeFields(data, def.fields, c);
  } else {
    const messages = table.messages;
    const header = new Uint8Array(table.vitalChunkHeaderSize);
    for (const chunk of packet.chunks ?? []) {
      const body = chunk.unframed ? (chunk.message as UnknownNetMessage).data : encodeNetMessage(messages, chunk.message);
      const flags = chunk.flags.reduce((n, name) => n | (table.chunkFlags[name] ?? 0), 0);
      const n = table.encodeChunkHeader({ flags, size: body.length, ...(chunk.sequence !== undefined ? { sequence: chunk.sequence } : {}) } as never, header);
      data.writeBytes(header.subarray(0, n));
      data.writeBytes(body);
    }
  }
  if (packet.securityToken !== undefined) data.writeI32BE(packet.securityToken | 0);
  let payload = data.finish();
  // The header's flags field as decoded (it keeps bits the schema does not name), else the named flags.
  const flags = typeof packet.header.flags === 'number' ? packet.header.flags : packet.flags.reduce((n, name) => n | (table.packetFlags[name] ?? 0), 0);
  if (flags & table.packetFlags.compression!) payload = teeworldsHuffman().compress(payload);
  const head = new Uint8Array(table.headerSize);
  table.encodeHeader({ ...camelKeys(packet.header), flags } as never, head);
  w.writeBytes(head);
  w.writeBytes(payload);
  return w.finish();
}
