// Capture files: classic pcap (either byte order, microsecond or nanosecond timestamps) and pcapng, and the
// link layers, IPv4/IPv6 and UDP inside them. Formats checked against the pcap and pcapng specifications
// (IETF draft-ietf-opsawg-pcap / draft-ietf-opsawg-pcapng) and tcpdump's LINKTYPE_ list.
import { NetError } from './errors.js';
import type { Fragment, FragmentReassembler } from './fragments.js';

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

/**
 * The first second of the year 10000 (UTC). pcapng's 64-bit timestamps reach far past it, and past what a JS
 * Date holds (year 275760); a time past this could not be written as an ISO 8601 date of four-digit year or in
 * a demo header: such a packet is refused (BAD_TIMESTAMP). Classic pcap's 32-bit seconds end in 2106.
 */
const LAST_SECOND = 253_402_300_800n;

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
  const frames = new FrameReader(bytes);
  while (frames.next()) {
    const f = frames.frame;
    yield { index: f.index, seconds: f.seconds, nanoseconds: f.nanoseconds, linkType: f.linkType, data: bytes.subarray(f.start, f.end), originalLength: f.originalLength, offset: f.start };
  }
}

/** A frame as FrameReader walks the file: where its bytes are, not a view of them. */
export interface FrameRecord {
  index: number;
  seconds: number;
  nanoseconds: number;
  linkType: number;
  originalLength: number;
  /** The frame's bytes are file[start, end). */
  start: number;
  end: number;
}

interface PcapngInterface {
  linkType: number;
  /** Timestamp units per second, as a BigInt, and whether it is a power of ten. */
  unitsPerSecond: bigint;
}

/**
 * Walks the frames of a capture file with one record it fills for each (`next()` moves on): decoding a capture
 * makes no object or view per frame this way (a view costs as much as decoding a small packet).
 *
 * Given the whole file (`new FrameReader(bytes)`), it reads it in place. Made with no bytes, it reads a stream:
 * `push(chunk)` adds bytes as they come, `next()` gives each complete frame and says false when it needs more
 * (or, after `end()`, when the file is done); it keeps only the bytes of the frame not yet complete, so memory
 * stays that of one frame whatever the length of the stream. The frames, and the errors of a damaged file
 * (their offsets count from the start of the stream), are the same either way: a check that needs bytes not yet
 * come waits for them, and after `end()` the reader has what the whole-file reader would have had left.
 */
export class FrameReader {
  readonly frame: FrameRecord = { index: -1, seconds: 0, nanoseconds: 0, linkType: 0, originalLength: 0, start: 0, end: 0 };
  /** The bytes `frame.start` and `frame.end` point into (while streaming, they change with push). */
  bytes: Uint8Array;
  /** Where `bytes[0]` is in the stream. */
  base = 0;
  private dv: DataView;
  private pos = 0;
  /** The bytes the stream has given are all there is (always so for a whole file). */
  private ended: boolean;
  /** The file's header is read (its magic, and a pcap file's header). */
  private started = false;
  private ng = false;
  private little = true;
  private nano = false;
  /** Classic pcap: the file's link type. */
  private linkType = 0;
  private interfaces: PcapngInterface[] = [];
  /** Streaming: a buffer of the reader's own that `bytes` is the start of, with room to append the next chunks in place. */
  private store: Uint8Array | undefined;

  constructor(bytes?: Uint8Array) {
    this.ended = bytes !== undefined;
    this.bytes = bytes ?? new Uint8Array(0);
    this.dv = view(this.bytes);
    // A whole file's header is checked at once, as before streaming existed.
    if (this.ended) this.start();
  }

