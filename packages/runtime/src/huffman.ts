import { CodecError } from './errors.js';

/**
 * The symbol frequencies Teeworlds' network Huffman code is built from: bytes 0-255, then the EOF symbol
 * (whose listed frequency is not used: the tree gives EOF a frequency of 1). Checked against DDNet's
 * src/engine/shared/huffman.cpp.
 */
export const TEEWORLDS_FREQUENCIES: readonly number[] = [
  1 << 30, 4545, 2657, 431, 1950, 919, 444, 482, 2244, 617, 838, 542, 715, 1814, 304, 240, 754, 212, 647, 186,
  283, 131, 146, 166, 543, 164, 167, 136, 179, 859, 363, 113, 157, 154, 204, 108, 137, 180, 202, 176,
  872, 404, 168, 134, 151, 111, 113, 109, 120, 126, 129, 100, 41, 20, 16, 22, 18, 18, 17, 19,
  16, 37, 13, 21, 362, 166, 99, 78, 95, 88, 81, 70, 83, 284, 91, 187, 77, 68, 52, 68,
  59, 66, 61, 638, 71, 157, 50, 46, 69, 43, 11, 24, 13, 19, 10, 12, 12, 20, 14, 9,
  20, 20, 10, 10, 15, 15, 12, 12, 7, 19, 15, 14, 13, 18, 35, 19, 17, 14, 8, 5,
  15, 17, 9, 15, 14, 18, 8, 10, 2173, 134, 157, 68, 188, 60, 170, 60, 194, 62, 175, 71,
  148, 67, 167, 78, 211, 67, 156, 69, 1674, 90, 174, 53, 147, 89, 181, 51, 174, 63, 163, 80,
  167, 94, 128, 122, 223, 153, 218, 77, 200, 110, 190, 73, 174, 69, 145, 66, 277, 143, 141, 60,
  136, 53, 180, 57, 142, 57, 158, 61, 166, 112, 152, 92, 26, 22, 21, 28, 20, 26, 30, 21,
  32, 27, 20, 17, 23, 21, 30, 22, 22, 21, 27, 25, 17, 27, 23, 18, 39, 26, 15, 21,
  12, 18, 18, 27, 20, 18, 15, 19, 11, 17, 33, 12, 18, 15, 19, 18, 16, 26, 17, 18,
  9, 10, 25, 22, 22, 17, 20, 16, 6, 16, 15, 20, 14, 18, 24, 335, 1517,
];

const EOF_SYMBOL = 256;
const SYMBOLS = 257;
const LUT_BITS = 11;

/**
 * A Huffman code over bytes plus an EOF symbol, built as Teeworlds builds it: repeatedly (stable) sort the
 * open nodes by falling frequency and join the last two, the rarest as branch 0. Codes are read from the
 * least significant bit of each byte first.
 */
export class Huffman {
  private readonly left = new Int16Array(SYMBOLS * 2);
  private readonly right = new Int16Array(SYMBOLS * 2);
  private readonly root: number;
  private readonly codes = new Uint32Array(SYMBOLS);
  private readonly lengths = new Uint8Array(SYMBOLS);
  /** For each LUT_BITS-bit window: symbol + 1 and its length, or the node reached (negative) after LUT_BITS bits. */
  private readonly lutSymbol = new Int32Array(1 << LUT_BITS);
  private readonly lutLength = new Uint8Array(1 << LUT_BITS);
  /** The longest code's length in bits. */
  private readonly longest: number;
  private scratch = new Uint8Array(0);

