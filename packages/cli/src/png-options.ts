import { nodeDeflate } from '@twcodec/datafile/zlib-node';
import type { PngEncodeOptions } from '@twcodec/map-tools';

/**
 * How the CLI compresses the PNGs it writes (map extract, unpack, render): node:zlib at level 6, libpng's
 * default and so DDNet's map_extract's (src/engine/gfx/image_loader.cpp, DDNet 16.4, sets no level). About four
 * times as fast as the library's default (fflate at level 3) on the corpus images and a tenth smaller: on the
 * largest corpus map that took extract from 1.05x to about 0.6x map_extract's CPU time (issue 28). The pixels
 * are the same; the bytes are those of the zlib Node bundles, not fflate's.
 */
export const CLI_PNG: PngEncodeOptions = { deflate: nodeDeflate, level: 6 };
