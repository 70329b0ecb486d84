// Bundled by treeshake.test.ts: a page that only reads maps.
import { readMap } from '@twcodec/map';

export function layerCount(bytes) {
  return readMap(bytes).groups.reduce((n, g) => n + g.layers.length, 0);
}
