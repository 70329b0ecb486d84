import type { TwMap } from '@twcodec/map';
import { extractImages } from '@twcodec/map-tools';
import { CLI_PNG } from './png-options.js';

// map extract's PNG writer, loaded only for maps with embedded images (map-extract.ts).

/** The embedded images of `map` as PNG files, by file name. */
export function extractPngs(map: TwMap): Map<string, Uint8Array> {
  return extractImages(map, CLI_PNG);
}
