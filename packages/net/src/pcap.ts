// Capture files: classic pcap (either byte order, microsecond or nanosecond timestamps) and pcapng, and the
// link layers, IPv4/IPv6 and UDP inside them. Formats checked against the pcap and pcapng specifications
// (IETF draft-ietf-opsawg-pcap / draft-ietf-opsawg-pcapng) and tcpdump's LINKTYPE_ list.
import { NetError } from './errors.js';

/** One captured frame. */
export interface CaptureFrame {
  /** Index of the frame in the file (0-based). */
  index: number;
  /** Seconds since 1970 (UTC) and the nanoseconds within that second. */
  seconds: number;
  nanoseconds: number;
  /** LINKTYPE_ value of the frame's interface. */
  linkType: number;
  /** The captured bytes (a view into the file). */
  data: Uint8Array;
  /** The frame's length on the wire (more than data.length when the capture cut it). */
  originalLength: number;
  /** Byte offset of the frame's data in the file. */
  offset: number;
}

/** A UDP datagram out of a frame. */
export interface UdpDatagram {
  source: string;
  destination: string;
  sourcePort: number;
  destinationPort: number;
  payload: Uint8Array;
}

export const LINKTYPE = { null: 0, ethernet: 1, raw: 101, loop: 108, linuxSll: 113, ipv4: 228, ipv6: 229, linuxSll2: 276 } as const;

/** The biggest frame the readers accept (pcap's own limit for snaplen). */
const MAX_FRAME = 262_144;

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Whether the bytes start like a capture file this module reads. */
export function isCapture(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const m = view(bytes).getUint32(0, false);
  return m === 0xa1b2c3d4 || m === 0xd4c3b2a1 || m === 0xa1b23c4d || m === 0x4d3cb2a1 || m === 0x0a0d0d0a;
}

/** The frames of a pcap or pcapng file, in file order. Throws NetError on a damaged file. */
export function* readCapture(bytes: Uint8Array): Generator<CaptureFrame> {
  if (bytes.length < 4) throw new NetError('TRUNCATED', 'a capture file needs at least 4 bytes', 0, 'magic');
  const magic = view(bytes).getUint32(0, false);
  if (magic === 0x0a0d0d0a) yield* readPcapng(bytes);
  else yield* readPcap(bytes);
}

function* readPcap(bytes: Uint8Array): Generator<CaptureFrame> {
  const dv = view(bytes);
  const m = dv.getUint32(0, false);
  let little: boolean;
  let nano: boolean;
  if (m === 0xa1b2c3d4 || m === 0xa1b23c4d) little = false;
  else if (m === 0xd4c3b2a1 || m === 0x4d3cb2a1) little = true;
  else throw new NetError('BAD_MAGIC', `not a pcap or pcapng file (magic ${m.toString(16).padStart(8, '0')})`, 0, 'magic');
  nano = m === 0xa1b23c4d || m === 0x4d3cb2a1;
  if (bytes.length < 24) throw new NetError('TRUNCATED', 'the pcap header needs 24 bytes', bytes.length, 'header');
  const linkType = dv.getUint32(20, little) & 0x0fffffff; // the upper bits carry FCS information
  let pos = 24;
  for (let index = 0; pos < bytes.length; index++) {
    if (bytes.length - pos < 16) throw new NetError('TRUNCATED', `record ${index}: its header needs 16 bytes, ${bytes.length - pos} left`, pos, `records[${index}]`);
    const seconds = dv.getUint32(pos, little);
    const fraction = dv.getUint32(pos + 4, little);
    const captured = dv.getUint32(pos + 8, little);
    const originalLength = dv.getUint32(pos + 12, little);
    if (captured > MAX_FRAME) throw new NetError('BAD_RECORD', `record ${index}: ${captured} captured bytes, more than ${MAX_FRAME}`, pos + 8, `records[${index}]`);
    if (bytes.length - pos - 16 < captured) throw new NetError('TRUNCATED', `record ${index}: ${captured} bytes, ${bytes.length - pos - 16} left`, pos + 8, `records[${index}]`);
    if (fraction >= (nano ? 1e9 : 1e6)) throw new NetError('BAD_RECORD', `record ${index}: timestamp fraction ${fraction} is not below one second`, pos + 4, `records[${index}]`);
    yield { index, seconds, nanoseconds: nano ? fraction : fraction * 1000, linkType, data: bytes.subarray(pos + 16, pos + 16 + captured), originalLength, offset: pos + 16 };
    pos += 16 + captured;
  }
}

