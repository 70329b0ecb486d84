import { CodecError } from './errors.js';
import { HUFFMAN_EOF_SYMBOL, TEEWORLDS_FREQUENCIES } from './generated/huffman.gen.js';

// The frequency table and the EOF symbol come from schemas/net/huffman.yaml (DDNet's huffman.cpp gs_aFreqTable).
export { TEEWORLDS_FREQUENCIES } from './generated/huffman.gen.js';
const EOF_SYMBOL = HUFFMAN_EOF_SYMBOL;
const SYMBOLS = EOF_SYMBOL + 1;
/**
 * Window of the one-symbol table (the slow path: the last codes of a payload, EOF, codes longer than
 * MULTI_BITS). 15 bits hold every code of the Teeworlds tree, EOF's too, where 11 left EOF (15 bits) to a walk
 * of the tree once per packet: 8% of Huffman decoding on the corpus capture's payloads.
 */
const LUT_BITS = 15;
/**
 * Window of the multi-symbol table: every code of the Teeworlds tree but the 7 of 14 and 15 bits fits (code
 * lengths 1..15, byte 0 takes 1 bit), so one look-up gives the next 1-3 bytes of snapshot data. 13 bits
 * (32 KiB of table) decoded the corpus capture as fast as 15 bits and faster than 11 or 12.
 */
const MULTI_BITS = 13;
/** Bytes one multi-symbol entry gives at most: three, with their count and length in the same int32. */
const MULTI_MAX = 3;
/** Bytes the fast loop stores per look-up (the entry's int32 whole; the count says how many are real). */
const STORE_BYTES = 4;
/** Where a multi-symbol entry keeps its count of bytes (2 bits) and its length in bits (5 bits). */
const COUNT_SHIFT = 24;
const LENGTH_SHIFT = 26;
/**
 * The entry of a window with no whole byte code: a length of 31 bits, more than are ever loaded (at most 30:
 * refills add 16 bits to fewer than MULTI_BITS, or 8 bits to at most 22).
 */
const NO_CODE_ENTRY = 31 << LENGTH_SHIFT;

/**
 * The one-symbol table: the window of each code of at most LUT_BITS bits, whatever the bits above it. Built a
 * bit at a time: the table of b bits is that of b - 1 bits twice (a window's bit b - 1 does not change the code
 * its lower bits start with), then the codes of exactly b bits; windows no code starts stay 0. Native copies of
 * 32768 entries in all, where a JS loop over every window of every code was 32768 steps that V8 compiled while
 * they ran (on-stack replacement, a compile in every process that decodes a packet; issue 41).
 */
function fillSymbolTable(codes: Uint32Array, lengths: Uint8Array, lutSymbol: Int16Array, lutLength: Uint8Array): void {
  for (let bits = 1; bits <= LUT_BITS; bits++) {
    const half = 1 << (bits - 1);
    lutSymbol.copyWithin(half, 0, half);
    lutLength.copyWithin(half, 0, half);
    for (let symbol = 0; symbol < SYMBOLS; symbol++) {
      if (lengths[symbol] !== bits) continue;
      lutSymbol[codes[symbol]!] = symbol + 1;
      lutLength[codes[symbol]!] = bits;
    }
  }
}

/**
 * The multi-symbol table, each next code of a window from the one-symbol table: the window's bits past
 * `length`, with zeros above MULTI_BITS, give the code they start with; it is whole in the window when it ends
 * within MULTI_BITS. An entry holds the codes' bytes from the low byte up, their count and their total length,
 * so that a look-up is one load (two tables, the bytes and the rest, were two: issue 41). (A walk of the tree
 * per code, as the constructor's symbolAt does, was most of the constructor's time before V8 optimised it: 10
 * ms for a command that decodes one compressed packet, issue 41.)
 */
