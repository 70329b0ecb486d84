import { describe, expect, it } from 'vitest';
import { uuidFromName, uuidToInts } from '@twcodec/runtime';
import { applyDelta, createDelta } from './delta.js';
import { DDNET_0_6, TEEWORLDS_0_7 } from './generated/tables.gen.js';
import { itemKey, Snapshot, SnapshotError } from './snapshot.js';

const item = (type: number, id: number, ...data: number[]) => ({ type, id, data: Int32Array.from(data) });
const character = (id: number, x: number) => item(9, id, ...Array.from({ length: 22 }, (_, i) => (i === 1 ? x : i)));

describe('Snapshot', () => {
  const uuid = uuidFromName('character@netobj.ddnet.tw');
  const snap = new Snapshot([item(0, 0x7fff, ...uuidToInts(uuid)), character(0, 100), item(0x7fff, 0, 1, 2, 3), item(5, 1, 7, 8, 9)]);

  it('builds and parses the layout, with checksum and UUID types', () => {
    const ints = snap.toInts();
    expect(ints[0]).toBe(snap.dataSize);
    expect(ints[1]).toBe(4);
    const back = Snapshot.fromInts(ints);
    expect(back.items).toEqual(snap.items);
    expect(back.uuidTypes().get(0x7fff)).toBe(uuid);
    expect(back.get(5, 1)?.data).toEqual(Int32Array.of(7, 8, 9));
  });

  it('indexes each key at its first position, in the order the keys first come, repeated keys or not', () => {
    const unique = new Snapshot([item(5, 1, 1), item(4, 2, 2), item(9, 0, 3)]);
    expect([...unique.keyIndex()]).toEqual([[itemKey(5, 1), 0], [itemKey(4, 2), 1], [itemKey(9, 0), 2]]);
    const repeated = new Snapshot([item(5, 1, 1), item(4, 2, 2), item(5, 1, 3), item(9, 0, 4), item(4, 2, 5)]);
    expect([...repeated.keyIndex()]).toEqual([[itemKey(5, 1), 0], [itemKey(4, 2), 1], [itemKey(9, 0), 3]]);
    expect(repeated.get(5, 1)!.data[0]).toBe(1);
  });

  it("checksums as DDNet's CSnapshot::Crc: the wrapping i32 sum of all item data, keys not included", () => {
    // 0x7fffffff + 1 wraps to -0x80000000; then -3 + 10; the type and id ints (5, 6, 0, 1) do not count.
    expect(new Snapshot([item(5, 0, 0x7fffffff, 1), item(6, 1, -3, 10)]).checksum()).toBe(-0x80000000 + 7);
    expect(new Snapshot([]).checksum()).toBe(0);
  });

  it.each([
    ['short', Int32Array.of(4), 'TRUNCATED'],
    ['negative count', Int32Array.of(0, -1), 'BAD_HEADER'],
    ['size mismatch', Int32Array.of(8, 1, 0, 0), 'SIZE_MISMATCH'],
    ['bad offset', Int32Array.of(8, 2, 0, 12, 0, 0), 'BAD_OFFSET'],
    ['over the limit', Int32Array.of(0, 2000), 'LIMIT'],
  ])('rejects %s', (_name, ints, code) => {
    expect(() => Snapshot.fromInts(ints)).toThrowError(expect.objectContaining({ code }));
  });
});

