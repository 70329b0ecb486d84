import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMap, Tiles, type TilemapLayer, type TwMap } from '@twcodec/map';
import { describe, expect, it } from 'vitest';
import { diffMaps, formatMapDiff } from './index.js';

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
    expect(diffMaps(c, d).changes).toEqual([{ path: 'envelopes[0]', what: expect.stringContaining('envelope "env"') }]);
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
});
