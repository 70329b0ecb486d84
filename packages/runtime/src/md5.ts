// MD5 (RFC 1321), needed only to compute version-3 UUIDs from names without depending on node:crypto,
// so that the runtime works in browsers too.

const S = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21];
// Made on first use, not at import (a loop at the top level: see crcTable in hash.ts; start-up, issue 41).
let k: Int32Array | undefined;
function makeK(): Int32Array {
  const table = new Int32Array(64);
  for (let i = 0; i < 64; i++) table[i] = Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0;
  return table;
}

/**
 * The message padded to whole 64-byte blocks as MD5 and SHA-256 both pad it: a 1 bit, zeros, and the length in
 * bits as 8 bytes (MD5 little-endian, SHA-256 big-endian).
 */
export function padToBlocks(message: Uint8Array, littleEndian: boolean): { padded: Uint8Array; view: DataView } {
  const bitLength = message.length * 8;
  const padded = new Uint8Array((((message.length + 8) >> 6) + 1) << 6);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  const low = bitLength >>> 0;
  const high = Math.floor(bitLength / 2 ** 32);
  view.setUint32(padded.length - 8, littleEndian ? low : high, littleEndian);
  view.setUint32(padded.length - 4, littleEndian ? high : low, littleEndian);
  return { padded, view };
}

export function md5(message: Uint8Array): Uint8Array {
  const K = (k ??= makeK());
  const { padded, view } = padToBlocks(message, true);

  let a0 = 0x67452301 | 0;
  let b0 = 0xefcdab89 | 0;
  let c0 = 0x98badcfe | 0;
  let d0 = 0x10325476 | 0;
  const w = new Int32Array(16);
  for (let chunk = 0; chunk < padded.length; chunk += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getInt32(chunk + i * 4, true);
    let a = a0;
    let b = b0;
    let c = c0;
    let d = d0;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) & 15;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) & 15;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) & 15;
      }
      const tmp = d;
      d = c;
      c = b;
      const x = (a + f + K[i]! + w[g]!) | 0;
      const s = S[i]!;
      b = (b + ((x << s) | (x >>> (32 - s)))) | 0;
      a = tmp;
    }
    a0 = (a0 + a) | 0;
    b0 = (b0 + b) | 0;
    c0 = (c0 + c) | 0;
    d0 = (d0 + d) | 0;
  }
  const out = new Uint8Array(16);
  const outView = new DataView(out.buffer);
  outView.setInt32(0, a0, true);
  outView.setInt32(4, b0, true);
  outView.setInt32(8, c0, true);
  outView.setInt32(12, d0, true);
  return out;
}
