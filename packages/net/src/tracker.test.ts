import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packVarInt } from '@twcodec/runtime';
import { createDelta, DDNET_0_6, Snapshot } from '@twcodec/snapshot';
import { corpusDir, hasCorpus, readBytes } from '../../../test/corpus.js';
import { type CaptureDatagram, ConnectionTracker, decodeCapture, type DecodedChunk, SnapshotReceiver } from './index.js';

const datagram = (source: string, destination: string, chunks: Partial<DecodedChunk>[]): CaptureDatagram => ({
  index: 0,
  seconds: 0,
  nanoseconds: 0,
  source,
  destination,
  packet: { protocol: '0.6', kind: 'connection', header: {}, flags: [], chunks: chunks.map((c) => ({ flags: [], size: 0, message: { kind: 'unknown', system: false, id: 0, data: new Uint8Array(0) }, ...c })) as DecodedChunk[] },
});
const vital = (sequence: number) => ({ flags: ['vital'], sequence });
const snap = (message: Record<string, unknown>) => ({ message: message as unknown as DecodedChunk['message'] });

function packed(ints: Int32Array): Uint8Array {
  const out = new Uint8Array(ints.length * 5);
  let n = 0;
  for (const v of ints) n = packVarInt(v, out, n);
  return out.slice(0, n);
}

const snapshotOf = (n: number) => new Snapshot(Array.from({ length: n }, (_, i) => ({ type: 100, id: i, data: Int32Array.of(i, i * 7, -i) })));

