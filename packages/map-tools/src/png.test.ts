import { decode, encode } from 'fast-png';
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { MapError } from '@twcodec/map';
import { buildPng, chunk, zerosPng } from '../../../test/png-builder.js';
import type { ZlibCodec } from '@twcodec/datafile';
import { nodeDeflate, nodeZlib } from '@twcodec/datafile/zlib-node';
import { fflateZlib } from '@twcodec/datafile/zlib-fflate';
import { decodePng, readPngHeader } from './png.js';
import { encodePng } from './png-encode.js';
import { codeOf as codeOfError } from '../../../test/error-code.js';

const codeOf = (fn: () => unknown) => codeOfError(fn, MapError);

/** Pixels of a deterministic test image: every channel a different function of x and y. */
function samples(width: number, height: number, channels: number, max: number): number[] {
  const out: number[] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) for (let c = 0; c < channels; c++) out.push((x * 37 + y * 91 + c * 53 + x * y) % (max + 1));
  return out;
}

describe('decodePng', () => {
  it('gives what fast-png gives, as 8-bit RGBA, for every colour type and bit depth fast-png writes', () => {
    for (const [channels, depth] of [[1, 8], [2, 8], [3, 8], [4, 8], [1, 16], [2, 16], [3, 16], [4, 16]] as const) {
      const [width, height] = [13, 7];
      const data = depth === 8 ? Uint8Array.from(samples(width, height, channels, 255)) : Uint16Array.from(samples(width, height, channels, 65535));
      const png = encode({ width, height, data, channels, depth });
      const reference = decode(png);
      const rgba = decodePng(png).pixels;
      for (let i = 0; i < width * height; i++) {
        const s = Array.from({ length: channels }, (_, c) => reference.data[i * channels + c]! >>> (depth === 16 ? 8 : 0));
        const want = channels === 1 ? [s[0], s[0], s[0], 255] : channels === 2 ? [s[0], s[0], s[0], s[1]] : channels === 3 ? [...s, 255] : s;
        expect([...rgba.subarray(i * 4, i * 4 + 4)], `${channels} channels, ${depth} bits, pixel ${i}`).toEqual(want);
      }
    }
  });

  it('expands palettes and low bit depths, and turns tRNS into alpha, as libpng does for DDNet', () => {
    // 4 pixels of 2-bit palette indices 0..3 in one byte; the palette has 4 entries, tRNS gives 2 alphas.
    const palette = chunk('PLTE', Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    const trns = chunk('tRNS', Uint8Array.of(0, 128));
    const png = buildPng({ width: 4, height: 1, bitDepth: 2, colorType: 3 }, [Uint8Array.of(0, 0b00011011)], [palette, trns]);
    expect([...decodePng(png).pixels]).toEqual([1, 2, 3, 0, 4, 5, 6, 128, 7, 8, 9, 255, 10, 11, 12, 255]);
    // 1-bit grey: 0 -> 0, 1 -> 255; tRNS marks grey value 1 transparent.
    const grey = buildPng({ width: 3, height: 1, bitDepth: 1, colorType: 0 }, [Uint8Array.of(0, 0b10100000)], [chunk('tRNS', Uint8Array.of(0, 1))]);
    expect([...decodePng(grey).pixels]).toEqual([255, 255, 255, 0, 0, 0, 0, 255, 255, 255, 255, 0]);
    // 4-bit grey scales by 17.
    const grey4 = buildPng({ width: 2, height: 1, bitDepth: 4, colorType: 0 }, [Uint8Array.of(0, 0x3f)]);
    expect([...decodePng(grey4).pixels]).toEqual([51, 51, 51, 255, 255, 255, 255, 255]);
  });

  it('undoes every scanline filter, plain and Adam7-interlaced, with either zlib codec', () => {
    // A 10x9 RGBA image, each (pass) row filtered by (row % 5): decoded, it must give the same pixels. Plain
    // 8-bit RGBA rows are unfiltered in the output itself, the others in scanline buffers: both are checked,
    // inflated natively (the Node default) and by fflate (the browser default).
    const [width, height] = [10, 9];
    const pixels = Uint8Array.from(samples(width, height, 4, 255));
    const interlacedPasses = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]];
    for (const interlace of [0, 1]) {
      const lines: Uint8Array[] = [];
      for (const [x0, y0, dx, dy] of interlace ? interlacedPasses : [[0, 0, 1, 1]]) {
        const pw = Math.ceil((width - x0!) / dx!);
        const ph = Math.ceil((height - y0!) / dy!);
        if (pw <= 0 || ph <= 0) continue;
        let previous = new Uint8Array(pw * 4);
        for (let r = 0; r < ph; r++) {
          const raw = new Uint8Array(pw * 4);
          for (let i = 0; i < pw; i++) raw.set(pixels.subarray(((y0! + r * dy!) * width + x0! + i * dx!) * 4, ((y0! + r * dy!) * width + x0! + i * dx!) * 4 + 4), i * 4);
          const filter = r % 5;
          const line = new Uint8Array(1 + raw.length);
          line[0] = filter;
          for (let i = 0; i < raw.length; i++) {
            const a = i >= 4 ? raw[i - 4]! : 0;
            const b = previous[i]!;
            const c = i >= 4 ? previous[i - 4]! : 0;
            const p = a + b - c;
            const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
            const predictor = [0, a, b, (a + b) >> 1, paeth][filter]!;
            line[1 + i] = (raw[i]! - predictor) & 0xff;
          }
          lines.push(line);
          previous = raw;
        }
      }
      const png = buildPng({ width, height, bitDepth: 8, colorType: 6, interlace }, lines);
      expect(decodePng(png).pixels, `interlace ${interlace}`).toEqual(pixels);
      expect(decodePng(png, 'PNG', fflateZlib).pixels, `interlace ${interlace}, fflate`).toEqual(pixels);
    }
  });

  it('inflates through the zlib codec it is given, and refuses the same inputs with either', () => {
    const [width, height] = [300, 200];
    const pixels = Uint8Array.from(samples(width, height, 4, 255));
    const png = encode({ width, height, data: pixels, channels: 4, depth: 8 });
    for (const codec of [nodeZlib, fflateZlib]) {
      const slices: number[] = [];
      const counting: ZlibCodec = { ...codec, inflateSlices: (c, max, on) => codec.inflateSlices!(c, max, (s) => (slices.push(s.length), on(s))) };
      expect(Buffer.compare(decodePng(png, 'PNG', counting).pixels, pixels), codec.name).toBe(0);
      expect(slices.reduce((n, s) => n + s, 0), codec.name).toBe(height * (1 + width * 4));
    }
    const bomb = zerosPng({ width: 64, height: 64, bitDepth: 8, colorType: 6 }, 1 << 20, 20);
    for (const zlib of [nodeZlib, fflateZlib]) {
      expect(codeOf(() => decodePng(bomb, 'PNG', zlib)), zlib.name).toBe('png.data_size');
      expect(codeOf(() => decodePng(buildPng({ width: 4, height: 4, bitDepth: 8, colorType: 6 }, [new Uint8Array(4 * 17 + 1)]), 'PNG', zlib)), zlib.name).toBe('png.data_size');
      expect(codeOf(() => decodePng(buildPng({ width: 1, height: 1, bitDepth: 8, colorType: 0 }, [Uint8Array.of(9, 0)]), 'PNG', zlib)), zlib.name).toBe('png.filter');
    }
  });

  it('refuses a palette index past the palette with a typed error naming the pixel and the input', () => {
    const png = buildPng({ width: 2, height: 1, bitDepth: 8, colorType: 3 }, [Uint8Array.of(0, 1, 5)], [chunk('PLTE', Uint8Array.of(1, 2, 3, 4, 5, 6))]);
    const error = (() => {
      try {
        decodePng(png, 'tiles.png');
      } catch (e) {
        return e as MapError;
      }
    })();
    expect(error).toBeInstanceOf(MapError);
    expect(error!.code).toBe('png.palette_index');
    expect(error!.message).toMatch(/pixel \(1, 0\) uses palette index 5; the palette has 2 entries \(at tiles\.png\)/);
  });

  it('stops inflating a bomb at the size the header allows: 200 MB of image data for a 64x64 image', () => {
    const png = zerosPng({ width: 64, height: 64, bitDepth: 8, colorType: 6 }, 1 << 20, 200);
    expect(png.length).toBeLessThan(400 * 1024);
    const started = performance.now();
    expect(codeOf(() => decodePng(png))).toBe('png.data_size');
    // Refused after the first slice of compressed data (a few MB inflated), not after 200 MB.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses image data shorter than the header needs, bad filters and bad headers, all typed', () => {
    expect(codeOf(() => decodePng(buildPng({ width: 4, height: 4, bitDepth: 8, colorType: 6 }, [new Uint8Array(17)])))).toBe('png.data_size');
    expect(codeOf(() => decodePng(buildPng({ width: 1, height: 1, bitDepth: 8, colorType: 0 }, [Uint8Array.of(9, 0)])))).toBe('png.filter');
    expect(codeOf(() => decodePng(buildPng({ width: 1, height: 1, bitDepth: 3, colorType: 0 }, [Uint8Array.of(0, 0)])))).toBe('png.header');
    expect(codeOf(() => decodePng(buildPng({ width: 0, height: 1, bitDepth: 8, colorType: 0 }, [])))).toBe('png.size');
    expect(codeOf(() => decodePng(buildPng({ width: 8193, height: 1, bitDepth: 8, colorType: 0 }, [])))).toBe('png.size');
    expect(codeOf(() => decodePng(buildPng({ width: 1, height: 1, bitDepth: 8, colorType: 3 }, [Uint8Array.of(0, 0)])))).toBe('png.palette');
    // 8192x8192 claimed by 20 bytes of image data: refused before the 256 MiB result is allocated.
    const before = process.memoryUsage().arrayBuffers;
    expect(codeOf(() => decodePng(buildPng({ width: 8192, height: 8192, bitDepth: 8, colorType: 6 }, [new Uint8Array(5)])))).toBe('png.data_size');
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
    const good = buildPng({ width: 1, height: 1, bitDepth: 8, colorType: 0 }, [Uint8Array.of(0, 0)]);
    for (let cut = 0; cut < good.length - 12; cut++) expect(codeOf(() => decodePng(good.subarray(0, cut)))).toMatch(/^png\./);
    expect(readPngHeader(good)).toEqual({ width: 1, height: 1, bitDepth: 8, colorType: 0, interlaced: false });
  });

  it('decodes an 8192x8192 RGBA PNG of 261 KB in time proportional to its pixels', () => {
    // 8192 rows of a filter byte and 8192 transparent pixels, all zero: 8 rows a segment.
    const png = zerosPng({ width: 8192, height: 8192, bitDepth: 8, colorType: 6 }, 8 * (1 + 8192 * 4), 1024);
    expect(png.length).toBeLessThan(400 * 1024);
    const started = performance.now();
    const image = decodePng(png);
    expect(image.pixels.length).toBe(8192 * 8192 * 4);
    // fast-png took 34 s here (issue 25); this decoder streams rows into the RGBA result: about 3 s on an idle
    // 2-core Xeon, most of it inflating 256 MiB (the bound leaves room for a machine shared with other work).
    expect(performance.now() - started).toBeLessThan(25_000);
  });
});

