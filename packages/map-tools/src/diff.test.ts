import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMap, Tiles, type TilemapLayer, type TwMap, writeMap } from '@twcodec/map';
import { describe, expect, it } from 'vitest';
import { diffMapFiles, diffMaps, formatMapDiff } from './index.js';

const fixture = (name: string) => new Uint8Array(readFileSync(join(__dirname, '..', '..', '..', 'fixtures', 'maps', name)));
const tilemaps = (map: TwMap) => map.groups.flatMap((g) => g.layers).filter((l): l is TilemapLayer => l.kind === 'tilemap');

describe('map diff (issue 26)', () => {
  it('reports tile data of another length, also where the common tiles agree', () => {
    const a = readMap(fixture('ctf1.map'));
    const b = readMap(fixture('ctf1.map'));
    const layer = tilemaps(b).find((l) => l.tilemapKind === 'game')!;
    layer.tiles = new Tiles(layer.tiles.bytes.slice(0, layer.tiles.bytes.length - 4));
    const diff = diffMaps(a, b);
    expect(diff.changes).toEqual([{ path: expect.stringMatching(/^groups\[\d+\]\.layers\[\d+\]$/), what: expect.stringMatching(/tiles data of game tilemap layer .* has \d+ tiles before and \d+ after/) }]);
    expect(formatMapDiff(diff)).not.toBe('no differences\n');
  });

  it('reports renamed layers, groups and envelopes', () => {
    const a = readMap(fixture('ctf1.map'));
    const b = readMap(fixture('ctf1.map'));
    const layer = tilemaps(b)[0]!;
    layer.item = { ...layer.item, name: 'renamed' };
    b.groups[0]!.item = { ...b.groups[0]!.item, name: 'grp' };
    const diff = diffMaps(a, b);
    expect(diff.changes.map((c) => c.what)).toEqual([expect.stringContaining('group "grp" properties'), expect.stringContaining('layer "renamed" properties')]);
    const c = readMap(fixture('ctf1.map'));
    const d = readMap(fixture('ctf1.map'));
    d.envelopes[0]!.item = { ...d.envelopes[0]!.item, name: 'env' };
    expect(diffMaps(c, d).changes).toEqual([{ path: 'envelopes[0]', what: expect.stringContaining('envelope "env"'), fields: [{ field: 'name', from: '', to: 'env' }] }]);
  });

  it('says which fields changed (issue 39), in text and in the result', () => {
    const a = readMap(fixture('ctf1.map'));
    const b = readMap(fixture('ctf1.map'));
    const image = b.images[0]!;
    image.name = 'moon';
    image.item = { ...image.item, width: image.item.width * 2 };
    const layer = tilemaps(b).find((l) => l.tilemapKind === 'tiles')!;
    layer.item = { ...layer.item, color: { ...layer.item.color, a: 128 }, colorEnvOffset: 250 };
    const point = b.envelopes[0]!.points[1]!;
    point.time += 100;
    const diff = diffMaps(a, b);
    const byPath = Object.fromEntries(diff.changes.map((c) => [c.path, c.fields]));
    expect(byPath['images[0]']).toEqual([
      { field: 'width', from: a.images[0]!.item.width, to: image.item.width },
      { field: 'name', from: a.images[0]!.name, to: 'moon' },
    ]);
    expect(byPath['envelopes[0]']).toEqual([{ field: 'points[1]', from: a.envelopes[0]!.points[1], to: point }]);
    const text = formatMapDiff(diff);
    expect(text).toContain(`changed image "moon" (external): width ${a.images[0]!.item.width} -> ${image.item.width}, name "${a.images[0]!.name}" -> "moon"\n`);
    expect(text).toMatch(/layer "[^"]*" properties: color \{"r":\d+,"g":\d+,"b":\d+,"a":255\} -> \{"r":\d+,"g":\d+,"b":\d+,"a":128\}, colorEnvOffset 0 -> 250\n/);
    // Data indices and counts the writer derives are no differences, also when nothing else changed.
    const c = readMap(fixture('ctf1.map'));
    const g = c.groups.findIndex((x) => x.layers.length > 0);
    c.groups[g]!.item = { ...c.groups[g]!.item, startLayer: 99, numLayers: 0 };
    c.envelopes[0]!.item = { ...c.envelopes[0]!.item, startPoint: 7 };
    expect(diffMaps(a, c).changes).toEqual([]);
  });

  it('names game tiles beside their ids, and says "1 tile"', () => {
    const a = readMap(fixture('ctf1.map'));
    const b = readMap(fixture('ctf1.map'));
    const game = tilemaps(b).find((l) => l.tilemapKind === 'game')!;
    const i = game.tiles.bytes.findIndex((v, at) => at % 4 === 0 && v === 1) / 4;
    game.tiles.setId(i, 2);
    const diff = diffMaps(a, b);
    expect(diff.tiles).toEqual([expect.objectContaining({ fromIndex: 1, toIndex: 2, fromName: 'Solid', toName: 'Death' })]);
    expect(diff.changes[0]!.what).toMatch(/^1 tile changed in game/);
    expect(formatMapDiff(diff)).toMatch(/01000000 \(Solid\) -> 02000000 \(Death\)/);
  });

  it('diffMapFiles inflates only data whose stored bytes differ, and says what diffMaps says (issue 28)', () => {
    const bytes = fixture('ctf1.map');
    const b = readMap(bytes);
    const game = tilemaps(b).find((l) => l.tilemapKind === 'game')!;
    const i = game.tiles.bytes.findIndex((v, at) => at % 4 === 0 && v === 1) / 4;
    game.tiles.setId(i, 2);
    const edited = writeMap(b);
    const inflated: number[][] = [[], []];
    const diff = diffMapFiles(bytes, edited, (input, options, which) => {
      const map = readMap(input, options);
      // Which data items the second (full) read of each map inflated.
      if (options.inflateData && input === map.datafile && map.datafile) inflated[which === 'a' ? 0 : 1]!.push(...map.datafile.data.map((d) => d.index).filter((d) => options.inflateData!(d)));
      return map;
    });
    expect(diff).toEqual(diffMaps(readMap(bytes, { strict: false }), readMap(edited, { strict: false })));
    expect(diff.tiles).toHaveLength(1);
    // The changed game layer's data is inflated on both sides; every other tile layer's is not.
    expect(inflated[0]).toContain(game.item.data);
    expect(inflated[1]).toContain(game.item.data);
    for (const layer of tilemaps(b)) if (layer !== game) expect(inflated[0]).not.toContain(layer.item.data);
    expect(diffMapFiles(bytes, bytes)).toEqual({ changes: [], tiles: [] });
  });
});
