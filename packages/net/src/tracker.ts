// Follows each connection of a capture as its peers do: vital chunks by sequence (a resent chunk the peer
// already had is a duplicate, delivered once), and the snapshots a server sends (snap parts gathered per tick,
// the delta applied to the snapshot of the delta tick, the server's CRC checked: snapshot-receiver.ts). Facts
// from DDNet src/engine/shared/network.cpp (CPacketChunkUnpacker: in-order sequence, IsSeqInBackroom). The
// map a client downloads is reassembled by mapdownload.ts.
// Who owns what (captureDemo -> decodeCapture, then this tracker -> its receivers, never back): the tracker owns
// one SnapshotReceiver per direction and the byte budget over all of them; it feeds a receiver, reads how many
// bytes the receiver stores after that, and tells the receivers that stored first to forget when the budget is
// exceeded. A receiver knows nothing of the tracker or of the other receivers.
import { emptyObjectArray } from '@twcodec/runtime';
import type { CaptureDatagram } from './capture.js';
import type { NetError } from './errors.js';
import { type NetProtocolName, PACKET_PROTOCOLS } from './packet.js';
import { type MapDownload, MapDownloader } from './mapdownload.js';
import { isSnapMessage, type RebuiltSnapshot, type SnapMessage, SnapshotReceiver } from './snapshot-receiver.js';

export type { RebuiltSnapshot } from './snapshot-receiver.js';

/**
 * Hostile captures: directions followed at once (the oldest is forgotten beyond this; a server has at most 64
 * clients, each connection two directions), and bytes of snapshot data stored over all of them (the oldest
 * stored snapshots are forgotten beyond this), so that what the tracker holds stays bounded whatever the
 * capture says.
 */
const MAX_DIRECTIONS = 512;
const MAX_STORED_BYTES = 32 * 1024 * 1024;
/** Directions looked up without the Map (ConnectionTracker.recent): a server's few clients, both ways. */
const RECENT_DIRECTIONS = 8;

/**
 * The control messages that start a connection again, by protocol: looked up by name rather than by a search
 * of the protocol's table, whose entries are objects of several shapes (with `newConnection` or without), so
 * that the first close met after V8 optimised `feed` sent it back to be compiled again (issue 41).
 */
let newConnectionKinds: Record<NetProtocolName, ReadonlySet<string>> | undefined;
/** The sets, made at the first control packet rather than when the module loads (start-up, issue 41). */
function newConnectionKindsOf(protocol: NetProtocolName): ReadonlySet<string> {
  if (!newConnectionKinds) {
    newConnectionKinds = {} as Record<NetProtocolName, ReadonlySet<string>>;
    for (const name of Object.keys(PACKET_PROTOCOLS) as NetProtocolName[]) {
      newConnectionKinds[name] = new Set(PACKET_PROTOCOLS[name].controlMessages.filter((m) => m.newConnection).map((m) => m.name));
    }
  }
  return newConnectionKinds[protocol];
}

/** What happened to one vital chunk at its receiver. */
export type ChunkDelivery = 'delivered' | 'duplicate' | 'out_of_order';

export interface TrackedDatagram {
  /** Per chunk of the packet (same order): what the receiver does with it (non-vital chunks: delivered). */
  delivery: ChunkDelivery[];
  /** Snapshots completed by this datagram. */
  snapshots: RebuiltSnapshot[];
  /** Map downloads this datagram completed (or that were refused: `error`). */
  maps: MapDownload[];
  /**
   * What a real receiver would refuse in this datagram and the tracker ignored (DDNet drops it without a word):
   * a snapshot part numbered outside its part count (SNAP_PART_RANGE) or bigger than a part can be
   * (SNAP_PART_TOO_BIG). Absent when there is none.
   */
  errors?: NetError[];
}

/** What a ConnectionTracker holds, for callers (and the fuzz target) that check it stays bounded. */
export interface TrackerHolding {
  directions: number;
  /** Bytes of snapshot parts waiting for the rest of their tick. */
  partBytes: number;
  storedSnapshots: number;
  /** Bytes of data of the stored snapshots. */
  storedBytes: number;
}