  /**
   * Streaming: the next bytes of the stream. The frames already read keep their bytes (a view of a frame taken
   * before stays valid: bytes are appended after what was read, or the unread rest is copied to a new buffer).
   */
  push(chunk: Uint8Array): void {
    if (this.ended) throw new Error('FrameReader.push after end()');
    if (chunk.length === 0) return;
    // A Node Buffer is taken as a plain Uint8Array: a view of it must not serialise as a Buffer (its toJSON).
    const plain = chunk.constructor === Uint8Array ? chunk : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const used = this.bytes.length;
    const left = used - this.pos;
    if (left === 0) {
      this.base += this.pos;
      this.pos = 0;
      this.store = undefined;
      this.setBytes(plain, plain.length);
      return;
    }
    if (this.store && used + plain.length <= this.store.length) {
      // Room after the unread bytes in a buffer of our own: appended in place (nothing read is overwritten).
      this.store.set(plain, used);
      this.setBytes(this.store, used + plain.length);
      return;
    }
    // A frame cut by the chunk's end: the unread rest and the chunk go to a new buffer, with room to grow
    // (doubling, so that a frame bigger than the chunks is copied a bounded number of times).
    const store = new Uint8Array(Math.max(2 * (left + plain.length), 65536));
    store.set(this.bytes.subarray(this.pos));
    store.set(plain, left);
    this.base += this.pos;
    this.pos = 0;
    this.store = store;
    this.setBytes(store, left + plain.length);
  }

  /** Streaming: the stream has ended; `next()` reads what is left and throws on a frame it cuts. */
  end(): void {
    this.ended = true;
  }

  /** Whether the reader still waits for bytes (not ended, or ended with bytes unread): false once at the end. */
  get pending(): boolean {
    return !this.ended || this.pos < this.bytes.length;
  }

  private setBytes(store: Uint8Array, length: number): void {
    this.bytes = length === store.length ? store : store.subarray(0, length);
    this.dv = view(this.bytes);
  }

  /** Moves to the next frame; false at the end of the file, or while streaming when the next frame has not all come. Throws NetError on a damaged file. */
  next(): boolean {
    if (!this.started && !this.start()) return false;
    return this.ng ? this.nextPcapng() : this.nextPcap();
  }

  /** Reads the file's header; false when it has not all come yet. */
  private start(): boolean {
    const { bytes, dv } = this;
    if (bytes.length < 4) {
      if (!this.ended) return false;
      throw new NetError('TRUNCATED', 'a capture file needs at least 4 bytes', 0, 'magic');
    }
    const m = dv.getUint32(0, false);
    this.ng = m === 0x0a0d0d0a;
    this.pos = 0;
    if (!this.ng) {
      if (m === 0xa1b2c3d4 || m === 0xa1b23c4d) this.little = false;
      else if (m === 0xd4c3b2a1 || m === 0x4d3cb2a1) this.little = true;
      else throw new NetError('BAD_MAGIC', `not a pcap or pcapng file (magic ${m.toString(16).padStart(8, '0')})`, 0, 'magic');
      this.nano = m === 0xa1b23c4d || m === 0x4d3cb2a1;
      if (bytes.length < 24) {
        if (!this.ended) return false;
        throw new NetError('TRUNCATED', 'the pcap header needs 24 bytes', bytes.length, 'header');
      }
      this.linkType = dv.getUint32(20, this.little) & 0x0fffffff; // the upper bits carry FCS information
      this.pos = 24;
    }
    this.started = true;
    return true;
  }

  private nextPcap(): boolean {
    // (`ended` read at every frame: read only at the end of a piece, its load first ran after V8 optimised
    // this; issue 41.)
    const { bytes, dv, little, nano, pos, base, ended } = this;
    if (pos >= bytes.length) return false;
    const index = this.frame.index + 1;
    const left = bytes.length - pos;
    if (left < 16) {
      if (!ended) return false;
      throw recordError(index, base + pos, 'header', left);
    }
    const seconds = dv.getUint32(pos, little);
    const fraction = dv.getUint32(pos + 4, little);
    const captured = dv.getUint32(pos + 8, little);
    const originalLength = dv.getUint32(pos + 12, little);
    if (captured > MAX_FRAME) throw recordError(index, base + pos, 'too big', captured);
    if (left - 16 < captured) {
      if (!ended) return false;
      throw recordError(index, base + pos, 'truncated', captured, left - 16);
    }
    if (fraction >= (nano ? 1e9 : 1e6)) throw recordError(index, base + pos, 'fraction', fraction);
    const f = this.frame;
    f.index = index;
    f.seconds = seconds;
    f.nanoseconds = nano ? fraction : fraction * 1000;
    f.linkType = this.linkType;
    f.originalLength = originalLength;
    f.start = pos + 16;
    f.end = pos + 16 + captured;
    this.pos = f.end;
    return true;
  }