interface PcapngInterface {
  linkType: number;
  /** Timestamp units per second, as a BigInt, and whether it is a power of ten. */
  unitsPerSecond: bigint;
}

function* readPcapng(bytes: Uint8Array): Generator<CaptureFrame> {
  const dv = view(bytes);
  let little = true;
  let interfaces: PcapngInterface[] = [];
  let pos = 0;
  let index = 0;
  while (pos < bytes.length) {
    const path = `blocks at ${pos}`;
    if (bytes.length - pos < 12) throw new NetError('TRUNCATED', `a block header needs 12 bytes, ${bytes.length - pos} left`, pos, path);
    const type = dv.getUint32(pos, little);
    if (type === 0x0a0d0d0a) {
      // Section header: its byte-order magic sets the byte order of everything up to the next section.
      const bom = dv.getUint32(pos + 8, false);
      if (bom === 0x1a2b3c4d) little = false;
      else if (bom === 0x4d3c2b1a) little = true;
      else throw new NetError('BAD_MAGIC', `pcapng section with byte-order magic ${bom.toString(16)}`, pos + 8, path);
      interfaces = [];
    }
    const length = dv.getUint32(pos + 4, little);
    if (length < 12 || length % 4 !== 0) throw new NetError('BAD_BLOCK', `block length ${length} is not a multiple of 4 of at least 12`, pos + 4, path);
    if (length > bytes.length - pos) throw new NetError('TRUNCATED', `block of ${length} bytes, ${bytes.length - pos} left`, pos + 4, path);
    if (dv.getUint32(pos + length - 4, little) !== length) throw new NetError('BAD_BLOCK', 'the block\'s trailing length differs from its leading one', pos + length - 4, path);
    const body = pos + 8;
    const bodyEnd = pos + length - 4;
    if (type === 1) {
      if (bodyEnd - body < 8) throw new NetError('BAD_BLOCK', 'an interface description needs 8 bytes', body, path);
      let unitsPerSecond = 1_000_000n;
      // Options: code, length, value padded to 4; if_tsresol (9) sets the timestamp unit.
      for (let o = body + 8; bodyEnd - o >= 4; ) {
        const code = dv.getUint16(o, little);
        const len = dv.getUint16(o + 2, little);
        if (code === 0) break;
        if (len > bodyEnd - o - 4) throw new NetError('BAD_BLOCK', `option ${code} of ${len} bytes runs past its block`, o, path);
        if (code === 9 && len >= 1) {
          const r = bytes[o + 4]!;
          const exp = r & 0x7f;
          if (exp > 30) throw new NetError('BAD_BLOCK', `if_tsresol ${r} is finer than this reader handles`, o + 4, path);
          unitsPerSecond = r & 0x80 ? 1n << BigInt(exp) : 10n ** BigInt(exp);
        }
        o += 4 + ((len + 3) & ~3);
      }
      interfaces.push({ linkType: dv.getUint16(body, little), unitsPerSecond });
    } else if (type === 6 || type === 2) {
      // Enhanced packet (6), or the obsolete packet block (2) with a 16-bit interface id and drop count.
      if (bodyEnd - body < 20) throw new NetError('BAD_BLOCK', 'a packet block needs 20 bytes', body, path);
      const iface = type === 6 ? dv.getUint32(body, little) : dv.getUint16(body, little);
      const info = interfaces[iface];
      if (!info) throw new NetError('BAD_BLOCK', `packet of interface ${iface}, which the section does not describe`, body, path);
      const ticks = (BigInt(dv.getUint32(body + 4, little)) << 32n) | BigInt(dv.getUint32(body + 8, little));
      const captured = dv.getUint32(body + 12, little);
      const originalLength = dv.getUint32(body + 16, little);
      if (captured > bodyEnd - body - 20) throw new NetError('BAD_BLOCK', `${captured} captured bytes run past the block`, body + 12, path);
      const seconds = ticks / info.unitsPerSecond;
      const nanoseconds = ((ticks % info.unitsPerSecond) * 1_000_000_000n) / info.unitsPerSecond;
      yield { index: index++, seconds: Number(seconds), nanoseconds: Number(nanoseconds), linkType: info.linkType, data: bytes.subarray(body + 20, body + 20 + captured), originalLength, offset: body + 20 };
    } else if (type === 3) {
      // Simple packet: no timestamp, interface 0, captured length = what the block holds.
      const info = interfaces[0];
      if (!info) throw new NetError('BAD_BLOCK', 'a simple packet block before any interface description', body, path);
      if (bodyEnd - body < 4) throw new NetError('BAD_BLOCK', 'a simple packet block needs 4 bytes', body, path);
      const originalLength = dv.getUint32(body, little);
      const captured = Math.min(originalLength, bodyEnd - body - 4);
      yield { index: index++, seconds: 0, nanoseconds: 0, linkType: info.linkType, data: bytes.subarray(body + 4, body + 4 + captured), originalLength, offset: body + 4 };
    }
    pos += length;
  }
}