  constructor(frequencies: readonly number[] = TEEWORLDS_FREQUENCIES) {
    const open = Array.from({ length: SYMBOLS }, (_, i) => ({ id: i, freq: i === EOF_SYMBOL ? 1 : frequencies[i]! }));
    this.left.fill(-1);
    this.right.fill(-1);
    let next = SYMBOLS;
    while (open.length > 1) {
      open.sort((a, b) => b.freq - a.freq); // stable, like std::stable_sort
      const a = open[open.length - 1]!;
      const b = open[open.length - 2]!;
      this.left[next] = a.id;
      this.right[next] = b.id;
      b.id = next;
      b.freq += a.freq;
      open.pop();
      next++;
    }
    this.root = next - 1;
    const walk = (node: number, code: number, depth: number) => {
      if (node < SYMBOLS) {
        this.codes[node] = code;
        this.lengths[node] = depth;
        return;
      }
      walk(this.right[node]!, code | (1 << depth), depth + 1);
      walk(this.left[node]!, code, depth + 1);
    };
    walk(this.root, 0, 0);
    this.longest = Math.max(...this.lengths);
    for (let bits = 0; bits < 1 << LUT_BITS; bits++) {
      let node = this.root;
      let k = 0;
      for (; k < LUT_BITS && node >= SYMBOLS; k++) node = (bits >> k) & 1 ? this.right[node]! : this.left[node]!;
      if (node < SYMBOLS) {
        this.lutSymbol[bits] = node + 1;
        this.lutLength[bits] = k;
      } else {
        this.lutSymbol[bits] = -node;
        this.lutLength[bits] = LUT_BITS;
      }
    }
  }

  /** Decodes up to the EOF symbol; throws when the input ends first or the output would pass `maxSize`. */
  decompress(input: Uint8Array, maxSize: number, offset = 0): Uint8Array {
    // A scratch buffer reused across calls: allocating (and zeroing) maxSize bytes for every chunk cost more
    // than decoding it. The result is a copy of the bytes written.
    if (this.scratch.length < maxSize) this.scratch = new Uint8Array(maxSize);
    const out = this.scratch;
    let n = 0;
    let bits = 0;
    let count = 0;
    let pos = 0;
    for (;;) {
      while (count <= 24 && pos < input.length) {
        bits |= input[pos++]! << count;
        count += 8;
      }
      if (count === 0) throw new CodecError('HUFFMAN_TRUNCATED', 'compressed data ends before its EOF symbol', offset + pos);
      const window = bits & ((1 << LUT_BITS) - 1);
      let symbol = this.lutSymbol[window]!;
      let used = this.lutLength[window]!;
      if (symbol <= 0) {
        let node = -symbol;
        while (node >= SYMBOLS) {
          if (used >= count) throw new CodecError('HUFFMAN_TRUNCATED', 'compressed data ends inside a code', offset + pos);
          node = (bits >>> used) & 1 ? this.right[node]! : this.left[node]!;
          used++;
        }
        symbol = node + 1;
      }
      if (used > count) throw new CodecError('HUFFMAN_TRUNCATED', 'compressed data ends inside a code', offset + pos);
      bits >>>= used;
      count -= used;
      if (symbol - 1 === EOF_SYMBOL) return out.slice(0, n);
      if (n >= maxSize) throw new CodecError('HUFFMAN_OVERFLOW', `decompressed data passes ${maxSize} bytes`, offset + pos);
      out[n++] = symbol - 1;
    }
  }

  /** Encodes bytes followed by the EOF symbol, padding the last byte with zero bits. */
  compress(input: Uint8Array): Uint8Array {
    const codes = this.codes;
    const lengths = this.lengths;
    const out = new Uint8Array(Math.ceil(((input.length + 1) * this.longest) / 8) + 1);
    let n = 0;
    // Codes are at most 32 bits long here, so pending bits fit a float's 53-bit integer range.
    let bits = 0;
    let count = 0;
    for (let i = 0; i <= input.length; i++) {
      const symbol = i < input.length ? input[i]! : EOF_SYMBOL;
      bits += codes[symbol]! * 2 ** count;
      count += lengths[symbol]!;
      while (count >= 8) {
        out[n++] = bits & 0xff;
        bits = Math.floor(bits / 256);
        count -= 8;
      }
    }
    out[n++] = bits & 0xff;
    return out.subarray(0, n);
  }
}

let shared: Huffman | undefined;
/** The Teeworlds network Huffman code (built on first use). */
export function teeworldsHuffman(): Huffman {
  return (shared ??= new Huffman());
}