  private nextPcapng(): boolean {
    while (this.pos < this.bytes.length) {
      const { bytes, dv, base } = this;
      const pos = this.pos;
      const little = this.little;
      const at = base + pos;
      if (bytes.length - pos < 12) {
        if (!this.ended) return false;
        throw new NetError('TRUNCATED', `a block header needs 12 bytes, ${bytes.length - pos} left`, at, `blocks at ${at}`);
      }
      const type = dv.getUint32(pos, little);
      if (type === 0x0a0d0d0a) {
        // Section header: its byte-order magic sets the byte order of everything up to the next section.
        const bom = dv.getUint32(pos + 8, false);
        if (bom === 0x1a2b3c4d) this.little = false;
        else if (bom === 0x4d3c2b1a) this.little = true;
        else throw new NetError('BAD_MAGIC', `pcapng section with byte-order magic ${bom.toString(16)}`, at + 8, `blocks at ${at}`);
      }
      const length = dv.getUint32(pos + 4, this.little);
      if (length < 12 || length % 4 !== 0) throw new NetError('BAD_BLOCK', `block length ${length} is not a multiple of 4 of at least 12`, at + 4, `blocks at ${at}`);
      if (length > bytes.length - pos) {
        if (!this.ended) {
          // A section header waits with its byte order unread, to be read again with the rest of the block.
          this.little = little;
          return false;
        }
        throw new NetError('TRUNCATED', `block of ${length} bytes, ${bytes.length - pos} left`, at + 4, `blocks at ${at}`);
      }
      if (dv.getUint32(pos + length - 4, this.little) !== length) throw new NetError('BAD_BLOCK', 'the block\'s trailing length differs from its leading one', at + length - 4, `blocks at ${at}`);
      if (type === 0x0a0d0d0a) this.interfaces = [];
      this.pos = pos + length;
      if (this.block(type, pos + 8, pos + length - 4, at)) return true;
    }
    return false;
  }

