import { ImageVersion, MapError, type MapImage, type TwMap } from '@twcodec/map';
import { decodePng, type RgbaImage } from './png.js';

import { uniqueFileNames } from './file-names.js';

export { MAX_IMAGE_SIDE, type RgbaImage } from './png.js';

/**
 * Decodes a PNG of any colour type and bit depth into 8-bit RGBA, as DDNet's image loader does (see png.ts);
 * errors name `source` (e.g. the PNG's file name) as their path.
 */
export function pngToRgba(png: Uint8Array, source?: string): RgbaImage {
  return decodePng(png, source);
}

export interface ImageFile {
  index: number;
  name: string | undefined;
  /** `name.png`, made safe and unique among the map's images. */
  fileName: string;
  external: boolean;
  width: number;
  height: number;
}

/** Lists a map's images with the file names extractImages gives them. */
export function listImages(map: TwMap): ImageFile[] {
  const fileNames = uniqueFileNames(map.images.map((i) => i.name), 'image', 'png');
  return map.images.map((image, index) => {
    return { index, name: image.name, fileName: fileNames[index]!, external: image.item.external, width: image.item.width, height: image.item.height };
  });
}

function imageAt(map: TwMap, index: number): MapImage {
  const image = map.images[index];
  if (!image) throw new MapError('map.image_index', `the map has no image ${index} (it has ${map.images.length})`);
  return image;
}

/** Finds an image by index (a number) or by name. */
export function findImage(map: TwMap, which: number | string): number {
  if (typeof which === 'number') return imageAt(map, which) && which;
  const index = map.images.findIndex((i) => i.name === which);
  if (index < 0) throw new MapError('map.image_name', `the map has no image named "${which}"`);
  return index;
}

export interface ImageSourceOptions {
  /** A new name for the image. */
  name?: string;
  /** Where the PNG came from (e.g. its file name): the path errors about the PNG name. */
  source?: string;
}

/**
 * Replaces an image's pixels with a PNG's (converted to RGBA) and makes it embedded; the size may change
 * (the layers using it keep their tile indices). The image becomes a DDNet version-1 RGBA image.
 */
export function replaceImage(map: TwMap, index: number, png: Uint8Array, options?: string | ImageSourceOptions): void {
  const { name, source } = typeof options === 'string' ? { name: options, source: undefined } : (options ?? {});
  const image = imageAt(map, index);
  const rgba = pngToRgba(png, source);
  image.item = { ...image.item, width: rgba.width, height: rgba.height, external: false, version: ImageVersion.Ddnet };
  delete image.item.format;
  image.pixels = rgba.pixels;
  if (name !== undefined) image.name = name;
}

/** Adds an embedded image from a PNG; returns its index. */
export function addImage(map: TwMap, name: string, png: Uint8Array, source?: string): number {
  const rgba = pngToRgba(png, source);
  map.images.push({ item: { version: ImageVersion.Ddnet, width: rgba.width, height: rgba.height, external: false, name: -1, data: -1 }, name, pixels: rgba.pixels });
  return map.images.length - 1;
}

/** Makes an image external: DDNet then loads `mapres/<name>.png` instead of embedded pixels. */
export function makeImageExternal(map: TwMap, index: number): void {
  const image = imageAt(map, index);
  image.item = { ...image.item, external: true };
  image.pixels = undefined;
}

/** Embeds an external image from its PNG (e.g. from DDNet's data/mapres). */
export function embedImage(map: TwMap, index: number, png: Uint8Array, source?: string): void {
  replaceImage(map, index, png, { source });
}

export { rgbToRgba } from './rgb.js';