/** Where the IP packet starts in a frame of this link type, or undefined when the frame holds no IP. */
function ipStart(frame: CaptureFrame): number | undefined {
  const d = frame.data;
  const need = (n: number) => {
    if (d.length < n) throw new NetError('TRUNCATED', `a link-type ${frame.linkType} frame needs ${n} bytes, has ${d.length}`, frame.offset, 'link');
  };
  const ipEtherType = (t: number) => t === 0x0800 || t === 0x86dd;
  switch (frame.linkType) {
    case LINKTYPE.ethernet: {
      need(14);
      let at = 12;
      let type = (d[at]! << 8) | d[at + 1]!;
      // 802.1Q / 802.1ad VLAN tags.
      while (type === 0x8100 || type === 0x88a8) {
        at += 4;
        need(at + 2);
        type = (d[at]! << 8) | d[at + 1]!;
      }
      return ipEtherType(type) ? at + 2 : undefined;
    }
    case LINKTYPE.null:
    case LINKTYPE.loop: {
      need(4);
      // The address family: host byte order for NULL (either), big-endian for LOOP. 2 is IPv4; 24, 28, 30 IPv6.
      const be = (d[0]! << 24) | (d[1]! << 16) | (d[2]! << 8) | d[3]!;
      const le = (d[3]! << 24) | (d[2]! << 16) | (d[1]! << 8) | d[0]!;
      const family = frame.linkType === LINKTYPE.loop ? be : Math.min(be >>> 0, le >>> 0);
      return [2, 24, 28, 30].includes(family) ? 4 : undefined;
    }
    case LINKTYPE.raw:
    case 12:
    case 14:
    case LINKTYPE.ipv4:
    case LINKTYPE.ipv6:
      return 0;
    case LINKTYPE.linuxSll:
      need(16);
      return ipEtherType((d[14]! << 8) | d[15]!) ? 16 : undefined;
    case LINKTYPE.linuxSll2:
      need(20);
      return ipEtherType((d[0]! << 8) | d[1]!) ? 20 : undefined;
    default:
      throw new NetError('UNSUPPORTED_LINK_TYPE', `link type ${frame.linkType} (Ethernet, NULL/loopback, raw IP, Linux SLL and SLL2 are read)`, frame.offset, 'link');
  }
}

