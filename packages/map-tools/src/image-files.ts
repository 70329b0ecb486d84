import { MapError, type MapImage, type TwMap } from '@twcodec/map';
import { listImages } from './images.js';
import { encodePng, type PngEncodeOptions } from './png-encode.js';

// Images written as PNG files (map extract, map unpack), apart from images.ts: the PNG writer loads fflate,
// which the commands that only list or replace images do not need (start-up, issue 28).

/** Encodes an embedded image's pixels as a PNG (RGBA, or RGB for 0.7 images stored as RGB). */
export function imageToPng(image: MapImage, options?: PngEncodeOptions): Uint8Array {
  if (!image.pixels) throw new MapError('map.image_external', 'image has no embedded pixels (external or unreadable)');
  const { width, height } = image.item;
  const channels = image.pixels.length === width * height * 3 ? 3 : 4;
  if (!(width > 0 && height > 0) || image.pixels.length !== width * height * channels) {
    throw new MapError('map.image_size', `image pixels (${image.pixels.length} bytes) do not match ${width}x${height}`);
  }
  return encodePng(width, height, channels, image.pixels, options);
}

/**
 * The embedded images as PNG files by file name; external images are listed by listImages only. An image whose
 * pixels do not fit its size (or that has no positive size) is left out, as DDNet's map_extract goes on past an
 * image it cannot write.
 */
export function extractImages(map: TwMap, options?: PngEncodeOptions): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const entry of listImages(map)) {
    const image = map.images[entry.index]!;
    if (image.item.external || !image.pixels) continue;
    try {
      files.set(entry.fileName, imageToPng(image, options));
    } catch (e) {
      if (!(e instanceof MapError)) throw e;
    }
  }
  return files;
}
