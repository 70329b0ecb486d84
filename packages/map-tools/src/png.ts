import { defaultZlib, InflateLimitError, inflateSlices, MAX_DEFLATE_RATIO, type ZlibCodec } from '@twcodec/datafile';
import { concatBytes } from '@twcodec/runtime';
import { MapError, type MapErrorCode } from '@twcodec/map';

// A PNG reader that decodes into 8-bit RGBA as DDNet's image loader leaves a PNG (src/engine/gfx/image_loader.cpp,
// DDNet 16.4: libpng with png_set_strip_16, png_set_palette_to_rgb, png_set_expand_gray_1_2_4_to_8 and
// png_set_tRNS_to_alpha), without ever holding more than the RGBA result, the image data's compressed bytes
// and a slice of their output: the image data is inflated in slices and unfiltered row by row, and inflation stops as soon as it passes what the
// header's width, height, colour type and bit depth need. Chunk layout, filters and Adam7 from the PNG
// specification (W3C PNG, 2nd/3rd edition).

/**
 * Largest image side read here. DDNet's PNG loader itself only refuses a zero width or height (libpng's own
 * default limit is 1,000,000 a side); its editor and map_convert_07 work on images of up to 16384 a side
 * (`2 << 13`, map_convert_07.cpp), and an 8192x8192 RGBA image already needs 256 MiB, so 8192 keeps a decode
 * within the tools' memory budget.
 */
export const MAX_IMAGE_SIDE = 8192;

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA. */
  colorType: number;
  interlaced: boolean;
}