function fillMultiTable(lutSymbol: Int16Array, lutLength: Uint8Array, multi: Int32Array): void {
  for (let bits = 0; bits < 1 << MULTI_BITS; bits++) {
    let packed = 0;
    let count = 0;
    let length = 0;
    while (count < MULTI_MAX) {
      const symbol = lutSymbol[bits >> length]! - 1;
      const end = length + lutLength[bits >> length]!;
      if (symbol < 0 || symbol === EOF_SYMBOL || end > MULTI_BITS) break;
      packed |= symbol << (8 * count);
      count++;
      length = end;
    }
    multi[bits] = count ? packed | (count << COUNT_SHIFT) | (length << LENGTH_SHIFT) : NO_CODE_ENTRY;
  }
}

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
  private readonly lutSymbol = new Int16Array(1 << LUT_BITS);
  private readonly lutLength = new Uint8Array(1 << LUT_BITS);
  /**
   * For each MULTI_BITS-bit window, the whole byte codes it starts with (at most MULTI_MAX, none past EOF): their
   * bytes packed from the low byte up, their count at COUNT_SHIFT and total length at LENGTH_SHIFT. None
   * (NO_CODE_ENTRY): the window starts with EOF or a code longer than the window.
   */
  private readonly multi = new Int32Array(1 << MULTI_BITS);
  /** The longest code's length in bits. */
  private readonly longest: number;
  private scratch = new Uint8Array(0);
  /** The last output buffer of decompressInto (kept alive until the next call with another), and a DataView of it. */
  private outViewOf: Uint8Array | undefined;
  private outView: DataView | undefined;

  constructor(frequencies: readonly number[] = TEEWORLDS_FREQUENCIES) {
    const open = Array.from({ length: SYMBOLS }, (_, i) => ({ id: i, freq: i === EOF_SYMBOL ? 1 : frequencies[i]! }));
    this.left.fill(-1);
    this.right.fill(-1);
    let next = SYMBOLS;
    open.sort((a, b) => b.freq - a.freq); // stable, like std::stable_sort
    while (open.length > 1) {
      const a = open[open.length - 1]!;
      const b = open[open.length - 2]!;
      this.left[next] = a.id;
      this.right[next] = b.id;
      b.id = next;
      b.freq += a.freq;
      open.pop();
      next++;
      // Sorted again as a stable sort would: only `b`, the last, changed (its frequency grew), so it moves before
      // the nodes of a lower frequency and stays after those of the same. (A sort of the whole list each time
      // called its comparison half a million times: V8 compiled it, and the constructor took twice as long;
      // issue 41.)
      let i = open.length - 1;
      for (; i > 0 && open[i - 1]!.freq < b.freq; i--) open[i] = open[i - 1]!;
      open[i] = b;
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
    // The symbol whose code starts at bit `from` of `bits`, and its end; or the node reached at bit `limit`.
    const symbolAt = (bits: number, from: number, limit: number): [node: number, end: number] => {
      let node = this.root;
      let k = from;
      for (; k < limit && node >= SYMBOLS; k++) node = (bits >> k) & 1 ? this.right[node]! : this.left[node]!;
      return [node, k];
    };
    // The tables are filled by functions of the module, each a loop over thousands of windows that V8 compiles
    // while it runs (on-stack replacement): compiled here, the constructor's code left at the first operation
    // after each loop, which had never run, and was compiled again for the next loop: four compiles of the
    // whole constructor in every process that decodes a packet (issue 41, node --trace-opt --trace-deopt).
    fillSymbolTable(this.codes, this.lengths, this.lutSymbol, this.lutLength);
    // Windows no code of at most LUT_BITS bits starts get the node reached. The tree is whole (every node has
    // two branches), so with no code longer than LUT_BITS every window starts one and there are none.
    if (this.longest > LUT_BITS) {
      for (let bits = 0; bits < 1 << LUT_BITS; bits++) {
        if (this.lutLength[bits] !== 0) continue;
        const [node] = symbolAt(bits, 0, LUT_BITS);
        this.lutSymbol[bits] = -node;
        this.lutLength[bits] = LUT_BITS;
      }
    }
    fillMultiTable(this.lutSymbol, this.lutLength, this.multi);
  }

  /** Decodes up to the EOF symbol; throws when the input ends first or the output would pass `maxSize`. */
  decompress(input: Uint8Array, maxSize: number, offset = 0): Uint8Array {
    // A scratch buffer reused across calls: allocating (and zeroing) maxSize bytes for every chunk cost more
    // than decoding it. The result is a copy of the bytes written.
    if (this.scratch.length < maxSize) this.scratch = new Uint8Array(maxSize);
    const n = this.decompressInto(input, maxSize < this.scratch.length ? this.scratch.subarray(0, maxSize) : this.scratch, offset);
    return this.scratch.slice(0, n);
  }

  /**
   * Decodes `input[start, end)` up to the EOF symbol straight into `out` and returns the bytes written (bytes
   * of `out` after them may be overwritten too); throws when the input ends first or the output would pass
   * `out.length`. For callers that decode many small payloads into one buffer of their own (the packet
   * decoder, the demo reader), with no allocation per call. Offsets in errors are `offset` plus the position
   * from `start`.
   */
  decompressInto(input: Uint8Array, out: Uint8Array, offset = 0, start = 0, end = input.length): number {
    const multi = this.multi;
    const maxSize = out.length;
    const lastFast = maxSize - STORE_BYTES;
    // A DataView stores an entry's four bytes at once (5 to 13% faster than four byte stores on the corpus
    // demos' chunks); callers decode into the same buffer again and again, so it is made once per buffer.
    if (this.outViewOf !== out) {
      this.outViewOf = out;
      this.outView = new DataView(out.buffer, out.byteOffset, out.byteLength);
    }
    const outView = this.outView!;
    let n = 0;
    let bits = 0;
    let count = 0;
    // The loop's positions and counts as int32 (`| 0`): the parameters as they come are any value to V8, which
    // then checked `pos` for a small integer at every refill, and each `+` on an int32 checked for overflow. The
    // whole loop went from about 85 to 45 instructions a look-up with this and the one-load entries, the
    // session's payloads from 43.3 to 32.4 M instructions (issue 41, callgrind).
    let pos = start | 0;
    const stop = end | 0;
    for (;;) {
      // Whole codes by the table while there is room for STORE_BYTES output bytes. Bits above `count` are zero,
      // so near the end of the input an entry decoded with zeros after the real bits is right when its codes
      // end within them (length <= count); entries of no code have length 31, which never fits.
      while (n <= lastFast) {
        if (count < MULTI_BITS) {
          // Two bytes at a time, when a whole window is not loaded: one branch per refill rather than one per
          // byte, and `count` stays at most 30 (below NO_CODE_ENTRY's length) as MULTI_BITS is at most 15.
          if (((pos + 1) | 0) < stop) {
            bits |= (input[pos]! | (input[(pos + 1) | 0]! << 8)) << count;
            pos = (pos + 2) | 0;
            count = (count + 16) | 0;
          } else if (pos < stop) {
            bits |= input[pos++]! << count;
            count += 8;
          }
        }
        const entry = multi[bits & ((1 << MULTI_BITS) - 1)]!;
        const length = entry >> LENGTH_SHIFT;
        if (length > count) break;
        // The entry's bytes in one store (its count says how many of them are real; the byte after them is its
        // count and length, written over by what comes next).
        outView.setInt32(n, entry, true);
        n = (n + ((entry >> COUNT_SHIFT) & 3)) | 0;
        // `>>`, not `>>>`: `bits` holds at most 30 bits, so both give the same, but `>>>` gives V8 an unsigned
        // 32-bit value that the loop's int32 `bits` could not hold, and it kept `bits` as a float64: a third of
        // the decoding time (the corpus capture's payloads 3.4 ms against 2.4 ms, demo chunks 11.5 against 6.6).
        bits >>= length;
        count = (count - length) | 0;
      }
      // One symbol, checked: near the end of the input or output, EOF, a code longer than the window.
      while (count <= 22 && pos < stop) {
        bits |= input[pos++]! << count;
        count += 8;
      }
      if (count === 0) throw new CodecError('HUFFMAN_TRUNCATED', 'compressed data ends before its EOF symbol', offset + pos - start);
      const window = bits & ((1 << LUT_BITS) - 1);
      let symbol = this.lutSymbol[window]!;
      let length = this.lutLength[window]!;
      if (symbol <= 0) {
        let node = -symbol;
        while (node >= SYMBOLS) {
          if (length >= count) throw new CodecError('HUFFMAN_TRUNCATED', 'compressed data ends inside a code', offset + pos - start);
          node = (bits >>> length) & 1 ? this.right[node]! : this.left[node]!;
          length++;
        }
        symbol = node + 1;
      }
      if (length > count) throw new CodecError('HUFFMAN_TRUNCATED', 'compressed data ends inside a code', offset + pos - start);
      if (symbol - 1 === EOF_SYMBOL) return n;
      if (n >= maxSize) {
        // Where the input stood when this code was read, were it read a byte at a time up to more than 24
        // bits ahead (the offset this error has always had: a refill takes more bytes at once now).
        const codeStart = (pos - start) * 8 - count;
        throw new CodecError('HUFFMAN_OVERFLOW', `decompressed data passes ${maxSize} bytes`, offset + Math.min(end - start, ((codeStart + 24) >> 3) + 1));
      }
      bits >>= length;
      count -= length;
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
