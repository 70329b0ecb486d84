// The snapshots a client receives, rebuilt as the client does: `snap` parts gathered per tick, `snap_single`,
// `snap_empty`, the delta applied to the stored snapshot of the delta tick, the server's CRC checked. Shared by
// the capture tracker (tracker.ts) and the live client (client.ts). One direction: they own receivers and call
// into them; a receiver calls nothing back (it says what it stores, in storedBytes, and the tracker's budget over
// all its receivers decides what to forget). Facts from DDNet src/engine/client/client.cpp
// (NETMSG_SNAP/SNAPSINGLE/SNAPEMPTY: parts, MAX_SNAPSHOT_PACKSIZE, delta tick, CVariableInt, Crc, storage purge).
import { ByteReader, CodecError, unpackVarInts } from '@twcodec/runtime';
import { applyDelta, Snapshot, type SnapshotProtocol } from '@twcodec/snapshot';
import { NetError } from './errors.js';
import { type NetProtocolName, PACKET_PROTOCOLS } from './packet.js';

/** Snapshot parts: at most this many (CSnapshot::MAX_PARTS), each at most this many bytes (MAX_SNAPSHOT_PACKSIZE). */
export const MAX_SNAPSHOT_PARTS = 64;
const MAX_PART_SIZE = 900;
/** The biggest unpacked delta (CSnapshot::MAX_SIZE bytes). */
const MAX_DELTA_INTS = 65536 / 4;
/** Snapshots kept for later deltas (DDNet purges older than the delta tick). */
const MAX_STORED = 64;


/** A snapshot a receiver keeps for later deltas. */
interface StoredSnapshot {
  tick: number;
  snapshot: Snapshot;
  /** Its size as a client's storage counts it (snapshotBytes). */
  bytes: number;
}

/**
 * A snapshot rebuilt from the parts of one tick. Every result has all six members, those that do not apply
 * undefined (a snap_empty's `crc`, a rebuilt one's `error`, a failed one's `snapshot` and `crcOk`).
 */
export interface RebuiltSnapshot {
  tick: number;
  /** The tick of the snapshot the delta applied to (-1: none, a full snapshot). */
  deltaTick: number;
  /** The CRC the server sent (snap_empty sends none: undefined). */
  crc?: number;
  /** Whether the rebuilt snapshot's CRC is the one the server sent (snap_empty: true); when it is, the receiver stored it. */
  crcOk?: boolean;
  snapshot?: Snapshot;
  /** Why the snapshot could not be rebuilt (no delta base, a delta that does not apply, ...). */
  error?: string;
}

/** The fields of a snap, snap_single or snap_empty message as @twcodec/netmsg decodes them. */
export interface SnapMessage {
  kind: string;
  tick?: number;
  deltaTick?: number;
  numParts?: number;
  part?: number;
  crc?: number;
  data?: Uint8Array;
}

export const isSnapMessage = (kind: string) => kind === 'snap' || kind === 'snap_single' || kind === 'snap_empty';

// 8 bytes an item and 4 an int: the data size (4 an item and 4 an int, which applyDelta gives the snapshot it
// makes) and 4 more an item.
const snapshotBytes = (s: Snapshot) => s.dataSize + 4 * s.items.length;

/** unpackInts' room: an int per byte of the biggest delta a receiver takes (MAX_SNAPSHOT_PARTS parts of MAX_PART_SIZE). */
let unpacked: Int32Array | undefined;

/**
 * The ints of a snapshot delta: unpacked in one pass into a buffer kept for it (a ByteReader call and an array
 * push per int were a twentieth of `net pcap`, issue 41), read again by a ByteReader when they do not unpack
 * (for its error) or are too many. The result is a view of that buffer, valid until the next call: it goes
 * straight to applyDelta, which copies what the new snapshot keeps (@twcodec/snapshot newItemData).
 */
