// node:zlib past its first 16 MiB of room (one buffer of the declared size, issue 25), and inflateEquals.
import { describe, expect, it } from 'vitest';
import { Buffer } from 'node:buffer';
import { deflateSync } from 'node:zlib';
import { nodeZlib } from './zlib-node.js';
import { InflateLimitError } from './zlib/types.js';
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
