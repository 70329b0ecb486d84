// The order of a delta's items, as docs/formats/snapshot.md ("Making a delta, and the order of its items")
// states it, checked on every delta of every demo and capture (the corpus's when it is there, else the
// fixtures'): applying deltas and keeping the applied order gives back only some deltas int for int; ordering
// each snapshot by what the deltas list (the updates of the delta that made it, the deletions of every later
// delta against it; keyframes exactly) gives back all of them, and those orders never contradict each other.
import { basename, join } from 'node:path';
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDemo } from '@twcodec/demo';
import { decodeCapture } from '@twcodec/net';
import { ByteReader } from '@twcodec/runtime';
import { applyDelta, createDelta, DDNET_0_6, itemKey, Snapshot, type SnapshotItem, type SnapshotProtocol, sizeTable, TEEWORLDS_0_7 } from '@twcodec/snapshot';
import { corpusDir, demoFiles, fixturesDir, hasCorpus, readBytes } from '../corpus.js';

/** One snapshot of a stream: a keyframe (its order is the sender's), or a delta against an earlier one (-1: the empty snapshot). */
type StreamEntry = { keyframe: Snapshot } | { base: number; delta: Int32Array };

const keyOf = (item: SnapshotItem) => itemKey(item.type, item.id);
const same = (a: Int32Array, b: Int32Array) => a.length === b.length && a.every((v, i) => v === b[i]);

/** The keys of a delta's updates, in its order. */
function updatedKeys(delta: Int32Array, protocol: SnapshotProtocol): number[] {
  const sizes = sizeTable(protocol);
  const keys: number[] = [];
  let p = 3 + delta[0]!;
  for (let i = 0; i < delta[1]!; i++) {
    const type = delta[p]!;
    keys.push(itemKey(type, delta[p + 1]!));
    p += 2;
    const size = type < 64 && sizes[type] ? sizes[type]! : delta[p++]!;
    p += size;
  }
  return keys;
}
const deletedKeys = (delta: Int32Array) => Array.from(delta.subarray(3, 3 + delta[0]!));

/**
 * `items` ordered so that every sequence of keys in `sequences` keeps its order; items no sequence orders
 * keep their place as far as possible (the smallest index first). Undefined when the sequences contradict
 * each other.
 */
function orderBy(items: readonly SnapshotItem[], sequences: readonly number[][]): SnapshotItem[] | undefined {
  const index = new Map(items.map((item, i) => [keyOf(item), i]));
  const after = items.map((): number[] => []);
  const before = new Int32Array(items.length);
  for (const seq of sequences) {
    for (let i = 1; i < seq.length; i++) {
      const a = index.get(seq[i - 1]!);
      const b = index.get(seq[i]!);
      if (a === undefined || b === undefined) continue;
      after[a]!.push(b);
      before[b]!++;
    }
  }
  const ready: number[] = [];
  items.forEach((_, i) => before[i] === 0 && ready.push(i));
  const out: SnapshotItem[] = [];
  while (ready.length) {
    ready.sort((x, y) => x - y);
    const i = ready.shift()!;
    out.push(items[i]!);
    for (const j of after[i]!) if (--before[j]! === 0) ready.push(j);
  }
  return out.length === items.length ? out : undefined;
}

interface OrderCounts {
  deltas: number;
  /** Given back by createDelta over the applied order (old items in their order, new ones appended). */
  applied: number;
  /** Given back by createDelta over the order the deltas reveal. */
  revealed: number;
  /** Snapshots whose revealed orders contradict each other. */
  conflicts: number;
}

/** The snapshots of a stream in the applied order (DDNet's UnpackDelta: old items minus the deleted, new ones appended). */
function appliedSnapshots(stream: readonly StreamEntry[], protocol: SnapshotProtocol): Snapshot[] {
  const applied: Snapshot[] = [];
  stream.forEach((entry, i) => {
    applied[i] = 'keyframe' in entry ? entry.keyframe : applyDelta(entry.base < 0 ? new Snapshot([]) : applied[entry.base]!, entry.delta, protocol);
  });
  return applied;
}

