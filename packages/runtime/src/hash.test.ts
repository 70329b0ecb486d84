import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { crc32, encodeUtf8, sha256 } from './index.js';

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

describe('crc32 and sha256', () => {
  it('give the published check values', () => {
    // The CRC-32 check value of "123456789" and the FIPS 180-4 examples.
    expect(crc32(encodeUtf8('123456789'))).toBe(0xcbf43926);
    expect(crc32(encodeUtf8('6789'), crc32(encodeUtf8('12345')))).toBe(0xcbf43926);
    expect(hex(sha256(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256(encodeUtf8('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256(encodeUtf8('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });
  it('hash 55, 56 and 64 bytes (padding into a second block)', () => {
    for (const n of [55, 56, 63, 64, 65]) expect(sha256(new Uint8Array(n)).length).toBe(32);
    expect(hex(sha256(new Uint8Array(64)))).toBe('f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b');
  });
  it('agree with node:crypto on every length around the block boundaries and on a map-sized input', () => {
    for (const n of [1, 2, 3, 31, 32, 33, 54, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 25626]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n) & 255);
      expect(hex(sha256(bytes)), `${n} bytes`).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });
});
