// IP fragments of UDP datagrams put back together, as a receiver does (RFC 791 for IPv4, RFC 8200 section
// 4.5 for IPv6: fragments with the same source, destination, protocol and identification, each at its offset
// in 8-byte units, the last one without "more fragments"). Overlapping fragments are refused (RFC 5722 makes
// that the rule for IPv6; a capture that overlaps IPv4 fragments is taken as lying too). Bounded: at most
// MAX_PENDING datagrams in reassembly and MAX_PENDING_BYTES held over all of them (the oldest given up beyond
// that), none held longer than MAX_AGE_SECONDS of capture time (Linux's ipfrag_time is 30 s), a datagram at
// most 65535 bytes.
import { NetError } from './errors.js';

const MAX_PENDING = 64;
const MAX_PENDING_BYTES = 1024 * 1024;
const MAX_AGE_SECONDS = 30;
/** The biggest IP payload an IPv4 datagram can have (total length 65535 less a 20-byte header), and IPv6's without jumbograms. */
const MAX_DATAGRAM = 65535;

interface Pending {
  key: string;
  /** Where the first fragment was in the capture, for an error about the datagram. */
  index: number;
  seconds: number;
  nanoseconds: number;
  data: Uint8Array;
  /** 8-byte blocks received, one flag each. */
  blocks: Uint8Array;
  received: number;
  /** The datagram's length once its last fragment came; -1 before. */
  total: number;
}

/** A datagram given up: where its first fragment was, and why. */
export interface AbandonedDatagram {
  index: number;
  seconds: number;
  nanoseconds: number;
  error: NetError;
}

/** One fragment's place: the frame it came in (index, time) and where its data is. */
export interface Fragment {
  key: string;
  offset: number;
  more: boolean;
  bytes: Uint8Array;
  start: number;
  end: number;
  index: number;
  seconds: number;
  nanoseconds: number;
}

export class FragmentReassembler {
  private readonly pending = new Map<string, Pending>();
  private heldBytes = 0;
  /** Datagrams given up since the last take(). */
  private abandoned: AbandonedDatagram[] = [];

  /** The whole datagram (IP payload: UDP header and data) when `f` completes it, else undefined. Throws NetError on a fragment that cannot belong to any datagram. */
  add(f: Fragment): Uint8Array | undefined {
    this.expire(f.seconds);
    const length = f.end - f.start;
    const end = f.offset + length;
    if (end > MAX_DATAGRAM) throw new NetError('IP_FRAGMENT', `a fragment at offset ${f.offset} of ${length} bytes ends past ${MAX_DATAGRAM} bytes`, f.start, 'ip');
    if (f.more && length % 8 !== 0) throw new NetError('IP_FRAGMENT', `a fragment of ${length} bytes with more to follow (not a multiple of 8)`, f.start, 'ip');
    let p = this.pending.get(f.key);
    if (!p) {
      p = { key: f.key, index: f.index, seconds: f.seconds, nanoseconds: f.nanoseconds, data: new Uint8Array(Math.max(2048, end)), blocks: new Uint8Array(MAX_DATAGRAM / 8 + 1), received: 0, total: -1 };
      this.pending.set(f.key, p);
      this.heldBytes += p.data.length;
    }
    const lie = (message: string) => {
      this.drop(p!);
      return new NetError('IP_FRAGMENT', message, f.start, 'ip');
    };
    if (!f.more) {
      if (p.total >= 0 && p.total !== end) throw lie(`two last fragments (${p.total} and ${end} bytes)`);
      p.total = end;
    }
    if (p.total >= 0 && end > p.total) throw lie(`a fragment ends at ${end}, past the datagram's ${p.total} bytes`);
    const first = f.offset / 8;
    const last = Math.ceil(end / 8);
    for (let b = first; b < last; b++) if (p.blocks[b]) throw lie(`fragments overlap at byte ${b * 8}`);
    if (end > p.data.length) {
      const grown = new Uint8Array(Math.min(MAX_DATAGRAM, Math.max(end, p.data.length * 2)));
      grown.set(p.data);
      this.heldBytes += grown.length - p.data.length;
      p.data = grown;
    }
    p.data.set(f.bytes.subarray(f.start, f.end), f.offset);
    p.blocks.fill(1, first, last);
    p.received += last - first;
    if (p.total >= 0 && p.received === Math.ceil(p.total / 8)) {
      this.drop(p);
      return p.data.subarray(0, p.total);
    }
    // Over the caps: give up the oldest datagrams (Map keeps insertion order), never the one just added to.
    for (const oldest of this.pending.values()) {
      if ((this.pending.size <= MAX_PENDING && this.heldBytes <= MAX_PENDING_BYTES) || oldest === p) break;
      this.abandon(oldest, `given up: more than ${MAX_PENDING} datagrams or ${MAX_PENDING_BYTES} bytes in reassembly`);
    }
    return undefined;
  }

  /** Gives up every datagram still incomplete (the capture ended). */
  finish(): void {
    for (const p of [...this.pending.values()]) this.abandon(p, 'the capture ends before its last fragment');
  }

  /** Whether datagrams were given up since the last take() (checked for every frame: no array made). */
  get hasAbandoned(): boolean {
    return this.abandoned.length > 0;
  }

  /** The datagrams given up since the last call. */
  take(): AbandonedDatagram[] {
    const out = this.abandoned;
    if (out.length) this.abandoned = [];
    return out;
  }

  private expire(seconds: number): void {
    for (const p of [...this.pending.values()]) if (seconds - p.seconds > MAX_AGE_SECONDS) this.abandon(p, `its fragments did not all come within ${MAX_AGE_SECONDS} s`);
  }

  private abandon(p: Pending, why: string): void {
    this.drop(p);
    const have = p.received * 8;
    this.abandoned.push({ index: p.index, seconds: p.seconds, nanoseconds: p.nanoseconds, error: new NetError('IP_FRAGMENT', `a fragmented datagram (${have} bytes of ${p.total >= 0 ? p.total : 'unknown'} came) ${why}`, -1, 'ip') });
  }

  private drop(p: Pending): void {
    if (this.pending.delete(p.key)) this.heldBytes -= p.data.length;
  }
}