const ipv6Text = (d: Uint8Array, at: number) => {
  const groups = Array.from({ length: 8 }, (_, i) => ((d[at + 2 * i]! << 8) | d[at + 2 * i + 1]!).toString(16));
  // The longest run of zero groups (two or more) becomes "::" (RFC 5952).
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  return best < 0 ? groups.join(':') : `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
};

/**
 * The UDP datagram a frame carries, or undefined when the frame is not IP/UDP. Throws NetError for IP
 * fragments (IP_FRAGMENT: a datagram split over frames is not reassembled) and for frames cut short.
 */
export function udpOf(frame: CaptureFrame): UdpDatagram | undefined {
  const start = ipStart(frame);
  if (start === undefined) return undefined;
  const d = frame.data;
  const at = (n: number) => frame.offset + n;
  if (d.length < start + 1) throw new NetError('TRUNCATED', 'the frame ends before its IP header', at(start), 'ip');
  const version = d[start]! >> 4;
  let udp: number;
  let end: number;
  let source: string;
  let destination: string;
  if (version === 4) {
    if (d.length < start + 20) throw new NetError('TRUNCATED', 'an IPv4 header needs 20 bytes', at(start), 'ip');
    const ihl = (d[start]! & 0x0f) * 4;
    const total = (d[start + 2]! << 8) | d[start + 3]!;
    const fragment = (d[start + 6]! << 8) | d[start + 7]!;
    if (ihl < 20 || total < ihl) throw new NetError('BAD_IP', `IPv4 header length ${ihl}, total length ${total}`, at(start), 'ip');
    if (fragment & 0x3fff) throw new NetError('IP_FRAGMENT', `an IPv4 fragment (offset ${(fragment & 0x1fff) * 8}${fragment & 0x2000 ? ', more follow' : ''}): fragments are not reassembled`, at(start + 6), 'ip');
    if (d[start + 9] !== 17) return undefined;
    source = Array.from(d.subarray(start + 12, start + 16)).join('.');
    destination = Array.from(d.subarray(start + 16, start + 20)).join('.');
    udp = start + ihl;
    end = start + total;
  } else if (version === 6) {
    if (d.length < start + 40) throw new NetError('TRUNCATED', 'an IPv6 header needs 40 bytes', at(start), 'ip');
    let next = d[start + 6]!;
    udp = start + 40;
    end = udp + ((d[start + 4]! << 8) | d[start + 5]!);
    // Hop-by-hop (0), routing (43) and destination options (60) headers are skipped; a fragment header (44) refused.
    for (let hops = 0; next === 0 || next === 43 || next === 60 || next === 44; hops++) {
      if (next === 44) throw new NetError('IP_FRAGMENT', 'an IPv6 fragment: fragments are not reassembled', at(udp), 'ip');
      if (d.length < udp + 8 || hops > 8) throw new NetError('TRUNCATED', 'an IPv6 extension header runs past the frame', at(udp), 'ip');
      next = d[udp]!;
      udp += (d[udp + 1]! + 1) * 8;
    }
    if (next !== 17) return undefined;
    source = ipv6Text(d, start + 8);
    destination = ipv6Text(d, start + 24);
  } else return undefined;
  if (end > d.length) throw new NetError('TRUNCATED', `the IP packet says ${end - start} bytes, the frame holds ${d.length - start}`, at(start), 'ip');
  if (end - udp < 8) throw new NetError('TRUNCATED', 'the UDP header needs 8 bytes', at(udp), 'udp');
  const length = (d[udp + 4]! << 8) | d[udp + 5]!;
  if (length < 8 || udp + length > end) throw new NetError('BAD_UDP', `UDP length ${length}, the IP packet holds ${end - udp}`, at(udp + 4), 'udp');
  return {
    source,
    destination,
    sourcePort: (d[udp]! << 8) | d[udp + 1]!,
    destinationPort: (d[udp + 2]! << 8) | d[udp + 3]!,
    payload: d.subarray(udp + 8, udp + length),
  };
}
