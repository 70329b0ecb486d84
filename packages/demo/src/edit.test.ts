// resaveDemo's lossless promise (issue 25, row 14): a demo comes back byte for byte, or is refused with what
// would change. The mutated demos are made here from one the writer recorded: a delta chunk repeated in its
// tick, a message moved before its tick's snapshot, a count of timeline markers past 64.
import { describe, expect, it } from 'vitest';
import { encodeDdnet06Message } from '@twcodec/netmsg';
import { bytesEqual, concatBytes } from '@twcodec/runtime';
import { Snapshot } from '@twcodec/snapshot';
import { CodecError, demoMessages, DemoWriter, readDemo, resaveDemo, stripDemo } from './index.js';

/** Ticks 1..20, a character item that moves every tick, a chat message after the snapshot of ticks 5 and 12. */
function recorded(): Uint8Array {
  const w = new DemoWriter({ netVersion: '0.6 626fce9a778df4d4', mapName: 'x', mapCrc: '00000000', type: 'client', timestamp: '2026-11-22_10-00-00', mapSha256: '0'.repeat(64), timelineMarkers: [3] }, undefined);
  for (let tick = 1; tick <= 20; tick++) {
    const character = new Int32Array(22);
    character[0] = tick;
    character[1] = tick * 32;
    w.snapshot(tick, new Snapshot([{ type: 9, id: 0, data: character }]));
    if (tick === 5 || tick === 12) w.message(encodeDdnet06Message({ kind: 'sv_chat', team: 0, clientId: -1, message: `at ${tick}` }));
  }
  return w.finish();
}

/** The byte ranges of the chunks: [offset, end, kind, tick of the marker before]. */
function chunkRanges(bytes: Uint8Array): { start: number; end: number; kind: string; tick: number }[] {
  const chunks = [...readDemo(bytes).chunks()];
  let tick = -1;
  return chunks.map((c, i) => {
    if (c.kind === 'tick') tick = c.tick;
    return { start: c.offset, end: i + 1 < chunks.length ? chunks[i + 1]!.offset : bytes.length, kind: c.kind, tick };
  });
}

const concat = (...parts: Uint8Array[]) => concatBytes(parts);

function refusal(bytes: Uint8Array): CodecError {
  try {
    resaveDemo(bytes);
  } catch (e) {
    if (e instanceof CodecError) return e;
    throw e;
  }
  throw new Error('resaveDemo accepted a demo it does not give back byte for byte');
}

