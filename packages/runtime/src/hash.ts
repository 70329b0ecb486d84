// CRC-32 (the zlib/PNG polynomial 0xedb88320, as Teeworlds' crc32 of a map file) and SHA-256 (FIPS 180-4),
// without node:crypto so that the runtime works in browsers too: map downloads and demo headers name a map
// by both.
import { padToBlocks } from './md5.js';

// Made on first use, not at import: a loop at a module's top level made V8 compile that whole top level with its
// baseline compiler in runs that never take a CRC (start-up, issue 41).
let crcTable: Int32Array | undefined;
function makeCrcTable(): Int32Array {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
}

/** CRC-32 of `bytes` as an unsigned number; pass a previous result as `crc` to continue over more bytes. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  return ~crcOver(bytes, ~crc, (crcTable ??= makeCrcTable())) >>> 0;
}

/**
 * The table-driven loop of crc32, a function of its own: a command takes a few CRCs of large inputs (the maps
 * a capture downloads), each compiled by V8 while its loop runs (on-stack replacement), and code so compiled
 * left crc32 at every call (a deoptimisation on the operations after the loop, which had not run yet when it
 * was compiled: 13 times over the 50 MB capture of bench/pcap.mjs, node --trace-deopt; issue 41). Nothing
 * runs here after the loop.
 */
function crcOver(bytes: Uint8Array, c: number, table: Int32Array): number {
  for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return c;
}

const K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/**
 * SHA-256 of `bytes` (32 bytes). The state in an Int32Array between blocks and in locals within one, int32
 * arithmetic, the rotations written out: a command meets few maps, so this runs mostly before V8 optimises
 * it, where destructuring the state (the iterator protocol) and a closure call per rotation cost 6 to 8 ms per
 * 25 KB map and a 16 ms compile (`net pcap`, issue 41).
 */
export function sha256(bytes: Uint8Array): Uint8Array {
  const { padded, view } = padToBlocks(bytes, false);
  const state = Int32Array.of(0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19);
  const w = new Int32Array(64);
  for (let chunk = 0; chunk < padded.length; chunk += 64) sha256Block(view, chunk, w, state);
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setInt32(i * 4, state[i]!);
  return out;
}

/**
 * One 64-byte block of sha256 (at `chunk` in `view`) into `state`. A function of its own, called per block:
 * with the blocks' loop in sha256 itself, V8 compiled sha256 while that loop ran (on-stack replacement), and
 * the code so compiled left sha256 at every call (a deoptimisation on the operations after the loop, which
 * had not run yet when it was compiled: 12 times over the 50 MB capture of bench/pcap.mjs, node
 * --trace-deopt; issue 41). A block is too short a run for that, and this is compiled as called.
 */
function sha256Block(view: DataView, chunk: number, w: Int32Array, state: Int32Array): void {
  for (let i = 0; i < 16; i++) w[i] = view.getInt32(chunk + i * 4);
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K_INT[i]! + w[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}
/** K as int32s (the rounds add them with int32 arithmetic). */
const K_INT = Int32Array.from(K);
