// Hostile peers in captures: a server that lies about snapshot part numbers, part sizes or the number of
// connections gets typed errors on the datagrams that lie, and the connection tracker holds a bounded amount
// whatever the capture says (directions followed, snapshot parts waiting, snapshots stored for deltas).
import { describe, expect, it } from 'vitest';
import { type CaptureDatagram, ConnectionTracker, decodeCapture, type DecodedChunk, type DecodedPacket, encodePacket, NetError } from '@twcodec/net';
import { packVarInt } from '@twcodec/runtime';
import { createDelta, DDNET_0_6, Snapshot } from '@twcodec/snapshot';
import { framesOf, ipv4Packet, pcapFile, udpDatagram } from '../net-capture-builder.js';

/** A DDNet connection packet carrying `messages` as non-vital chunks. */
function connectionPacket(messages: Record<string, unknown>[]): DecodedPacket {
  const chunks = messages.map((message) => ({ flags: [], size: 0, message: message as unknown as DecodedChunk['message'] }));
  return { protocol: '0.6', kind: 'connection', header: { flags: 0, ack: 0, num_chunks: chunks.length }, flags: [], chunks };
}

/** A datagram as decodeCapture gives it, from server s:8303 to client c:1 unless said otherwise. */
const datagram = (messages: Record<string, unknown>[], source = '10.0.0.1:8303', destination = '10.0.0.2:5000'): CaptureDatagram => ({
  index: 0,
  seconds: 0,
  nanoseconds: 0,
  source,
  destination,
  packet: connectionPacket(messages),
});

function packed(ints: Int32Array): Uint8Array {
  const out = new Uint8Array(ints.length * 5);
  let n = 0;
  for (const v of ints) n = packVarInt(v, out, n);
  return out.slice(0, n);
}

describe('hostile captures: the connection tracker', () => {
  it('gives each datagram that lies about snapshot parts a typed error, read from a capture built in code', () => {
    const lies = [
      { kind: 'snap', tick: 50, deltaTick: 51, numParts: 65, part: 0, crc: 0, partSize: 0, data: new Uint8Array(0) },
      { kind: 'snap', tick: 50, deltaTick: 51, numParts: 3, part: 7, crc: 0, partSize: 0, data: new Uint8Array(0) },
      { kind: 'snap', tick: 50, deltaTick: 51, numParts: 0, part: 0, crc: 0, partSize: 0, data: new Uint8Array(0) },
      { kind: 'snap_single', tick: 50, deltaTick: 51, crc: 0, partSize: 950, data: new Uint8Array(950) },
    ];
    const honest = { kind: 'snap_empty', tick: 60, deltaTick: 61 };
    const payloads = [...lies, honest].map((m) => encodePacket(connectionPacket([m])));
    const file = pcapFile(framesOf(payloads.map((p) => ipv4Packet(udpDatagram(8303, 5000, p), { source: [10, 0, 0, 1], destination: [10, 0, 0, 2] }))), 101);
    const tracker = new ConnectionTracker();
    const seen = [...decodeCapture(file)].map((d) => {
      expect(d.error).toBeUndefined();
      const t = tracker.feed(d);
      return { codes: (t.errors ?? []).map((e) => e.code), snapshots: t.snapshots.length };
    });
    expect(seen).toEqual([
      { codes: ['SNAP_PART_RANGE'], snapshots: 0 },
      { codes: ['SNAP_PART_RANGE'], snapshots: 0 },
      { codes: ['SNAP_PART_RANGE'], snapshots: 0 },
      { codes: ['SNAP_PART_TOO_BIG'], snapshots: 0 },
      { codes: [], snapshots: 1 },
    ]);
    const errors = lies.flatMap((m) => new ConnectionTracker().feed(datagram([m])).errors ?? []);
    for (const e of errors) expect(e).toBeInstanceOf(NetError);
    expect(tracker.holding().partBytes).toBe(0);
  });

  it('follows at most 512 directions: a capture of more connections forgets the oldest', () => {
    const tracker = new ConnectionTracker();
    for (let i = 0; i < 2000; i++) tracker.feed(datagram([{ kind: 'snap', tick: 5, deltaTick: 6, numParts: 2, part: 0, crc: 0, partSize: 900, data: new Uint8Array(900) }], '10.0.0.1:8303', `10.0.${i >> 8}.${i & 255}:5000`));
    const held = tracker.holding();
    expect(held.directions).toBe(512);
    // Each direction waits for the second part of its tick: 512 parts, not 2000.
    expect(held.partBytes).toBe(512 * 900);
  });

  it('makes no state for connectionless packets (a server browser scan)', () => {
    const tracker = new ConnectionTracker();
    for (let i = 0; i < 1000; i++) tracker.feed({ ...datagram([]), source: `10.1.${i >> 8}.${i & 255}:8303`, packet: { protocol: '0.6', kind: 'connless', header: {}, flags: ['connless'], connless: { kind: 'info' } } });
    expect(tracker.holding().directions).toBe(0);
  });

  it('keeps at most 32 MiB of stored snapshots over all connections, forgetting the oldest', () => {
    // A snapshot of 50 KB (its delta near the 16384 ints a client unpacks), then 63 empty deltas against it, each stored
    // again, on 12 connections: 39 MB of stored snapshots if nothing were forgotten, from 300 KB of packets.
    const big = new Snapshot(Array.from({ length: 400 }, (_, i) => ({ type: 100, id: i, data: new Int32Array(30).fill(i) })));
    const data = packed(createDelta(new Snapshot([]), big, DDNET_0_6));
    const parts = Array.from({ length: Math.ceil(data.length / 900) }, (_, i) => data.subarray(i * 900, (i + 1) * 900));
    const tracker = new ConnectionTracker();
    let rebuilt = 0;
    for (let c = 0; c < 12; c++) {
      const client = `10.2.0.${c}:5000`;
      const first = parts.map((p, i) => ({ kind: 'snap', tick: 100, deltaTick: 101, numParts: parts.length, part: i, crc: big.checksum(), partSize: p.length, data: p }));
      for (const s of tracker.feed(datagram(first, '10.0.0.1:8303', client)).snapshots) rebuilt += s.crcOk ? 1 : 0;
      for (let t = 101; t < 164; t++) for (const s of tracker.feed(datagram([{ kind: 'snap_empty', tick: t, deltaTick: t - 100 }], '10.0.0.1:8303', client)).snapshots) rebuilt += s.crcOk ? 1 : 0;
      expect(tracker.holding().storedBytes).toBeLessThanOrEqual(32 * 1024 * 1024);
    }
    expect(rebuilt).toBe(12 * 64);
    const held = tracker.holding();
    expect(held.storedSnapshots).toBeLessThan(12 * 64);
    expect(held.storedSnapshots).toBeGreaterThan(500);
    // A new connection drops what its directions stored from the budget: nothing is left counted.
    for (let c = 0; c < 12; c++) tracker.feed({ ...datagram([], '10.0.0.1:8303', `10.2.0.${c}:5000`), packet: { protocol: '0.6', kind: 'control', header: {}, flags: ['control'], control: { kind: 'connect', id: 1 } } });
    expect(tracker.holding()).toMatchObject({ storedSnapshots: 0, storedBytes: 0 });
  });
});
