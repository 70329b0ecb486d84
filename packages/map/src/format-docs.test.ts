// The statements docs/formats/map.md makes about the corpus maps (schemas/map/items/layer.yaml and the page
// template schemas/map/map.md), measured on every corpus map: a docs change that contradicts the files, or
// a corpus that no longer matches the page, fails here.
import { Datafile } from '@twcodec/datafile';
import { describe, expect, it } from 'vitest';
import { hasCorpus, mapCases, readBytes } from '../../../test/corpus.js';
import { EnvelopeVersion, GroupVersion, QuadsLayerVersion, TilemapLayerVersion } from './generated/versions.gen.js';

const [ENVELOPE, GROUP, LAYER] = [3, 4, 5];
const [TILEMAP, QUADS] = [2, 3];

interface Count {
  items: number;
  maps: Set<string>;
  lengths: Set<number>;
  flags: Set<number>;
}

function measure() {
  const counts = new Map<string, Count>();
  const count = (key: string, map: string, length: number, flags = 0) => {
    const c = counts.get(key) ?? { items: 0, maps: new Set(), lengths: new Set(), flags: new Set() };
    c.items++;
    c.maps.add(map);
    c.lengths.add(length);
    c.flags.add(flags);
    counts.set(key, c);
  };
  let layers = 0;
  let skipInUncompressed = 0;
  let reservedNonZero = 0;
  let v4NotExact = 0;
  let v4Smaller = 0;
  let v4KeptByResave = 0;
  for (const { name, path, resavedPath } of mapCases()) {
    const df = Datafile.read(readBytes(path));
    const resaved = resavedPath ? Datafile.read(readBytes(resavedPath)) : undefined;
    const resavedLayers = resaved ? resaved.itemsOfType(LAYER).map((item) => item.data) : [];
    let layerIndex = -1;
    for (const { data } of df.itemsOfType(GROUP)) count(`group v${data[0]}`, name, data.length);
    for (const { data } of df.itemsOfType(ENVELOPE)) count(`envelope v${data[0]}`, name, data.length);
    for (const { data } of df.itemsOfType(LAYER)) {
      layers++;
      layerIndex++;
      const [type, version] = [data[1]!, data[3]!];
      if (type === QUADS) count(`quads v${version}`, name, data.length);
      if (type !== TILEMAP) continue;
      count(`tilemap v${version}`, name, data.length, data[6]);
      const tiles = df.data[data[14]!]!.bytes();
      let expanded = 0;
      for (let i = 0; i < tiles.length; i += 4) {
        if (tiles[i + 3] !== 0) reservedNonZero++;
        if (version < 4 && tiles[i + 2] !== 0) skipInUncompressed++;
        expanded += tiles[i + 2]! + 1;
      }
      if (version === 4 && expanded !== data[4]! * data[5]!) v4NotExact++;
      if (version === 4 && tiles.length < data[4]! * data[5]! * 4) v4Smaller++;
      const again = resavedLayers[layerIndex];
      if (version === 4 && again && again[3] === 4 && equalBytes(resaved!.data[again[14]!]!.bytes(), tiles)) v4KeptByResave++;
    }
  }
  return { counts, layers, skipInUncompressed, reservedNonZero, v4NotExact, v4Smaller, v4KeptByResave };
}

describe.runIf(hasCorpus)('docs/formats/map.md against the corpus maps', () => {
  const m = hasCorpus ? measure() : undefined!;
  const get = (key: string) => m.counts.get(key)!;

  it('version-1 quads layers end after image (7 ints); version 2 adds the 3-int name', () => {
    expect(mapCases().length).toBe(40);
    expect(get(`quads v${QuadsLayerVersion.Unnamed}`)).toMatchObject({ items: 77, lengths: new Set([7]) });
    expect(get(`quads v${QuadsLayerVersion.Unnamed}`).maps.size).toBe(17);
    expect(get(`quads v${QuadsLayerVersion.Named}`)).toMatchObject({ items: 256, lengths: new Set([10]) });
    expect([...m.counts.keys()].filter((k) => k.startsWith('quads')).sort()).toEqual(['quads v1', 'quads v2']);
  });

  it('tilemap items: version 2 has 15 or 17 ints, version 3 18 or 23, version 4 (0.7) 18 and only tiles or game layers', () => {
    expect(get(`tilemap v${TilemapLayerVersion.Unnamed}`)).toMatchObject({ items: 147, lengths: new Set([15, 17]) });
    expect(get(`tilemap v${TilemapLayerVersion.Named}`)).toMatchObject({ items: 218, lengths: new Set([18, 23]) });
    expect(get(`tilemap v${TilemapLayerVersion.SkipCompressed}`)).toMatchObject({ items: 86, lengths: new Set([18]), flags: new Set([0, 1]) });
    expect(m.layers).toBe(LAYER_ITEMS);
  });

  it('group items: version 2 has 12 ints (clipping), version 3 15 (name)', () => {
    expect(get(`group v${GroupVersion.Clipped}`)).toMatchObject({ items: 111, lengths: new Set([12]) });
    expect(get(`group v${GroupVersion.Named}`)).toMatchObject({ items: 194, lengths: new Set([15]) });
    expect([...m.counts.keys()].filter((k) => k.startsWith('group')).sort()).toEqual(['group v2', 'group v3']);
  });

  it('envelopes: version 2 (synchronized) in DDNet and 0.7 maps alike, version 3 only in 0.7 maps', () => {
    const dirs = (key: string) => new Set([...get(key).maps].map((name) => name.split(/[\\/]/)[0]));
    expect(dirs(`envelope v${EnvelopeVersion.Synchronized}`)).toEqual(new Set(['ddnet', 'ddnet07', 'tw07']));
    expect(dirs(`envelope v${EnvelopeVersion.BezierPoints}`)).toEqual(new Set(['tw07']));
  });

  it('0.7 skip compression: every version-4 layer expands to exactly width x height; no skip bytes in versions 2-3; reserved always 0', () => {
    expect(m.v4NotExact).toBe(0);
    expect(m.skipInUncompressed).toBe(0);
    expect(m.reservedNonZero).toBe(0);
  });

  it('0.7 skip compression: a version-4 data item holds only the stored tiles (86 of 86 under 4 x width x height bytes); DDNet 16.4 map_resave keeps all 86', () => {
    expect(m.v4Smaller).toBe(86);
    expect(m.v4KeptByResave).toBe(86);
  });
});

const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Layer items in the 40 corpus maps (layer.yaml's `checked` line says it). */
const LAYER_ITEMS = 786;
