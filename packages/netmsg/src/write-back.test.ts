import { describe, expect, it } from 'vitest';
import { ByteWriter } from '@twcodec/runtime';
import { decodeDdnet06Message, encodeDdnet06Message, NetMessageError } from './index.js';

/** Packs ints, strings and raw bytes as DDNet's CPacker does. */
function pack(...parts: (number | string | Uint8Array)[]): Uint8Array {
  const w = new ByteWriter();
  for (const p of parts) {
    if (typeof p === 'number') w.writeVarInt(p);
    else if (typeof p === 'string') w.writeCString(p);
    else w.writeBytes(p);
  }
  return w.finish().slice();
}

const BOM = Uint8Array.of(0xef, 0xbb, 0xbf);
/** sv_chat (id 3, not system) with team, client id and the message's bytes up to its NUL. */
const chat = (team: number, clientId: number, text: Uint8Array) => pack(3 << 1, team, clientId, text, Uint8Array.of(0));

// A message is kept only when it is written back byte for byte (NOT_CANONICAL otherwise; lenient: raw). Only a
// text can read as a value that writes back otherwise: the reader checks each text that is not short ASCII as
// it reads it (ByteReader.checkTexts), where the whole message used to be encoded again (issue 41).
describe('net messages written back as read', () => {
  it('refuses a text that starts with a byte order mark (TextDecoder drops it), short or long', () => {
    for (const text of ['hi', 'x'.repeat(100)]) {
      const bytes = chat(0, 2, Uint8Array.from([...BOM, ...new TextEncoder().encode(text)]));
      let error: unknown;
      try {
        decodeDdnet06Message(bytes);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(NetMessageError);
      expect(error).toMatchObject({ code: 'NOT_CANONICAL', offset: 1, path: 'sv_chat' });
      const lenient = decodeDdnet06Message(bytes, { lenient: true });
      expect(lenient).toMatchObject({ kind: 'unknown', id: 3, error: expect.stringContaining('NOT_CANONICAL') });
      expect(encodeDdnet06Message(lenient)).toEqual(bytes);
    }
  });

  it('refuses a byte order mark in any text of a list (string_rest)', () => {
    const bytes = encodeDdnet06Message({ kind: 'maplist_add', maps: ['x', '\ufeffy'] } as never);
    expect(() => decodeDdnet06Message(bytes)).toThrow(expect.objectContaining({ code: 'NOT_CANONICAL' }));
    expect(decodeDdnet06Message(encodeDdnet06Message({ kind: 'maplist_add', maps: ['x', 'y\u00e4'] } as never))).toEqual({ kind: 'maplist_add', maps: ['x', 'y\u00e4'] });
  });

  it('keeps texts that come back: not UTF-8 (escaped), long, not ASCII, and ASCII beside large ints', () => {
    for (const text of [Uint8Array.of(0x61, 0xff, 0x62), new TextEncoder().encode('\u00e4'.repeat(40)), new TextEncoder().encode('y'.repeat(200)), new TextEncoder().encode('a\ufeffb')]) {
      const bytes = chat(1, 5, text);
      const m = decodeDdnet06Message(bytes);
      expect(m.kind).toBe('sv_chat');
      expect(encodeDdnet06Message(m)).toEqual(bytes);
    }
    // Two-byte ints (bytes past 0x7f) and ASCII text: no text to check.
    const bytes = chat(1000, 5000, new TextEncoder().encode('hello'));
    expect(decodeDdnet06Message(bytes)).toEqual({ kind: 'sv_chat', team: 1000, clientId: 5000, message: 'hello' });
  });
});
