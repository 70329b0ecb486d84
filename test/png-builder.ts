// PNG files built by hand for tests: any header (also ones no encoder writes), any chunks, and image data of
// any size built from its compressed form, so that hostile PNGs (bombs, 8192x8192) cost milliseconds to make.
import { concatBytes } from '@twcodec/runtime';
import { Zlib } from 'fflate';
import { constants as zlibConstants, deflateRawSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function chunk(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, body.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(body, 8);
  let crc = 0xffffffff;
  for (let i = 4; i < 8 + body.length; i++) crc = CRC_TABLE[(crc ^ out[i]!) & 0xff]! ^ (crc >>> 8);
  view.setUint32(8 + body.length, (crc ^ 0xffffffff) >>> 0);
  return out;
}

export interface PngHeaderFields {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace?: number;
}

/**
 * A PNG built by hand: IHDR from the arguments, the given chunks (PLTE, tRNS), and IDAT holding `scanlines`
 * (each chunk of raw bytes handed to a streaming deflater, so a huge image costs only its compressed size).
 */
export function buildPng(header: PngHeaderFields, scanlines: Iterable<Uint8Array>, extra: Uint8Array[] = []): Uint8Array {
  const compressed: Uint8Array[] = [];
  const zlib = new Zlib({ level: 9 }, (data) => compressed.push(data));
  for (const line of scanlines) zlib.push(line);
  zlib.push(new Uint8Array(0), true);
  return assemble(header, extra, compressed);
}

/** The PNG file: signature, IHDR, `extra` chunks, one IDAT per compressed piece, IEND. */
function assemble(header: PngHeaderFields, extra: Uint8Array[], compressed: Uint8Array[]): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, header.width);
  view.setUint32(4, header.height);
  ihdr.set([header.bitDepth, header.colorType, 0, 0, header.interlace ?? 0], 8);
  const parts = [Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), chunk('IHDR', ihdr), ...extra, ...compressed.map((c) => chunk('IDAT', c)), chunk('IEND', new Uint8Array(0))];
  return concatBytes(parts);
}

/**
 * A PNG whose image data is `segments` x `segmentBytes` zero bytes, built in a few milliseconds: one segment
 * deflated (ending on a byte boundary, not final) and repeated, then a final empty block and the Adler-32.
 */
export function zerosPng(header: PngHeaderFields, segmentBytes: number, segments: number): Uint8Array {
  const segment = deflateRawSync(new Uint8Array(segmentBytes), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  const end = deflateRawSync(new Uint8Array(0));
  const total = segmentBytes * segments;
  const stream = new Uint8Array(2 + segment.length * segments + end.length + 4);
  stream.set([0x78, 0x9c]);
  for (let i = 0; i < segments; i++) stream.set(segment, 2 + i * segment.length);
  stream.set(end, 2 + segment.length * segments);
  // Adler-32 of zeros: a = 1, b = length mod 65521.
  new DataView(stream.buffer).setUint32(stream.length - 4, (((total % 65521) << 16) | 1) >>> 0);
  return assemble(header, [], [stream]);
}