function unpackInts(bytes: Uint8Array): Int32Array {
  const out = (unpacked ??= new Int32Array(MAX_SNAPSHOT_PARTS * MAX_PART_SIZE));
  if (bytes.length <= out.length) {
    const n = unpackVarInts(bytes, 0, bytes.length, out);
    if (n >= 0 && n <= MAX_DELTA_INTS) return (unpackedViews[n] ??= out.subarray(0, n));
  }
  return unpackIntsChecked(bytes);
}
/**
 * The views of `unpacked` by their length, made once each: a new view per snapshot (a typed array object made
 * by subarray) was a tenth of the receiver's time (issue 41, node --cpu-prof of net pcap). A capture's deltas
 * come in a few hundred lengths (the list, 128 KiB, is filled from the start: a sparse one turns into a dictionary).
 */
const unpackedViews = new Array<Int32Array | undefined>(MAX_DELTA_INTS + 1).fill(undefined);

function unpackIntsChecked(bytes: Uint8Array): Int32Array {
  const r = new ByteReader(bytes);
  const out: number[] = [];
  while (r.remaining > 0) {
    if (out.length >= MAX_DELTA_INTS) throw new CodecError('DELTA_TOO_BIG', `a snapshot delta of more than ${MAX_DELTA_INTS} ints`, r.offset, 'data');
    out.push(r.readVarInt('data'));
  }
  return Int32Array.from(out);
}

/**
 * A result of SnapshotReceiver.feed: one object literal of all members, in one order, for every kind of result.
 * Results of several shapes (a snap_empty's without `crc`, a failure's with `error` and no `snapshot`) sent the
 * functions that read them (the tracker's and the CLI's) back to be compiled again at the first of a shape met
 * after V8 had optimised them: on a 50 MB capture, the first snap_empty (issue 41, node --trace-deopt).
 */
const result = (tick: number, deltaTick: number, crc: number | undefined, snapshot: Snapshot | undefined, crcOk: boolean | undefined, error: string | undefined): RebuiltSnapshot => ({
  tick,
  deltaTick,
  crc,
  snapshot,
  crcOk,
  error,
});

/**
 * Results of each kind of member made once, before any snapshot: V8 keeps one representation per member of a
 * shape (a small integer, any object, or anything), and a member's first value of another kind (the first
 * snap_empty's undefined `crc`, after thousands of integers) changed it and sent every optimised function that
 * read it back to be compiled again (issue 41, node --trace-deopt: "not a Smi", then the CLI's writeSnapshots).
 * Kept in a list that is read, so that a bundler does not drop them.
 */
const resultShapes: RebuiltSnapshot[] = [];
function primeResultShape(): void {
  if (resultShapes.length === 0) resultShapes.push(result(0, -1, undefined, undefined, undefined, ''), result(0, -1, 0, new Snapshot([]), true, undefined));
}

/** One receiving client's snapshot state: parts of the tick being received, the snapshots later deltas refer to. */
export class SnapshotReceiver {
  /** The tick whose parts are being gathered. */
  private recvTick = -1;
  /** The tick of the last snapshot rebuilt with the right CRC (what a client acknowledges in its input). */
  lastTick = -1;
  private parts: (Uint8Array | undefined)[] = [];
  /**
   * The stored snapshots in the order they were stored, with their ticks and sizes in bytes (as a client's
   * storage counts them): at most MAX_STORED, a few in practice, found by a look along the list. A new list
   * for each snapshot stored, never one changed in place: a receiver lives long, and the container of a
   * long-lived Map or array, rebuilt as ticks come and go, is made in (or moves to) V8's old generation, where
   * the old one kept every snapshot it held alive through minor collections until a major one: with 100
   * connections at once, 20 MB promoted and 35 MB more peak memory (issue 41; node --trace-gc-nvp,
   * bench/pcap.mjs). A young list dies young with what only it held.
   */
  private stored: StoredSnapshot[] = [];
  /** Bytes of the stored snapshots. */
  storedBytes = 0;

