// Tile ids of every corpus map (or, without ../shared/corpus, every fixture) against DDNet's per-layer rules.
// DDNet loads maps with ids a layer does not accept unchanged, so validateMap warns; none of these maps has any.
import { describe, expect, it } from 'vitest';
import * as M from '@twcodec/map';
import { hasCorpus, mapCases, readBytes } from '../corpus.js';

const cases = mapCases();

/** Maps known to hold ids their layer does not accept (name -> number of such tiles); none so far. */
const EXPECTED_INVALID: Record<string, number> = {};

describe(`tile ids on ${hasCorpus ? 'the corpus' : 'the fixtures'} (${cases.length})`, () => {
  it.each(cases)('$name: physics layers hold only ids DDNet accepts there', ({ name, path }) => {
    const map = M.readMap(readBytes(path), { strict: false });
    const issues = M.validateTileIds(map, { maxListedPerLayer: Infinity });
    expect(issues.length).toBe(EXPECTED_INVALID[name] ?? 0);
    // What validateMap reports is the same list, capped.
    expect(M.validateMap(map).filter((i) => i.code.startsWith('TILE_ID')).length).toBe(Math.min(issues.length, 10));
  });

  it('checks game layers of every map and the DDNet physics layers of some', () => {
    const kinds = new Set<string>();
    for (const { path } of cases) {
      for (const group of M.readMap(readBytes(path), { strict: false }).groups) {
        for (const layer of group.layers) if (layer.kind === 'tilemap') kinds.add(M.tilemapKind(layer.item.tilemapFlags));
      }
    }
    expect([...kinds].filter((k) => k !== 'tiles' && M.TILE_ID_VALIDITY[k])).toEqual(expect.arrayContaining(['game', 'front', 'tele', 'speedup']));
  });
});
