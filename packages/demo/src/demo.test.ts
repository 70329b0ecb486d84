import { describe, expect, it } from 'vitest';
import { CodecError } from '@twcodec/runtime';
import { fixturesDir, prng, readBytes } from '../../../test/corpus.js';
import { readDemo, unpackChunk } from './demo.js';
import { Huffman, teeworldsHuffman } from './huffman.js';

const demoPath = `${fixturesDir}/demos/ctf2_server_Alpha_server_manual.demo`;

describe('Huffman', () => {
  it('round-trips any bytes with the Teeworlds table', () => {
    const random = prng(7);
    const h = teeworldsHuffman();
    for (const n of [0, 1, 2, 100, 5000]) {
      const data = Uint8Array.from({ length: n }, () => (random() < 0.5 ? 0 : Math.floor(random() * 256)));
      expect(h.decompress(h.compress(data), n)).toEqual(data);
    }
  });

  it('rejects truncated and oversized output', () => {
    const h = new Huffman();
    const packed = h.compress(new Uint8Array(200).fill(7));
    expect(() => h.decompress(packed.subarray(0, 5), 1000)).toThrowError(expect.objectContaining({ code: 'HUFFMAN_TRUNCATED' }));
    expect(() => h.decompress(packed, 100)).toThrowError(expect.objectContaining({ code: 'HUFFMAN_OVERFLOW' }));
  });

  it('decodes a payload inside a larger array, up to its last bit', () => {
    const random = prng(11);
    const h = teeworldsHuffman();
    for (let n = 0; n < 60; n++) {
      const data = Uint8Array.from({ length: n }, () => (random() < 0.3 ? 0 : Math.floor(random() * 256)));
      const packed = h.compress(data);
      const input = new Uint8Array(packed.length + 10).fill(0xff);
      input.set(packed, 3);
      const out = new Uint8Array(n + 8);
      expect(out.subarray(0, h.decompressInto(input, out, 0, 3, 3 + packed.length))).toEqual(data);
    }
  });

  it('reports where output overflows and input ends at the offsets it always has', () => {
    // Offsets given by the decoder before it read two bytes at a time (commit 372ef03): a refill may take
    // input further ahead now, and the offsets must not move with it.
    const h = teeworldsHuffman();
    const plain = Uint8Array.from({ length: 120 }, (_, i) => ((i * 37) % 5 === 0 ? 200 + (i % 50) : i % 7 === 0 ? 0 : i % 64));
    const packed = h.compress(plain);
    const errorAt = (max: number, end = packed.length) => {
      try {
        h.decompressInto(packed, new Uint8Array(max), 1000, 0, end);
        return ['ok'];
      } catch (e) {
        return [(e as CodecError).code, (e as CodecError).offset];
      }
    };
    const overflows = [[0, 1004], [1, 1005], [3, 1006], [4, 1007], [5, 1008], [17, 1019], [50, 1054], [100, 1107], [116, 1126], [117, 1127], [118, 1129], [119, 1130]];
    for (const [max, offset] of overflows) expect(errorAt(max!)).toEqual(['HUFFMAN_OVERFLOW', offset]);
    for (const end of [0, 1, 5, 40]) expect(errorAt(200, end)).toEqual(['HUFFMAN_TRUNCATED', 1000 + end]);
    expect(errorAt(200, packed.length - 1)).toEqual(['ok']);
  });
});

