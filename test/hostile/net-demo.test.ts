// Hostile captures for `net demo` (issue 36, rows 9 and 11): a capture whose server sends one big snapshot and
// then empty snapshots far apart, or snapshots whose deltas switch between bases, gives a demo proportional to
// the capture or the typed error DEMO_TOO_BIG, within 10 s and 400 MB.
import { describe, expect, it } from 'vitest';
import { readDemo, resaveDemo } from '@twcodec/demo';
import { captureDemo, MAX_GROWTH, NetError } from '@twcodec/net';
import { Snapshot } from '@twcodec/snapshot';
import { CLIENT, mapDownloadSession, pcapOf, SERVER, testMap } from '../net-session-builder.js';

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
});
