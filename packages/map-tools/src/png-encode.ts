import { crc32 } from '@twcodec/runtime';
import type { DeflateFunction } from '@twcodec/datafile';
import { type DeflateOptions, zlibSync } from 'fflate';

// The PNG writer, apart from the reader (png.ts): fflate builds its tables when it is imported (about 20 ms of
// CPU time measured alone on Node 20), which the commands that only read PNGs or none (map convert, map resave,
// map diff) do not pay for (start-up, issue 28; docs/performance.md).

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** PNG colour types by channel count (8-bit samples): grey, grey + alpha, RGB, RGBA. */
const COLOR_TYPE_BY_CHANNELS = [-1, 0, 4, 2, 6];

/** How encodePng compresses the image data (one zlib stream). */
export interface PngEncodeOptions {
  /**
   * The deflater (default fflate, the same bytes on every platform). The CLI passes node:zlib's, about four
   * times as fast at level 6 as fflate at level 3 on the corpus images (issue 28), with smaller files; its
   * bytes depend on the zlib build Node bundles, which is why it is not the default.
   */
  deflate?: DeflateFunction;
  /** The zlib level, 0 to 9 (default 3; libpng's own default, which DDNet's map_extract keeps, is 6). */
  level?: number;
}

/**
 * Encodes 8-bit pixels (1 to 4 channels, rows top to bottom) as a PNG: the header, one IDAT of every row with
 * filter type 0, zlib at `options.level` (default 3, fflate), the end. With the defaults these are the bytes
 * fast-png 8 writes for the same pixels (checked on every image of the corpus maps): written here in one buffer
 * of the final size, because fast-png grows its buffers step by step and that was a fifth of extracting a large
 * map's images (issue 28).
 */
export function encodePng(width: number, height: number, channels: 1 | 2 | 3 | 4, pixels: Uint8Array, options: PngEncodeOptions = {}): Uint8Array {
  const row = width * channels;
  if (!(Number.isInteger(width) && width > 0 && Number.isInteger(height) && height > 0) || pixels.length !== row * height) {
    throw new RangeError(`encodePng: ${pixels.length} bytes of pixels do not make ${width}x${height} with ${channels} channels`);
  }
  const raw = new Uint8Array((row + 1) * height);
  for (let y = 0, from = 0, to = 1; y < height; y++, from += row, to += row + 1) raw.set(pixels.subarray(from, from + row), to);
  const level = options.level ?? 3;
  if (!(Number.isInteger(level) && level >= 0 && level <= 9)) throw new RangeError(`encodePng: zlib level ${level} is not 0 to 9`);
  const idat = options.deflate ? options.deflate(raw, level) : zlibSync(raw, { level: level as DeflateOptions['level'] });
  const png = new Uint8Array(8 + 25 + 12 + idat.length + 12);
  const view = new DataView(png.buffer);
  png.set(PNG_SIGNATURE, 0);
  let at = 8;
  const chunk = (type: string, length: number, fill: (start: number) => void) => {
    view.setUint32(at, length);
    for (let i = 0; i < 4; i++) png[at + 4 + i] = type.charCodeAt(i);
    fill(at + 8);
    view.setUint32(at + 8 + length, crc32(png.subarray(at + 4, at + 8 + length)));
    at += 12 + length;
  };
  chunk('IHDR', 13, (s) => {
    view.setUint32(s, width);
    view.setUint32(s + 4, height);
    png[s + 8] = 8; // bit depth
    png[s + 9] = COLOR_TYPE_BY_CHANNELS[channels]!;
    // compression 0 (deflate), filter method 0, no interlace: bytes s+10..s+12 stay 0
  });
  chunk('IDAT', idat.length, (s) => png.set(idat, s));
  chunk('IEND', 0, () => {});
  return png;
}
