// Follows each connection of a capture as its peers do: vital chunks by sequence (a resent chunk the peer
// already had is a duplicate, delivered once), and the snapshots a server sends (snap parts gathered per tick,
// the delta applied to the snapshot of the delta tick, the server's CRC checked). Facts from DDNet
// src/engine/shared/network.cpp (CPacketChunkUnpacker: in-order sequence, IsSeqInBackroom) and
// src/engine/client/client.cpp (NETMSG_SNAP/SNAPSINGLE/SNAPEMPTY: parts, MAX_SNAPSHOT_PACKSIZE, delta tick,
// CVariableInt, Crc, storage purge).
import { ByteReader, CodecError } from '@twcodec/runtime';
import { applyDelta, DDNET_0_6, Snapshot, type SnapshotProtocol, TEEWORLDS_0_7 } from '@twcodec/snapshot';
import type { CaptureDatagram } from './capture.js';
import type { NetProtocolName } from './packet.js';

/** Sequence numbers wrap at this (NET_MAX_SEQUENCE). */
const MAX_SEQUENCE = 1024;
/** Snapshot parts: at most this many (CSnapshot::MAX_PARTS), each at most this many bytes (MAX_SNAPSHOT_PACKSIZE). */
const MAX_PARTS = 64;
const MAX_PART_SIZE = 900;
/** The biggest unpacked delta (CSnapshot::MAX_SIZE bytes). */
const MAX_DELTA_INTS = 65536 / 4;
/** Snapshots kept per connection for later deltas (DDNet purges older than the delta tick). */
const MAX_STORED = 64;

const SNAPSHOT_PROTOCOLS: Record<NetProtocolName, SnapshotProtocol> = { '0.6': DDNET_0_6, '0.7': TEEWORLDS_0_7 };

/** What happened to one vital chunk at its receiver. */
export type ChunkDelivery = 'delivered' | 'duplicate' | 'out_of_order';

/** A snapshot rebuilt from the parts of one tick. */
export interface RebuiltSnapshot {
  tick: number;
  /** The tick of the snapshot the delta applied to (-1: none, a full snapshot). */
  deltaTick: number;
  /** The CRC the server sent (snap_empty sends none: undefined). */
  crc?: number;
  /** Whether the rebuilt snapshot's CRC is the one the server sent (snap_empty: true). */
  crcOk?: boolean;
  snapshot?: Snapshot;
  /** Why the snapshot could not be rebuilt (no delta base, a delta that does not apply, ...). */
  error?: string;
}

export interface TrackedDatagram {
  /** Per chunk of the packet (same order): what the receiver does with it (non-vital chunks: delivered). */
  delivery: ChunkDelivery[];
  /** Snapshots completed by this datagram. */
  snapshots: RebuiltSnapshot[];
}

interface Direction {
  /** The last vital sequence delivered in order; -1 until the connection starts or a first chunk is seen. */
  ack: number;
  /** Snapshot state of the receiving client. */
  recvTick: number;
  lastTick: number;
  parts: (Uint8Array | undefined)[];
  numParts: number;
  stored: Map<number, Snapshot>;
}

const newDirection = (): Direction => ({ ack: -1, recvTick: -1, lastTick: -1, parts: [], numParts: 0, stored: new Map() });

/** Whether `seq` lies in the half of the sequence space before `ack` (already received). */
function inBackroom(seq: number, ack: number): boolean {
  const bottom = ack - MAX_SEQUENCE / 2;
  if (bottom < 0) return seq <= ack || seq >= bottom + MAX_SEQUENCE;
  return seq <= ack && seq >= bottom;
}

function unpackInts(bytes: Uint8Array): Int32Array {
  const r = new ByteReader(bytes);
  const out: number[] = [];
  while (r.remaining > 0) {
    if (out.length >= MAX_DELTA_INTS) throw new CodecError('DELTA_TOO_BIG', `a snapshot delta of more than ${MAX_DELTA_INTS} ints`, r.offset, 'data');
    out.push(r.readVarInt('data'));
  }
  return Int32Array.from(out);
}

/** Follows the connections of a capture; feed it every datagram in order. */
export class ConnectionTracker {
  private readonly directions = new Map<string, Direction>();

  private direction(source: string, destination: string): Direction {
    const key = `${source} ${destination}`;
    let d = this.directions.get(key);
    if (!d) this.directions.set(key, (d = newDirection()));
    return d;
  }