  /** Reads the body of a pcapng block (`bytes[body, bodyEnd)`, the block at `at` in the stream); true when it was a packet (then in `frame`). */
  private block(type: number, body: number, bodyEnd: number, at: number): boolean {
    const { bytes, dv, little, base } = this;
    const path = `blocks at ${at}`;
    const f = this.frame;
    if (type === 1) {
      if (bodyEnd - body < 8) throw new NetError('BAD_BLOCK', 'an interface description needs 8 bytes', base + body, path);
      let unitsPerSecond = 1_000_000n;
      // Options: code, length, value padded to 4; if_tsresol (9) sets the timestamp unit.
      for (let o = body + 8; bodyEnd - o >= 4; ) {
        const code = dv.getUint16(o, little);
        const len = dv.getUint16(o + 2, little);
        if (code === 0) break;
        if (len > bodyEnd - o - 4) throw new NetError('BAD_BLOCK', `option ${code} of ${len} bytes runs past its block`, base + o, path);
        if (code === 9 && len >= 1) {
          const r = bytes[o + 4]!;
          const exp = r & 0x7f;
          if (exp > 30) throw new NetError('BAD_BLOCK', `if_tsresol ${r} is finer than this reader handles`, base + o + 4, path);
          unitsPerSecond = r & 0x80 ? 1n << BigInt(exp) : 10n ** BigInt(exp);
        }
        o += 4 + ((len + 3) & ~3);
      }
      this.interfaces.push({ linkType: dv.getUint16(body, little), unitsPerSecond });
    } else if (type === 6 || type === 2) {
      // Enhanced packet (6), or the obsolete packet block (2) with a 16-bit interface id and drop count.
      if (bodyEnd - body < 20) throw new NetError('BAD_BLOCK', 'a packet block needs 20 bytes', base + body, path);
      const iface = type === 6 ? dv.getUint32(body, little) : dv.getUint16(body, little);
      const info = this.interfaces[iface];
      if (!info) throw new NetError('BAD_BLOCK', `packet of interface ${iface}, which the section does not describe`, base + body, path);
      const ticks = (BigInt(dv.getUint32(body + 4, little)) << 32n) | BigInt(dv.getUint32(body + 8, little));
      const captured = dv.getUint32(body + 12, little);
      const originalLength = dv.getUint32(body + 16, little);
      if (captured > bodyEnd - body - 20) throw new NetError('BAD_BLOCK', `${captured} captured bytes run past the block`, base + body + 12, path);
      const seconds = ticks / info.unitsPerSecond;
      if (seconds >= LAST_SECOND) throw new NetError('BAD_TIMESTAMP', `packet timestamp of ${seconds} seconds since 1970 is past the year 9999 (${ticks} units of 1/${info.unitsPerSecond} s)`, base + body + 4, path);
      f.index++;
      f.seconds = Number(seconds);
      f.nanoseconds = Number(((ticks % info.unitsPerSecond) * 1_000_000_000n) / info.unitsPerSecond);
      f.linkType = info.linkType;
      f.originalLength = originalLength;
      f.start = body + 20;
      f.end = body + 20 + captured;
      return true;
    } else if (type === 3) {
      // Simple packet: no timestamp, interface 0, captured length = what the block holds.
      const info = this.interfaces[0];
      if (!info) throw new NetError('BAD_BLOCK', 'a simple packet block before any interface description', base + body, path);
      if (bodyEnd - body < 4) throw new NetError('BAD_BLOCK', 'a simple packet block needs 4 bytes', base + body, path);
      const originalLength = dv.getUint32(body, little);
      f.index++;
      f.seconds = 0;
      f.nanoseconds = 0;
      f.linkType = info.linkType;
      f.originalLength = originalLength;
      f.start = body + 4;
      f.end = body + 4 + Math.min(originalLength, bodyEnd - body - 4);
      return true;
    }
    return false;
  }
}

/**
 * The error of the pcap record `index` at `pos`. Made here, not in FrameReader's loop: V8 formatted `index`
 * for every record when the text of several of the loop's errors held it (one conversion, hoisted above the
 * checks), a twentieth of reading the frames (seen with perf on the corpus capture).
 */
function recordError(index: number, pos: number, what: 'header' | 'too big' | 'truncated' | 'fraction', value: number, left = 0): NetError {
  const path = `records[${index}]`;
  switch (what) {
    case 'header':
      return new NetError('TRUNCATED', `record ${index}: its header needs 16 bytes, ${value} left`, pos, path);
    case 'too big':
      return new NetError('BAD_RECORD', `record ${index}: ${value} captured bytes, more than ${MAX_FRAME}`, pos + 8, path);
    case 'truncated':
      return new NetError('TRUNCATED', `record ${index}: ${value} bytes, ${left} left`, pos + 8, path);
    case 'fraction':
      return new NetError('BAD_RECORD', `record ${index}: timestamp fraction ${value} is not below one second`, pos + 4, path);
  }
}

/** Whether an EtherType (or SLL protocol) is IPv4 or IPv6. */
const isIpEtherType = (t: number) => t === 0x0800 || t === 0x86dd;

function needBytes(start: number, end: number, n: number, linkType: number, base: number): void {
  if (end - start < n) throw new NetError('TRUNCATED', `a link-type ${linkType} frame needs ${n} bytes, has ${end - start}`, base + start, 'link');
}

