// node:zlib past its first 16 MiB of room (one buffer of the declared size, issue 25), inflateEquals, and
// inflateSlices (the PNG decoder's inflater).
import { describe, expect, it } from 'vitest';
import { Buffer } from 'node:buffer';
import { deflateSync } from 'node:zlib';
import { nodeZlib } from './zlib-node.js';
import { InflateLimitError, inflateSlices, type ZlibCodec } from './zlib/types.js';
import { fflateZlib } from './zlib-fflate.js';

const SIZE = 20 * 1024 * 1024 + 3;
const data = new Uint8Array(SIZE);
for (let i = 0; i < SIZE; i += 4099) data[i] = i & 0xff;
const z = new Uint8Array(deflateSync(data));

describe('large zlib items', () => {
  it('inflate at the declared size, refuse more, give less for a shorter stream', () => {
    // (compared with Buffer.compare: a deep equality of 20 MB takes minutes)
    expect(Buffer.compare(nodeZlib.inflate(z, SIZE), data)).toBe(0);
    expect(() => nodeZlib.inflate(z, SIZE - 1)).toThrow(InflateLimitError);
    expect(nodeZlib.inflate(z, SIZE + 100).length).toBe(SIZE);
  });

  it('inflateEquals compares without a copy, and refuses other lengths, other bytes and corrupt streams', () => {
    expect(nodeZlib.inflateEquals!(z, data)).toBe(true);
    const other = data.slice();
    other[SIZE - 1]! ^= 1;
    expect(nodeZlib.inflateEquals!(z, other)).toBe(false);
    expect(nodeZlib.inflateEquals!(z, data.subarray(0, SIZE - 1))).toBe(false);
    expect(nodeZlib.inflateEquals!(z, new Uint8Array(SIZE + 1))).toBe(false);
    const corrupt = z.slice();
    corrupt[z.length >> 1]! ^= 0xff;
    expect(nodeZlib.inflateEquals!(corrupt, data)).toBe(false);
    expect(nodeZlib.inflateEquals!(z.subarray(0, z.length >> 1), data)).toBe(false);
    // The engine is usable after a refusal.
    expect(nodeZlib.inflateEquals!(z, data)).toBe(true);
    expect(fflateZlib.inflateEquals).toBeUndefined();
  });
});

describe('inflateSlices', () => {
  /** Runs inflateSlices and checks each slice against `data` where it belongs: the bytes seen and the largest slice. */
  function sliced(codec: ZlibCodec, compressed: Uint8Array, maxSize: number) {
    let at = 0;
    let largest = 0;
    const total = inflateSlices(codec, compressed, maxSize, (slice) => {
      expect(Buffer.compare(slice, data.subarray(at, at + slice.length))).toBe(0);
      at += slice.length;
      largest = Math.max(largest, slice.length);
    });
    expect(total).toBe(at);
    return { total, largest };
  }

  it('hands over the whole output a slice at a time (native: 1 MiB slices), with either codec or the fallback', () => {
    expect(sliced(nodeZlib, z, SIZE)).toEqual({ total: SIZE, largest: 1 << 20 });
    expect(sliced(fflateZlib, z, SIZE).total).toBe(SIZE);
    // A codec without inflateSlices: its inflate's output, one slice.
    expect(sliced({ name: 'plain', inflate: nodeZlib.inflate }, z, SIZE)).toEqual({ total: SIZE, largest: SIZE });
  });

  it('stops past maxSize, refuses cut (and natively corrupt) streams, and stays usable after any of them', () => {
    for (const codec of [nodeZlib, fflateZlib]) {
      expect(() => inflateSlices(codec, z, SIZE - 1, () => {}), codec.name).toThrow(InflateLimitError);
      // (fflate checks no Adler-32: a flipped byte that still decodes is not seen there)
      const corrupt = z.slice();
      corrupt[z.length >> 1]! ^= 0xff;
      if (codec === nodeZlib) expect(() => inflateSlices(codec, corrupt, SIZE, () => {})).toThrow();
      expect(() => inflateSlices(codec, z.subarray(0, z.length >> 1), SIZE, () => {}), codec.name).toThrow();
      expect(() =>
        inflateSlices(codec, z, SIZE, () => {
          throw new RangeError('stop');
        }),
      ).toThrow('stop');
      expect(sliced(codec, z, SIZE).total, codec.name).toBe(SIZE);
    }
  });

  it('may be called again from onSlice (the native engine is not shared with the outer call)', () => {
    const small = new Uint8Array(deflateSync(data.subarray(0, 5000)));
    let inner = 0;
    let outer = 0;
    nodeZlib.inflateSlices!(z, SIZE, (slice) => {
      outer += slice.length;
      inner += nodeZlib.inflateSlices!(small, 5000, () => {});
      expect(Buffer.compare(nodeZlib.inflate(small, 5000), data.subarray(0, 5000))).toBe(0);
    });
    expect(outer).toBe(SIZE);
    expect(inner).toBe(5000 * Math.ceil(SIZE / (1 << 20)));
  });
});
