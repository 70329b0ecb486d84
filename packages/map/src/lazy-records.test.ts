import { describe, expect, it } from 'vitest';
import { fixtureMaps, readBytes } from '../../../test/corpus.js';
import { Datafile } from '@twcodec/datafile';
import { int32sFromBytes } from '@twcodec/runtime';
import { encodeSoundSourceDeprecatedArray, LayerType } from './generated/index.gen.js';
import { pendingRecords } from './lazy-records.js';
import type { MapLayer, QuadsLayer, TwMap } from './model.js';
import { readMap } from './read.js';
import { validateMap } from './validate.js';
import { writeMap } from './write.js';

const fixture = (name: string) => readBytes(fixtureMaps().find((m) => m.name === name)!.path);
const quadsLayers = (map: TwMap) => map.groups.flatMap((g) => g.layers).filter((l): l is QuadsLayer => l.kind === 'quads');

// Issue 41 (fifth pass): readMap keeps a layer's records as ints and decodes them on first use.
describe('quads and sources decoded on first use', () => {
  it('are an own enumerable accessor until read, then a plain data property holding the same array', () => {
    const layer = quadsLayers(readMap(fixture('ctf1.map')))[0]!;
    const before = Object.getOwnPropertyDescriptor(layer, 'quads')!;
    expect(before.get).toBeTypeOf('function'); // a data property before issue 41's fifth pass
    expect(before.enumerable).toBe(true);
    expect(pendingRecords(layer, 'quads')).toBeInstanceOf(Int32Array);
    expect(Object.keys(layer)).toEqual(['kind', 'item', 'quads']);
    const quads = layer.quads;
    expect(quads.length).toBe(layer.item.numQuads);
    expect(layer.quads).toBe(quads);
    const after = Object.getOwnPropertyDescriptor(layer, 'quads')!;
    expect(after).toEqual({ value: quads, writable: true, enumerable: true, configurable: true });
    expect(pendingRecords(layer, 'quads')).toBeUndefined();
  });

  it('give the same model to JSON, spread, structuredClone, Object.entries and toEqual as when read at once', () => {
    const eager = quadsLayers(readMap(fixture('ctf1.map')));
    for (const l of eager) void l.quads;
    const json = JSON.stringify(eager);
    expect(JSON.stringify(quadsLayers(readMap(fixture('ctf1.map'))))).toBe(json);
    expect(quadsLayers(readMap(fixture('ctf1.map'))).map((l) => ({ ...l }))).toEqual(eager);
    expect(structuredClone(quadsLayers(readMap(fixture('ctf1.map'))))).toEqual(eager);
    expect(Object.entries(quadsLayers(readMap(fixture('ctf1.map')))[0]!)).toEqual(Object.entries(eager[0]!));
    expect(readMap(fixture('ctf1.map'))).toEqual(readMap(fixture('ctf1.map')));
  });

  it('can be assigned before being read; the assigned array is kept and written', () => {
    const bytes = fixture('ctf1.map');
    const map = readMap(bytes);
    const layer = quadsLayers(map).find((l) => l.item.numQuads > 1)!;
    const first = readMap(bytes);
    const kept = quadsLayers(first).find((l) => l.item.numQuads > 1)!.quads.slice(1);
    layer.quads = kept;
    expect(layer.quads).toBe(kept);
    expect(Object.getOwnPropertyDescriptor(layer, 'quads')!.writable).toBe(true);
    const back = quadsLayers(readMap(writeMap(map))).find((l) => l.item.numQuads === kept.length)!;
    expect(back.quads).toEqual(kept);
  });

  it('writeMap keeps the bytes of records never read, and writes edited ones', () => {
    for (const name of ['ctf1.map', 'dm7-legacy-size.map', 'coverage.map']) {
      const bytes = fixture(name);
      expect(writeMap(readMap(bytes))).toEqual(bytes);
      const touched = readMap(bytes);
      for (const l of quadsLayers(touched)) void l.quads;
      expect(writeMap(touched)).toEqual(bytes);
    }
    const map = readMap(fixture('ctf1.map'));
    quadsLayers(map)[0]!.quads[0]!.pivot.x += 32;
    const back = readMap(writeMap(map));
    expect(quadsLayers(back)[0]!.quads[0]!.pivot.x).toBe(quadsLayers(readMap(fixture('ctf1.map')))[0]!.quads[0]!.pivot.x + 32);
  });

  it('validateMap reports the same issues whether or not the records were read', () => {
    const bytes = fixture('ctf1.map');
    const read = readMap(bytes);
    for (const l of quadsLayers(read)) void l.quads;
    expect(validateMap(readMap(bytes))).toEqual(validateMap(read));
  });

  it('do not change when the bytes they were read from change', () => {
    // Data the container holds uncompressed (version-3 files, or bytes a caller set) is not copied by
    // readMap: the records would otherwise be read from the caller's array at first use.
    const bytes = fixture('ctf1.map');
    const index = quadsLayers(readMap(bytes))[0]!.item.data;
    const df = Datafile.read(bytes);
    const raw = df.data[index]!.bytes().slice();
    df.data[index]!.set(raw);
    const map = readMap(df);
    raw.fill(0x55);
    expect(JSON.stringify(quadsLayers(map))).toBe(JSON.stringify(quadsLayers(readMap(bytes))));
  });

  it('do not change when tiles read from the same data item are edited', () => {
    // A quads layer whose data index is a tile layer's (DDNet does not check this): the tiles are a view of the
    // inflated bytes, so the records are copied rather than viewed.
    const first = readMap(fixture('dm7-legacy-size.map'));
    const tiles = first.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap')!;
    const quadsAt = first.groups.flatMap((g) => g.layers).indexOf(quadsLayers(first)[0]!);
    const df = Datafile.read(fixture('dm7-legacy-size.map'));
    const layerItem = df.items.filter((i) => i.type === 5)[quadsAt]!;
    layerItem.data[5] = (tiles.item as { data: number }).data; // the quads layer's data index
    const bytes = df.write();
    const map = readMap(bytes, { strict: false });
    const expected = JSON.stringify(quadsLayers(readMap(bytes, { strict: false }))[0]!.quads);
    const edited = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap')!;
    if (edited.kind !== 'tilemap') throw new Error('unreachable');
    for (let i = 0; i < 8; i++) edited.tiles.setId(i, 200);
    expect(JSON.stringify(quadsLayers(map)[0]!.quads)).toBe(expected);
  });

  it('keep a frozen layer readable, and refuse assignment as a frozen data property does', () => {
    const layer = Object.freeze(quadsLayers(readMap(fixture('ctf1.map')))[0]!);
    const quads = layer.quads;
    expect(quads.length).toBeGreaterThan(0);
    expect(layer.quads).toBe(quads);
    expect(() => {
      (layer as { quads: unknown }).quads = [];
    }).toThrow(TypeError);
  });

  it('sounds sources: a written map reads back and writes again byte for byte, read or not', () => {
    const map = readMap(fixture('ctf1.map'));
    const source = { position: { x: 1, y: 2 }, loop: true, timeDelay: 3, radius: 500, posEnv: -1, posEnvOffset: 0, soundEnv: -1, soundEnvOffset: 0 };
    map.sounds.push({ item: { version: 1, external: false, name: 0, data: 0, dataSize: 0 }, name: 'wind', data: Uint8Array.of(1, 2, 3) });
    const sounds = (kind: 'sounds' | 'sounds_deprecated', sources: object[]) =>
      ({
        kind,
        item: { layerVersion: 0, type: kind === 'sounds' ? LayerType.Sounds : LayerType.SoundsDeprecated, flags: 0, kind, version: 2, numSources: 0, data: -1, sound: 0, name: kind },
        sources,
      }) as unknown as MapLayer;
    const current = { ...source, pan: true, falloff: 0, shape: 1, width: 500, height: 0 };
    delete (current as { radius?: number }).radius;
    map.groups[0]!.layers.push(sounds('sounds', [current]), sounds('sounds_deprecated', [current]));
    const bytes = writeMap(map);
    const back = readMap(bytes);
    const layers = back.groups[0]!.layers.slice(-2);
    for (const l of layers) expect(pendingRecords(l, 'sources')).toBeInstanceOf(Int32Array);
    expect(writeMap(back)).toEqual(bytes);
    expect(layers.map((l) => (l.kind === 'sounds' || l.kind === 'sounds_deprecated' ? l.sources : undefined))).toEqual([[current], [current]]);
    expect(writeMap(back)).toEqual(bytes);
    const deprecatedData = Datafile.read(bytes).data[(layers[1]!.item as { data: number }).data]!.bytes();
    expect(int32sFromBytes(deprecatedData)).toEqual(encodeSoundSourceDeprecatedArray([source]));
  });
});

