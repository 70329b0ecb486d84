import { defaultZlib, rememberingZlib } from '@twcodec/datafile';
import { IMAGE_FORMAT_BYTES, ImageFormat, ImageVersion, readMap, TilemapLayerVersion, type TwMap, writeMap } from '@twcodec/map';
import { rgbToRgba } from './rgb.js';

/**
 * Turns a Teeworlds 0.7 map into one DDNet loads and writes as DDNet does: images as version-1 RGBA (0.7's
 * RGB images get opaque alpha), tile layers as version 3 (0.7's skip-compressed version 4 is written
 * expanded). Envelope points keep 0.7's 22-int layout, which DDNet reads (its loader tells the layouts apart
 * by item size); rewriting them to DDNet's 6-int layout made DDNet's map_resave crash on the result. Modifies `map`.
 */
export function convert07ToDdnet(map: TwMap): TwMap {
  for (const image of map.images) {
    if (image.item.version < ImageVersion.Teeworlds07) continue;
    const { width, height } = image.item;
    if (image.pixels && image.pixels.length === width * height * IMAGE_FORMAT_BYTES[ImageFormat.Rgb]!) {
      image.pixels = rgbToRgba(image.pixels, width, height);
    }
    image.item = { ...image.item, version: ImageVersion.Ddnet };
    delete image.item.format;
  }
  for (const group of map.groups) {
    for (const layer of group.layers) if (layer.kind === 'tilemap' && layer.item.version >= TilemapLayerVersion.SkipCompressed) layer.item = { ...layer.item, version: TilemapLayerVersion.Named };
  }
  return map;
}

/**
 * Whether a map has anything of Teeworlds 0.7's form that convert07ToDdnet changes: version-2 images (0.7's
 * RGB/RGBA formats) or skip-compressed (version 4) tile layers. (0.7's envelope points DDNet reads as they are.)
 */
export function hasTeeworlds07Form(map: TwMap): boolean {
  return (
    map.images.some((i) => i.item.version >= ImageVersion.Teeworlds07) ||
    map.groups.some((g) => g.layers.some((l) => l.kind === 'tilemap' && l.item.version >= TilemapLayerVersion.SkipCompressed))
  );
}

/** convert07ToDdnet on a map file: returns a DDNet map file. */
export function convert07ToDdnetFile(bytes: Uint8Array): Uint8Array {
  // The writer compares unchanged data with what the read inflated rather than inflating it again
  // (convert07ToDdnet replaces what it changes, never edits it in place).
  return writeMap(convert07ToDdnet(readMap(bytes, { strict: false, zlib: rememberingZlib(defaultZlib) })), { mode: 'ddnet' });
}
