// Hostile captures for `net demo` (issue 36, rows 9 and 11): a capture whose server sends one big snapshot and
// then empty snapshots far apart, or snapshots whose deltas switch between bases, gives a demo proportional to
// the capture or the typed error DEMO_TOO_BIG, within 10 s and 400 MB.
import { describe, expect, it } from 'vitest';
import { readDemo, resaveDemo } from '@twcodec/demo';
import { captureDemo, MAX_GROWTH, NetError } from '@twcodec/net';
import { Snapshot } from '@twcodec/snapshot';
import { crc32, sha256 } from '@twcodec/runtime';
import { prng } from '../corpus.js';
import { CLIENT, DUMMY, input, mapDownloadSession, pcapOf, SERVER, Session, startInfo, testMap } from '../net-session-builder.js';

/** About 40 KB of snapshot: 1000 items of 10 ints that do not pack small. */
const big = new Snapshot(Array.from({ length: 1000 }, (_, id) => ({ type: 100, id, data: Int32Array.from({ length: 10 }, (_, k) => id * 100_003 + k * 7919) })));

describe('hostile captures: net demo output proportional to the capture', () => {
  it('one 40 KB snapshot, then snap_empty 251 ticks apart: no keyframe per empty snapshot (was 262 MB from 90 KB)', () => {
    const s = mapDownloadSession();
    s.snapshot(CLIENT, 100, big);
    let tick = 100;
    for (let p = 0; p < 900; p++) {
      const chunks = [];
      for (let k = 0; k < 8; k++) chunks.push({ kind: 'snap_empty', tick: tick + 251, deltaTick: 251 }), (tick += 251);
      s.messages(SERVER, CLIENT, chunks);
    }
    const capture = pcapOf(s.sent);
    const started = performance.now();
    const result = captureDemo(capture, { player: 'Tee' });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.snapshots).toBe(1 + 900 * 8);
    expect(result.demo.length).toBeLessThan(testMap.length + 2 * capture.length);
    const demo = readDemo(result.demo);
    const snapshots = [...demo.snapshots()];
    expect(snapshots).toHaveLength(result.snapshots);
    expect(snapshots.at(-1)).toMatchObject({ tick });
    expect(snapshots.every((x) => x.snapshot.checksum() === big.checksum())).toBe(true);
    expect(resaveDemo(result.demo)).toEqual(result.demo);
  });

  it('snap_empty against a big snapshot and an empty one in turn: DEMO_TOO_BIG, not a demo of whole snapshots per packet', () => {
    const s = mapDownloadSession();
    s.snapshot(CLIENT, 100, big);
    s.snapshot(CLIENT, 101, new Snapshot([]));
    // Each tick's empty delta applies to the snapshot two ticks before: big, empty, big, ... (the client keeps
    // the ticks from the delta tick on, as DDNet's does).
    for (let tick = 102; tick < 102 + 4000; tick += 8) s.messages(SERVER, CLIENT, Array.from({ length: 8 }, (_, k) => ({ kind: 'snap_empty', tick: tick + k, deltaTick: 2 })));
    const capture = pcapOf(s.sent);
    let error: unknown;
    try {
      captureDemo(capture, { player: 'Tee' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NetError);
    expect((error as NetError).code).toBe('DEMO_TOO_BIG');
    expect((error as NetError).message).toContain(`more than ${MAX_GROWTH} times the capture's ${capture.length}`);
  });

  const clientInfo07 = (clientId: number, local: boolean, name: string) => ({ kind: 'sv_client_info', clientId, local, team: 0, name, clan: '', country: -1, skinPartNames: ['standard', '', '', 'standard', 'standard', 'standard'], useCustomColors: [0, 0, 0, 0, 0, 0], skinPartColors: [0, 0, 0, 0, 0, 0], silent: true });
  it.each([
    [1000, 1003],
    [1021, 1023],
    [1023, 1023],
    [1024, 1024],
  ])('a 0.7 snapshot of %i items gets the demo-only items the client adds up to its limit: %i items (was LIMIT at 1,024)', (count, recorded) => {
    const s = new Session(SERVER, '0.7');
    s.connect(CLIENT);
    s.message(CLIENT, SERVER, { kind: 'cl_start_info', name: 'Seven', clan: '', country: -1, skinPartNames: ['standard', '', '', 'standard', 'standard', 'standard'], useCustomColors: [0, 0, 0, 0, 0, 0], skinPartColors: [0, 0, 0, 0, 0, 0] });
    s.message(SERVER, CLIENT, { kind: 'map_change', mapName: 'tiny', mapCrc: crc32(testMap) | 0, mapSize: testMap.length, chunksPerRequest: 8, chunkSize: 1384, mapSha256: sha256(testMap) });
    s.message(SERVER, CLIENT, clientInfo07(0, true, 'Seven'));
    s.message(SERVER, CLIENT, clientInfo07(1, false, 'Other'));
    const items = (tick: number) => new Snapshot(Array.from({ length: count }, (_, id) => ({ type: 100, id, data: Int32Array.of(id, id === 0 ? tick : 0, 1) })));
    s.snapshot(CLIENT, 100, items(100));
    s.snapshot(CLIENT, 102, items(102), { tick: 100, snapshot: items(100) });
    const result = captureDemo(pcapOf(s.sent), { player: 'Seven', map: testMap });
    expect(result).toMatchObject({ protocol: '0.7', snapshots: 2 });
    const snapshots = [...readDemo(result.demo).snapshots()];
    expect(snapshots.map((x) => x.snapshot.items.length)).toEqual([recorded, recorded]);
    expect(resaveDemo(result.demo)).toEqual(result.demo);
  });

  it('a client with a dummy, snapshots whose items come, go and change order, one lost input: the demo resaves to itself (was NOT_LOSSLESS)', () => {
    const s = mapDownloadSession();
    s.connect(DUMMY);
    s.message(DUMMY, SERVER, startInfo('TeeDmy'));
    const item = (id: number, tick: number, who: number) => ({ type: 9, id, data: Int32Array.from({ length: 22 }, (_, k) => (k === 1 ? (id % 3 === 0 ? tick : 0) : k === 2 ? who * (id & 1) : id * 10 + k)) });
    // Each connection's snapshot: most of six characters, in an order of its own that a server may turn around.
    const snapshot = (order: number[], tick: number, who: number) => {
      const random = prng(tick * 7 + who + 6000);
      const ids = order.filter(() => random() < 0.8);
      if (random() < 0.5) ids.reverse();
      return new Snapshot(ids.map((id) => item(id, tick, who)));
    };
    const sent = new Map<number, Snapshot[]>();
    for (let tick = 100; tick < 160; tick += 2) {
      const own = snapshot([0, 4, 3, 1, 5, 2], tick, 1);
      const dummy = snapshot([4, 3, 2, 5, 1, 0], tick, 2);
      sent.set(tick, [own, dummy]);
      s.snapshot(CLIENT, tick, own);
      s.snapshot(DUMMY, tick, dummy);
      // The capture lost the dummy's input of tick 131: the own connection's alone tells that frame.
      for (const c of [CLIENT, DUMMY]) if (!(tick === 130 && c === DUMMY)) s.message(c, SERVER, input(tick + 1, tick), false);
    }
    const result = captureDemo(pcapOf(s.sent), { player: 'Tee' });
    expect(result.dummy).toBe(DUMMY);
    expect(resaveDemo(result.demo)).toEqual(result.demo);
    // Every tick holds the items and data of one of the two connections' snapshots of it.
    for (const { tick, snapshot: got } of readDemo(result.demo).snapshots()) expect(sent.get(tick)!.map((x) => x.checksum())).toContain(got.checksum());
  });
});
