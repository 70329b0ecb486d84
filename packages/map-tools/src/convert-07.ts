import { defaultZlib, rememberingZlib } from '@twcodec/datafile';
import { ImageFormat, ImageVersion, MapError, readMap, type TwMap, writeMap } from '@twcodec/map';
import { decodePng, readPngHeader } from './png.js';

// DDNet to Teeworlds 0.7, with the facts of DDNet 16.4's src/tools/map_convert_07.cpp (and its PNG loader,
// src/engine/gfx/image_loader.cpp). The tool copies every item and data item as map_resave does and changes
// only external images: a 0.7 client has other mapres than DDNet's, so each external image whose
// `data/mapres/<name>.png` it finds is embedded; the image data is appended after all existing data, in image
// order. Tilemaps, envelope points (DDNet's 6-int points, which 0.7 reads for envelope version 2) and DDNet's
// extra layers are left as they are.

/** Largest image side map_convert_07 (DDNet 16.4) embeds: `2 << 13`. */
export const CONVERT_07_MAX_IMAGE_SIDE = 16384;

export interface ConvertTo07Options {
  /**
   * The PNG of an external image by name (DDNet's `data/mapres/<name>.png`), or undefined when there is none;
   * without it every external image stays external, as map_convert_07 leaves images it cannot find.
   */
  mapres?: (name: string) => Uint8Array | undefined;
}

/** One thing map_convert_07 reports about a map. */
export interface Convert07Note {
  /** `refuse`: map_convert_07 exits with an error (it still writes the map); `info`: just reported. */
  severity: 'refuse' | 'info';
  code: 'image_not_divisible_by_16' | 'too_many_images' | 'image_kept_external' | 'image_embedded' | 'image_not_embeddable';
  path: string;
  message: string;
}

export interface ConvertTo07Result {
  bytes: Uint8Array;
  /** Names of the external images that were embedded. */
  embedded: string[];
  notes: Convert07Note[];
  /** Whether map_convert_07 would exit successfully (no `refuse` note). */
  ok: boolean;
}

/**
 * Decodes a PNG as map_convert_07 accepts it: only colour type 6 (RGBA) at 8 or 16 bits (16-bit samples keep
 * their high byte, as libpng's png_set_strip_16 does), at most MAX_IMAGE_SIDE (8192) pixels a side, where
 * map_convert_07 takes up to 16384. Returns the reason as a string for anything else (DDNet keeps such an image
 * external).
 */
export function decodeRgbaPngFor07(png: Uint8Array, source?: string): { width: number; height: number; pixels: Uint8Array } | string {
  let header;
  try {
    header = readPngHeader(png, source);
  } catch (e) {
    if (!(e instanceof MapError)) throw e;
    // Sides past MAX_IMAGE_SIDE (up to map_convert_07's 16384) are refused too: 16384x16384 RGBA is 1 GiB.
    return e.code === 'png.size' ? `${e.detail}; larger images are not embedded` : `not a readable PNG (${e.detail})`;
  }
  const { colorType, bitDepth } = header;
  if (colorType !== 6) return `PNG is not RGBA (colour type ${colorType}, ${bitDepth} bits); only RGBA PNGs are embedded`;
  try {
    return decodePng(png, source);
  } catch (e) {
    if (!(e instanceof MapError)) throw e;
    return `not a readable PNG (${e.detail})`;
  }
}

/**
 * Converts a DDNet map for Teeworlds 0.7 clients as DDNet's map_convert_07 does (modifies `map`): external
 * images found by `options.mapres` become embedded RGBA images (width, height and data replaced; version and
 * any further ints of the image item kept), their pixels as new data after all existing data. Also reports
 * what map_convert_07 refuses: a tile layer using an image whose sides are not multiples of 16, which 0.7
 * cannot draw. Write the result with `writeMap(map, { mode: 'ddnet' })`.
 */
