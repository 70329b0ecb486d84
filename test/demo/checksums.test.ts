// The statements of docs/formats/demo.md (schemas/demo/demo.md) about the corpus, checked on it: which
// checksums the 30 corpus demos carry and which of them a reader can verify (the map's CRC-32 and SHA-256, the
// `crc` of the snapshot messages server demos record), what client and server demos hold, and how tick markers
// and keyframes are written. The counts here are the page's.
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoMessages, readDemo } from '@twcodec/demo';
import { crc32, sha256, unpackVarInts } from '@twcodec/runtime';
import { applyDelta, Snapshot } from '@twcodec/snapshot';
import { demoFiles, hasCorpus, readBytes } from '../corpus.js';

const demos = hasCorpus ? demoFiles().map((path) => ({ name: basename(path), path, bytes: readBytes(path) })) : [];
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The docs' procedure for a server demo's snapshot messages: rebuild each client's snapshots from the recorded
 * `snap_single` / `snap` / `snap_empty` messages, starting from deltas against the empty snapshot, and check
 * every `crc` whose base snapshot was rebuilt.
 */
function verifySnapshotMessages(path: string): { messages: number; verified: number; empty: number } {
  const demo = readDemo(readBytes(path));
  const protocol = demo.protocol.snapshots;
  const rebuilt = new Map<number, Snapshot[]>();
  const parts = new Map<number, Uint8Array[]>();
  let messages = 0;
  let verified = 0;
  let empty = 0;
  const check = (tick: number, deltaTick: number, crc: number, data: Uint8Array) => {
    const ints = new Int32Array(data.length);
    const delta = ints.subarray(0, unpackVarInts(data, 0, data.length, ints, 0));
    const bases = deltaTick === tick + 1 ? [new Snapshot([])] : (rebuilt.get(tick - deltaTick) ?? []);
    for (const base of bases) {
      let snapshot: Snapshot;
      try {
        snapshot = applyDelta(base, delta, protocol);
      } catch {
        continue; // another client's snapshot of that tick
      }
      if ((snapshot.checksum() | 0) !== (crc | 0)) continue;
      verified++;
      rebuilt.set(tick, [...(rebuilt.get(tick) ?? []), snapshot]);
      return;
    }
  };
  for (const { message: m } of demoMessages(demo)) {
    if (m.kind === 'snap_single') {
      messages++;
      check(m.tick, m.deltaTick, m.crc, m.data);
    } else if (m.kind === 'snap') {
      messages++;
      const list = parts.get(m.tick) ?? [];
      list[m.part] = m.data;
      parts.set(m.tick, list);
      if (list.filter(Boolean).length === m.numParts) {
        parts.delete(m.tick);
        const whole = new Uint8Array(list.reduce((n, p) => n + p.length, 0));
        list.reduce((at, p) => (whole.set(p, at), at + p.length), 0);
        check(m.tick, m.deltaTick, m.crc, whole);
      }
    } else if (m.kind === 'snap_empty') empty++;
  }
  return { messages, verified, empty };
}

