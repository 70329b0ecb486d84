// Hostile net messages: every message of the fixture demos and teehistorian files, cut short and with
// bytes flipped, decodes (and then writes back the same bytes) or throws a CodecError — never a TypeError,
// never a hang or a huge allocation.
import { describe, expect, it } from 'vitest';
import { CodecError } from '@twcodec/datafile';
import { readDemo } from '@twcodec/demo';
import { decodeDdnet06Message, decodeTeeworlds07Message, encodeDdnet06Message, encodeTeeworlds07Message } from '@twcodec/netmsg';
import { readTeehistorian } from '@twcodec/teehistorian';
import { demoFiles, prng, readBytes, teehistorianFiles } from '../corpus.js';

function samples(): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const path of demoFiles().slice(0, 2)) for (const c of readDemo(readBytes(path)).chunks()) if (c.kind === 'message' && out.length < 400) out.push(c.data);
  for (const path of teehistorianFiles()) for (const m of readTeehistorian(readBytes(path))) if (m.kind === 'MESSAGE') out.push(m.data);
  return out;
}

describe('hostile net messages', () => {
  it('cut and corrupted messages decode losslessly or throw CodecError', () => {
    const random = prng(16);
    let decoded = 0;
    let refused = 0;
    for (const original of samples()) {
      const variants = [original.subarray(0, Math.floor(random() * original.length))];
      for (let k = 0; k < 4; k++) {
        const v = original.slice();
        for (let j = 0; j < 1 + Math.floor(random() * 3); j++) v[Math.floor(random() * v.length)] = Math.floor(random() * 256);
        variants.push(v);
      }
      for (const bytes of variants) {
        for (const [decode, encode] of [[decodeDdnet06Message, encodeDdnet06Message], [decodeTeeworlds07Message, encodeTeeworlds07Message]] as const) {
          try {
            const m = decode(bytes);
            expect(encode(m as never)).toEqual(bytes);
            decoded++;
          } catch (e) {
            if (!(e instanceof CodecError)) throw e;
            expect(e.code).toMatch(/^[A-Z_]+$/);
            refused++;
          }
        }
      }
    }
    expect(decoded).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it('a huge length field is refused before anything is allocated', () => {
    // snap_single claiming 2^31-1 bytes; input claiming a billion ints.
    expect(() => decodeDdnet06Message(Uint8Array.of(0x0f, 1, 1, 1, 0xbf, 0xff, 0xff, 0xff, 0x07))).toThrow(CodecError);
    expect(() => decodeDdnet06Message(Uint8Array.of(0x21, 1, 1, 0x80, 0x80, 0x80, 0x80, 0x04))).toThrow(CodecError);
  });
});
