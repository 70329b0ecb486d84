// Every teehistorian file of the corpus (or the fixtures): byte-exact round trips, DDNet's tick rules,
// stats, chunked stream reading, and hostile variants.
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodecError } from '@twcodec/datafile';
import { readTeehistorian, readTeehistorianStream, teehistorianStats, writeTeehistorian, writeTeehistorianTicked } from '@twcodec/teehistorian';
import { prng, readBytes, teehistorianFiles } from '../corpus.js';

const files = teehistorianFiles().map((path) => ({ name: basename(path), path }));

describe(`teehistorian files (${files.length})`, () => {
  it.each(files)('$name: reads and writes back byte for byte, as is and from ticks', ({ path }) => {
    const bytes = readBytes(path);
    const reader = readTeehistorian(bytes);
    const messages = [...reader];
    expect(reader.end).toEqual({ finished: true, truncated: false, offset: bytes.length });
    const header = { header: reader.header, headerText: reader.headerText };
    expect(Buffer.from(writeTeehistorian(header, messages)).equals(bytes)).toBe(true);
    const ticked = writeTeehistorianTicked(header, messages.map((m) => ({ tick: m.tick, message: m })));
    expect(Buffer.from(ticked).equals(bytes)).toBe(true);
    // The JSON header re-serialises to the same text, so edited headers look like DDNet's too.
    expect(JSON.stringify(reader.header)).toBe(reader.headerText);
  });

  it.each(files)('$name: stats add up', ({ path }) => {
    const bytes = readBytes(path);
    const stats = teehistorianStats(bytes);
    expect(stats.header.version).toBe('2');
    expect(Object.values(stats.messages).reduce((a, b) => a + b, 0)).toBe(stats.messageCount);
    expect(stats.messages.FINISH).toBe(1);
    expect(stats.messages.JOIN ?? 0).toBe(stats.players.reduce((s, p) => s + p.joins, 0));
    if (stats.messages.JOIN) {
      // Every recorded session has Alpha, Bravo and their dummies (client ids 0-3), each joining once.
      expect(stats.players.map((p) => p.cid)).toEqual([0, 1, 2, 3]);
      expect(Object.keys(stats.messages).filter((k) => k.startsWith('EX:'))).toContain('EX:ddnetver');
    }
    expect(stats.ticks.count).toBe(stats.ticks.last - stats.ticks.first + 1);
  });

  it.each(files)('$name: the stream reader gives the same messages for random chunkings', async ({ path }) => {
    const bytes = readBytes(path);
    const expected = JSON.stringify([...readTeehistorian(bytes)]);
    const random = prng(bytes.length);
    for (let round = 0; round < 5; round++) {
      const reader = readTeehistorianStream(
        (async function* () {
          for (let at = 0; at < bytes.length; ) {
            const n = 1 + Math.floor(random() * (round === 0 ? 3 : 4000));
            yield bytes.slice(at, at + n);
            at += n;
          }
        })(),
      );
      const out = [];
      for await (const m of reader) out.push(m);
      expect(JSON.stringify(out)).toBe(expected);
      expect(reader.end?.finished).toBe(true);
    }
  });

  it.each(files)('$name: truncated and corrupted variants give typed errors only', ({ path }) => {
    const bytes = readBytes(path);
    const random = prng(bytes.length ^ 77);
    let errors = 0;
    for (let i = 0; i < 300; i++) {
      let variant: Uint8Array;
      if (i < 100) variant = bytes.subarray(0, Math.floor(random() * bytes.length));
      else {
        variant = bytes.slice();
        const at = Math.floor(random() * variant.length);
        variant[at] = i % 2 ? variant[at]! ^ (1 << Math.floor(random() * 8)) : Math.floor(random() * 256);
      }
      try {
        for (const _ of readTeehistorian(variant));
      } catch (e) {
        if (!(e instanceof CodecError)) throw e;
        expect(e.offset).toBeLessThanOrEqual(variant.length);
        errors++;
      }
    }
    expect(errors).toBeGreaterThan(100);
  });
});