export function convertDdnetTo07(map: TwMap, options: ConvertTo07Options = {}): { embedded: string[]; notes: Convert07Note[] } {
  const notes: Convert07Note[] = [];
  const embedded: string[] = [];
  // map_convert_07 checks the images as the input has them, before embedding.
  const sizes = map.images.map((i) => ({ width: i.item.width, height: i.item.height, name: i.name }));
  map.groups.forEach((group, g) =>
    group.layers.forEach((layer, l) => {
      if (layer.kind !== 'tilemap' || layer.item.image === -1) return;
      const image = sizes[layer.item.image];
      if (!image) return;
      if (image.width > 0 && image.height > 0 && image.width % 16 === 0 && image.height % 16 === 0) return;
      notes.push({
        severity: 'refuse',
        code: 'image_not_divisible_by_16',
        path: `groups[${g}].layers[${l}]`,
        message: `tile layer "${layer.item.name ?? ''}" uses image "${image.name ?? '(error)'}" of ${image.width}x${image.height}, not divisible by 16, which Teeworlds 0.7 does not support; scale the image and replace it`,
      });
    }),
  );
  if (map.images.length > 64) {
    notes.push({ severity: 'info', code: 'too_many_images', path: 'images', message: `${map.images.length} images; clients load at most 64` });
  }
  map.images.forEach((image, i) => {
    const path = `images[${i}]`;
    if (!image.item.external) return;
    const name = image.name;
    const png = name ? options.mapres?.(name) : undefined;
    if (!name || !png) {
      notes.push({ severity: 'info', code: 'image_kept_external', path, message: `external image "${name ?? '(error)'}" kept external: ${name ? 'no PNG for it' : 'it has no name'}` });
      return;
    }
    const rgba = decodeRgbaPngFor07(png);
    if (typeof rgba === 'string') {
      notes.push({ severity: 'info', code: 'image_not_embeddable', path, message: `external image "${name}" kept external: ${rgba}` });
      return;
    }
    // data -1: the pixels become a new data item (after all existing ones) rather than replacing whatever
    // the external image referred to; map_convert_07 keeps all existing data.
    image.item = { ...image.item, width: rgba.width, height: rgba.height, external: false, data: -1 };
    // A 0.7 image item's format: map_convert_07 leaves stack memory there (it copies the item's size from a
    // 6-int struct); RGBA is what the data is.
    if (image.item.version >= ImageVersion.Teeworlds07 && image.item.format !== undefined) image.item.format = ImageFormat.Rgba;
    image.pixels = rgba.pixels;
    embedded.push(name);
    notes.push({ severity: 'info', code: 'image_embedded', path, message: `embedded image "${name}" (${rgba.width}x${rgba.height})` });
  });
  return { embedded, notes };
}

/** convertDdnetTo07 on a map file: the file map_convert_07 writes, and what it reported. */
export function convertDdnetTo07File(bytes: Uint8Array, options: ConvertTo07Options = {}): ConvertTo07Result {
  // The writer compares unchanged data with what the read inflated rather than inflating it again
  // (convertDdnetTo07 replaces what it changes, never edits it in place).
  const map = readMap(bytes, { strict: false, zlib: rememberingZlib(defaultZlib) });
  const { embedded, notes } = convertDdnetTo07(map, options);
  // map_convert_07 inflates every data item and compresses it again with zlib's default level, as map_resave
  // does. Unchanged data keeps its stored bytes here instead, as `map resave --ddnet` does: they are what that
  // recompression gives for a map written with zlib's default level (every data item of every corpus map,
  // checked with pako, which reproduces DDNet's zlib), and deflating all data again with pako was 90% of this
  // conversion's time (issue 28). A map whose data was compressed otherwise keeps its streams; DDNet's would differ.
  const out = writeMap(map, { mode: 'ddnet' });
  return { bytes: out, embedded, notes, ok: !notes.some((n) => n.severity === 'refuse') };
}