/**
 * Where the IP packet of the frame `d[start, end)` starts (in `d`), or undefined when the frame holds no IP.
 * No closures here: this runs once per frame, and a closure per call was a tenth of decodeCapture's garbage.
 */
function ipStart(d: Uint8Array, start: number, end: number, linkType: number, base: number): number | undefined {
  switch (linkType) {
    case LINKTYPE.ethernet: {
      needBytes(start, end, 14, linkType, base);
      let at = 12;
      let type = (d[start + at]! << 8) | d[start + at + 1]!;
      // 802.1Q / 802.1ad VLAN tags.
      while (type === 0x8100 || type === 0x88a8) {
        at += 4;
        needBytes(start, end, at + 2, linkType, base);
        type = (d[start + at]! << 8) | d[start + at + 1]!;
      }
      return isIpEtherType(type) ? start + at + 2 : undefined;
    }
    case LINKTYPE.null:
    case LINKTYPE.loop: {
      needBytes(start, end, 4, linkType, base);
      // The address family: host byte order for NULL (either), big-endian for LOOP. 2 is IPv4; 24, 28, 30 IPv6.
      const be = (d[start]! << 24) | (d[start + 1]! << 16) | (d[start + 2]! << 8) | d[start + 3]!;
      const le = (d[start + 3]! << 24) | (d[start + 2]! << 16) | (d[start + 1]! << 8) | d[start]!;
      const family = linkType === LINKTYPE.loop ? be : Math.min(be >>> 0, le >>> 0);
      return family === 2 || family === 24 || family === 28 || family === 30 ? start + 4 : undefined;
    }
    case LINKTYPE.raw:
    case 12:
    case 14:
    case LINKTYPE.ipv4:
    case LINKTYPE.ipv6:
      return start;
    case LINKTYPE.linuxSll:
      needBytes(start, end, 16, linkType, base);
      return isIpEtherType((d[start + 14]! << 8) | d[start + 15]!) ? start + 16 : undefined;
    case LINKTYPE.linuxSll2:
      needBytes(start, end, 20, linkType, base);
      return isIpEtherType((d[start]! << 8) | d[start + 1]!) ? start + 20 : undefined;
    default:
      throw new NetError('UNSUPPORTED_LINK_TYPE', `link type ${linkType} (Ethernet, NULL/loopback, raw IP, Linux SLL and SLL2 are read)`, base + start, 'link');
  }
}

/**
 * IPv4 address texts by address, so that a capture's few addresses are formatted once. Bounded, and a new Map
 * when full: a Map cleared keeps its old table, and what it held, alive through V8's minor collections. With
 * 4,096 texts, a capture of 10,000 clients at once made each text live about as long as V8's young generation
 * keeps objects, so that most were copied and promoted: 2 MB more promoted, a larger young generation and
 * heap (issue 41, measured with node --trace-gc-nvp on the flows captures of the pcap bench). With 1,024 they die
 * young.
 */
let ipv4Texts = new Map<number, string>();
const MAX_ADDRESS_TEXTS = 1024;
/**
 * The last two addresses met and their texts, the one met last in `lastIpv4`: a datagram's two addresses, and
 * a connection's datagrams go both ways, so most datagrams find both here without a look-up (a loopback
 * capture has one address; a server's capture the server's and its client's of the moment).
 */
