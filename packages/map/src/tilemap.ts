import { MapError } from './errors.js';
import { TILE_TILE_BYTES } from './generated/index.gen.js';

/**
 * Expands Teeworlds 0.7 skip-compressed tiles (tilemap version 4): each stored tile stands for itself and
 * `skip` more copies. The rule and its checks follow DDNet's CMap::ExtractTiles.
 */
export function expandSkippedTiles(stored: Uint8Array, count: number, path: string): Uint8Array {
  const srcCount = Math.floor(stored.length / TILE_TILE_BYTES);
  // Each stored tile stands for at most 256: refuse before allocating what the data cannot fill.
  if (count > srcCount * 256) throw new MapError('TILE_DATA_SHORT', `${srcCount} stored tiles cannot expand to ${count}`, -1, path);
  const out = new Uint8Array(count * TILE_TILE_BYTES);
  let dest = 0;
  let src = 0;
  while (dest < count && src < srcCount) {
    const o = src * TILE_TILE_BYTES;
    const id = stored[o]!;
    const flags = stored[o + 1]!;
    const skip = stored[o + 2]!;
    const reserved = stored[o + 3]!;
    if (reserved !== 0) throw new MapError('TILE_RESERVED_NONZERO', `stored tile ${src} has reserved byte ${reserved}`, -1, path);
    for (let k = 0; k <= skip && dest < count; k++, dest++) {
      out[dest * TILE_TILE_BYTES] = id;
      out[dest * TILE_TILE_BYTES + 1] = flags;
    }
    src++;
  }
  if (dest !== count) throw new MapError('TILE_DATA_SHORT', `skip-compressed tiles expand to ${dest} tiles, need ${count}`, -1, path);
  if (src !== srcCount) throw new MapError('TILE_DATA_LONG', `${srcCount - src} stored tiles left over after ${count} tiles`, -1, path);
  return out;
}

/** The inverse of expandSkippedTiles: runs of equal tiles (at most 256) become one tile with a skip count. */
export function compressSkippedTiles(tiles: Uint8Array): Uint8Array {
  const count = tiles.length / TILE_TILE_BYTES;
  const out = new Uint8Array(tiles.length);
  let n = 0;
  for (let i = 0; i < count; ) {
    const o = i * TILE_TILE_BYTES;
    let run = 1;
    while (
      run < 256 &&
      i + run < count &&
      tiles[o + run * TILE_TILE_BYTES] === tiles[o] &&
      tiles[o + run * TILE_TILE_BYTES + 1] === tiles[o + 1] &&
      tiles[o + run * TILE_TILE_BYTES + 3] === tiles[o + 3]
    ) {
      run++;
    }
    out[n * TILE_TILE_BYTES] = tiles[o]!;
    out[n * TILE_TILE_BYTES + 1] = tiles[o + 1]!;
    out[n * TILE_TILE_BYTES + 2] = run - 1;
    out[n * TILE_TILE_BYTES + 3] = tiles[o + 3]!;
    n++;
    i += run;
  }
  return out.slice(0, n * TILE_TILE_BYTES);
}