export interface ConnectionTrackerOptions {
  /** The biggest map download taken, in bytes (default DEFAULT_MAX_MAP_SIZE, 64 MiB); bigger ones end in MAP_TOO_BIG. */
  maxMapSize?: number;
}

interface Direction {
  /** The last vital sequence delivered in order; -1 until the connection starts or a first chunk is seen. */
  ack: number;
  /** Snapshot state of the receiving client (made with the first snapshot message). */
  snapshots: SnapshotReceiver | undefined;
  /** The map download of the receiving client. */
  map: MapDownloader | undefined;
}

/** Whether `seq` lies in the half of the sequence space (`modulo` values, PacketProtocolDef.sequenceModulo) before `ack` (already received). */
export function inBackroom(seq: number, ack: number, modulo: number): boolean {
  const bottom = ack - modulo / 2;
  if (bottom < 0) return seq <= ack || seq >= bottom + modulo;
  return seq <= ack && seq >= bottom;
}

/** Follows the connections of a capture; feed it every datagram in order. */
export class ConnectionTracker {
  /**
   * The directions followed, in the order they were first seen, in two generations: `older` (all seen before
   * any of `directions`) and `directions`, where new ones go; the first of `older` is forgotten first, and once
   * `older` is empty `directions` becomes it and a new Map takes new directions. One Map with a delete and an
   * insert for each new direction past MAX_DIRECTIONS (10,000 clients taking turns: every datagram) rebuilt
   * its table now and then, and V8 makes a long-lived Map's new table in the old generation: each table kept
   * the young directions it held (and their keys) alive through minor collections until a major one, which
   * grew the heap by 20 MB (issue 41, bench/pcap.mjs; node --trace-gc-nvp: promoted bytes).
   */
  private directions = new Map<string, Direction>();
  private older = new Map<string, Direction>();
  /**
   * The budget: stored snapshots in the order of storing, each its receiver and its tick at the same place of
   * the two lists (from `first` on; entries whose receiver forgot them by itself are skipped and dropped now
   * and then), and the bytes and count stored over all receivers. Two lists rather than an object per entry:
   * one object per snapshot, kept by a long-lived list, outlived minor collections, and the lists hold only
   * receivers (long-lived themselves) and small integers (issue 41).
   */
  private readonly storedReceivers: SnapshotReceiver[] = [];
  private readonly storedTicks: number[] = [];
  private first = 0;
  private storedBytes = 0;
  private storedCount = 0;

  constructor(private readonly options: ConnectionTrackerOptions = {}) {}

  /**
   * The directions last looked up, by their endpoint texts (the capture decoder gives a route's datagrams the
   * same strings): most datagrams find theirs here without making the Map's key (building and hashing it was
   * a twentieth of `net pcap`, issue 41). Emptied when a direction is forgotten.
   */
  private readonly recent: { source: string; destination: string; d: Direction }[] = [];
  /**
   * Where a receiver puts what it refuses of one message, moved to the datagram's `errors` when there is any:
   * an `errors` array made for every datagram and deleted when empty turned each result into a slow
   * dictionary object (issue 41).
   */
  private readonly errors: NetError[] = [];
  private recentNext = 0;

