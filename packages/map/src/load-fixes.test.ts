// validateMap reports, and fixMapModel applies, DDNet's load-time changes from one table (issue 26).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../test/corpus.js';
import { LAYER_LOAD_FIXES, LayerFlags, readMap, validateMap } from './index.js';

describe('LAYER_LOAD_FIXES', () => {
  it('reports each change DDNet makes to a physics layer and makes it', () => {
    const map = readMap(new Uint8Array(readFileSync(join(repoRoot, 'fixtures', 'maps', 'ctf1.map'))));
    const g = map.groups.findIndex((group) => group.layers.some((l) => l.kind === 'tilemap' && l.tilemapKind === 'game'));
    const l = map.groups[g]!.layers.findIndex((layer) => layer.kind === 'tilemap' && layer.tilemapKind === 'game');
    const game = map.groups[g]!.layers[l]!;
    if (game.kind !== 'tilemap') throw new Error('no game layer');
    const path = `groups[${g}].layers[${l}].`;
    game.item = { ...game.item, layerVersion: 3, name: 'Mine', color: { r: 255, g: 0, b: 0, a: 255 }, flags: game.item.flags | LayerFlags.Detail, dataTele: 5 };
    const codes = (issues: { code: string; severity: string; path: string }[]) => issues.filter((i) => i.severity === 'fixed' && i.path.startsWith(path)).map((i) => i.code).sort();
    const all = ['LAYER_VERSION', 'PHYSICS_DATA_UNUSED', 'PHYSICS_LAYER_COLOR', 'PHYSICS_LAYER_DETAIL', 'PHYSICS_LAYER_NAME'];
    expect(codes(validateMap(map))).toEqual(all);
    expect(LAYER_LOAD_FIXES.map((r) => r.code).sort()).toEqual(all);
    game.item = LAYER_LOAD_FIXES.reduce((item, rule) => rule.apply(item), game.item);
    expect(game.item).toMatchObject({ layerVersion: 0, name: 'Game', color: { r: 255, g: 255, b: 255, a: 255 }, dataTele: -1 });
    expect(game.item.flags & LayerFlags.Detail).toBe(0);
    expect(codes(validateMap(map))).toEqual([]);
    for (const rule of LAYER_LOAD_FIXES) expect(rule.find(game.item)).toEqual([]);
  });
});