describe('envelopes and their points built on first use', () => {
  /** dm7 (6-int points) with envelope 1 using points 0..1, as envelope 0 does. */
  function overlapping(): Uint8Array {
    const df = Datafile.read(fixture('dm7-legacy-size.map'));
    const envelope = df.items.filter((i) => i.type === 3)[1]!;
    envelope.data[2] = 0;
    envelope.data[3] = 2;
    return df.write();
  }

  it('map.envelopes is an own enumerable accessor until read; envelopes whose ranges overlap share point objects as before', () => {
    const map = readMap(overlapping());
    expect(Object.getOwnPropertyDescriptor(map, 'envelopes')!.get).toBeTypeOf('function'); // a data property before
    const keys = Object.keys(map);
    expect(keys.slice(0, 5)).toEqual(['version', 'info', 'images', 'envelopes', 'groups']);
    expect(map.envelopes[1]!.points[0]).toBe(map.envelopes[0]!.points[0]);
    expect(map.envelopes[1]!.points).not.toBe(map.envelopes[0]!.points);
    expect(map.envelopes).toBe(map.envelopes);
    expect(Object.keys(map)).toEqual(keys);
    expect(map.readIssues.map((i) => i.code)).toContain('ENVELOPE_POINTS_ORDER');
  });

  it('writeMap keeps the points item of points nobody read, and writes edited ones', () => {
    for (const bytes of [fixture('ctf1.map'), fixture('dm7-legacy-size.map'), overlapping()]) {
      expect(writeMap(readMap(bytes))).toEqual(bytes);
      const touched = readMap(bytes);
      void touched.envelopes;
      expect(writeMap(touched)).toEqual(bytes);
      expect(JSON.stringify(readMap(bytes))).toBe(JSON.stringify(touched));
    }
    const map = readMap(overlapping());
    map.envelopes[1]!.points[1]!.time += 10; // point 1 of envelope 0 too
    const back = readMap(writeMap(map));
    expect(back.envelopes.map((e) => e.points.map((p) => p.time))).toEqual(map.envelopes.map((e) => e.points.map((p) => p.time)));
    const moved = readMap(fixture('dm7-legacy-size.map'));
    moved.envelopes[0]!.item = { ...moved.envelopes[0]!.item, startPoint: 1, numPoints: 2 };
    const expected = readMap(fixture('dm7-legacy-size.map'));
    void expected.envelopes;
    expected.envelopes[0]!.item = { ...expected.envelopes[0]!.item, startPoint: 1, numPoints: 2 };
    expect(writeMap(moved)).toEqual(writeMap(expected));
  });
});