describe('deltas', () => {
  const a = new Snapshot([character(0, 10), item(5, 0, 1, 2, 3), item(4, 7, 1, 1, 1, 1), item(0x7fff, 3, 9)]);
  const b = new Snapshot([character(0, 15), item(5, 0, 1, 2, 3), item(0x7fff, 3, 9, 9), item(4, 8, 2, 2, 2, 2)].filter((i) => i.type !== 0x7fff || i.data.length === 1));

  it('are created as DDNet does and apply back', () => {
    const delta = createDelta(a, b, DDNET_0_6);
    // deleted: 4:7 and 0x7fff:3 (in old order); updates: character diff (no size: pre-agreed), new pickup.
    expect(Array.from(delta.subarray(0, 5))).toEqual([2, 2, 0, itemKey(4, 7), itemKey(0x7fff, 3)]);
    expect(Array.from(delta.subarray(5, 7))).toEqual([9, 0]);
    expect(delta[8]).toBe(5);
    const applied = applyDelta(a, delta, DDNET_0_6);
    expect(applied.items.map((i) => itemKey(i.type, i.id))).toEqual(b.items.map((i) => itemKey(i.type, i.id)));
    expect(applied.items).toEqual(b.items);
    expect(createDelta(b, b, DDNET_0_6).length).toBe(0);
  });

  it('give the checksum of what they build, carried on from the base\'s (deleted, updated, new and re-added items, wrapping)', () => {
    const sum = (s: Snapshot) => new Snapshot(s.items).checksum();
    const big = new Snapshot([item(5, 1, 0x7fffffff, -0x80000000, 3), ...a.items]);
    const next = new Snapshot([character(0, -99), item(5, 1, 1, 0x7fffffff, -7), item(4, 8, 2, 2, 2, 2)]);
    for (const [from, to] of [[a, b], [b, a], [big, next], [next, big], [new Snapshot([]), big]] as const) {
      const delta = createDelta(from, to, DDNET_0_6);
      // A base whose checksum is known passes it on; one not summed yet leaves it to be summed.
      const unknown = applyDelta(new Snapshot(from.items), delta, DDNET_0_6);
      expect(unknown.knownChecksum).toBeUndefined();
      expect(unknown.checksum()).toBe(sum(to));
      from.checksum();
      const carried = applyDelta(from, delta, DDNET_0_6);
      expect(carried.knownChecksum).toBe(sum(to));
      expect(applyDelta(from, delta, DDNET_0_6, { order: 'hint' }).knownChecksum).toBe(sum(to));
    }
    // Re-added: deleted and sent again in one delta, its data a diff against the old item.
    const readded = Int32Array.of(1, 1, 0, itemKey(5, 0), 5, 0, 10, 20, 30);
    a.checksum();
    const applied = applyDelta(a, readded, DDNET_0_6);
    expect(applied.knownChecksum).toBe(sum(applied));
  });

  it('send sizes for types without a pre-agreed one, and for UUID types', () => {
    const c = new Snapshot([item(0x7ffe, 0, 1, 2)]);
    expect(Array.from(createDelta(new Snapshot([]), c, DDNET_0_6))).toEqual([0, 1, 0, 0x7ffe, 0, 2, 1, 2]);
  });

  it("carry the size of Teeworlds 0.7.5's race items (types 23, 24), which came after its delta size table", () => {
    // Teeworlds 0.7.5 and DDNet register pre-agreed sizes for 0.7 types 0-22 only: a game_data_race (24) and a
    // player_info_race (23) update is type, id, size, data; a game_data (6) one has no size.
    const next = new Snapshot([item(6, 0, 0, 0, 0), item(24, 0, 0, 0, 5), item(23, 0, 7)]);
    const delta = createDelta(new Snapshot([]), next, TEEWORLDS_0_7);
    expect(Array.from(delta)).toEqual([0, 3, 0, 6, 0, 0, 0, 0, 24, 0, 3, 0, 0, 5, 23, 0, 1, 7]);
    expect(applyDelta(new Snapshot([]), delta, TEEWORLDS_0_7).items).toEqual(next.items);
    expect(TEEWORLDS_0_7.items.filter((i) => i.sizeInDelta).map((i) => [i.typeId, i.size])).toEqual([[23, 1], [24, 3]]);
  });

  it("treat keys past a full hash bucket as absent, like DDNet's lookup", () => {
    // Find 65 keys that fall in the same of DDNet's 256 buckets.
    const hash = (key: number) => {
      let h = 5381;
      for (let s = 0; s < 4; s++) h = (Math.imul(h, 33) + ((key >> (s * 8)) & 0xff)) >>> 0;
      return h % 256;
    };
    const keys: number[] = [];
    for (let id = 0; keys.length < 65; id++) if (hash(itemKey(13, id)) === hash(itemKey(13, 0))) keys.push(id);
    const old = new Snapshot(keys.map((id) => item(13, id, 1, 1)));
    const delta = createDelta(old, old, DDNET_0_6);
    // The 65th key is not found in either snapshot: deleted, then sent whole as new.
    expect(Array.from(delta.subarray(0, 4))).toEqual([1, 1, 0, itemKey(13, keys[64]!)]);
    expect(Array.from(delta.subarray(4))).toEqual([13, keys[64]!, 1, 1]);
    expect(applyDelta(old, delta, DDNET_0_6).items.length).toBe(65);
  });

  it('refuse bad deltas without touching the old snapshot', () => {
    const before = JSON.stringify(a.items.map((i) => Array.from(i.data)));
    const good = createDelta(a, b, DDNET_0_6);
    const bad: [string, Int32Array][] = [
      ['TRUNCATED', good.subarray(0, good.length - 1)],
      ['BAD_COUNT', Int32Array.of(99, 0, 0)],
      ['DELETE_ABSENT', Int32Array.of(1, 0, 0, itemKey(1, 1))],
      ['SIZE_MISMATCH', Int32Array.of(0, 1, 0, 0x7fff, 3, 2, 1, 1)],
      ['BAD_SIZE', Int32Array.of(0, 1, 0, 0x7fff, 9, -4)],
      ['BAD_KEY', Int32Array.of(0, 1, 0, 0x8000, 0, 0)],
      ['TRAILING_DATA', Int32Array.of(...good, 0)],
      ['DUPLICATE_UPDATE', Int32Array.of(0, 2, 0, 5, 9, 1, 1, 1, 5, 9, 1, 1, 1)],
    ];
    for (const [code, delta] of bad) {
      expect(() => applyDelta(a, delta, DDNET_0_6)).toThrowError(SnapshotError);
      expect(() => applyDelta(a, delta, DDNET_0_6)).toThrowError(expect.objectContaining({ code }));
    }
    expect(JSON.stringify(a.items.map((i) => Array.from(i.data)))).toBe(before);
  });

  it('can follow the sender order: new items before the next listed old item', () => {
    const old = new Snapshot([item(13, 0, 1, 1), item(9, 0, ...new Array(22).fill(0))]);
    const delta = Int32Array.of(0, 2, 0, 13, 5, 2, 2, 9, 0, ...new Array(22).fill(1));
    expect(applyDelta(old, delta, DDNET_0_6).items.map((i) => `${i.type}:${i.id}`)).toEqual(['13:0', '9:0', '13:5']);
    expect(applyDelta(old, delta, DDNET_0_6, { order: 'hint' }).items.map((i) => `${i.type}:${i.id}`)).toEqual(['13:0', '13:5', '9:0']);
  });

  it('build from an empty base, and from one whose every item is deleted, a list of their own (the base untouched)', () => {
    // The lists applyDelta makes start from a shared empty one (V8 holds them as lists of objects): never that one.
    // (Type 13 has a size agreed in advance, 2 ints: no size in the delta.)
    const empty = new Snapshot([]);
    const first = applyDelta(empty, Int32Array.of(0, 1, 0, 13, 5, 7, 8), DDNET_0_6);
    const again = applyDelta(empty, Int32Array.of(0, 1, 0, 13, 6, 1, 2), DDNET_0_6);
    expect(first.items).toEqual([item(13, 5, 7, 8)]);
    expect(again.items).toEqual([item(13, 6, 1, 2)]);
    expect(empty.items).toEqual([]);
    const gone = applyDelta(first, Int32Array.of(1, 1, 0, itemKey(13, 5), 13, 7, 3, 4), DDNET_0_6);
    expect(gone.items).toEqual([item(13, 7, 3, 4)]);
    expect(first.items).toEqual([item(13, 5, 7, 8)]);
    expect(applyDelta(gone, Int32Array.of(1, 0, 0, itemKey(13, 7)), DDNET_0_6).items).toEqual([]);
    expect(gone.checksum()).toBe(7);
  });
});

