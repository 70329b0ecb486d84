// Seeds of the map-tools fuzz targets (fuzz/map-tools-targets.mjs): maps, PNGs of every colour type, an Opus
// header. Kept apart from the targets so that seeds.mjs imports no target module.
import { encode } from 'fast-png';

/** The smallest file checkOggOpus accepts: an Ogg page (27-byte header, one segment) holding an Opus header. */
export const TINY_OPUS = (() => {
  const head = new Uint8Array(27 + 1 + 19);
  head.set([...'OggS'].map((c) => c.charCodeAt(0)));
  head[26] = 1;
  head[27] = 19;
  head.set([...'OpusHead'].map((c) => c.charCodeAt(0)), 28);
  head[36] = 1;
  return head;
})();

/** A 16x16 RGBA PNG: a seed, and the PNG every external image gets in the render and convert targets. */
export const SMALL_PNG = encode({ width: 16, height: 16, data: new Uint8Array(16 * 16 * 4).fill(200), channels: 4, depth: 8 });

/** Seeds of the map-tools targets: maps from `mapSeeds`, PNGs of every colour type, an Opus header. */
export function mapToolsSeeds(target, mapSeeds) {
  switch (target) {
    case 'render':
    case 'convert':
    case 'extract':
      return mapSeeds();
    case 'replace-image': {
      const pixels = (n) => Uint8Array.from({ length: n }, (_, i) => (i * 37) & 255);
      return [
        SMALL_PNG,
        encode({ width: 5, height: 3, data: pixels(15), channels: 1, depth: 8 }),
        encode({ width: 5, height: 3, data: pixels(30), channels: 2, depth: 8 }),
        encode({ width: 5, height: 3, data: pixels(45), channels: 3, depth: 8 }),
        encode({ width: 5, height: 3, data: Uint16Array.from(pixels(60), (v) => v * 257), channels: 4, depth: 16 }),
        encode({ width: 4, height: 2, data: Uint8Array.of(0, 1, 2, 1, 0, 2, 2, 1), channels: 1, depth: 8, palette: [[0, 0, 0], [10, 20, 30], [200, 100, 50]] }),
      ];
    }
    case 'replace-sound':
      return [TINY_OPUS];
    default:
      return undefined;
  }
}