describe('resaveDemo: identical bytes or a refusal that says why', () => {
  it('a recorded demo comes back byte for byte', () => {
    const bytes = recorded();
    expect(resaveDemo(bytes)).toEqual(bytes);
  });

  it('a second delta chunk in one tick', () => {
    const bytes = recorded();
    const delta = chunkRanges(bytes).find((c) => c.kind === 'delta' && c.tick === 8)!;
    const mutated = concat(bytes.subarray(0, delta.end), bytes.subarray(delta.start, delta.end), bytes.subarray(delta.end));
    const e = refusal(mutated);
    expect(e.code).toBe('NOT_LOSSLESS');
    expect(e.message).toMatch(/a second snapshot chunk in tick 8: one snapshot a tick is recorded/);
    expect(e.offset).toBe(delta.end);
    expect(resaveDemo(mutated, { exact: false }).length).toBeGreaterThan(0);
  });

  it('a message before the snapshot of its tick', () => {
    const bytes = recorded();
    const ranges = chunkRanges(bytes);
    const message = ranges.find((c) => c.kind === 'message' && c.tick === 12)!;
    const delta = ranges.find((c) => c.kind === 'delta' && c.tick === 12)!;
    expect(delta.end).toBe(message.start);
    const mutated = concat(bytes.subarray(0, delta.start), bytes.subarray(message.start, message.end), bytes.subarray(delta.start, delta.end), bytes.subarray(message.end));
    const e = refusal(mutated);
    expect(e.message).toMatch(/a message before the snapshot in tick 12: the snapshot is recorded first/);
    expect(e.offset).toBe(delta.start);
  });

  it('a count of timeline markers past 64', () => {
    const mutated = recorded().slice();
    new DataView(mutated.buffer).setInt32(176, 65, false);
    const e = refusal(mutated);
    expect(e.message).toMatch(/the header's count of timeline markers changes \(it is read as 0 to 64\)/);
    expect(e.offset).toBe(179);
  });
});

describe("DemoWriter's keyframes: 'bounded', and resaveDemo keeping them where they are", () => {
  const header = { netVersion: '0.6 626fce9a778df4d4', mapName: 'x', mapCrc: '00000000', type: 'client', timestamp: '2026-11-22_10-00-00', mapSha256: '0'.repeat(64) };
  /** A snapshot of 200 items that never changes, at ticks 251 apart, and one item changing in the last three. */
  function write(keyframes: 'interval' | 'bounded'): Uint8Array {
    const w = new DemoWriter(header, undefined, { keyframes });
    const items = Array.from({ length: 200 }, (_, id) => ({ type: 9, id, data: Int32Array.from({ length: 22 }, (_, k) => id * 1000 + k) }));
    for (let n = 0; n < 40; n++) {
      const changed = n >= 37 ? [{ type: 10, id: 0, data: Int32Array.of(n, 0, 0, 0, 0) }] : [];
      w.snapshot(100 + n * 251, new Snapshot([...items, ...changed]));
    }
    return w.finish();
  }
  const keyframes = (bytes: Uint8Array) => [...readDemo(bytes).chunks()].filter((c) => c.kind === 'tick' && c.keyframe).length;

  it('an unchanging snapshot is stored whole once, not every 251 ticks; the demo resaves to itself', () => {
    const interval = write('interval');
    const bounded = write('bounded');
    expect(keyframes(interval)).toBe(40);
    expect(keyframes(bounded)).toBe(1);
    expect(bounded.length * 20).toBeLessThan(interval.length);
    const snapshotsOf = (bytes: Uint8Array) => [...readDemo(bytes).snapshots()].map((s) => [s.tick, s.snapshot.checksum()]);
    expect(snapshotsOf(bounded)).toEqual(snapshotsOf(interval));
    // (bytesEqual: toEqual's diff of two 600 KB arrays takes most of a minute when they differ.)
    expect(bytesEqual(resaveDemo(bounded), bounded)).toBe(true);
    // Not exact: written again with DDNet's rule.
    const again = resaveDemo(bounded, { exact: false });
    expect(keyframes(again)).toBe(40);
    expect(snapshotsOf(again)).toEqual(snapshotsOf(interval));
  });
});

describe('stripDemo and demoInfo (moved from the CLI: issue 37)', () => {
  it('dropMessages: [sv_chat] drops the chat lines demoChat reads, by the message table of the demo, and nothing else', async () => {
    const { demoChat, demoInfo, demoTickAt, stripDemo } = await import('./index.js');
    const bytes = recorded();
    expect(demoChat(readDemo(bytes)).map((l) => l.text)).toEqual(['at 5', 'at 12']);
    const stripped = stripDemo(bytes, { dropMessages: ['sv_chat'] });
    expect(demoChat(readDemo(stripped))).toEqual([]);
    expect(demoInfo(stripped).chunks).toMatchObject({ message: 0, snapshot: demoInfo(bytes).chunks.snapshot, delta: demoInfo(bytes).chunks.delta });
    expect(demoInfo(bytes)).toMatchObject({ protocol: 'ddnet-0.6', ticks: { first: 1, last: 20, span: 20, markers: 20, snapshots: 20 }, chunks: { message: 2 } });
    // The server's tick rate: 50 ticks a second from the first tick.
    expect(demoTickAt(bytes, 0.1)).toBe(6);
  });
});

describe('stripDemo', () => {
  it('drops the messages named in the demo\'s protocol, by their first int and UUID only', () => {
    const w = new DemoWriter({ netVersion: '0.6 626fce9a778df4d4', mapName: 'x', mapCrc: '00000000', type: 'server', timestamp: '2026-11-22_10-00-00', mapSha256: '0'.repeat(64) }, undefined);
    w.snapshot(1, new Snapshot([]));
    w.message(encodeDdnet06Message({ kind: 'sv_chat', team: 0, clientId: -1, message: 'hello' }));
    w.message(encodeDdnet06Message({ kind: 'sv_broadcast', message: 'stay' }));
    w.message(encodeDdnet06Message({ kind: 'sv_kill_msg_team', team: 1, first: 2 }));
    const bytes = w.finish();
    const kinds = (demo: Uint8Array) => [...demoMessages(readDemo(demo))].map((m) => m.message.kind);
    expect(kinds(bytes)).toEqual(['sv_chat', 'sv_broadcast', 'sv_kill_msg_team']);
    expect(kinds(stripDemo(bytes, { dropMessages: ['sv_chat', 'sv_kill_msg_team'] }))).toEqual(['sv_broadcast']);
    expect(() => stripDemo(bytes, { dropMessages: ['sv_nothing'] })).toThrow(CodecError);
  });
});
