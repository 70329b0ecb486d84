// A capture decoded datagram by datagram, with each flow's protocol told from its handshake: a 0.7 flow
// begins with a control packet (0.7's control flag, a bit 0.6 leaves unused and DDNet takes for 0.7 too)
// carrying the token message or connect; a 0.6 flow with a control packet (0.6's control flag) carrying
// connect, with DDNet's token magic when the client asks for a security token (flags, ids and the magic from
// schemas/net). A flow caught without its handshake counts as 0.7 when a packet sets 0.7's control bit, else
// as 0.6, and changes its guess when a packet reads only as the other protocol (or is `protocol` when
// given). Connectionless packets tell their protocol by their header. IP fragments are put together
// (fragments.ts) and their datagram decoded at its last fragment.
import { CodecError } from '@twcodec/runtime';
import { DDNET_0_6_PACKET, Ddnet06ControlId, Ddnet06ControlMagic } from './generated/ddnet-0.6.gen.js';
import { TEEWORLDS_0_7_PACKET, Teeworlds07ControlId } from './generated/teeworlds-0.7.gen.js';
import { type AbandonedDatagram, FragmentReassembler } from './fragments.js';
import { type DecodedPacket, decodePacketAt, type DecodePacketOptions, type NetProtocolName, unknownProtocol } from './packet.js';
import type { PacketProtocolDef } from './table.js';
import { type FragmentContext, FrameReader, type FrameRecord, udpAt, type UdpRecord } from './pcap.js';

export interface CaptureDatagram {
  /** The frame's index in the file. */
  index: number;
  seconds: number;
  nanoseconds: number;
  /** "address:port" ("[address]:port" for IPv6). */
  source: string;
  destination: string;
  /** The decoded packet, or the error it failed with. */
  packet?: DecodedPacket;
  error?: CodecError;
}

export interface DecodeCaptureOptions {
  /** The protocol of flows whose handshake the capture does not hold. Default: told from their packets, else 0.6. */
  protocol?: NetProtocolName;
}