describe('delta fast paths', () => {
  let seed = 11;
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
  const randomSnapshot = () => {
    const items = new Map<number, ReturnType<typeof item>>();
    const count = random(120); // above 64 items, createDelta's bucket count decides which lookup it uses
    for (let i = 0; i < count; i++) {
      const it = random(3) ? character(random(200), random(1000)) : item(0x7fff, random(50), random(9), random(9));
      items.set(itemKey(it.type, it.id), it);
    }
    return new Snapshot([...items.values()]);
  };

  it('applyDelta(old, createDelta(old, next)) rebuilds next, with items deleted, added, changed and shared', () => {
    for (let round = 0; round < 200; round++) {
      const old = randomSnapshot();
      // Half the rounds: next keeps some of old's items (the same data arrays) and changes or drops others.
      const next = round % 2 ? randomSnapshot() : new Snapshot(old.items.filter(() => random(4) > 0).map((it) => (random(3) ? it : { ...it, data: it.data.map((v) => v + 1) })));
      const delta = createDelta(old, next, DDNET_0_6);
      const rebuilt = delta.length ? applyDelta(old, delta, DDNET_0_6, { order: 'hint' }) : old;
      const byKey = (s: Snapshot) => new Map(s.items.map((it) => [itemKey(it.type, it.id), Array.from(it.data)]));
      expect(byKey(rebuilt)).toEqual(byKey(next));
      for (const it of next.items) expect(rebuilt.indexOf(itemKey(it.type, it.id))).toBeGreaterThanOrEqual(0);
      expect(rebuilt.dataSize).toBe(next.dataSize);
    }
  });

  it("applyDelta's results keep their data while later deltas are applied (item data shares buffers)", () => {
    const kept: [Snapshot, number[][]][] = [];
    let current = randomSnapshot();
    for (let round = 0; round < 300; round++) {
      const next = new Snapshot(current.items.map((it) => (random(2) ? it : { ...it, data: it.data.map((v) => v + round) })));
      const delta = createDelta(current, next, DDNET_0_6);
      current = delta.length ? applyDelta(current, delta, DDNET_0_6) : current;
      kept.push([current, current.items.map((it) => Array.from(it.data))]);
    }
    for (const [snapshot, data] of kept) expect(snapshot.items.map((it) => Array.from(it.data))).toEqual(data);
  });

  it('an item deleted and sent again in one delta comes back appended, its data still a diff against the old item (DDNet 16.4 UnpackDelta); a repeated update is refused', () => {
    const old = new Snapshot([item(5, 1, 1, 2, 3), item(5, 2, 4, 5, 6)]);
    const key = itemKey(5, 1);
    const readded = applyDelta(old, Int32Array.of(1, 1, 0, key, 5, 1, 9, 9, 9), DDNET_0_6);
    expect(readded.items.map((it) => [it.id, Array.from(it.data)])).toEqual([[2, [4, 5, 6]], [1, [10, 11, 12]]]);
    // The same through the path for snapshots with repeated keys.
    const twice = new Snapshot([item(5, 1, 1, 2, 3), item(5, 2, 4, 5, 6), item(5, 2, 4, 5, 6)]);
    expect(applyDelta(twice, Int32Array.of(1, 1, 0, key, 5, 1, 9, 9, 9), DDNET_0_6).items.map((it) => [it.id, Array.from(it.data)])).toEqual([[2, [4, 5, 6]], [2, [4, 5, 6]], [1, [10, 11, 12]]]);
    expect(readded.indexOf(key)).toBe(1);
    expect(() => applyDelta(old, Int32Array.of(0, 2, 0, 5, 2, 1, 1, 1, 5, 2, 1, 1, 1), DDNET_0_6)).toThrowError(expect.objectContaining({ code: 'DUPLICATE_UPDATE' }));
  });

  it("a key past a full bucket of the new snapshot's lookup is deleted and sent as a diff, which applies (DDNet's hashed lookup on both sides)", () => {
    // 65 keys of one bucket of DDNet's djb2 lookup (256 buckets of at most 64 keys).
    const bucketOf = (key: number) => {
      let hash = 5381;
      for (let shift = 0; shift < 32; shift += 8) hash = (Math.imul(hash, 33) + ((key >> shift) & 0xff)) >>> 0;
      return hash % 256;
    };
    const ids: number[] = [];
    for (let id = 0; ids.length < 65; id++) if (bucketOf(itemKey(0x7fff, id)) === bucketOf(itemKey(0x7fff, 0))) ids.push(id);
    const [extra, ...kept] = ids;
    const old = new Snapshot(kept.map((id) => item(0x7fff, id, id, 1)));
    // The new snapshot puts another key of the bucket first, so the last old key is past the bucket's 64th.
    const next = new Snapshot([item(0x7fff, extra!, 7, 7), ...kept.map((id, i) => item(0x7fff, id, id, i === kept.length - 1 ? 2 : 1))]);
    const delta = createDelta(old, next, DDNET_0_6);
    const last = itemKey(0x7fff, kept.at(-1)!);
    // Deleted (not found in the new snapshot's lookup), yet found in the old one's: sent as a diff.
    expect(Array.from(delta)).toEqual([1, 2, 0, last, 0x7fff, extra, 2, 7, 7, 0x7fff, kept.at(-1), 2, 0, 1]);
    const byKey = (s: Snapshot) => new Map(s.items.map((it) => [itemKey(it.type, it.id), Array.from(it.data)]));
    expect(byKey(applyDelta(old, delta, DDNET_0_6))).toEqual(byKey(next));
  });

  it('a hand-built snapshot with a repeated key takes the general path: a deletion reaches every item of the key, an update its last', () => {
    const old = new Snapshot([item(5, 1, 1, 1, 1), item(5, 1, 2, 2, 2)]);
    const out = applyDelta(old, Int32Array.of(0, 1, 0, 5, 1, 1, 1, 1), DDNET_0_6);
    expect(out.items.map((it) => Array.from(it.data))).toEqual([[1, 1, 1], [3, 3, 3]]);
  });
});