  /** The protocol's snapshot items (what applyDelta needs of it), looked up once. */
  private readonly snapshotProtocol: SnapshotProtocol;

  constructor(protocol: NetProtocolName) {
    this.snapshotProtocol = PACKET_PROTOCOLS[protocol].snapshots;
    primeResultShape();
  }

  /** Bytes of parts waiting for the rest of their tick. */
  get partBytes(): number {
    return this.parts.reduce((n, p) => n + (p?.length ?? 0), 0);
  }

  /** Snapshots stored. */
  get storedCount(): number {
    return this.stored.length;
  }

  /**
   * Where the snapshot of `tick` is in `stored`, -1 when it is not stored. Looked for from the last one stored:
   * a delta's base is most often one of the last few (each stored tick is past the ones before, so a tick is
   * stored at most once).
   */
  private indexOf(tick: number): number {
    const stored = this.stored;
    for (let i = stored.length - 1; i >= 0; i--) if (stored[i]!.tick === tick) return i;
    return -1;
  }

  /** Whether the snapshot of `tick` is stored. */
  has(tick: number): boolean {
    return this.indexOf(tick) >= 0;
  }

  /** Forgets a stored snapshot (a later delta against it finds no base); returns the bytes it took. */
  forget(tick: number): number {
    const i = this.indexOf(tick);
    if (i < 0) return 0;
    const entry = this.stored[i]!;
    // A new list (see `stored`).
    this.stored = this.stored.filter((e) => e !== entry);
    this.storedBytes -= entry.bytes;
    return entry.bytes;
  }

  /** Forgets everything stored and every part waiting. */
  clear(): void {
    this.stored = [];
    this.storedBytes = 0;
    this.parts = [];
  }

  /**
   * Stores the snapshot of `tick`, forgetting first what later deltas cannot refer to: ticks before
   * `deltaTick`, and past MAX_STORED the first stored. A new list (see `stored`).
   */
  private store(tick: number, deltaTick: number, snapshot: Snapshot): void {
    const stored = this.stored;
    const n = stored.length;
    // The last tick stored again (only when `lastTick` was set back from outside: a tick is taken from the one
    // being received on, `recvTick`, which every stored tick is at most): its entry goes too.
    if (n > 0 && stored[n - 1]!.tick >= tick) return this.storeAgain(tick, deltaTick, snapshot);
    // The list is in the order of storing, and each tick stored is past the last one (`lastTick`): what goes is
    // its start, the ticks before `deltaTick` and, past MAX_STORED, the first stored.
    let from = 0;
    while (from < n && stored[from]!.tick < deltaTick) from++;
    if (n - from >= MAX_STORED) from = n - MAX_STORED + 1;
    for (let i = 0; i < from; i++) this.storedBytes -= stored[i]!.bytes;
    // The new list at its size (one grown by push from empty takes room for 17; issue 41).
    const kept = new Array<StoredSnapshot>(n - from + 1);
    for (let i = from; i < n; i++) kept[i - from] = stored[i]!;
    const bytes = snapshotBytes(snapshot);
    kept[n - from] = { tick, snapshot, bytes };
    this.storedBytes += bytes;
    this.stored = kept;
  }

  /** store() for a tick not past the last one stored: an entry of the same tick goes too. A new list (see `stored`). */
  private storeAgain(tick: number, deltaTick: number, snapshot: Snapshot): void {
    const kept: StoredSnapshot[] = [];
    let remaining = this.stored.length;
    for (const e of this.stored) {
      if (e.tick < deltaTick || remaining >= MAX_STORED) {
        this.storedBytes -= e.bytes;
        remaining--;
      } else if (e.tick === tick) this.storedBytes -= e.bytes;
      else kept.push(e);
    }
    const bytes = snapshotBytes(snapshot);
    kept.push({ tick, snapshot, bytes });
    this.storedBytes += bytes;
    this.stored = kept;
  }