  private direction(source: string, destination: string): Direction {
    const recent = this.recent;
    for (let i = 0; i < recent.length; i++) {
      const r = recent[i]!;
      if (r.source === source && r.destination === destination) return r.d;
    }
    const key = `${source} ${destination}`;
    let d = this.directions.get(key) ?? this.older.get(key);
    if (!d) {
      if (this.directions.size + this.older.size >= MAX_DIRECTIONS) {
        // Forget the direction seen first: a capture of more connections than this is followed in part.
        if (this.older.size === 0) {
          this.older = this.directions;
          this.directions = new Map();
        }
        const [oldestKey, oldest] = this.older.entries().next().value as [string, Direction];
        this.older.delete(oldestKey);
        this.drop(oldest);
        recent.length = 0;
        this.recentNext = 0;
      }
      // Made with all its members, none deleted later (set to undefined): a member added after, or deleted,
      // gave directions of several shapes (or slow dictionary objects), and the functions that read them were
      // compiled again at each new one (issue 41, node --trace-deopt).
      this.directions.set(key, (d = { ack: -1, snapshots: undefined, map: undefined }));
    }
    // One store for filling the list and for going round it (at === recent.length grows it): a store of its own
    // for the second was first met at the ninth direction, after V8 had optimised this, which was then
    // compiled again (issue 41, node --trace-deopt on a capture of many connections).
    const at = this.recentNext;
    recent[at] = { source, destination, d };
    this.recentNext = (at + 1) % RECENT_DIRECTIONS;
    return d;
  }

  /** What the tracker holds now. */
  holding(): TrackerHolding {
    let partBytes = 0;
    for (const d of this.older.values()) partBytes += d.snapshots?.partBytes ?? 0;
    for (const d of this.directions.values()) partBytes += d.snapshots?.partBytes ?? 0;
    return { directions: this.directions.size + this.older.size, partBytes, storedSnapshots: this.storedCount, storedBytes: this.storedBytes };
  }

  /** Drops a direction's receiver, and what it stored from the budget. */
  private drop(d: Direction): void {
    if (!d.snapshots) return;
    this.storedBytes -= d.snapshots.storedBytes;
    this.storedCount -= d.snapshots.storedCount;
    d.snapshots.clear();
    d.snapshots = undefined;
  }

  /** Feeds a snap message to a direction's receiver and keeps the budget: past it, the snapshots stored first (by any receiver) are forgotten. */
  private feedSnapshot(d: Direction, protocol: NetProtocolName, m: SnapMessage, errors: NetError[]): RebuiltSnapshot | undefined {
    const receiver = (d.snapshots ??= new SnapshotReceiver(protocol));
    const bytes = receiver.storedBytes;
    const count = receiver.storedCount;
    const rebuilt = receiver.feed(m, errors);
    this.storedBytes += receiver.storedBytes - bytes;
    this.storedCount += receiver.storedCount - count;
    // Whether the receiver stored it: it stores every snapshot it rebuilds with the right CRC, and only those
    // (SnapshotReceiver.feed), so the result says it in one load (results have one shape, so a snap_empty's sends
    // nothing back to be compiled again). A look along its list, has(rebuilt.tick), was 0.1% more instructions
    // of `net pcap`, a count of its stores 0.03 to 0.06% more (issue 41, callgrind).
    if (!rebuilt?.crcOk) return rebuilt;
    const receivers = this.storedReceivers;
    const ticks = this.storedTicks;
    const entry = receivers.length;
    receivers.push(receiver);
    ticks.push(rebuilt.tick);
    while (this.storedBytes > MAX_STORED_BYTES && this.first < receivers.length) {
      const oldest = this.first;
      if (oldest === entry) break;
      this.first++;
      const r = receivers[oldest]!;
      const tick = ticks[oldest]!;
      if (!r.has(tick)) continue;
      this.storedBytes -= r.forget(tick);
      this.storedCount--;
    }
    // Entries of snapshots forgotten otherwise (a receiver keeps ticks from the delta tick on) are dropped once
    // they outnumber the stored ones, so that the order stays as long as what is stored.
    if (receivers.length - this.first > 2 * this.storedCount + 64) {
      let kept = 0;
      for (let i = this.first; i < receivers.length; i++) {
        const r = receivers[i]!;
        const tick = ticks[i]!;
        if (!r.has(tick)) continue;
        receivers[kept] = r;
        ticks[kept] = tick;
        kept++;
      }
      receivers.length = kept;
      ticks.length = kept;
      this.first = 0;
    }
    return rebuilt;
  }

