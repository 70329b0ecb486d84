// Hostile variants of real files: truncated, bit-flipped and with inflated size fields. Every one must give
// a typed CodecError (never a TypeError/RangeError), quickly, without allocating far beyond what the
// original file's data really holds.
import { describe, expect, it } from 'vitest';
import { CodecError, Datafile, type ZlibCodec } from '@twcodec/datafile';
import { nodeZlib } from '@twcodec/datafile/zlib-node';
import { fixtureMaps, hasCorpus, mapCases, prng, readBytes } from '../corpus.js';

/** Counts what the zlib codec hands out, to bound the memory a hostile file can make us allocate. */
function countingZlib(): ZlibCodec & { produced: number } {
  const codec = {
    name: 'counting',
    produced: 0,
    inflate(compressed: Uint8Array, maxSize: number) {
      const out = nodeZlib.inflate(compressed, maxSize);
      codec.produced += out.length;
      return out;
    },
    deflate: nodeZlib.deflate,
  };
  return codec;
}

function loadFully(bytes: Uint8Array, zlib: ZlibCodec): 'ok' | CodecError {
  try {
    const df = Datafile.read(bytes, { zlib });
    for (const d of df.data) d.bytes();
    df.write();
    return 'ok';
  } catch (e) {
    if (e instanceof CodecError) return e;
    throw e;
  }
}

// Small maps of each origin keep the run short (each variant inflates all data); the variants are what matters.
const cases = hasCorpus
  ? mapCases().filter((c) => /^(tw07\/(ctf1|dm3|dm8)|ddnet\/(coverage|dm7|ctf2))\.map$/.test(c.name))
  : fixtureMaps();

describe('datafile robustness', () => {
  it.each(cases)('$name: truncated, bit-flipped and size-inflated variants give typed errors', ({ path }) => {
    const original = readBytes(path);
    const baseline = countingZlib();
    expect(loadFully(original, baseline)).toBe('ok');
    const budget = baseline.produced + (1 << 20);
    const random = prng(original.length);
    const variants: Uint8Array[] = [];

    // Truncation throughout the header and tables, and at random points.
    const truncated: Uint8Array[] = [];
    for (let cut = 0; cut < Math.min(original.length, 600); cut += 7) truncated.push(original.subarray(0, cut));
    for (let i = 0; i < 40; i++) truncated.push(original.subarray(0, Math.floor(random() * original.length)));
    variants.push(...truncated);
    // Single bit flips, dense in the header and tables, sparse in the data.
    for (let i = 0; i < 300; i++) {
      const copy = original.slice();
      const at = i < 200 ? Math.floor(random() * Math.min(copy.length, 2048)) : Math.floor(random() * copy.length);
      copy[at]! ^= 1 << Math.floor(random() * 8);
      variants.push(copy);
    }
    // Every i32 of the header and the first tables set to hostile values.
    const hostile = [-1, 0x7fffffff, -0x80000000, 0x10000, 1 << 30];
    for (let at = 0; at + 4 <= Math.min(original.length, 1024); at += 4) {
      for (const v of hostile) {
        const copy = original.slice();
        new DataView(copy.buffer).setInt32(at, v, true);
        variants.push(copy);
      }
    }

    let errors = 0;
    for (const variant of variants) {
      const zlib = countingZlib();
      const result = loadFully(variant, zlib);
      if (result !== 'ok') {
        errors++;
        expect(result.code).toMatch(/^[A-Z_]+$/);
        expect(result.offset).toBeLessThanOrEqual(variant.length);
      } else {
        // Whatever loads must be self-consistent: it writes back to the same bytes.
        expect(Buffer.from(Datafile.read(variant).write()).equals(variant)).toBe(true);
      }
      expect(zlib.produced).toBeLessThanOrEqual(budget);
    }
    // Item payloads are not checked by the container, so many payload flips load fine; truncation never does.
    for (const variant of truncated) expect(loadFully(variant, nodeZlib)).toBeInstanceOf(CodecError);
    expect(errors).toBeGreaterThan(truncated.length);
  });

  it('a zip bomb with a huge declared size is refused before inflating', () => {
    const df = new Datafile();
    df.addItem(0, 0, Int32Array.of(1));
    df.addData(new Uint8Array(64 << 20));
    const bytes = df.write();
    expect(bytes.length).toBeLessThan(1 << 17);
    // header (36) + one item type (12) + one item offset (4) + one data offset (4)
    const sizesAt = 36 + 12 + 4 + 4;
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(view.getInt32(sizesAt, true)).toBe(64 << 20);
    view.setInt32(sizesAt, 0x7fffffff, true);
    const zlib = countingZlib();
    const result = loadFully(bytes, zlib);
    expect(result).toBeInstanceOf(CodecError);
    expect((result as CodecError).code).toBe('DATA_SIZE_IMPOSSIBLE');
    expect(zlib.produced).toBe(0);
  });
});