let lastIpv4 = -1;
let lastIpv4Text = '';
let otherIpv4 = -1;
let otherIpv4Text = '';
function ipv4Text(d: Uint8Array, at: number): string {
  const key = ((d[at]! << 24) | (d[at + 1]! << 16) | (d[at + 2]! << 8) | d[at + 3]!) >>> 0;
  if (key === lastIpv4) return lastIpv4Text;
  let text: string | undefined;
  if (key === otherIpv4) text = otherIpv4Text;
  else {
    text = ipv4Texts.get(key);
    if (text === undefined) {
      if (ipv4Texts.size >= MAX_ADDRESS_TEXTS) ipv4Texts = new Map();
      ipv4Texts.set(key, (text = `${d[at]}.${d[at + 1]}.${d[at + 2]}.${d[at + 3]}`));
    }
  }
  otherIpv4 = lastIpv4;
  otherIpv4Text = lastIpv4Text;
  lastIpv4 = key;
  lastIpv4Text = text;
  return text;
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

/** A UDP datagram as udpAt finds it: where its payload is (`bytes[start, end)`), not a view of it. */
export interface UdpRecord {
  source: string;
  destination: string;
  sourcePort: number;
  destinationPort: number;
  bytes: Uint8Array;
  start: number;
  end: number;
}

/**
 * The UDP datagram a frame carries, or undefined when the frame is not IP/UDP. Throws NetError for IP
 * fragments (IP_FRAGMENT: one frame alone does not hold their datagram; decodeCapture puts them together)
 * and for frames cut short.
 */
export function udpOf(frame: CaptureFrame): UdpDatagram | undefined {
  const udp: UdpRecord = { source: '', destination: '', sourcePort: 0, destinationPort: 0, bytes: frame.data, start: 0, end: 0 };
  try {
    if (!udpAt(frame.data, 0, frame.data.length, frame.linkType, udp)) return undefined;
  } catch (e) {
    // Offsets in errors count from the frame's place in its file.
    if (e instanceof NetError) throw new NetError(e.code, e.detail, frame.offset + e.offset, e.path);
    throw e;
  }
  return { source: udp.source, destination: udp.destination, sourcePort: udp.sourcePort, destinationPort: udp.destinationPort, payload: frame.data.subarray(udp.start, udp.end) };
}

/** Where the frame came in, for the IP fragments it may hold (they are put together across frames). */
export interface FragmentContext {
  reassembler: FragmentReassembler;
  index: number;
  seconds: number;
  nanoseconds: number;
}

/**
 * udpOf for the frame `d[start, end)` of link type `linkType`: fills `out` (its `bytes` become `d`, or the
 * datagram put together from fragments) and returns true, or returns false when the frame is not IP/UDP or
 * holds a fragment of a datagram not yet complete. Without `fragments`, a fragment is the error IP_FRAGMENT.
 * Offsets in errors are positions in `d`, plus `base` (where `d[0]` is in a stream read in chunks).
 */
export function udpAt(d: Uint8Array, start: number, frameEnd: number, linkType: number, out: UdpRecord, fragments?: FragmentContext, base = 0): boolean {
  const ip = ipStart(d, start, frameEnd, linkType, base);
  if (ip === undefined) return false;
  if (frameEnd < ip + 1) throw new NetError('TRUNCATED', 'the frame ends before its IP header', base + ip, 'ip');
  const version = d[ip]! >> 4;
  let udp: number;
  let end: number;
  if (version === 4) {
    if (frameEnd < ip + 20) throw new NetError('TRUNCATED', 'an IPv4 header needs 20 bytes', base + ip, 'ip');
    const ihl = (d[ip]! & 0x0f) * 4;
    const total = (d[ip + 2]! << 8) | d[ip + 3]!;
    const fragment = (d[ip + 6]! << 8) | d[ip + 7]!;
    if (ihl < 20 || total < ihl) throw new NetError('BAD_IP', `IPv4 header length ${ihl}, total length ${total}`, base + ip, 'ip');
    if (d[ip + 9] !== 17) return false;
    out.source = ipv4Text(d, ip + 12);
    out.destination = ipv4Text(d, ip + 16);
    udp = ip + ihl;
    end = ip + total;
    if (fragment & 0x3fff) {
      if (!fragments) throw new NetError('IP_FRAGMENT', `an IPv4 fragment (offset ${(fragment & 0x1fff) * 8}${fragment & 0x2000 ? ', more follow' : ''}): fragments are not reassembled here`, base + ip + 6, 'ip');
      if (end > frameEnd) throw new NetError('TRUNCATED', `the IP packet says ${end - ip} bytes, the frame holds ${frameEnd - ip}`, base + ip, 'ip');
      const key = `4 ${out.source} ${out.destination} ${(d[ip + 4]! << 8) | d[ip + 5]!}`;
      const whole = addFragment(fragments, { ...fragments, key, offset: (fragment & 0x1fff) * 8, more: (fragment & 0x2000) !== 0, bytes: d, start: udp, end }, base);
      return whole !== undefined && udpIn(whole, 0, whole.length, out, 0);
    }
  } else if (version === 6) {
    if (frameEnd < ip + 40) throw new NetError('TRUNCATED', 'an IPv6 header needs 40 bytes', base + ip, 'ip');
    let next = d[ip + 6]!;
    udp = ip + 40;
    end = udp + ((d[ip + 4]! << 8) | d[ip + 5]!);
    out.source = ipv6Text(d, ip + 8);
    out.destination = ipv6Text(d, ip + 24);
    // Hop-by-hop (0), routing (43) and destination options (60) headers are skipped; a fragment header (44)
    // directly followed by UDP is put together with the other fragments.
    for (let hops = 0; next === 0 || next === 43 || next === 60 || next === 44; hops++) {
      if (frameEnd < udp + 8 || hops > 8) throw new NetError('TRUNCATED', 'an IPv6 extension header runs past the frame', base + udp, 'ip');
      if (next === 44) {
        if (!fragments) throw new NetError('IP_FRAGMENT', 'an IPv6 fragment: fragments are not reassembled here', base + udp, 'ip');
        if (d[udp] !== 17) return false;
        if (end > frameEnd) throw new NetError('TRUNCATED', `the IP packet says ${end - ip} bytes, the frame holds ${frameEnd - ip}`, base + ip, 'ip');
        const field = (d[udp + 2]! << 8) | d[udp + 3]!;
        const id = ((d[udp + 4]! << 24) | (d[udp + 5]! << 16) | (d[udp + 6]! << 8) | d[udp + 7]!) >>> 0;
        const whole = addFragment(fragments, { ...fragments, key: `6 ${out.source} ${out.destination} ${id}`, offset: field & 0xfff8, more: (field & 1) !== 0, bytes: d, start: udp + 8, end }, base);
        return whole !== undefined && udpIn(whole, 0, whole.length, out, 0);
      }
      next = d[udp]!;
      udp += (d[udp + 1]! + 1) * 8;
    }
    if (next !== 17) return false;
  } else return false;
  if (end > frameEnd) throw new NetError('TRUNCATED', `the IP packet says ${end - ip} bytes, the frame holds ${frameEnd - ip}`, base + ip, 'ip');
  return udpIn(d, udp, end, out, base);
}

/** A fragment to its reassembler; the offsets of its errors count from the start of the stream (`d[0]` is at `base`). */
function addFragment(fragments: FragmentContext, f: Fragment, base: number): Uint8Array | undefined {
  try {
    return fragments.reassembler.add(f);
  } catch (e) {
    if (base !== 0 && e instanceof NetError) throw new NetError(e.code, e.detail, base + e.offset, e.path);
    throw e;
  }
}

/** The UDP datagram `d[udp, end)` (header and payload) into `out`; `d[0]` is at `base` in the stream (for the offsets of errors). */
function udpIn(d: Uint8Array, udp: number, end: number, out: UdpRecord, base: number): boolean {
  if (end - udp < 8) throw new NetError('TRUNCATED', 'the UDP header needs 8 bytes', base + udp, 'udp');
  const length = (d[udp + 4]! << 8) | d[udp + 5]!;
  if (length < 8 || udp + length > end) throw new NetError('BAD_UDP', `UDP length ${length}, the IP packet holds ${end - udp}`, base + udp + 4, 'udp');
  out.sourcePort = (d[udp]! << 8) | d[udp + 1]!;
  out.destinationPort = (d[udp + 2]! << 8) | d[udp + 3]!;
  out.bytes = d;
  out.start = udp + 8;
  out.end = udp + length;
  return true;
}