describe('encodePng', () => {
  it("writes fast-png 8's bytes (what map extract and render wrote before) for 1 to 4 channels, and decodes back", () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    for (const channels of [1, 2, 3, 4] as const) {
      for (const [width, height] of [[1, 1], [3, 5], [64, 17], [200, 3]] as const) {
        // Runs and noise, so that deflate finds both matches and literals.
        const data = Uint8Array.from({ length: width * height * channels }, (_, i) => (i % 7 < 4 ? (i >> 5) & 0xff : rand()));
        const ours = encodePng(width, height, channels, data);
        expect(Buffer.from(ours).equals(Buffer.from(encode({ width, height, data, channels, depth: 8 })))).toBe(true);
        expect(decode(ours).data).toEqual(data);
      }
    }
  });
  it("takes another deflater and level (the CLI's node:zlib at 6): the same pixels, decoded by fast-png and by decodePng", () => {
    const data = Uint8Array.from(samples(64, 17, 4, 255));
    const levels: number[] = [];
    const png = encodePng(64, 17, 4, data, { deflate: (raw, level) => (levels.push(level), nodeDeflate(raw, level)), level: 6 });
    expect(levels).toEqual([6]);
    expect(decode(png).data).toEqual(data);
    expect(decodePng(png).pixels).toEqual(data);
    expect(() => encodePng(1, 1, 4, new Uint8Array(4), { level: 10 })).toThrow(RangeError);
  });
  it('refuses pixels that do not make the size', () => {
    expect(() => encodePng(2, 2, 4, new Uint8Array(15))).toThrow(RangeError);
    expect(() => encodePng(0, 2, 4, new Uint8Array(0))).toThrow(RangeError);
  });
});
