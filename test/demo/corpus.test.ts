// Every corpus demo (or the fixtures): every delta applies, every snapshot is valid, createDelta gives
// back the demo's own deltas, keyframes equal the delta-rebuilt snapshot of the same tick in another
// recording of the same client, and teehistorian positions equal the demo's characters tick for tick.
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDemo, type DemoSnapshot } from '@twcodec/demo';
import { createDelta, Snapshot, type SnapshotProtocol } from '@twcodec/snapshot';
import { PlayerTracker, readTeehistorian } from '@twcodec/teehistorian';
import { demoFiles, readBytes, teehistorianFiles } from '../corpus.js';

const demos = demoFiles().map((path) => ({ name: basename(path), path }));
const snapshotsOf = new Map<string, DemoSnapshot[]>();
const snapshots = (path: string) => {
  let list = snapshotsOf.get(path);
  if (!list) snapshotsOf.set(path, (list = [...readDemo(readBytes(path)).snapshots()]));
  return list;
};
const canonical = (s: Snapshot) => s.items.map((i) => `${i.type}:${i.id}=${Array.from(i.data).join(',')}`).sort().join('|');
/** What a delta does, regardless of order: the deleted keys and each update. */
const operations = (delta: Int32Array, protocol: SnapshotProtocol) => {
  const deleted = Array.from(delta.subarray(3, 3 + delta[0]!)).sort();
  const updates: string[] = [];
  let p = 3 + delta[0]!;
  for (let i = 0; i < delta[1]!; i++) {
    const type = delta[p]!;
    let size = protocol.items.find((t) => t.typeId === type)?.size;
    let head = 2;
    if (!size || type >= 64) {
      size = delta[p + 2]!;
      head = 3;
    }
    updates.push(Array.from(delta.subarray(p, p + head + size)).join(','));
    p += head + size;
  }
  return JSON.stringify([deleted, updates.sort()]);
};

describe(`demos (${demos.length})`, () => {
  it.each(demos)('$name: every delta applies and every snapshot is valid', ({ path }) => {
    const list = snapshots(path);
    expect(list.length).toBeGreaterThan(0);
    expect(list[0]!.source).toBe('keyframe');
    for (const s of list) {
      // Valid: the layout round-trips through DDNet's checks and limits.
      expect(Snapshot.fromInts(s.snapshot.toInts()).items).toEqual(s.snapshot.items);
    }
  });

  it.each(demos)("$name: createDelta between consecutive snapshots gives the demo's own deltas, int for int", ({ path }) => {
    const list = snapshots(path);
    const protocol = readDemo(readBytes(path)).protocol.snapshots; // 0.7 demos: the 0.7 item sizes
    let compared = 0;
    for (let i = 1; i < list.length; i++) {
      const { delta, snapshot } = list[i]!;
      if (!delta?.length) continue;
      const again = createDelta(list[i - 1]!.snapshot, snapshot, protocol);
      // The same deletions and update ints first (a readable failure), then the exact ints.
      expect(operations(again, protocol)).toBe(operations(delta, protocol));
      expect(Array.from(again)).toEqual(Array.from(delta));
      compared++;
    }
    expect(compared).toBeGreaterThan(0);
  });
});

describe('keyframes', () => {
  // Recordings of the same client (auto, manual, replay) store the same snapshot data at the same ticks.
  const groups = new Map<string, string[]>();
  for (const { name, path } of demos) {
    const [map, who] = name.split('_');
    if (!who?.startsWith('client')) continue;
    const key = `${map}_${who}`;
    groups.set(key, [...(groups.get(key) ?? []), path]);
  }
  const pairs = [...groups.values()].filter((g) => g.length > 1);

  // Without the corpus there may be no two recordings of one client: say so instead of an empty suite.
  if (!pairs.length) it.skip('needs two recordings of one client (the corpus: ../shared/corpus or TWCODEC_CORPUS)', () => {});
  else it.each(pairs.map((g) => ({ group: basename(g[0]!).split('_').slice(0, 2).join('_'), paths: g })))(
    '$group: every keyframe equals, item for item, the snapshot rebuilt from deltas in another recording',
    ({ paths }) => {
      let compared = 0;
      for (const a of paths) {
        for (const b of paths) {
          if (a === b) continue;
          const rebuilt = new Map(snapshots(b).filter((s) => s.source === 'delta').map((s) => [s.tick, s.snapshot]));
          for (const s of snapshots(a)) {
            if (s.source !== 'keyframe' || !rebuilt.has(s.tick)) continue;
            expect(canonical(rebuilt.get(s.tick)!)).toBe(canonical(s.snapshot));
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(0);
    },
  );
});

describe('teehistorian ticks against server demos', () => {
  const sessions = demos
    .filter((d) => d.name.includes('_server_'))
    .map((d) => ({ ...d, th: teehistorianFiles().find((t) => basename(t).startsWith(`${d.name.split('_')[0]}_`)) }))
    .filter((d) => d.th);

  it.skipIf(!sessions.length).each(sessions)("$name: each player's position equals the demo character at every tick", ({ path, th }) => {
    const messages = [...readTeehistorian(readBytes(th!))];
    const players = new PlayerTracker();
    let next = 0;
    let compared = 0;
    for (const s of snapshots(path)) {
      while (next < messages.length && messages[next]!.tick <= s.tick) players.apply(messages[next++]!);
      if (next >= messages.length) break;
      for (const item of s.snapshot.items) {
        if (item.type !== 9) continue; // obj_character: id = client id, ints 1 and 2 = x, y
        expect(players.positions.get(item.id), `tick ${s.tick} client ${item.id}`).toEqual({ x: item.data[1], y: item.data[2] });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });
});