  feed(d: CaptureDatagram): TrackedDatagram {
    const out: TrackedDatagram = { delivery: [], snapshots: [] };
    const p = d.packet;
    if (!p) return out;
    const dir = this.direction(d.source, d.destination);
    if (p.control) {
      // A new connection (0.6 connect/connect-accept, 0.7 connect/accept): sequences start again.
      if (['connect', 'connect_accept', 'accept'].includes(p.control.kind)) {
        const back = this.direction(d.destination, d.source);
        dir.ack = back.ack = 0;
        Object.assign(dir, { recvTick: -1, lastTick: -1, parts: [], numParts: 0, stored: new Map() });
        Object.assign(back, { recvTick: -1, lastTick: -1, parts: [], numParts: 0, stored: new Map() });
      }
      return out;
    }
    for (const chunk of p.chunks ?? []) {
      let delivery: ChunkDelivery = 'delivered';
      if (chunk.sequence !== undefined) {
        if (dir.ack < 0 || chunk.sequence === (dir.ack + 1) % MAX_SEQUENCE) dir.ack = chunk.sequence;
        else delivery = inBackroom(chunk.sequence, dir.ack) ? 'duplicate' : 'out_of_order';
      }
      out.delivery.push(delivery);
      if (delivery !== 'delivered') continue;
      const m = chunk.message as { kind: string; tick?: number; deltaTick?: number; numParts?: number; part?: number; crc?: number; data?: Uint8Array };
      if (m.kind !== 'snap' && m.kind !== 'snap_single' && m.kind !== 'snap_empty') continue;
      const rebuilt = this.snapPart(dir, p.protocol, m);
      if (rebuilt) out.snapshots.push(rebuilt);
    }
    return out;
  }

  private snapPart(dir: Direction, protocol: NetProtocolName, m: { kind: string; tick?: number; deltaTick?: number; numParts?: number; part?: number; crc?: number; data?: Uint8Array }): RebuiltSnapshot | undefined {
    const tick = m.tick!;
    const deltaTick = tick - m.deltaTick!;
    const numParts = m.kind === 'snap' ? m.numParts! : 1;
    const part = m.kind === 'snap' ? m.part! : 0;
    const data = m.data ?? new Uint8Array(0);
    // What DDNet's client drops without a word.
    if (numParts < 1 || numParts > MAX_PARTS || part < 0 || part >= numParts || data.length > MAX_PART_SIZE) return undefined;
    if (tick < dir.recvTick || tick <= dir.lastTick) return undefined;
    if (tick !== dir.recvTick) {
      dir.recvTick = tick;
      dir.parts = [];
    }
    dir.numParts = numParts;
    dir.parts[part] = data;
    for (let i = 0; i < numParts; i++) if (!dir.parts[i]) return undefined;
    const parts = dir.parts.slice(0, numParts) as Uint8Array[];
    dir.parts = [];
    const result: RebuiltSnapshot = { tick, deltaTick: deltaTick >= 0 ? deltaTick : -1 };
    if (m.kind !== 'snap_empty') result.crc = m.crc!;
    let base: Snapshot | undefined = new Snapshot([]);
    if (deltaTick >= 0) base = dir.stored.get(deltaTick);
    if (!base) {
      result.error = `DELTA_BASE_MISSING: no snapshot of tick ${deltaTick} to apply the delta to`;
      return result;
    }
    try {
      const size = parts.reduce((n, b) => n + b.length, 0);
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const b of parts) (bytes.set(b, at), (at += b.length));
      const delta = size ? unpackInts(bytes) : new Int32Array(3);
      const snapshot = applyDelta(base, delta, SNAPSHOT_PROTOCOLS[protocol]);
      result.snapshot = snapshot;
      result.crcOk = m.kind === 'snap_empty' || snapshot.checksum() === m.crc;
      if (!result.crcOk) return result;
      dir.lastTick = tick;
      // Keep what later deltas can refer to: ticks from the delta tick on, at most MAX_STORED of them.
      for (const t of dir.stored.keys()) if (t < deltaTick || dir.stored.size >= MAX_STORED) dir.stored.delete(t);
      dir.stored.set(tick, snapshot);
    } catch (e) {
      if (!(e instanceof CodecError)) throw e;
      result.error = e.message;
    }
    return result;
  }
}
