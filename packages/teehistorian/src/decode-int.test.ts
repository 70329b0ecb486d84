// decodeIntMessage, the object iterator's fast path, against decodeMessage on messages built in code: every
// int-only kind, with ints of one to five bytes (the one-byte PLAYER_DIFF front and the general path), and
// the messages it must decline without moving the reader or the ticks.
import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter } from '@twcodec/runtime';
import { type CoreMessage, decodeIntMessage, decodeMessage, encodeMessage } from './generated/messages.gen.js';
import { TickTracker } from './messages.js';

function bytesOf(...messages: CoreMessage[]): Uint8Array {
  const w = new ByteWriter();
  for (const m of messages) encodeMessage(m, w);
  return w.finish().slice();
}

const input = (v: number) => Array.from({ length: 10 }, (_, i) => v * (i + 1));
const widths = [0, -1, 63, -64, 64, 8191, -8192, 8192, 1 << 20, -(1 << 27), 0x7fffffff, -0x80000000];
const intOnly: CoreMessage[] = widths.flatMap((v): CoreMessage[] => [
  { kind: 'PLAYER_DIFF', cid: Math.abs(v % 64), dx: v, dy: -v | 0 },
  { kind: 'PLAYER_DIFF', cid: v >= 0 ? v : 5, dx: 1, dy: -1 },
  { kind: 'TICK_SKIP', dt: v },
  { kind: 'PLAYER_NEW', cid: 3, x: v, y: 7 },
  { kind: 'PLAYER_OLD', cid: v },
  { kind: 'INPUT_DIFF', cid: 1, input: input(v) },
  { kind: 'INPUT_NEW', cid: 2, input: input(v | 1) },
  { kind: 'JOIN', cid: v },
  { kind: 'FINISH' },
]);

describe('decodeIntMessage', () => {
  it('reads every int-only message as decodeMessage does, with the tick the tracker gives and its offset', () => {
    const bytes = bytesOf(...intOnly);
    const fast = new ByteReader(bytes, 0, bytes.length, 1000);
    const slow = new ByteReader(bytes, 0, bytes.length, 1000);
    const fastTicks = new TickTracker();
    const slowTicks = new TickTracker();
    for (let i = 0; i < intOnly.length; i++) {
      const offset = slow.offset;
      const expected = { ...decodeMessage(slow) } as CoreMessage & { tick: number; offset: number };
      expected.tick = slowTicks.apply(expected);
      expected.offset = offset;
      const got = decodeIntMessage(fast, fastTicks);
      expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
      expect(fast.pos).toBe(slow.pos);
    }
  });

  it('declines messages with strings or payloads, truncated ones and non-canonical ints, leaving the reader and ticks alone', () => {
    const declined = [
      bytesOf({ kind: 'DROP', cid: 1, reason: 'bye' }),
      bytesOf({ kind: 'MESSAGE', cid: 1, data: Uint8Array.of(1, 2) }),
      bytesOf({ kind: 'CONSOLE_COMMAND', cid: -1, flags: 0, command: 'kill', args: [] }),
      bytesOf({ kind: 'PLAYER_DIFF', cid: 1, dx: 2, dy: 3 }).subarray(0, 2),
      bytesOf({ kind: 'INPUT_DIFF', cid: 1, input: input(1000) }).subarray(0, 9),
      Uint8Array.of(0x01, 0x80, 0x00, 0x02), // PLAYER_DIFF whose dx 0 takes two bytes
      Uint8Array.of(0x41, 0x81, 0x00), // TICK_SKIP (-2) whose dt 1 takes two bytes
      Uint8Array.of(0x4f), // id -16: no such message
    ];
    for (const bytes of declined) {
      const r = new ByteReader(bytes);
      const ticks = new TickTracker();
      ticks.advance(0, 5);
      expect(decodeIntMessage(r, ticks)).toBeUndefined();
      expect(r.pos).toBe(0);
      expect(ticks.tick).toBe(1);
      expect(ticks.advance(0, 4)).toBe(2); // the last client id is still 5
    }
  });
});