function checkStream(stream: readonly StreamEntry[], protocol: SnapshotProtocol): OrderCounts {
  const empty = new Snapshot([]);
  const applied: Snapshot[] = [];
  const counts: OrderCounts = { deltas: 0, applied: 0, revealed: 0, conflicts: 0 };
  stream.forEach((entry, i) => {
    if ('keyframe' in entry) {
      applied[i] = entry.keyframe;
      return;
    }
    const base = entry.base < 0 ? empty : applied[entry.base]!;
    applied[i] = applyDelta(base, entry.delta, protocol);
    counts.deltas++;
    if (same(createDelta(base, applied[i]!, protocol), entry.delta)) counts.applied++;
  });
  const sequences = stream.map((entry) => ('delta' in entry ? [updatedKeys(entry.delta, protocol)] : []));
  stream.forEach((entry) => {
    if ('delta' in entry && entry.base >= 0) sequences[entry.base]!.push(deletedKeys(entry.delta));
  });
  const ordered = stream.map((entry, i) => {
    if ('keyframe' in entry) return entry.keyframe;
    const items = orderBy(applied[i]!.items, sequences[i]!);
    if (!items) counts.conflicts++;
    return new Snapshot(items ?? applied[i]!.items);
  });
  stream.forEach((entry, i) => {
    if ('keyframe' in entry) return;
    const base = entry.base < 0 ? empty : ordered[entry.base]!;
    if (same(createDelta(base, ordered[i]!, protocol), entry.delta)) counts.revealed++;
  });
  return counts;
}

function demoStream(path: string): { stream: StreamEntry[]; protocol: SnapshotProtocol; ticks: number[] } {
  const demo = readDemo(readBytes(path));
  const stream: StreamEntry[] = [];
  const ticks: number[] = [];
  let tick = -1;
  for (const chunk of demo.chunks()) {
    if (chunk.kind === 'tick') tick = chunk.tick;
    else if (chunk.kind === 'snapshot') stream.push({ keyframe: Snapshot.fromInts(chunk.ints) });
    else if (chunk.kind === 'delta') stream.push({ base: stream.length - 1, delta: chunk.ints });
    if (chunk.kind === 'snapshot' || chunk.kind === 'delta') ticks.push(tick);
  }
  return { stream, protocol: demo.protocol.snapshots, ticks };
}

/** The delta streams of a capture, one per server-to-client direction: snap parts put together, snap_empty repeating its base. */
function captureStreams(path: string): { stream: StreamEntry[]; protocol: SnapshotProtocol; byTick: Map<number, number> }[] {
  const directions = new Map<string, { stream: StreamEntry[]; protocol: SnapshotProtocol; byTick: Map<number, number>; tick: number; parts: Uint8Array[] }>();
  for (const d of decodeCapture(readBytes(path))) {
    const p = d.packet;
    if (!p || p.kind === 'connless' || p.control) continue;
    for (const chunk of p.chunks ?? []) {
      const m = chunk.message as { kind: string; tick: number; deltaTick: number; numParts?: number; part?: number; data?: Uint8Array };
      if (m?.kind !== 'snap' && m?.kind !== 'snap_single' && m?.kind !== 'snap_empty') continue;
      const name = `${d.source}>${d.destination}`;
      let dir = directions.get(name);
      if (!dir) directions.set(name, (dir = { stream: [], protocol: p.protocol === '0.7' ? TEEWORLDS_0_7 : DDNET_0_6, byTick: new Map(), tick: -1, parts: [] }));
      const numParts = m.kind === 'snap' ? m.numParts! : 1;
      if (m.tick !== dir.tick) [dir.tick, dir.parts] = [m.tick, []];
      dir.parts[m.kind === 'snap' ? m.part! : 0] = m.data ?? new Uint8Array(0);
      if (dir.parts.filter(Boolean).length < numParts) continue;
      const bytes = Uint8Array.from(dir.parts.slice(0, numParts).flatMap((part) => [...part]));
      [dir.tick, dir.parts] = [-1, []];
      const baseTick = m.tick - m.deltaTick;
      const base = baseTick < 0 ? -1 : dir.byTick.get(baseTick);
      if (base === undefined) continue; // its base came before the capture began
      if (m.kind === 'snap_empty') {
        if (base >= 0) dir.byTick.set(m.tick, base);
        continue;
      }
      const reader = new ByteReader(bytes);
      const ints: number[] = [];
      while (reader.remaining > 0) ints.push(reader.readVarInt('delta'));
      dir.stream.push({ base, delta: Int32Array.from(ints) });
      dir.byTick.set(m.tick, dir.stream.length - 1);
    }
  }
  return [...directions.values()].filter((d) => d.stream.length);
}