  feed(d: CaptureDatagram): TrackedDatagram {
    const p = d.packet;
    // Connectionless packets (server info) belong to no connection: a scan of many servers makes no state.
    if (!p || p.kind === 'connless') return { delivery: [], snapshots: emptyObjectArray(), maps: emptyObjectArray() };
    const dir = this.direction(d.source, d.destination);
    if (p.control) {
      // A new connection (0.6 connect/connect-accept, 0.7 connect/accept: `new_connection` in schemas/net): sequences start again.
      if (newConnectionKindsOf(p.protocol).has(p.control.kind)) {
        const back = this.direction(d.destination, d.source);
        dir.ack = back.ack = 0;
        this.drop(dir);
        this.drop(back);
        dir.map = undefined;
        back.map = undefined;
      }
      return { delivery: [], snapshots: emptyObjectArray(), maps: emptyObjectArray() };
    }
    // The result's arrays at their size: one grown by push from empty takes room for 17 (with the result, a
    // sixth of `net pcap`'s garbage; issue 41).
    const chunks = p.chunks ?? [];
    // (Every member is set below; a packet's one or two chunks get an array literal: `new Array(n)` of a length
    // not known when V8 compiles this is a call into its runtime.)
    const count = chunks.length;
    const deliveries: ChunkDelivery[] = count === 1 ? ['delivered'] : count === 2 ? ['delivered', 'delivered'] : new Array<ChunkDelivery>(count);
    let snapshots: RebuiltSnapshot[] | undefined;
    let maps: MapDownload[] | undefined;
    let errorsOut: NetError[] | undefined;
    const modulo = PACKET_PROTOCOLS[p.protocol].sequenceModulo;
    for (let i = 0; i < chunks.length; i++) {
      const chunk = chunks[i]!;
      let delivery: ChunkDelivery = 'delivered';
      if (chunk.sequence !== undefined) {
        if (dir.ack < 0 || chunk.sequence === (dir.ack + 1) % modulo) dir.ack = chunk.sequence;
        else delivery = inBackroom(chunk.sequence, dir.ack, modulo) ? 'duplicate' : 'out_of_order';
      }
      // The literals of one or two chunks hold 'delivered' already, in a list V8 shares between the arrays it
      // makes of a literal and copies at their first write: written only when something else goes there.
      if (count > 2 || delivery !== 'delivered') deliveries[i] = delivery;
      if (delivery !== 'delivered') continue;
      const m = chunk.message as SnapMessage;
      // Read once: every message kind has an object shape of its own, so this load is a megamorphic one.
      const kind = m.kind;
      let made: RebuiltSnapshot | MapDownload | undefined;
      const isMap = kind === 'map_details' || kind === 'map_change' || kind === 'map_data';
      if (isMap) {
        dir.map ??= new MapDownloader(this.options.maxMapSize);
        made = dir.map.message(p.protocol, m, chunk.sequence !== undefined);
      } else if (isSnapMessage(kind)) {
        const errors = this.errors;
        made = this.feedSnapshot(dir, p.protocol, m, errors);
        if (errors.length > 0) {
          (errorsOut ??= []).push(...errors);
          errors.length = 0;
        }
      } else continue;
      if (!made) continue;
      // What a message completed goes onto its list by the same push, or array literal, for both kinds: the
      // first map download that ended after V8 optimised `feed` met a literal of its own that had never run,
      // and sent `feed` back to be compiled again (issue 41, node --trace-deopt).
      const list: (RebuiltSnapshot | MapDownload)[] | undefined = isMap ? maps : snapshots;
      if (list) list.push(made);
      else {
        const one = [made];
        if (isMap) maps = one as MapDownload[];
        else snapshots = one as RebuiltSnapshot[];
      }
    }
    const out: TrackedDatagram = { delivery: deliveries, snapshots: snapshots ?? emptyObjectArray(), maps: maps ?? emptyObjectArray() };
    if (errorsOut) out.errors = errorsOut;
    return out;
  }
}
