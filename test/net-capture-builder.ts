// Capture files written in code for the net tests: pcap records, and IPv4/IPv6 UDP packets (whole or as IP
// fragments) to put in them, so that every hostile or unusual capture a test needs is rebuilt from scratch.
import { concatBytes } from '@twcodec/runtime';

export interface TestFrame {
  data: Uint8Array;
  seconds: number;
  nanoseconds: number;
}

/** A classic pcap file of the frames (link type `linkType`: 101 raw IP, 1 Ethernet, ...). */
export function pcapFile(frames: TestFrame[], linkType: number, opts: { little: boolean; nano: boolean } = { little: true, nano: false }): Uint8Array {
  const head = new DataView(new ArrayBuffer(24));
  head.setUint32(0, opts.nano ? 0xa1b23c4d : 0xa1b2c3d4, opts.little);
  head.setUint16(4, 2, opts.little);
  head.setUint16(6, 4, opts.little);
  head.setUint32(16, 262144, opts.little);
  head.setUint32(20, linkType, opts.little);
  const parts: Uint8Array[] = [new Uint8Array(head.buffer)];
  for (const f of frames) {
    const rec = new DataView(new ArrayBuffer(16));
    rec.setUint32(0, f.seconds, opts.little);
    rec.setUint32(4, opts.nano ? f.nanoseconds : Math.floor(f.nanoseconds / 1000), opts.little);
    rec.setUint32(8, f.data.length, opts.little);
    rec.setUint32(12, f.data.length, opts.little);
    parts.push(new Uint8Array(rec.buffer), f.data);
  }
  return concatBytes(parts);
}

/** A UDP datagram with its 8-byte header (checksum 0: none). */
export function udpDatagram(sourcePort: number, destinationPort: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + payload.length);
  const dv = new DataView(out.buffer);
  dv.setUint16(0, sourcePort);
  dv.setUint16(2, destinationPort);
  dv.setUint16(4, out.length);
  out.set(payload, 8);
  return out;
}

export interface Ipv4Options {
  source?: number[];
  destination?: number[];
  /** The identification field (the same for all fragments of one datagram). */
  id?: number;
  protocol?: number;
}

/** One IPv4 packet: `body` at byte offset `offset` of the datagram it belongs to, more fragments following or not. */
export function ipv4Packet(body: Uint8Array, opts: Ipv4Options & { offset?: number; more?: boolean } = {}): Uint8Array {
  const out = new Uint8Array(20 + body.length);
  const dv = new DataView(out.buffer);
  out[0] = 0x45;
  dv.setUint16(2, out.length);
  dv.setUint16(4, opts.id ?? 1);
  const offset = opts.offset ?? 0;
  if (offset % 8 !== 0) throw new Error('IPv4 fragment offsets are multiples of 8');
  dv.setUint16(6, (opts.more ? 0x2000 : 0) | (offset / 8));
  out[8] = 64;
  out[9] = opts.protocol ?? 17;
  out.set(opts.source ?? [127, 0, 0, 1], 12);
  out.set(opts.destination ?? [127, 0, 0, 1], 16);
  out.set(body, 20);
  return out;
}

/** A whole IP datagram (UDP header and payload) as IPv4 fragments of at most `size` bytes of data (a multiple of 8). */
export function ipv4Fragments(datagram: Uint8Array, size: number, opts: Ipv4Options = {}): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < datagram.length; at += size) out.push(ipv4Packet(datagram.subarray(at, at + size), { ...opts, offset: at, more: at + size < datagram.length }));
  return out;
}

/** An IPv6 packet from ::1 to ::1 carrying `body` after `next` (17: UDP, 44: a fragment header in `body`). */
export function ipv6Packet(body: Uint8Array, next = 17): Uint8Array {
  const out = new Uint8Array(40 + body.length);
  out[0] = 0x60;
  out[4] = body.length >> 8;
  out[5] = body.length & 0xff;
  out[6] = next;
  out[7] = 64;
  out[23] = 1;
  out[39] = 1;
  out.set(body, 40);
  return out;
}

/** A whole UDP datagram as IPv6 fragments (fragment header 44) of at most `size` bytes of data (a multiple of 8). */
export function ipv6Fragments(datagram: Uint8Array, size: number, id = 1): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < datagram.length; at += size) {
    const piece = datagram.subarray(at, at + size);
    const header = new Uint8Array(8 + piece.length);
    const dv = new DataView(header.buffer);
    header[0] = 17;
    dv.setUint16(2, at | (at + size < datagram.length ? 1 : 0));
    dv.setUint32(4, id);
    header.set(piece, 8);
    out.push(ipv6Packet(header, 44));
  }
  return out;
}

/** Frames one second apart from `start` (raw IP frames for link type 101). */
export const framesOf = (packets: Uint8Array[], start = 1_700_000_000): TestFrame[] => packets.map((data, i) => ({ data, seconds: start + i, nanoseconds: 0 }));

/** A pcapng block: type, total length, body padded to 4 bytes, total length again (little-endian). */
function pcapngBlock(type: number, body: Uint8Array): Uint8Array {
  const padded = (body.length + 3) & ~3;
  const out = new Uint8Array(12 + padded);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, type, true);
  dv.setUint32(4, out.length, true);
  out.set(body, 8);
  dv.setUint32(out.length - 4, out.length, true);
  return out;
}

/**
 * A pcapng file (little-endian): a section header, one interface of `linkType` (with `tsresol`, the if_tsresol
 * option byte, when given), and an enhanced packet block per frame with its 64-bit timestamp in that unit
 * (default microseconds).
 */
export function pcapngFile(frames: { data: Uint8Array; timestamp: bigint }[], linkType: number, tsresol?: number): Uint8Array {
  const shb = new DataView(new ArrayBuffer(16));
  shb.setUint32(0, 0x1a2b3c4d, true);
  shb.setUint16(4, 1, true);
  shb.setBigInt64(8, -1n, true);
  const idb = new DataView(new ArrayBuffer(tsresol === undefined ? 8 : 16));
  idb.setUint16(0, linkType, true);
  idb.setUint32(4, 262144, true);
  if (tsresol !== undefined) {
    idb.setUint16(8, 9, true);
    idb.setUint16(10, 1, true);
    idb.setUint8(12, tsresol);
  }
  const parts = [pcapngBlock(0x0a0d0d0a, new Uint8Array(shb.buffer)), pcapngBlock(1, new Uint8Array(idb.buffer))];
  for (const f of frames) {
    const body = new Uint8Array(20 + f.data.length);
    const dv = new DataView(body.buffer);
    dv.setUint32(4, Number(f.timestamp >> 32n), true);
    dv.setUint32(8, Number(f.timestamp & 0xffffffffn), true);
    dv.setUint32(12, f.data.length, true);
    dv.setUint32(16, f.data.length, true);
    body.set(f.data, 20);
    parts.push(pcapngBlock(6, body));
  }
  return concatBytes(parts);
}
