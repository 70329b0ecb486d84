// Hostile variants of real maps through the whole map layer: whatever the container accepts, readMap
// (strict and lenient), validateMap and writeMap either work or throw a typed CodecError.
import { describe, expect, it } from 'vitest';
import { CodecError, Datafile } from '@twcodec/datafile';
import { readMap, validateMap, writeMap } from '@twcodec/map';
import { fixtureMaps, hasCorpus, mapCases, prng, readBytes } from '../corpus.js';

const cases = hasCorpus ? mapCases().filter((c) => /^(tw07\/(ctf1|dm1)|ddnet\/(coverage|dm7|ctf4))\.map$/.test(c.name)) : fixtureMaps();

function typed(fn: () => void): void {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
  }
}

describe('map robustness', () => {
  it.each(cases)('$name: item and data corruption gives typed errors only', ({ path }) => {
    const original = readBytes(path);
    const random = prng(original.length ^ 0x5eed);
    const df = Datafile.read(original);
    const hostile = [-1, 0, 1, 2, 0x7fffffff, -0x80000000, 0x10000, 255, 256];
    let variants = 0;
    for (let n = 0; n < 400; n++) {
      const copy = Datafile.read(original);
      const item = copy.items[Math.floor(random() * copy.items.length)]!;
      const data = item.data.slice();
      if (n % 3 === 0 && data.length) data[Math.floor(random() * data.length)] = hostile[Math.floor(random() * hostile.length)]!;
      else if (n % 3 === 1 && data.length) data[Math.floor(random() * data.length)]! ^= 1 << Math.floor(random() * 31);
      else item.data = data.subarray(0, Math.floor(random() * data.length));
      if (n % 3 !== 2) item.data = data;
      let bytes: Uint8Array;
      try {
        bytes = copy.write();
      } catch (e) {
        // The container refuses to write some corruptions itself (a UUID index that no longer matches).
        expect(e).toBeInstanceOf(CodecError);
        continue;
      }
      variants++;
      typed(() => {
        const map = readMap(bytes);
        validateMap(map);
        writeMap(map);
      });
      typed(() => {
        const map = readMap(bytes, { strict: false });
        validateMap(map);
        writeMap(map);
      });
    }
    expect(variants).toBeGreaterThan(300);
    expect(df.items.length).toBeGreaterThan(0);
  });
});
