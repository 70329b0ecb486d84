// resaveDemo's lossless promise (issue 25, row 14): a demo comes back byte for byte, or is refused with what
// would change. The mutated demos are made here from one the writer recorded: a delta chunk repeated in its
// tick, a message moved before its tick's snapshot, a count of timeline markers past 64.
import { describe, expect, it } from 'vitest';
import { encodeDdnet06Message } from '@twcodec/netmsg';
import { concatBytes } from '@twcodec/runtime';
import { Snapshot } from '@twcodec/snapshot';
import { CodecError, DemoWriter, readDemo, resaveDemo } from './index.js';

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