const pcaps = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.pcap')).map((f) => join(dir, f)) : []);
const captures = [...(hasCorpus ? pcaps(join(corpusDir, 'net')) : []), ...pcaps(join(fixturesDir, 'net'))];
const demos = demoFiles();

const total = (list: OrderCounts[]) => list.reduce((a, b) => ({ deltas: a.deltas + b.deltas, applied: a.applied + b.applied, revealed: a.revealed + b.revealed, conflicts: a.conflicts + b.conflicts }));

describe(`the order of a delta's items (${hasCorpus ? 'corpus' : 'fixtures'}: ${demos.length} demos, ${captures.length} captures)`, () => {
  const demoCounts: OrderCounts[] = [];
  const captureCounts: OrderCounts[] = [];

  it.each(demos.map((path) => ({ name: basename(path), path })))('$name: the revealed order gives back every delta', ({ path }) => {
    const { stream, protocol } = demoStream(path);
    const counts = checkStream(stream, protocol);
    demoCounts.push(counts);
    expect(counts.conflicts).toBe(0);
    expect(counts.revealed).toBe(counts.deltas);
  });

  it.each(captures.map((path) => ({ name: basename(path), path })))('$name: the revealed order gives back every delta of every connection', ({ path }) => {
    for (const { stream, protocol } of captureStreams(path)) {
      const counts = checkStream(stream, protocol);
      captureCounts.push(counts);
      expect(counts.conflicts).toBe(0);
      expect(counts.revealed).toBe(counts.deltas);
    }
  });

  // A DDNet client records the snapshots as it rebuilt them from the network (the applied order, against the
  // network delta's base), of the connection it plays on at the time (main or dummy): its demo's keyframes
  // are those snapshots and its deltas what createDelta makes between them. Replay demos are cut from the
  // client's snapshot history otherwise.
  const session = join(corpusDir, 'net', 'ddnet-0.6-session.pcap');
  const clientDemos = hasCorpus && existsSync(session) ? readdirSync(join(corpusDir, 'net')).filter((f) => /^ddnet-0\.6-session_client.*\.demo$/.test(f) && !f.includes('_replay')) : [];
  it.runIf(clientDemos.length > 0)(`DDNet client demos (${clientDemos.length}) are createDelta over the client's rebuilt snapshots of the capture`, () => {
    const connections = captureStreams(session).map(({ stream, protocol, byTick }) => {
      const applied = appliedSnapshots(stream, protocol);
      return new Map([...byTick].map(([tick, i]) => [tick, applied[i]!]));
    });
    for (const name of clientDemos) {
      const { stream, protocol, ticks } = demoStream(join(corpusDir, 'net', name));
      let keyframes = 0;
      let deltas = 0;
      stream.forEach((entry, i) => {
        const now = connections.map((c) => c.get(ticks[i]!)).filter((s) => s !== undefined);
        if ('keyframe' in entry) {
          if (now.some((s) => same(s.toInts(), entry.keyframe.toInts()))) keyframes++;
          return;
        }
        const before = connections.map((c) => c.get(ticks[entry.base]!)).filter((s) => s !== undefined);
        if (before.some((b) => now.some((s) => same(createDelta(b, s, protocol), entry.delta)))) deltas++;
      });
      const total = stream.filter((e) => 'delta' in e).length;
      expect({ name, keyframes, deltas }).toEqual({ name, keyframes: stream.length - total, deltas: total });
    }
  });

  // The counts docs/formats/snapshot.md gives.
  it.runIf(hasCorpus)('the counts on the page', () => {
    expect(total(demoCounts)).toEqual({ deltas: 44_451, applied: 39_828, revealed: 44_451, conflicts: 0 });
    expect(total(captureCounts)).toEqual({ deltas: 10_211, applied: 7_898, revealed: 10_211, conflicts: 0 });
  });
});
