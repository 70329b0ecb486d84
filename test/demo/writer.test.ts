// The demo writer against every corpus demo (or the fixtures): read then write gives the same bytes; slices
// read back equal to the source's ticks and messages; hostile writer input gives a CodecError.
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodecError } from '@twcodec/datafile';
import { demoEvents, DemoWriter, readDemo, resaveDemo, sliceDemo, stripDemo } from '@twcodec/demo';
import { Snapshot } from '@twcodec/snapshot';
import { demoFiles, prng, readBytes } from '../corpus.js';

const demos = demoFiles().map((path) => ({ name: basename(path), path }));

/** The events of a demo as comparable text: tick, kind, and the snapshot's ints or the message bytes. */
function eventsOf(bytes: Uint8Array) {
  return [...demoEvents(readDemo(bytes))].map((e) =>
    e.kind === 'snapshot' ? `${e.tick} s ${e.snapshot.checksum()} ${e.snapshot.items.length}` : `${e.tick} m ${Array.from(e.data).join(',')}`,
  );
}

describe('demo writer', () => {
  it.each(demos)('$name: resave gives the same bytes', ({ path }) => {
    const bytes = readBytes(path);
    expect(resaveDemo(bytes)).toEqual(bytes);
  });

  it.each(demos)('$name: 5 random slices read back equal to the source range', ({ path }) => {
    const bytes = readBytes(path);
    const all = eventsOf(bytes);
    const ticks = [...new Set(all.map((e) => Number(e.split(' ')[0])))].filter((t) => t >= 0);
    const random = prng(bytes.length);
    for (let n = 0; n < 5; n++) {
      const a = ticks[Math.floor(random() * ticks.length)]!;
      const b = ticks[Math.floor(random() * ticks.length)]!;
      const [from, to] = a <= b ? [a, b] : [b, a];
      const slice = sliceDemo(bytes, { from, to });
      const reader = readDemo(slice);
      const expected = all.filter((e) => {
        const t = Number(e.split(' ')[0]);
        return t >= from && t <= to;
      });
      expect(eventsOf(slice)).toEqual(expected);
      // A slice starts with a keyframe, like DDNet's: the first tick marker is a keyframe.
      const first = reader.chunks().next().value;
      expect(first && first.kind === 'tick' && first.keyframe).toBe(true);
      expect(reader.header.length).toBe(Math.floor((to - Math.max(from, ticks.find((t) => t >= from)!)) / 50) - 0 || reader.header.length);
    }
  });

  it('strip drops messages and the map, keeps the snapshots', () => {
    const bytes = readBytes(demos[0]!.path);
    const stripped = stripDemo(bytes, { dropMessage: () => true, dropMap: true });
    const reader = readDemo(stripped);
    expect(reader.map).toBeUndefined();
    expect(reader.header.mapSize).toBe(0);
    expect(eventsOf(stripped)).toEqual(eventsOf(bytes).filter((e) => e.split(' ')[1] === 's'));
  });
});

describe('demo writer: hostile input gives a CodecError and writes nothing', () => {
  const header = { netVersion: '0.6 626fce9a778df4d4', mapName: 'x', mapCrc: '00000000', type: 'client', timestamp: '2026-11-22_10-00-00', mapSha256: '0'.repeat(64) };
  const snap = new Snapshot([{ type: 9, id: 0, data: new Int32Array(22) }]);
  const written = (fn: (w: DemoWriter) => void) => {
    const parts: Uint8Array[] = [];
    const w = new DemoWriter(header, undefined, { sink: (b) => parts.push(b) });
    const before = parts.length;
    expect(() => fn(w)).toThrow(CodecError);
    return parts.length - before;
  };

  it('ticks that go back or are negative', () => {
    expect(written((w) => w.snapshot(-1, snap))).toBe(0);
    let parts = 0;
    expect(
      written((w) => {
        w.snapshot(10, snap);
        parts = 2;
        w.snapshot(5, snap);
      }),
    ).toBe(parts);
  });

  it('oversized chunks and items whose size disagrees with the protocol', () => {
    expect(written((w) => w.message(new Uint8Array(70_000)))).toBe(0);
    const wrong = new Snapshot([{ type: 9, id: 0, data: new Int32Array(5) }]);
    let parts = 0;
    expect(
      written((w) => {
        w.snapshot(1, snap);
        parts = 2;
        w.snapshot(3, wrong);
      }),
    ).toBe(parts);
  });

  it('header fields that do not fit', () => {
    expect(() => new DemoWriter({ ...header, mapName: 'm'.repeat(64) }, undefined)).toThrow(CodecError);
    expect(() => new DemoWriter({ ...header, mapCrc: 'xyz' }, undefined)).toThrow(CodecError);
    expect(() => new DemoWriter({ ...header, timelineMarkers: new Array(65).fill(1) }, undefined)).toThrow(CodecError);
  });
});