export interface RgbaImage {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel, row by row. */
  pixels: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
// Adam7 passes: x start, y start, x step, y step.
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

const type = (png: Uint8Array, at: number) => String.fromCharCode(png[at]!, png[at + 1]!, png[at + 2]!, png[at + 3]!);

interface Chunks {
  header: PngHeader;
  palette: Uint8Array | undefined;
  transparency: Uint8Array | undefined;
  data: Uint8Array[];
}

function readChunks(png: Uint8Array, source: string): Chunks {
  const fail = (code: MapErrorCode, message: string, offset: number) => new MapError(code, message, offset, source);
  if (png.length < 8 || SIGNATURE.some((b, i) => png[i] !== b)) throw fail('png.invalid', 'not a PNG (no PNG signature)', 0);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let header: PngHeader | undefined;
  let palette: Uint8Array | undefined;
  let transparency: Uint8Array | undefined;
  const data: Uint8Array[] = [];
  let at = 8;
  for (;;) {
    if (at + 8 > png.length) throw fail('png.truncated', header ? 'the PNG ends before its IEND chunk' : 'the PNG ends before its IHDR chunk', at);
    const length = view.getUint32(at);
    const name = type(png, at + 4);
    if (length > 0x7fffffff || at + 12 + length > png.length) throw fail('png.truncated', `chunk ${JSON.stringify(name)} of ${length} bytes goes past the end of the PNG`, at);
    const body = png.subarray(at + 8, at + 8 + length);
    if (!header && name !== 'IHDR') throw fail('png.invalid', `the first chunk is ${JSON.stringify(name)}, not IHDR`, at);
    if (name === 'IHDR') {
      if (header) throw fail('png.invalid', 'a second IHDR chunk', at);
      header = readHeader(body, source, at);
    } else if (name === 'PLTE') {
      if (length % 3 !== 0 || length === 0 || length > 256 * 3) throw fail('png.palette', `a PLTE chunk of ${length} bytes (1 to 256 entries of 3 bytes)`, at);
      palette = body;
    } else if (name === 'tRNS') {
      transparency = body;
    } else if (name === 'IDAT') {
      data.push(body);
    } else if (name === 'IEND') {
      break;
    } else if ((png[at + 4]! & 0x20) === 0) {
      // An unknown critical chunk (upper-case first letter): libpng refuses the image.
      throw fail('png.invalid', `unknown critical chunk ${JSON.stringify(name)}`, at);
    }
    at += 12 + length;
  }
  if (!header) throw fail('png.invalid', 'no IHDR chunk', 8);
  if (header.colorType === 3 && !palette) throw fail('png.palette', 'an indexed-colour PNG without a PLTE chunk', 8);
  if (data.length === 0) throw fail('png.data_size', 'no IDAT chunk (no image data)', at);
  return { header, palette, transparency, data };
}

function readHeader(body: Uint8Array, source: string, at: number): PngHeader {
  const fail = (message: string) => new MapError('png.header', message, at, source);
  if (body.length !== 13) throw fail(`IHDR of ${body.length} bytes, not 13`);
  const view = new DataView(body.buffer, body.byteOffset, 13);
  const width = view.getUint32(0);
  const height = view.getUint32(4);
  const [bitDepth, colorType, compression, filter, interlace] = [body[8]!, body[9]!, body[10]!, body[11]!, body[12]!];
  if (!DEPTHS[colorType]) throw fail(`colour type ${colorType} does not exist (0, 2, 3, 4 or 6)`);
  if (!DEPTHS[colorType]!.includes(bitDepth)) throw fail(`bit depth ${bitDepth} is not allowed for colour type ${colorType} (${DEPTHS[colorType]!.join(', ')})`);
  if (compression !== 0 || filter !== 0 || interlace > 1) throw fail(`compression ${compression}, filter ${filter}, interlace ${interlace}: only 0, 0 and 0 or 1 exist`);
  if (width < 1 || height < 1 || width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new MapError('png.size', `PNG is ${width}x${height}; images from 1x1 to ${MAX_IMAGE_SIDE}x${MAX_IMAGE_SIDE} are read`, at, source);
  }
  return { width, height, bitDepth, colorType, interlaced: interlace === 1 };
}

/** A PNG's IHDR (width, height, bit depth, colour type), checked; the image data is not read. */
export function readPngHeader(png: Uint8Array, source = 'PNG'): PngHeader {
  if (png.length < 8 || SIGNATURE.some((b, i) => png[i] !== b)) throw new MapError('png.invalid', 'not a PNG (no PNG signature)', 0, source);
  if (png.length < 33 || type(png, 12) !== 'IHDR') throw new MapError('png.invalid', 'the first chunk is not IHDR', 8, source);
  const length = new DataView(png.buffer, png.byteOffset, png.byteLength).getUint32(8);
  return readHeader(png.subarray(16, 16 + Math.min(length, 13 + 1)), source, 8);
}

interface Pass {
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  width: number;
  height: number;
}

function passesOf({ width, height, interlaced }: PngHeader): Pass[] {
  const all = interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
  return all
    .map(([x0, y0, dx, dy]) => ({ x0, y0, dx, dy, width: Math.ceil((width - x0) / dx), height: Math.ceil((height - y0) / dy) }))
    .filter((p) => p.width > 0 && p.height > 0);
}

/**
 * Decodes a PNG of any colour type, bit depth and interlacing into 8-bit RGBA as DDNet's loader does:
 * 16-bit samples keep their high byte, grey and palette images are expanded, tRNS becomes alpha. Refuses with a
 * MapError (code `png.*`, the offset in the PNG, `source` as its path) anything libpng would refuse, a palette
 * index past the palette, and image data that inflates to more or less than the header's size needs.
 * The image data is inflated a slice at a time (`zlib`: the platform's default codec, native in Node: an
 * 8192x8192 image decodes in about a third of the time fflate took) and unfiltered as it comes.
 */
export function decodePng(png: Uint8Array, source = 'PNG', zlib: ZlibCodec = defaultZlib): RgbaImage {
  const { header, palette, transparency, data } = readChunks(png, source);
  const { width, height, bitDepth, colorType } = header;
  const channels = CHANNELS[colorType]!;
  const bitsPerPixel = channels * bitDepth;
  const filterStride = Math.max(1, bitsPerPixel >> 3);
  const passes = passesOf(header);
  const rowBytesOf = (pass: Pass) => Math.ceil((pass.width * bitsPerPixel) / 8);
  const expected = passes.reduce((n, p) => n + p.height * (1 + rowBytesOf(p)), 0);
  // Deflate expands at most ~1032:1: image data too short to ever inflate to the size the header needs is
  // refused before the RGBA result is allocated, so a PNG never costs more memory than ~1032x its size.
  const compressed = data.reduce((n, d) => n + d.length, 0);
  if (compressed * MAX_DEFLATE_RATIO + 64 < expected) {
    throw new MapError('png.data_size', `${compressed} bytes of image data cannot inflate to the ${expected} bytes a ${width}x${height} image of colour type ${colorType}, ${bitDepth} bits needs`, data[0]!.byteOffset - png.byteOffset, source);
  }
  const pixels = new Uint8Array(width * height * 4);
  const toRgba = rowConverter(header, palette, transparency, source);
  const firstData = data[0]!.byteOffset - png.byteOffset;

  // 8-bit RGBA rows are the output's own bytes: each is unfiltered where it ends up (the row above it is the
  // output's row above), which saves copying 256 MiB twice for an 8192x8192 image. Other kinds go through two
  // scanline buffers and the row converter.
  const direct = colorType === 6 && bitDepth === 8 && !header.interlaced;
  let passIndex = 0;
  let pass = passes[0]!;
  let rowBytes = rowBytesOf(pass);
  let row = 0;
  let current = direct ? pixels.subarray(0, rowBytes) : new Uint8Array(rowBytes);
  // Zeros: the row above the first one of a pass.
  let previous = new Uint8Array(rowBytes);
  let filter = 0;
  /** Bytes of the current row received; -1 while its filter type byte is next. */
  let filled = -1;
  let total = 0;
  const finishRow = () => {
    unfilter(filter, current, previous, rowBytes, filterStride, source, firstData);
    filled = -1;
    if (direct) {
      previous = current;
      current = pixels.subarray((row + 1) * rowBytes, (row + 2) * rowBytes);
    } else {
      toRgba(current, pass, row, pixels, width);
      [current, previous] = [previous, current];
    }
    if (++row === pass.height && ++passIndex < passes.length) {
      pass = passes[passIndex]!;
      rowBytes = rowBytesOf(pass);
      row = 0;
      current = new Uint8Array(rowBytes);
      previous = new Uint8Array(rowBytes);
    }
  };
  const onSlice = (chunk: Uint8Array) => {
    total += chunk.length;
    for (let at = 0; at < chunk.length; ) {
      if (filled < 0) {
        filter = chunk[at++]!;
        filled = 0;
        continue;
      }
      const n = Math.min(chunk.length - at, rowBytes - filled);
      current.set(chunk.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === rowBytes) finishRow();
    }
  };
  try {
    inflateSlices(zlib, data.length === 1 ? data[0]! : concatBytes(data), expected, onSlice);
  } catch (e) {
    if (e instanceof MapError) throw e;
    if (e instanceof InflateLimitError) {
      throw new MapError('png.data_size', `the image data inflates to more than the ${expected} bytes a ${width}x${height} image of colour type ${colorType}, ${bitDepth} bits needs`, firstData, source);
    }
    throw new MapError('png.zlib', `the image data is not a readable zlib stream: ${(e as Error).message}`, firstData, source);
  }
  if (total !== expected) {
    throw new MapError('png.data_size', `the image data inflates to ${total} bytes; a ${width}x${height} image of colour type ${colorType}, ${bitDepth} bits needs ${expected}`, firstData, source);
  }
  return { width, height, pixels };
}

/**
 * Undoes a scanline's filter in place (`filter` is its filter type byte, `row` its bytes). The first pixel's
 * bytes (no left neighbour) are a loop of their own, so that the loop over the rest has no branch on the
 * position (measured on a row of an 8192 pixel gradient: Paeth 7.0 -> 5.7 ns a byte). Stores into a
 * Uint8Array wrap modulo 256, as the filters' arithmetic does.
 */
function unfilter(filter: number, row: Uint8Array, previous: Uint8Array, length: number, stride: number, source: string, offset: number): void {
  const first = Math.min(length, stride);
  switch (filter) {
    case 0:
      return;
    case 1:
      for (let i = first; i < length; i++) row[i] = row[i]! + row[i - stride]!;
      return;
    case 2:
      for (let i = 0; i < length; i++) row[i] = row[i]! + previous[i]!;
      return;
    case 3:
      for (let i = 0; i < first; i++) row[i] = row[i]! + (previous[i]! >> 1);
      for (let i = first; i < length; i++) row[i] = row[i]! + ((row[i - stride]! + previous[i]!) >> 1);
      return;
    case 4:
      // Without a left neighbour the Paeth predictor is the byte above.
      for (let i = 0; i < first; i++) row[i] = row[i]! + previous[i]!;
      for (let i = first; i < length; i++) {
        const a = row[i - stride]!;
        const b = previous[i]!;
        const c = previous[i - stride]!;
        // |p - a|, |p - b|, |p - c| for p = a + b - c.
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - c - c);
        row[i] = row[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      return;
    default:
      throw new MapError('png.filter', `scanline filter type ${filter} does not exist (0 to 4)`, offset, source);
  }
}

type RowConverter = (row: Uint8Array, pass: Pass, y: number, out: Uint8Array, width: number) => void;

/** Writes one unfiltered scanline (its bytes, without the filter type) of a pass into the RGBA output. */
function rowConverter(header: PngHeader, palette: Uint8Array | undefined, trns: Uint8Array | undefined, source: string): RowConverter {
  const { bitDepth, colorType } = header;
  // The sample at index i of a row, at the header's bit depth (16 bits: the whole value).
  const sample = (row: Uint8Array, i: number): number => {
    if (bitDepth === 8) return row[i]!;
    if (bitDepth === 16) return (row[2 * i]! << 8) | row[2 * i + 1]!;
    const bit = i * bitDepth;
    return (row[bit >> 3]! >> (8 - bitDepth - (bit & 7))) & ((1 << bitDepth) - 1);
  };
  // png_set_strip_16 keeps the high byte; png_set_expand_gray_1_2_4_to_8 scales to 0..255.
  const to8 = bitDepth === 16 ? (v: number) => v >>> 8 : bitDepth === 8 ? (v: number) => v : (v: number) => (v * 255) / ((1 << bitDepth) - 1);
  const key = trns && colorType !== 3 ? trnsKey(trns, colorType) : undefined;
  return (row, pass, y, out, width) => {
    const outY = pass.y0 + y * pass.dy;
    for (let x = 0; x < pass.width; x++) {
      const o = (outY * width + pass.x0 + x * pass.dx) * 4;
      switch (colorType) {
        case 0: {
          const v = sample(row, x);
          out[o] = out[o + 1] = out[o + 2] = to8(v);
          out[o + 3] = key && v === key[0] ? 0 : 255;
          break;
        }
        case 2: {
          const r = sample(row, 3 * x);
          const g = sample(row, 3 * x + 1);
          const b = sample(row, 3 * x + 2);
          out[o] = to8(r);
          out[o + 1] = to8(g);
          out[o + 2] = to8(b);
          out[o + 3] = key && r === key[0] && g === key[1] && b === key[2] ? 0 : 255;
          break;
        }
        case 3: {
          const index = sample(row, x);
          if (index * 3 >= palette!.length) {
            throw new MapError('png.palette_index', `pixel (${pass.x0 + x * pass.dx}, ${outY}) uses palette index ${index}; the palette has ${palette!.length / 3} entries`, -1, source);
          }
          out[o] = palette![index * 3]!;
          out[o + 1] = palette![index * 3 + 1]!;
          out[o + 2] = palette![index * 3 + 2]!;
          out[o + 3] = trns && index < trns.length ? trns[index]! : 255;
          break;
        }
        case 4:
          out[o] = out[o + 1] = out[o + 2] = to8(sample(row, 2 * x));
          out[o + 3] = to8(sample(row, 2 * x + 1));
          break;
        default:
          out[o] = to8(sample(row, 4 * x));
          out[o + 1] = to8(sample(row, 4 * x + 1));
          out[o + 2] = to8(sample(row, 4 * x + 2));
          out[o + 3] = to8(sample(row, 4 * x + 3));
      }
    }
  };
}

/** The transparent colour of a grey or RGB image's tRNS chunk (16-bit values), or undefined when it has none. */
function trnsKey(trns: Uint8Array, colorType: number): number[] | undefined {
  const n = colorType === 0 ? 1 : colorType === 2 ? 3 : 0;
  if (n === 0 || trns.length < n * 2) return undefined;
  return Array.from({ length: n }, (_, i) => (trns[2 * i]! << 8) | trns[2 * i + 1]!);
}
