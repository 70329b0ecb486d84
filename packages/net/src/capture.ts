// A capture decoded datagram by datagram, with each flow's protocol told from its handshake: a 0.7 flow
// begins with a control packet whose first byte is 0x04 (0.7's control flag; 0.6 leaves that bit unused and
// DDNet takes it for 0.7 too) carrying the token message (5) or connect (1); a 0.6 flow with a control packet
// whose first byte is 0x10 (0.6's control flag) carrying connect (1), with DDNet's TKEN magic when the client
// asks for a security token. A flow caught without its handshake counts as 0.7 when a packet sets that 0x04
// bit, else as 0.6, and changes its guess when a packet reads only as the other protocol (or is `protocol`
// when given). Connectionless packets tell their protocol by their header.
import { CodecError } from '@twcodec/runtime';
import { type DecodedPacket, decodePacket, isConnless, type NetProtocolName } from './packet.js';
import { type CaptureFrame, readCapture, udpOf } from './pcap.js';

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

interface FlowState {
  protocol: NetProtocolName;
  /** From the handshake (fixed) or a guess (a later handshake replaces it). */
  fromHandshake: boolean;
  securityToken?: boolean;
}

const TKEN = [0x54, 0x4b, 0x45, 0x4e];
const endpoint = (address: string, port: number) => (address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`);

/** What a connection packet's first bytes say about its flow's protocol, if anything. */
function handshakeOf(p: Uint8Array): { protocol: NetProtocolName; securityToken?: boolean } | undefined {
  if (p.length >= 8 && p[0] === 0x04 && p[1] === 0 && p[2] === 0 && (p[7] === 5 || p[7] === 1)) return { protocol: '0.7' };
  // 0.6's connect carries nothing (Teeworlds) or the TKEN magic and a token (DDNet): anything else with these
  // first bytes is not a 0.6 connect.
  if (p.length >= 4 && p[0] === 0x10 && p[1] === 0 && p[2] === 0 && p[3] === 1) {
    const tken = p.length >= 8 && TKEN.every((b, i) => p[4 + i] === b);
    if (tken || p.length === 4) return { protocol: '0.6', securityToken: tken };
  }
  return undefined;
}

/** Every frame of a capture that carries UDP, decoded; a datagram that does not decode carries `error`. */
export function* decodeCapture(bytes: Uint8Array, options: DecodeCaptureOptions = {}): Generator<CaptureDatagram> {
  const flows = new Map<string, FlowState>();
  for (const frame of readCapture(bytes)) yield* decodeFrame(frame, flows, options);
}

function* decodeFrame(frame: CaptureFrame, flows: Map<string, FlowState>, options: DecodeCaptureOptions): Generator<CaptureDatagram> {
  const base = { index: frame.index, seconds: frame.seconds, nanoseconds: frame.nanoseconds };
  let udp;
  try {
    udp = udpOf(frame);
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    yield { ...base, source: '', destination: '', error: e };
    return;
  }
  if (!udp) return;
  const source = endpoint(udp.source, udp.sourcePort);
  const destination = endpoint(udp.destination, udp.destinationPort);
  const key = source < destination ? `${source} ${destination}` : `${destination} ${source}`;
  const p = udp.payload;
  let flow = flows.get(key);
  if (!isConnless(p)) {
    const hs = handshakeOf(p);
    if (hs && !(flow?.fromHandshake && flow.protocol === hs.protocol && hs.protocol === '0.7')) {
      flow = { protocol: hs.protocol, fromHandshake: true, ...(hs.securityToken !== undefined ? { securityToken: hs.securityToken } : {}) };
      flows.set(key, flow);
    } else if (!flow) {
      flow = { protocol: options.protocol ?? (p.length > 0 && p[0]! & 0x04 ? '0.7' : '0.6'), fromHandshake: false };
      flows.set(key, flow);
    } else if (!flow.fromHandshake && !options.protocol && p.length > 0 && p[0]! & 0x04) flow.protocol = '0.7';
  }
  const decode = (protocol: NetProtocolName) => decodePacket(p, { protocol, ...(flow?.securityToken !== undefined ? { securityToken: flow.securityToken } : {}) });
  try {
    yield { ...base, source, destination, packet: decode(flow?.protocol ?? options.protocol ?? '0.6') };
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    // A guessed protocol that does not read gives way to the other one when that one does.
    if (flow && !flow.fromHandshake && !options.protocol) {
      const other = flow.protocol === '0.6' ? '0.7' : '0.6';
      try {
        const packet = decode(other);
        flow.protocol = other;
        yield { ...base, source, destination, packet };
        return;
      } catch (e2) {
        if (!(e2 instanceof CodecError)) throw e2;
      }
    }
    yield { ...base, source, destination, error: e };
  }
}