const endpoint = (address: string, port: number) => (address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`);

/** The first byte of a control packet's header with nothing acknowledged (a handshake's), from the protocol's header encoder. */
function controlFirstByte(table: PacketProtocolDef): number {
  const header = new Uint8Array(table.headerSize);
  table.encodeHeader({ flags: table.packetFlags.control!, ack: 0, numChunks: 0, token: 0 } as never, header);
  return header[0]!;
}
/** 0.7's control flag as it sits in the first byte: 0.6 leaves that bit unused. */
const CONTROL_BYTE_07 = controlFirstByte(TEEWORLDS_0_7_PACKET);
const CONTROL_BYTE_06 = controlFirstByte(DDNET_0_6_PACKET);
/** DDNet's security-token magic a 0.6 connect may carry. */
const TOKEN_MAGIC = new TextEncoder().encode(Ddnet06ControlMagic.connect.tokenMagic);

/** A control packet with nothing acknowledged and no chunks whose message id is one of `ids`. */
function isHandshake(table: PacketProtocolDef, p: Uint8Array, ids: readonly number[]): boolean {
  if (p.length <= table.headerSize) return false;
  const h = table.decodeHeader(p);
  return h.flags === table.packetFlags.control && h.ack === 0 && h.numChunks === 0 && ids.includes(p[table.headerSize]!);
}

/** What a connection packet's first bytes say about its flow's protocol, if anything. */
function handshakeOf(p: Uint8Array): { protocol: NetProtocolName; securityToken?: boolean } | undefined {
  if (isHandshake(TEEWORLDS_0_7_PACKET, p, [Teeworlds07ControlId.token, Teeworlds07ControlId.connect])) return { protocol: '0.7' };
  // 0.6's connect carries nothing (Teeworlds) or the token magic and a token (DDNet): anything else with these
  // first bytes is not a 0.6 connect.
  if (isHandshake(DDNET_0_6_PACKET, p, [Ddnet06ControlId.connect])) {
    const at = DDNET_0_6_PACKET.headerSize + 1;
    const magic = p.length >= at + TOKEN_MAGIC.length && TOKEN_MAGIC.every((b, i) => p[at + i] === b);
    if (magic || p.length === at) return { protocol: '0.6', securityToken: magic };
  }
  return undefined;
}

/** Every frame of a capture that carries UDP, decoded; a datagram that does not decode carries `error`. */
export function decodeCapture(bytes: Uint8Array, options: DecodeCaptureOptions = {}): Generator<CaptureDatagram> {
  return new CaptureIterator(bytes, options);
}

/** What generator objects inherit from (%IteratorPrototype%): Iterator helpers where the runtime has them. */
const ITERATOR_PROTOTYPE: object = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())) as object;

const abandonedDatagram = (a: AbandonedDatagram): CaptureDatagram => ({ index: a.index, seconds: a.seconds, nanoseconds: a.nanoseconds, source: '', destination: '', error: a.error });

/**
 * decodeCapture for a capture that comes in chunks (`tcpdump -U -w -` on a pipe, a file read piece by piece):
 * `push(chunk)` the bytes as they come, then `next()` until it gives undefined (the frames complete so far are
 * decoded); `end()` when the stream ends, then `next()` until undefined for the rest. Only the frame the chunks
 * cut is kept between pushes (with the flows' state), so memory does not grow with the length of the stream.
 * The datagrams, and the errors of a damaged capture (thrown by next(), offsets from the start of the stream),
 * are decodeCapture's on the whole file.
 */
export class CaptureDecoder {
  private readonly frames: FrameReader;
  private readonly state: CaptureState = { flows: new Map(), routes: new Map(), routeCache: new Array<Route | undefined>(ROUTE_CACHE_SIZE).fill(undefined), nextSweep: -0.5, epoch: Number.NaN, route: -1 };
  private readonly udp: UdpRecord;
  private readonly reassembler = new FragmentReassembler();
  private readonly fragments: FragmentContext = { reassembler: this.reassembler, index: 0, seconds: 0, nanoseconds: 0 };
  /** Datagrams due before the next frame's (abandoned fragments, and the frame's own datagram after them). */
  private readonly queue: CaptureDatagram[] = [];
  /** The frames are all read (the abandoned fragments' datagrams may still be queued). */
  private framesDone = false;

  /** `file`: the whole capture (decodeCapture; its header is checked at once), else the capture comes by push(). */
  constructor(
    private readonly options: DecodeCaptureOptions = {},
    file?: Uint8Array,
  ) {
    // The flows' decode options are looked up by protocol: one that names no protocol is refused at once.
    if (options.protocol !== undefined && !Object.hasOwn(decodeOptions, options.protocol)) unknownProtocol(options.protocol);
    this.frames = new FrameReader(file);
    this.udp = { source: '', destination: '', sourcePort: 0, destinationPort: 0, bytes: this.frames.bytes, start: 0, end: 0 };
  }

  /**
   * The route of the datagram next() gave last: a number of its own for each source and destination the
   * decoder follows, which no other route of this decoder or another has had (a route forgotten and met again
   * gets a new one), -1 for a datagram without one (an error before its ports were read, an abandoned
   * fragment's, one given after those). Its source and destination texts are the same strings for every
   * datagram of a route: a writer that keeps something per route (the CLI's JSON text of a line's endpoints)
   * finds it by this number, where a look-up by the two texts hashed them and compared them again for every
   * datagram (issue 41).
   */
  get route(): number {
    return this.state.route;
  }

  /** The next bytes of the capture. */
  push(chunk: Uint8Array): void {
    this.frames.push(chunk);
  }

  /** The capture has ended: next() reads what is left (and throws if the capture ends inside a frame). */
  end(): void {
    this.frames.end();
  }

  /** The next datagram; undefined when the frames pushed so far are all decoded (or, after end(), at the end). Throws NetError on a damaged capture. */
  next(): CaptureDatagram | undefined {
    const { queue, state } = this;
    // No route until decodeFrame gives a datagram that has one.
    state.route = -1;
    if (queue.length > 0) return queue.shift();
    if (this.framesDone) return undefined;
    const { frames, udp, options, fragments, reassembler } = this;
    while (frames.next()) {
      const frame = frames.frame;
      fragments.index = frame.index;
      fragments.seconds = frame.seconds;
      fragments.nanoseconds = frame.nanoseconds;
      const d = decodeFrame(frames.bytes, frames.base, frame, udp, state, options, fragments);
      // A datagram whose fragments stopped coming gets its error line where its first fragment was seen.
      if (reassembler.hasAbandoned) {
        for (const a of reassembler.take()) queue.push(abandonedDatagram(a));
        if (d) queue.push(d);
        if (queue.length > 0) {
          state.route = -1;
          return queue.shift();
        }
      }
      if (d) return d;
    }
    if (frames.pending) return undefined;
    this.framesDone = true;
    reassembler.finish();
    for (const a of reassembler.take()) queue.push(abandonedDatagram(a));
    return queue.shift();
  }

  /** How many flows the decoder follows now (for measures of its memory). */
  get flowCount(): number {
    return this.state.flows.size;
  }
}

/**
 * decodeCapture's iterator, behaving as a generator function's would (nothing read before the first next(),
 * closed by return(), throw() or an error), written out by hand: resuming a generator for each datagram was
 * about 5% of decoding the corpus capture (measured against the generator in alternating rounds).
 */
class CaptureIterator implements Generator<CaptureDatagram, void, unknown> {
  private decoder: CaptureDecoder | undefined;
  /** Closed: by return(), throw() or an error; next() only says done. */
  private closed = false;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly options: DecodeCaptureOptions,
  ) {}

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<CaptureDatagram, void> {
    if (this.closed) return { value: undefined, done: true };
    let d: CaptureDatagram | undefined;
    try {
      // Made at the first next(), as a generator function's body would run: a damaged file throws there, and
      // so does a `protocol` option that names no protocol.
      d = (this.decoder ??= new CaptureDecoder(this.options, this.bytes)).next();
    } catch (e) {
      this.closed = true;
      throw e;
    }
    if (d) return { value: d, done: false };
    this.closed = true;
    return { value: undefined, done: true };
  }

  return(value: void): IteratorResult<CaptureDatagram, void> {
    this.closed = true;
    return { value, done: true };
  }

  throw(e: unknown): IteratorResult<CaptureDatagram, void> {
    this.closed = true;
    throw e;
  }
}
Object.setPrototypeOf(CaptureIterator.prototype, ITERATOR_PROTOTYPE);

interface CaptureState {
  /**
   * Each flow under its two endpoints ("a b", the lesser text first: one key for both directions), in the order
   * they were first seen: past MAX_FLOWS flows the older half is forgotten (with the caches below, which
   * point into it), so that a capture of many one-datagram flows (a scan, a flood) holds a bounded table.
   */
  flows: Map<string, FlowPair>;
  /** The last route seen per source and destination port: most datagrams find their flow here in one look-up. */
  routes: Map<number, Route>;
  /**
   * Routes by a hash of their ports (a direct-mapped cache in front of `routes`): the Map's key is a heap
   * number once the source port passes 16383, and a look-up by it cost as much as decoding a small message.
   * Several connections' datagrams interleave, so a cache of the last route or two missed most of the time.
   */
  routeCache: (Route | undefined)[];
  /** The capture time (seconds) of the next look for flows to forget (forgetIdleFlows). */
  nextSweep: number;
  /** The capture time (seconds) FlowPair.lastSeen counts from: the first datagram's (NaN before it). */
  epoch: number;
  /** CaptureDecoder.route: Route.id of the datagram decodeFrame gave last, -1 from next() until it gives one that has a route. */
  route: number;
}

const ROUTE_CACHE_SIZE = 1024;
/**
 * Flows followed at once (past this, the older half is forgotten). A flow forgotten and seen again is told from
 * its packets, as one caught without its handshake. (330,000 one-datagram flows held 430 MB before there was a limit.)
 */
export const MAX_FLOWS = 65_536;
const routeSlot = (sourcePort: number, destinationPort: number) => (sourcePort ^ (sourcePort >>> 10) ^ (destinationPort * 17) ^ (destinationPort >>> 6)) & (ROUTE_CACHE_SIZE - 1);

/**
 * A flow is forgotten (its protocol and security token; a packet of it after that is told from its packets, as
 * one caught without its handshake) once nothing of it came for IDLE_SECONDS of capture time, or CLOSED_SECONDS
 * after a close: a capture of a server's whole day then holds the flows of the players on it, not of every
 * player since the morning. Both are longer than a real peer waits: DDNet 16.4 drops a silent connection after
 * conn_timeout, 100 s by default (src/engine/shared/config_variables.h), and sends nothing more on a connection
 * it closed (src/engine/shared/network_conn.cpp CNetConnection::Disconnect); a new connection on the same
 * endpoints starts with its handshake, which sets its flow anew.
 */
export const IDLE_SECONDS = 300;
export const CLOSED_SECONDS = 10;
/** How often (capture seconds) the flows are looked through for ones to forget. */
const SWEEP_SECONDS = 10;

/**
 * The flow of a pair of endpoints, shared by both directions: one object of five fields, made with all of them
 * (a flow's protocol in an object of its own, and a field added after the object was made, took three objects
 * and 150 bytes a flow: a capture of 10,000 clients at once, bench/pcap.mjs; issue 41).
 */
interface FlowPair {
  /** The flow's protocol; undefined until a connection packet. */
  protocol: NetProtocolName | undefined;
  /** From the handshake (fixed) or a guess (a later handshake replaces it). */
  fromHandshake: boolean;
  /** Whether the flow's handshake asked for DDNet's security token: 0 unknown, 1 yes, 2 no (DECODE_0_6's index). */
  token: number;
  /**
   * Capture time of the pair's last datagram, in seconds from CaptureState.epoch: a small integer (a capture
   * time itself is past V8's small integers, and a field that holds one boxes it in a number of its own).
   */
  lastSeen: number;
  /** A close (control message) went either way. */
  closed: boolean;
}

interface Route {
  /** CaptureDecoder.route: a number no other route has had, of this decoder or another (nextRouteId). */
  id: number;
  sourcePort: number;
  destinationPort: number;
  sourceAddress: string;
  destinationAddress: string;
  source: string;
  destination: string;
  pair: FlowPair;
}

/**
 * Route.id of the next route made, by any decoder of the process: a writer that keeps something per route
 * number (the CLI's line heads) may outlive a decoder and serve the next one. It wraps at 2^30 (V8's small
 * integers): the route of that many routes ago is long forgotten.
 */
let nextRouteId = 0;

/** Forgets the older half of the flows and the caches that point into them. */
function trimFlows(state: CaptureState): void {
  let drop = state.flows.size - (state.flows.size >> 1);
  for (const key of state.flows.keys()) {
    if (drop-- <= 0) break;
    state.flows.delete(key);
  }
  state.routes.clear();
  state.routeCache.fill(undefined);
}

/** Forgets the flows idle or closed for long enough at capture time `seconds`, and the caches that point into them. */
function forgetIdleFlows(state: CaptureState, seconds: number): void {
  state.nextSweep = seconds + SWEEP_SECONDS;
  let forgot = false;
  for (const [key, pair] of state.flows) {
    if (seconds - state.epoch - pair.lastSeen > (pair.closed ? CLOSED_SECONDS : IDLE_SECONDS)) {
      state.flows.delete(key);
      forgot = true;
    }
  }
  if (!forgot) return;
  state.routes.clear();
  state.routeCache.fill(undefined);
}

function pairOf(state: CaptureState, source: string, destination: string): FlowPair {
  const key = source < destination ? `${source} ${destination}` : `${destination} ${source}`;
  let pair = state.flows.get(key);
  // lastSeen is set by the caller.
  if (!pair) state.flows.set(key, (pair = { protocol: undefined, fromHandshake: false, token: 0, lastSeen: 0, closed: false }));
  return pair;
}

/**
 * Whether `route` is the route of the datagram in `udp`. One function for routeOf's two looks (the cache, then
 * the Map), so that the second, which a capture meets first late (two routes in one cache slot), runs code whose
 * compares have type feedback from the first: written out there, they sent routeOf back to be compiled again
 * (node --trace-deopt: insufficient type feedback; issue 41).
 */
const isRouteOf = (route: Route | undefined, udp: UdpRecord): route is Route =>
  route !== undefined && route.sourcePort === udp.sourcePort && route.destinationPort === udp.destinationPort && route.sourceAddress === udp.source && route.destinationAddress === udp.destination;

/** The endpoint texts and flow of the datagram in `udp`. */
function routeOf(state: CaptureState, udp: UdpRecord): Route {
  const slot = routeSlot(udp.sourcePort, udp.destinationPort);
  let route = state.routeCache[slot];
  if (isRouteOf(route, udp)) return route;
  // Bits, not arithmetic: `* 65536 +` took the ports for small integers until a source port past 16383 came,
  // which sent routeOf back to be compiled again (node --trace-deopt: overflow; issue 41).
  const key = (udp.sourcePort << 16) | udp.destinationPort;
  route = state.routes.get(key);
  if (!isRouteOf(route, udp)) {
    // MAX_FLOWS flows, or twice as many routes (one a direction): time to forget the older half.
    if (state.flows.size >= MAX_FLOWS || state.routes.size >= 2 * MAX_FLOWS) trimFlows(state);
    // A route's endpoint texts are made when the route is: a datagram of a known route builds no string. (A
    // table of the texts by address and port, to share them between routes, held a Map per address: most of
    // the memory of a capture of many clients, 10,000 flows in bench/pcap.mjs.)
    const source = endpoint(udp.source, udp.sourcePort);
    const destination = endpoint(udp.destination, udp.destinationPort);
    route = { id: nextRouteId, sourcePort: udp.sourcePort, destinationPort: udp.destinationPort, sourceAddress: udp.source, destinationAddress: udp.destination, source, destination, pair: pairOf(state, source, destination) };
    nextRouteId = (nextRouteId + 1) & 0x3fffffff;
    state.routes.set(key, route);
  }
  state.routeCache[slot] = route;
  return route;
}

/** decodePacket's options per protocol and security token (unknown, negotiated, not negotiated), made once. */
const DECODE_0_6: readonly DecodePacketOptions[] = [{ protocol: '0.6' }, { protocol: '0.6', securityToken: true }, { protocol: '0.6', securityToken: false }];
const DECODE_0_7: readonly DecodePacketOptions[] = [{ protocol: '0.7' }, { protocol: '0.7', securityToken: true }, { protocol: '0.7', securityToken: false }];
const decodeOptions: Record<NetProtocolName, readonly DecodePacketOptions[]> = { '0.6': DECODE_0_6, '0.7': DECODE_0_7 };

const datagram = (frame: FrameRecord, source: string, destination: string, packet: DecodedPacket | undefined, error?: CodecError): CaptureDatagram =>
  packet ? { index: frame.index, seconds: frame.seconds, nanoseconds: frame.nanoseconds, source, destination, packet } : { index: frame.index, seconds: frame.seconds, nanoseconds: frame.nanoseconds, source, destination, error: error! };

function decodeFrame(bytes: Uint8Array, base: number, frame: FrameRecord, udp: UdpRecord, state: CaptureState, options: DecodeCaptureOptions, fragments: FragmentContext): CaptureDatagram | undefined {
  try {
    if (!udpAt(bytes, frame.start, frame.end, frame.linkType, udp, fragments, base)) return undefined;
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    return datagram(frame, '', '', undefined, e);
  }
  if (frame.seconds >= state.nextSweep) {
    if (Number.isNaN(state.epoch)) state.epoch = frame.seconds;
    forgetIdleFlows(state, frame.seconds);
  }
  const route = routeOf(state, udp);
  const { source, destination, pair } = route;
  state.route = route.id;
  pair.lastSeen = frame.seconds - state.epoch;
  // The payload is p[start, end); only a first packet of a flow is looked at through a view (handshakeOf).
  const p = udp.bytes;
  const start = udp.start;
  const end = udp.end;
  const first = end > start ? p[start]! : 0;
  if (!(end > start && DDNET_0_6_PACKET.headerFlagsAt(p, start) & DDNET_0_6_PACKET.packetFlags.connless!)) {
    const hs = first === CONTROL_BYTE_07 || first === CONTROL_BYTE_06 ? handshakeOf(p.subarray(start, end)) : undefined;
    if (hs && !(pair.fromHandshake && pair.protocol === hs.protocol && hs.protocol === '0.7')) {
      pair.protocol = hs.protocol;
      pair.fromHandshake = true;
      pair.token = hs.securityToken === undefined ? 0 : hs.securityToken ? 1 : 2;
    } else if (pair.protocol === undefined) {
      pair.protocol = options.protocol ?? (end > start && first & CONTROL_BYTE_07 ? '0.7' : '0.6');
    } else if (!pair.fromHandshake && !options.protocol && end > start && first & CONTROL_BYTE_07) pair.protocol = '0.7';
  }
  const token = pair.token;
  const protocol = pair.protocol ?? options.protocol ?? '0.6';
  try {
    const packet = decodePacketAt(p, start, end, (protocol === '0.7' ? DECODE_0_7 : DECODE_0_6)[token]!);
    // `kind` first: every packet has it, where `control` is absent from most (a missing member of objects of
    // several shapes is the slowest load there is; a control packet always has its `control`).
    // (Stored at every control packet, so that the store has met one before the first close: issue 41.)
    if (packet.kind === 'control') pair.closed ||= packet.control!.kind === 'close';
    return datagram(frame, source, destination, packet);
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    // A guessed protocol that does not read gives way to the other one when that one does.
    if (pair.protocol !== undefined && !pair.fromHandshake && !options.protocol) {
      const other = pair.protocol === '0.6' ? '0.7' : '0.6';
      try {
        const packet = decodePacketAt(p, start, end, decodeOptions[other][token]!);
        pair.protocol = other;
        return datagram(frame, source, destination, packet);
      } catch (e2) {
        if (!(e2 instanceof CodecError)) throw e2;
      }
    }
    return datagram(frame, source, destination, undefined, e);
  }
}