describe.skipIf(!hasCorpus)('demo.md on the corpus demos', () => {
  it('30 demos: 23 client, 7 server; 28 of version 6, 2 of version 4', () => {
    const headers = demos.map((d) => readDemo(d.bytes).header);
    expect(headers.length).toBe(30);
    expect(headers.filter((h) => h.type === 'client').length).toBe(23);
    expect(headers.filter((h) => h.type === 'server').length).toBe(7);
    expect(headers.filter((h) => h.version === 6).length).toBe(28);
    expect(headers.filter((h) => h.version === 4).length).toBe(2);
  });

  it("the map's CRC-32 matches the embedded map in 30 of 30 demos, its SHA-256 in 28 of 28 version-6 demos", () => {
    let crcs = 0;
    let shas = 0;
    for (const { bytes } of demos) {
      const demo = readDemo(bytes);
      expect(demo.map).toBeDefined();
      if (crc32(demo.map!).toString(16).padStart(8, '0') === demo.header.mapCrc) crcs++;
      expect(demo.header.mapSha256 !== undefined).toBe(demo.header.version === 6);
      if (demo.header.mapSha256 !== undefined && hex(sha256(demo.map!)) === demo.header.mapSha256) shas++;
    }
    expect([crcs, shas]).toEqual([30, 28]);
  });

  it('client demos hold no system message, server demos do; server demos start with messages before the first tick marker', () => {
    const systemIn = (bytes: Uint8Array) => [...readDemo(bytes).chunks()].filter((c) => c.kind === 'message' && (c.data[0]! & 1) === 1).length;
    const client = demos.filter((d) => readDemo(d.bytes).header.type === 'client');
    const server = demos.filter((d) => readDemo(d.bytes).header.type === 'server');
    expect(client.map((d) => systemIn(d.bytes))).toEqual(client.map(() => 0));
    expect(server.filter((d) => systemIn(d.bytes) > 0).length).toBe(7);
    expect(server.filter((d) => readDemo(d.bytes).chunks().next().value?.kind === 'message').length).toBe(7);
  });

  it('a keyframe marker is followed by a snapshot chunk and every snapshot chunk by one; full ticks are first, keyframe or long steps', () => {
    let longStepDemos = 0;
    for (const { bytes } of demos) {
      const demo = readDemo(bytes);
      const chunks = [...demo.chunks()];
      let last: number | undefined;
      let longSteps = 0;
      chunks.forEach((c, i) => {
        if (c.kind === 'snapshot') expect(chunks[i - 1]).toMatchObject({ kind: 'tick', keyframe: true });
        if (c.kind !== 'tick') return;
        if (c.keyframe) expect(chunks[i + 1]?.kind).toBe('snapshot');
        const short = bytes[c.offset]! !== 0x80 && bytes[c.offset]! !== 0xc0;
        if (!short && !c.keyframe && last !== undefined) {
          expect(c.tick - last).toBeGreaterThan(demo.header.version >= 5 ? 31 : 63);
          longSteps++;
        }
        if (short) expect(last).toBeDefined();
        last = c.tick;
      });
      if (longSteps) longStepDemos++;
    }
    expect(longStepDemos).toBe(4);
  });

  const table = [
    ['Tutorial_server_autorecord_', 11049, 10974, 0],
    ['ctf2_server_autorecord_', 11282, 7597, 0],
    ['ddnet-0.6-session_server_autorecord_', 9212, 6166, 1],
    ['Tutorial_server_Alpha_server_manual', 37, 0, 0],
    ['ctf2_server_Alpha_server_manual', 36, 0, 0],
    ['ddnet-0.6-session_server_Alpha_server_manual', 38, 0, 0],
    ['teeworlds-0.7-session_server_Charlie_server07', 339, 0, 1029],
  ] as const;
  it.each(table)("%s: snapshot messages, how many crc a reader can verify", (prefix, messages, verified, empty) => {
    const demo = demos.find((d) => d.name.startsWith(prefix));
    expect(demo).toBeDefined();
    expect(verifySnapshotMessages(demo!.path)).toEqual({ messages, verified, empty });
  });

  it("no snapshot message of a server demo matches on the demo's own snapshot of its base tick (the spectator view is no client's base)", () => {
    let tried = 0;
    let matched = 0;
    for (const d of demos.filter((x) => readDemo(x.bytes).header.type === 'server')) {
      const demo = readDemo(d.bytes);
      const own = new Map<number, Snapshot>();
      for (const s of demo.snapshots()) own.set(s.tick, s.snapshot);
      for (const { message: m } of demoMessages(demo)) {
        if (m.kind !== 'snap_single' || m.deltaTick === m.tick + 1) continue;
        const base = own.get(m.tick - m.deltaTick);
        if (!base) continue;
        tried++;
        const ints = new Int32Array(m.data.length);
        const delta = ints.subarray(0, unpackVarInts(m.data, 0, m.data.length, ints, 0));
        try {
          if ((applyDelta(base, delta, demo.protocol.snapshots).checksum() | 0) === (m.crc | 0)) matched++;
        } catch {
          // not a base it applies to
        }
      }
    }
    expect(tried).toBeGreaterThan(20_000);
    expect(matched).toBe(0);
  });

  it('client demos hold no snapshot message', () => {
    for (const d of demos.filter((x) => readDemo(x.bytes).header.type === 'client')) expect(verifySnapshotMessages(d.path).messages).toBe(0);
  });
});
