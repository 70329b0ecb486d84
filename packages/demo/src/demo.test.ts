import { describe, expect, it } from 'vitest';
import { CodecError } from '@twcodec/datafile';
import { fixturesDir, prng, readBytes } from '../../../test/corpus.js';
import { readDemo } from './demo.js';
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
});

describe('demo reader', () => {
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
