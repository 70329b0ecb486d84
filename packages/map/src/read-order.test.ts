import { describe, expect, it } from 'vitest';
import { Datafile, type DatafileItem, type ZlibCodec } from '@twcodec/datafile';
import { fixtureMaps, readBytes } from '../../../test/corpus.js';
import { MapError } from './errors.js';
import { readMap } from './read.js';

const fixture = (name: string) => readBytes(fixtureMaps().find((m) => m.name === name)!.path);

/** The default codec, noting each inflate in `events`. */
function notingCodec(events: string[]): ZlibCodec {
  const codec = new Datafile().zlib;
  return { ...codec, name: 'noting', inflate: (compressed, maxSize) => (events.push('inflate'), codec.inflate(compressed, maxSize)) };
}

/** The container's items, each noting in `events` when its ints are read (that is, decoded). */
function notingItems(df: Datafile, events: string[]): void {
  df.items = df.items.map((item): DatafileItem => {
    const { data, ...rest } = item;
    return Object.defineProperty({ ...rest }, 'data', { enumerable: true, get: () => (events.push('item'), data) }) as DatafileItem;
  });
}

describe('readMap inflates the data before it builds the model (issue 41, sixth pass)', () => {
  // The order is what keeps the model's objects out of the collections the inflated buffers force (see
  // inflateAhead in read.ts); no timing is asserted here, only the order and that the outcome is the same.
  it('inflates every data item once, before it decodes any item, and reads the same model', () => {
    const bytes = fixture('ctf1.map');
    const events: string[] = [];
    const df = Datafile.read(bytes, { zlib: notingCodec(events) });
    notingItems(df, events);
    const map = readMap(df);
    expect(events.filter((e) => e === 'inflate')).toHaveLength(df.data.length);
    expect(events.lastIndexOf('inflate')).toBeLessThan(events.indexOf('item'));
    const plain = readMap(bytes);
    expect(map.groups).toEqual(plain.groups);
    expect(map.images).toEqual(plain.images);
    expect(map.readIssues).toEqual(plain.readIssues);
    // The model owns what it uses; the container keeps only the stored bytes, as before.
    expect(df.data.map((d) => d.loaded)).toEqual(df.data.map(() => false));
  });

  it('inflates only what is wanted with skipData and inflateData, as it reads', () => {
    // ctf1: data 0-3 are the (external) images' names and 4-7 quads, which every read decodes; 8-12 tiles.
    for (const [options, inflated] of [
      [{ skipData: true }, 8],
      [{ inflateData: (index: number) => index === 10 }, 9],
    ] as const) {
      const events: string[] = [];
      const df = Datafile.read(fixture('ctf1.map'), { zlib: notingCodec(events) });
      notingItems(df, events);
      readMap(df, options);
      expect(events.filter((e) => e === 'inflate')).toHaveLength(inflated);
      expect(events.indexOf('item')).toBeLessThan(events.indexOf('inflate'));
    }
  });

  it('a read that throws leaves inflated only what the elements before the error used', () => {
    const bytes = fixture('ctf1.map');
    // Data item 10 is the game layer's tiles (images 0-3 are names, quads 4-7, tiles 8-12 in layer order).
    const stored = Datafile.read(bytes).data[10]!;
    const corrupt = bytes.slice();
    corrupt[stored.fileOffset + (stored.stored!.length >> 1)]! ^= 0x55;
    const df = Datafile.read(corrupt);
    expect(() => readMap(df)).toThrow(MapError);
    expect(df.data.map((d) => d.loaded)).toEqual([true, true, true, true, true, true, true, true, true, true, false, false, false]);
  });
});
