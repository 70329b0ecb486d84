import { MapError } from './errors.js';
import { TILE_TILE_BYTES } from './generated/index.gen.js';

/**
 * The most tiles a skip-compressed layer may expand to: 2^24 tiles (64 MiB, e.g. 4096x4096). DDNet's loader
 * allocates width x height tiles whatever they are (its editor allows up to 100000x100000), and 4 bytes of
 * skip-255 tiles deflate about 1000:1, so a few KB of file could otherwise claim gigabytes. The largest layer
 * of any map shipped with DDNet or Teeworlds is far below this; `maxTiles` raises it for a trusted file.
 */
export const MAX_SKIP_EXPANDED_TILES = 1 << 24;

/**
 * Expands Teeworlds 0.7 skip-compressed tiles (tilemap version 4): each stored tile stands for itself and
 * `skip` more copies. The rule and its checks follow DDNet's CMap::ExtractTiles (src/engine/shared/map.cpp).
 * Every check runs on the stored tiles before the expanded layer is allocated.
 */
export function expandSkippedTiles(
  stored: Uint8Array,
  count: number,
  path: string,
  maxTiles: number = MAX_SKIP_EXPANDED_TILES,
): Uint8Array {
  if (count > maxTiles) {
    throw new MapError('TILEMAP_TOO_LARGE', `a skip-compressed layer of ${count} tiles is over the limit of ${maxTiles} tiles`, -1, path);
  }
  const srcCount = Math.floor(stored.length / TILE_TILE_BYTES);
  // A first pass over the stored tiles finds how far they expand, so a short or long layer is refused
  // without allocating it.
  let dest = 0;
  let src = 0;
  while (dest < count && src < srcCount) {
    const o = src * TILE_TILE_BYTES;
    const reserved = stored[o + 3]!;
    if (reserved !== 0) throw new MapError('TILE_RESERVED_NONZERO', `stored tile ${src} has reserved byte ${reserved}`, -1, path);
    dest = Math.min(count, dest + stored[o + 2]! + 1);
    src++;
  }
  if (dest !== count) throw new MapError('TILE_DATA_SHORT', `skip-compressed tiles expand to ${dest} tiles, need ${count}`, -1, path);
  if (src !== srcCount) throw new MapError('TILE_DATA_LONG', `${srcCount - src} stored tiles left over after ${count} tiles`, -1, path);
  // Whole tiles are written as one 32-bit word (id, flags, skip 0, reserved 0) and runs with fill(): the
  // expanded layer is often tens of MB of runs.
  const words = new Uint32Array(count);
  dest = 0;
  for (src = 0; dest < count; src++) {
    const o = src * TILE_TILE_BYTES;
    const word = LITTLE_ENDIAN ? stored[o]! | (stored[o + 1]! << 8) : (stored[o]! << 24) | (stored[o + 1]! << 16);
    const end = Math.min(count, dest + stored[o + 2]! + 1);
    if (end - dest > 8) words.fill(word >>> 0, dest, end);
    else for (; dest < end; dest++) words[dest] = word;
    dest = end;
  }
  return new Uint8Array(words.buffer);
}

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

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