describe('demo reader', () => {
  it('hands out chunk ints that the chunks after them leave alone', () => {
    // Small chunks' ints are views of one shared block: all kept, each must still hold its own ints.
    const bytes = readBytes(demoPath);
    const chunks = [...readDemo(bytes).chunks()].filter((c) => c.kind !== 'tick');
    expect(chunks.length).toBeGreaterThan(100);
    for (const c of chunks) {
      const at = c.offset + (c.storedSize < 30 ? 1 : c.storedSize < 256 ? 2 : 3);
      const ints = unpackChunk(bytes.subarray(at, at + c.storedSize), c.offset);
      if (c.kind === 'message') expect(c.data).toEqual(new Uint8Array(ints.buffer, ints.byteOffset, ints.byteLength));
      else expect(c.ints).toEqual(ints);
    }
  });

  it('reads the header, the embedded map and every snapshot', () => {
    const demo = readDemo(readBytes(demoPath));
    expect(demo.header).toMatchObject({ version: 6, type: 'server', mapName: 'ctf2', mapSize: 25626, mapCrc: '27bc5eac' });
    expect(demo.header.mapSha256).toBe('b30feca56dd04c15f4ef2ca45864bc75ddc515a0f9836d210a35c57282827f26');
    expect(demo.map?.length).toBe(25626);
    const snaps = [...demo.snapshots()];
    expect(snaps[0]!.source).toBe('keyframe');
    expect(snaps.length).toBe([...demo.chunks()].filter((c) => c.kind === 'tick').length);
    for (let i = 1; i < snaps.length; i++) expect(snaps[i]!.tick).toBeGreaterThan(snaps[i - 1]!.tick);
  });

  it('gives typed errors on truncated and corrupted demos', () => {
    const bytes = readBytes(demoPath);
    const random = prng(3);
    let errors = 0;
    for (let i = 0; i < 200; i++) {
      let variant: Uint8Array;
      if (i < 100) variant = bytes.subarray(0, Math.floor(random() * bytes.length));
      else {
        variant = bytes.slice();
        const at = 25626 + 500 + Math.floor(random() * (bytes.length - 26200));
        variant[at]! ^= 1 << Math.floor(random() * 8);
      }
      try {
        for (const _ of readDemo(variant).snapshots());
      } catch (e) {
        if (!(e instanceof CodecError)) throw e;
        errors++;
      }
    }
    expect(errors).toBeGreaterThan(100);
  });
});

describe('older demo versions', () => {
  /**
   * The fixture rewritten as an older version: no SHA-256 extension before 6, no timeline markers in 3, and
   * before 5 tick markers hold the delta in their low 6 bits (or a 4-byte tick) instead of the 5-bit form.
   */
  function rewrite(bytes: Uint8Array, version: number): Uint8Array {
    const demo = readDemo(bytes);
    const out: number[] = [...bytes.subarray(0, 176)];
    out[7] = version;
    if (version > 3) out.push(...bytes.subarray(176, 176 + 260));
    out.push(...demo.map!);
    let last = -1;
    const chunks = [...demo.chunks()];
    for (let i = 0; i < chunks.length; i++) {
      const c = chunks[i]!;
      const end = i + 1 < chunks.length ? chunks[i + 1]!.offset : bytes.length;
      if (c.kind !== 'tick') {
        out.push(...bytes.subarray(c.offset, end));
        continue;
      }
      const delta = c.tick - last;
      if (version >= 5) out.push(...bytes.subarray(c.offset, end)); // same tick markers as version 6
      else if (!c.keyframe && last >= 0 && delta >= 1 && delta <= 0x3f) out.push(0x80 | delta);
      else out.push(0x80 | (c.keyframe ? 0x40 : 0), (c.tick >>> 24) & 0xff, (c.tick >>> 16) & 0xff, (c.tick >>> 8) & 0xff, c.tick & 0xff);
      last = c.tick;
    }
    return Uint8Array.from(out);
  }

  it.each([5, 4, 3])('reads version %i the same as version 6', (version) => {
    const bytes = readBytes(demoPath);
    const expected = [...readDemo(bytes).snapshots()].map((s) => [s.tick, s.snapshot.checksum(), s.snapshot.items.length]);
    const old = readDemo(rewrite(bytes, version));
    expect(old.header.version).toBe(version);
    expect(old.header.mapSha256).toBeUndefined();
    expect(old.map?.length).toBe(25626);
    expect([...old.snapshots()].map((s) => [s.tick, s.snapshot.checksum(), s.snapshot.items.length])).toEqual(expected);
  });
});
