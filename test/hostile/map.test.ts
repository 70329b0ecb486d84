// Regression tests for hostile maps a fuzzing campaign found (issue 17): each input is generated here, small.
import { describe, expect, it } from 'vitest';
import { Datafile } from '@twcodec/datafile';
import { MAX_SKIP_EXPANDED_TILES, MapError, readMap } from '@twcodec/map';
import { fixturesDir, readBytes } from '../corpus.js';
import { join } from 'node:path';

// Layer item ints (src/game/mapitems.h CMapItemLayer + CMapItemLayerTilemap): 1 = layer type (2 tiles),
// 4/5 = width/height, 6 = tilemap flags (1 = game), 14 = data index.
const LAYER_TYPE = 1;
const WIDTH = 4;
const HEIGHT = 5;
const TILEMAP_FLAGS = 6;
const DATA = 14;

/** ctf1 (Teeworlds 0.7, skip-compressed tiles) with its game layer resized and given `tiles` as stored data. */
function ctf1WithGameLayer(width: number, height: number, stored: Uint8Array): Uint8Array {
  const df = Datafile.read(readBytes(join(fixturesDir, 'maps', 'ctf1.map')));
  const game = df.items.find((i) => i.type === 5 && i.data[LAYER_TYPE] === 2 && (i.data[TILEMAP_FLAGS]! & 1) === 1)!;
  const ints = game.data.slice();
  ints[WIDTH] = width;
  ints[HEIGHT] = height;
  game.data = ints;
  df.data[ints[DATA]!]!.set(stored);
  return df.write();
}

/** `count` stored tiles of id 1, each standing for 256 tiles (skip 255). */
function skipTiles(count: number): Uint8Array {
  const out = new Uint8Array(count * 4);
  for (let i = 0; i < count; i++) {
    out[i * 4] = 1;
    out[i * 4 + 2] = 255;
  }
  return out;
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(MapError);
    return (e as MapError).code;
  }
  return undefined;
}

describe('skip-compressed tile bomb', () => {
  it('a layer declaring more tiles than the limit is refused before it is expanded', () => {
    // 8192 x 8192 = 2^26 tiles, exactly what 2^18 stored tiles of skip 255 expand to: a few KB compressed.
    const bytes = ctf1WithGameLayer(8192, 8192, skipTiles(1 << 18));
    expect(bytes.length).toBeLessThan(64 * 1024);
    expect(codeOf(() => readMap(bytes))).toBe('TILEMAP_TOO_LARGE');
    const lenient = readMap(bytes, { strict: false });
    expect(lenient.readIssues.map((i) => i.code)).toContain('TILEMAP_TOO_LARGE');
  });

  it('at the limit, stored tiles that cannot fill the layer are refused before allocating it', () => {
    const side = Math.sqrt(MAX_SKIP_EXPANDED_TILES);
    const bytes = ctf1WithGameLayer(side, side, skipTiles(10));
    expect(codeOf(() => readMap(bytes))).toBe('TILE_DATA_SHORT');
  });

  it('a layer within the limit that its stored tiles fill exactly reads', () => {
    const bytes = ctf1WithGameLayer(256, 256, skipTiles(256));
    const map = readMap(bytes);
    const game = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap' && (l.item.tilemapFlags & 1) === 1);
    expect(game && game.kind === 'tilemap' ? game.tiles.length : 0).toBe(256 * 256);
  });
});
