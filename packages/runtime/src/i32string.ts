import { decodeUtf8, encodeUtf8 } from './utf8.js';

/**
 * I32String: a string packed into `ints.length` i32 values. Each i32 holds four bytes in big-endian order,
 * each byte stored plus 128; the last byte of the last int is always 0 (rule checked against DDNet's
 * StrToInts/IntsToStr). Decoding stops at the first NUL. All-zero ints (old editors left names unset,
 * e.g. envelopes of Teeworlds' ctf3) read as the empty string rather than as 0x80 bytes.
 */
export function decodeI32String(ints: ArrayLike<number>, start = 0, count = ints.length - start): string {
  let allZero = true;
  for (let i = 0; i < count && allZero; i++) allZero = ints[start + i] === 0;
  if (allZero) return '';
  // Nearly every name is ASCII: build it from char codes, without the byte copy and TextDecoder.
  let ascii = '';
  nonAscii: for (let i = 0; i < count; i++) {
    const v = ints[start + i]! | 0;
    for (let shift = 24; shift >= 0; shift -= 8) {
      const b = ((v >>> shift) - 128) & 0xff;
      if (b === 0 || (i === count - 1 && shift === 0)) return ascii;
      if (b > 0x7f) break nonAscii;
      ascii += String.fromCharCode(b);
    }
  }
  // Here only after a byte over 0x7F (the loop above returns at the last byte): decode the bytes as UTF-8.
  const bytes = new Uint8Array(count * 4);
  let len = 0;
  outer: for (let i = 0; i < count; i++) {
    const v = ints[start + i]! | 0;
    for (let shift = 24; shift >= 0; shift -= 8) {
      const b = ((v >>> shift) - 128) & 0xff;
      if (b === 0 || (i === count - 1 && shift === 0)) break outer;
      bytes[len++] = b;
    }
  }
  return decodeUtf8(bytes.subarray(0, len));
}

/** Packs `text` into `count` ints; text longer than 4*count-1 bytes is cut (as DDNet does). */
export function encodeI32String(text: string, count: number): Int32Array {
  const src = encodeUtf8(text);
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    let v = 0;
    for (let c = 0; c < 4; c++) {
      const idx = i * 4 + c;
      const b = idx < src.length && idx < count * 4 - 1 ? src[idx]! : 0;
      v = (v << 8) | ((b + 128) & 0xff);
    }
    out[i] = v;
  }
  out[count - 1] = out[count - 1]! & ~0xff;
  return out;
}