  /**
   * Takes one snap message; returns the snapshot it completes, if any. Parts a client drops give undefined;
   * those that lie (a part number outside its count, a part too big) also get a NetError in `errors` when given.
   * A result with `crcOk` true is stored (later deltas may refer to it); no other is (the tracker's budget counts
   * on it).
   */
  feed(m: SnapMessage, errors?: NetError[]): RebuiltSnapshot | undefined {
    const tick = m.tick!;
    const deltaTick = tick - m.deltaTick!;
    const numParts = m.kind === 'snap' ? m.numParts! : 1;
    const part = m.kind === 'snap' ? m.part! : 0;
    const data = m.data ?? new Uint8Array(0);
    // What DDNet's client drops without a word; said in `errors`, as a lie of the sender.
    if (numParts < 1 || numParts > MAX_SNAPSHOT_PARTS || part < 0 || part >= numParts) {
      errors?.push(new NetError('SNAP_PART_RANGE', `${m.kind} of tick ${tick}: part ${part} of ${numParts} (1 to ${MAX_SNAPSHOT_PARTS} parts)`, -1, m.kind));
      return undefined;
    }
    if (data.length > MAX_PART_SIZE) {
      errors?.push(new NetError('SNAP_PART_TOO_BIG', `${m.kind} of tick ${tick}: ${data.length} bytes, more than a part holds (${MAX_PART_SIZE})`, -1, m.kind));
      return undefined;
    }
    if (tick < this.recvTick || tick <= this.lastTick) return undefined;
    // A snapshot of one part (snap_single, snap_empty: most of them) is complete as it comes: no list of parts
    // is made for it (two arrays per snapshot, the second grown by an index past its end, were a tenth of the
    // receiver's garbage; issue 41). `parts` stays undefined then.
    let parts: Uint8Array[] | undefined;
    if (numParts === 1) {
      this.recvTick = tick;
      if (this.parts.length) this.parts = [];
    } else {
      if (tick !== this.recvTick) {
        this.recvTick = tick;
        if (this.parts.length) this.parts = [];
      }
      this.parts[part] = data;
      for (let i = 0; i < numParts; i++) if (!this.parts[i]) return undefined;
      parts = this.parts.slice(0, numParts) as Uint8Array[];
      this.parts = [];
    }
    // The result is made once it is known, by `result` with all its members: members added one by one to a made
    // object went to a second array of properties, an allocation more per snapshot and slower to read (issue 41).
    const fromTick = deltaTick >= 0 ? deltaTick : -1;
    const withCrc = m.kind !== 'snap_empty';
    const crc = withCrc ? m.crc : undefined;
    const baseAt = deltaTick >= 0 ? this.indexOf(deltaTick) : -1;
    const base = deltaTick < 0 ? new Snapshot([]) : baseAt >= 0 ? this.stored[baseAt]!.snapshot : undefined;
    if (!base) return result(tick, fromTick, crc, undefined, undefined, `DELTA_BASE_MISSING: no snapshot of tick ${deltaTick} to apply the delta to`);
    let snapshot: Snapshot;
    try {
      // One part (snap_single, most snapshots) is read where it is; parts are put together first.
      let bytes = data;
      if (parts) {
        bytes = new Uint8Array(parts.reduce((n, b) => n + b.length, 0));
        let at = 0;
        for (const b of parts) (bytes.set(b, at), (at += b.length));
      }
      const size = bytes.length;
      const delta = size ? unpackInts(bytes) : new Int32Array(3);
      snapshot = applyDelta(base, delta, this.snapshotProtocol);
    } catch (e) {
      if (!(e instanceof CodecError)) throw e;
      return result(tick, fromTick, crc, undefined, undefined, e.message);
    }
    const crcOk = !withCrc || snapshot.checksum() === crc;
    if (crcOk) {
      this.lastTick = tick;
      // Keep what later deltas can refer to: ticks from the delta tick on, at most MAX_STORED of them.
      this.store(tick, deltaTick, snapshot);
    }
    return result(tick, fromTick, crc, snapshot, crcOk, undefined);
  }
}