describe('connection tracker', () => {
  it('delivers a vital chunk once: resent ones the receiver had are duplicates, ones after a gap out of order', () => {
    const t = new ConnectionTracker();
    const seen = [1, 2, 2, 1, 4, 3, 1023].map((s) => t.feed(datagram('a:1', 'b:2', [vital(s)])).delivery[0]);
    expect(seen).toEqual(['delivered', 'delivered', 'duplicate', 'duplicate', 'out_of_order', 'delivered', 'duplicate']);
    // The other direction has sequences of its own.
    expect(t.feed(datagram('b:2', 'a:1', [vital(7)])).delivery).toEqual(['delivered']);
  });

  it('starts sequences again at a connect or an accept, in both directions, and not at other control messages', () => {
    const t = new ConnectionTracker();
    const control = (source: string, destination: string, kind: string, protocol: '0.6' | '0.7' = '0.6'): CaptureDatagram => ({
      ...datagram(source, destination, []),
      packet: { protocol, kind: 'control', header: {}, flags: ['control'], control: { kind } } as unknown as CaptureDatagram['packet'],
    });
    const delivery = (source: string, destination: string, seq: number) => t.feed(datagram(source, destination, [vital(seq)])).delivery[0];
    expect([delivery('a:1', 'b:2', 5), delivery('b:2', 'a:1', 9)]).toEqual(['delivered', 'delivered']);
    // keep_alive and close leave the sequences as they were: 1 is still one the receiver had.
    for (const kind of ['keep_alive', 'close']) expect(t.feed(control('a:1', 'b:2', kind))).toEqual({ delivery: [], snapshots: [], maps: [] });
    expect(delivery('a:1', 'b:2', 1)).toBe('duplicate');
    // connect_accept (0.6) starts both directions again: their next chunks are 1.
    t.feed(control('b:2', 'a:1', 'connect_accept'));
    expect([delivery('a:1', 'b:2', 1), delivery('b:2', 'a:1', 1)]).toEqual(['delivered', 'delivered']);
    // 0.7 has no connect_accept; its accept does it.
    t.feed(control('c:3', 'd:4', 'connect_accept', '0.7'));
    expect([delivery('c:3', 'd:4', 7), delivery('c:3', 'd:4', 2)]).toEqual(['delivered', 'duplicate']);
    t.feed(control('d:4', 'c:3', 'accept', '0.7'));
    expect(delivery('c:3', 'd:4', 1)).toBe('delivered');
  });

  it('gives every snapshot a datagram completes, in order, and empty lists of its own to a datagram that completes none', () => {
    const t = new ConnectionTracker();
    const empty = (tick: number, deltaTick: number) => snap({ kind: 'snap_empty', tick, deltaTick });
    const two = t.feed(datagram('s:1', 'c:2', [empty(1, 2), empty(2, 1), empty(3, 1)])).snapshots;
    expect(two.map((s) => [s.tick, s.deltaTick, s.crcOk])).toEqual([[1, -1, true], [2, 1, true], [3, 2, true]]);
    const a = t.feed(datagram('s:1', 'c:2', []));
    const b = t.feed(datagram('s:1', 'c:2', []));
    expect([a.snapshots, a.maps]).toEqual([[], []]);
    expect(new Set<unknown[]>([a.snapshots, a.maps, b.snapshots, b.maps]).size).toBe(4);
  });

  it('follows at most 512 directions, forgetting the one seen first: whatever came later keeps its sequence', () => {
    const t = new ConnectionTracker();
    const host = (i: number) => `10.0.${i >> 8}.${i & 255}:8303`;
    // 1,300 directions one after another (the tracker's Maps turn over twice), each at sequence 5.
    for (let i = 0; i < 1300; i++) t.feed(datagram(host(i), 's:1', [vital(5)]));
    expect(t.holding().directions).toBe(512);
    // The last 512 still know sequence 5 (a resend is a duplicate); the ones before were forgotten (taken anew).
    const again = (i: number) => t.feed(datagram(host(i), 's:1', [vital(5)])).delivery[0];
    expect([1299, 1000, 788].map(again)).toEqual(['duplicate', 'duplicate', 'duplicate']);
    expect(t.holding().directions).toBe(512);
    expect(again(787)).toBe('delivered');
    // 787 came back as the newest: 788, the oldest then, was forgotten for it, and 789 is the oldest now.
    expect(t.holding().directions).toBe(512);
    expect(again(789)).toBe('duplicate');
    expect(again(788)).toBe('delivered');
  });

  it('a receiver keeps the snapshots from the delta tick on, at most 64, the first stored going first', () => {
    const r = new SnapshotReceiver('0.6');
    // snap_empty: the delta tick's snapshot unchanged (deltaTick is counted back from tick).
    const empty = (tick: number, base: number) => r.feed({ kind: 'snap_empty', tick, deltaTick: tick - base });
    expect(empty(1, -1)).toMatchObject({ tick: 1, deltaTick: -1, crcOk: true });
    for (let t = 2; t <= 64; t++) expect(empty(t, 1)).toMatchObject({ tick: t, deltaTick: 1, crcOk: true });
    expect(r.storedCount).toBe(64);
    // Against tick 2: tick 1 goes (before the delta tick).
    expect(empty(65, 2)).toMatchObject({ tick: 65, crcOk: true });
    expect([r.storedCount, r.has(1), r.has(2), r.has(65)]).toEqual([64, false, true, true]);
    // Against tick 2 again: full, so the first stored (2, the base just used) goes for 66.
    expect(empty(66, 2)).toMatchObject({ tick: 66, crcOk: true });
    expect([r.storedCount, r.has(2), r.has(3), r.has(66)]).toEqual([64, false, true, true]);
    // What it does not rebuild with the right CRC it does not store (the tracker's budget counts a result with
    // crcOk as stored).
    expect(empty(67, 2)!.error).toMatch(/^DELTA_BASE_MISSING/);
    expect(empty(66, 3)).toBeUndefined();
    expect([r.storedCount, r.has(67)]).toEqual([64, false]);
    // A later delta tick forgets every tick before it.
    expect(empty(68, 60)).toMatchObject({ tick: 68, crcOk: true });
    expect([r.storedCount, r.has(59), r.has(60), r.has(68)]).toEqual([8, false, true, true]);
    expect(r.forget(60)).toBe(0);
    expect([r.storedCount, r.has(60)]).toEqual([7, false]);
  });

  it('gives results of one shape whatever the message and outcome (members that do not apply are undefined)', () => {
    // Code that reads the results (the tracker, the CLI's writer) is compiled once for one shape; a shape met
    // late (a capture's first snap_empty) sent it back to be compiled again (issue 41).
    const r = new SnapshotReceiver('0.6');
    const full = createDelta(new Snapshot([]), new Snapshot([{ type: 100, id: 0, data: Int32Array.of(5) }]), DDNET_0_6);
    const results = [
      r.feed({ kind: 'snap_single', tick: 1, deltaTick: 2, crc: 5, data: packed(full) }),
      r.feed({ kind: 'snap_empty', tick: 2, deltaTick: 1 }),
      r.feed({ kind: 'snap_single', tick: 3, deltaTick: 3, crc: 5, data: packed(full) }),
      r.feed({ kind: 'snap_empty', tick: 4, deltaTick: 1 }),
      // Against tick 2: the item's 5 added to its 5 there, not the 9 sent.
      r.feed({ kind: 'snap_single', tick: 5, deltaTick: 3, crc: 9, data: packed(full) }),
    ];
    expect(results.map((s) => [s?.crc, s?.crcOk, s?.snapshot?.items.length, s?.error?.slice(0, 18)])).toEqual([
      [5, true, 1, undefined],
      [undefined, true, 1, undefined],
      [5, undefined, undefined, 'DELTA_BASE_MISSING'],
      [undefined, undefined, undefined, 'DELTA_BASE_MISSING'],
      [9, false, 1, undefined],
    ]);
    for (const s of results) expect(Object.keys(s!)).toEqual(['tick', 'deltaTick', 'crc', 'snapshot', 'crcOk', 'error']);
  });

  it('a receiver whose lastTick is set back stores its last tick again in place of the old one', () => {
    const r = new SnapshotReceiver('0.6');
    const empty = (tick: number, base: number) => r.feed({ kind: 'snap_empty', tick, deltaTick: tick - base });
    const ticks = () => Array.from({ length: 80 }, (_, t) => t).filter((t) => r.has(t));
    for (let t = 10; t <= 14; t++) expect(empty(t, t === 10 ? -1 : 10)).toMatchObject({ tick: t, crcOk: true });
    expect(ticks()).toEqual([10, 11, 12, 13, 14]);
    // Ticks before the one being received are refused whatever lastTick says; the last one is stored again,
    // its entry replaced (not doubled), and the ticks before the delta tick go.
    r.lastTick = 11;
    expect(empty(13, 10)).toBeUndefined();
    expect(empty(14, 12)).toMatchObject({ tick: 14, crcOk: true });
    expect([r.storedCount, ticks(), r.storedBytes]).toEqual([3, [12, 13, 14], 0]);
    expect(empty(15, 13)).toMatchObject({ tick: 15, crcOk: true });
    expect([r.storedCount, ticks()]).toEqual([3, [13, 14, 15]]);
  });

  it('keeps 32 MB of snapshots over all its receivers, forgetting the first stored by any of them', () => {
    // Full snapshots of one 16,000-int item (64,008 bytes as a client's storage counts them), in 18 parts; 10
    // directions of 64 each (a receiver's most) make 41 MB: the budget keeps the last 524 stored.
    const delta = packed(Int32Array.from({ length: 16_006 }, (_, i) => [0, 1, 0, 100, 0, 16_000][i] ?? 0));
    const parts = Array.from({ length: Math.ceil(delta.length / 900) }, (_, i) => delta.subarray(i * 900, (i + 1) * 900));
    const t = new ConnectionTracker();
    const full = (k: number, tick: number) =>
      t.feed(datagram(`s:${k}`, `c:${k}`, parts.map((data, part) => snap({ kind: 'snap', tick, deltaTick: tick + 1, numParts: parts.length, part, crc: 0, data })))).snapshots;
    for (let k = 0; k < 10; k++) for (let tick = 1; tick <= 64; tick++) expect(full(k, tick)).toMatchObject([{ tick, deltaTick: -1, crcOk: true }]);
    expect(t.holding()).toMatchObject({ directions: 10, storedSnapshots: 524, storedBytes: 524 * 64_008 });
    // The first 116 stored are gone: direction 0's, and direction 1's ticks 1 to 52.
    const empty = (k: number, tick: number, base: number) => t.feed(datagram(`s:${k}`, `c:${k}`, [snap({ kind: 'snap_empty', tick, deltaTick: tick - base })])).snapshots[0];
    expect(empty(0, 100, 64)!.error).toMatch(/^DELTA_BASE_MISSING/);
    expect(empty(1, 100, 52)!.error).toMatch(/^DELTA_BASE_MISSING/);
    expect(empty(1, 101, 53)).toMatchObject({ tick: 101, crcOk: true });
    // Stored: over the budget again, so the first still stored (direction 1's tick 53, just used) goes.
    expect(t.holding()).toMatchObject({ storedSnapshots: 524, storedBytes: 524 * 64_008 });
    expect(empty(1, 102, 53)!.error).toMatch(/^DELTA_BASE_MISSING/);
    expect(empty(1, 103, 54)).toMatchObject({ tick: 103, crcOk: true });
  });

  it('rebuilds a snapshot from its parts in any order, applies the next delta to it and checks the CRC', () => {
    const t = new ConnectionTracker();
    const first = snapshotOf(200);
    const data = packed(createDelta(new Snapshot([]), first, DDNET_0_6));
    expect(data.length).toBeGreaterThan(900);
    const parts = Array.from({ length: Math.ceil(data.length / 900) }, (_, i) => data.subarray(i * 900, (i + 1) * 900));
    expect(parts.length).toBeGreaterThan(1);
    const part = (i: number) => snap({ kind: 'snap', tick: 100, deltaTick: 101, numParts: parts.length, part: i, crc: first.checksum(), partSize: parts[i]!.length, data: parts[i] });
    for (let i = parts.length - 1; i > 0; i--) expect(t.feed(datagram('s:1', 'c:2', [part(i)])).snapshots).toEqual([]);
    const [rebuilt] = t.feed(datagram('s:1', 'c:2', [part(0)])).snapshots;
    expect(rebuilt).toMatchObject({ tick: 100, deltaTick: -1, crcOk: true });
    expect(rebuilt!.snapshot!.items).toHaveLength(200);
    const next = snapshotOf(150);
    const delta = packed(createDelta(first, next, DDNET_0_6));
    const single = t.feed(datagram('s:1', 'c:2', [snap({ kind: 'snap_single', tick: 110, deltaTick: 10, crc: next.checksum(), partSize: delta.length, data: delta })])).snapshots;
    expect(single).toMatchObject([{ tick: 110, deltaTick: 100, crcOk: true }]);
    expect(t.feed(datagram('s:1', 'c:2', [snap({ kind: 'snap_empty', tick: 111, deltaTick: 1 })])).snapshots).toMatchObject([{ tick: 111, deltaTick: 110, crcOk: true }]);
    const wrong = t.feed(datagram('s:1', 'c:2', [snap({ kind: 'snap_single', tick: 120, deltaTick: 9, crc: 12345, partSize: 3, data: packed(new Int32Array(3)) })])).snapshots;
    expect(wrong).toMatchObject([{ tick: 120, crcOk: false }]);
    const missing = t.feed(datagram('s:1', 'c:2', [snap({ kind: 'snap_empty', tick: 130, deltaTick: 25 })])).snapshots;
    expect(missing[0]!.error).toMatch(/^DELTA_BASE_MISSING/);
  });

  it('drops what DDNet drops: part numbers out of range, parts too big, stale ticks', () => {
    const t = new ConnectionTracker();
    const big = new Uint8Array(901);
    for (const m of [
      { kind: 'snap', tick: 5, deltaTick: 6, numParts: 65, part: 0, crc: 0, data: new Uint8Array(0) },
      { kind: 'snap', tick: 5, deltaTick: 6, numParts: 2, part: 2, crc: 0, data: new Uint8Array(0) },
      { kind: 'snap_single', tick: 5, deltaTick: 6, crc: 0, data: big },
    ])
      expect(t.feed(datagram('s:1', 'c:2', [snap(m)])).snapshots).toEqual([]);
    expect(t.feed(datagram('s:1', 'c:2', [snap({ kind: 'snap_empty', tick: 9, deltaTick: 10 })])).snapshots).toMatchObject([{ tick: 9, crcOk: true }]);
    expect(t.feed(datagram('s:1', 'c:2', [snap({ kind: 'snap_empty', tick: 8, deltaTick: 9 })])).snapshots).toEqual([]);
  });

  it('refuses a delta that unpacks to more ints than a snapshot holds, as an error on that snapshot', () => {
    const t = new ConnectionTracker();
    const data = new Uint8Array(900 * 40).fill(1);
    const parts = Array.from({ length: 40 }, (_, i) => snap({ kind: 'snap', tick: 3, deltaTick: 4, numParts: 40, part: i, crc: 0, data: data.subarray(i * 900, (i + 1) * 900) }));
    const [result] = t.feed(datagram('s:1', 'c:2', parts)).snapshots;
    expect(result!.error).toMatch(/^DELTA_TOO_BIG/);
  });
});

describe.skipIf(!hasCorpus)('connection tracker on the corpus captures', () => {
  it.each(['ddnet-0.6-session', 'teeworlds-0.7-session', 'connless'])('%s: every snapshot rebuilt with its CRC right', (name) => {
    const t = new ConnectionTracker();
    let snapshots = 0;
    const bad: string[] = [];
    for (const d of decodeCapture(readBytes(join(corpusDir, 'net', `${name}.pcap`)))) {
      for (const s of t.feed(d).snapshots) {
        snapshots++;
        if (!s.crcOk) bad.push(`${d.index} tick ${s.tick}: ${s.error ?? 'crc'}`);
      }
    }
    expect(bad).toEqual([]);
    expect(snapshots).toBeGreaterThan(200);
  });
});
