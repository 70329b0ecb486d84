// Scans over fixed-size records (map tiles) for a byte that is not 0, or not in a table, run by a WebAssembly
// kernel of a few dozen bytes when the platform has one. Why: a command on a small map runs these loops once
// each, too briefly for V8 to optimise them, and V8's baseline code pays an inline-cache call per typed array
// read (about 200 instructions a tile; `map fix` of a 12 KB map of 114,000 tiles spent about a quarter of its
// time above Node's start-up there). The kernel, compiled by V8's baseline WebAssembly compiler on first use,
// takes a few instructions a tile (callgrind, Node 20: 11 scans of 114,000 tiles 40 to 60 M instructions in
// JavaScript, 1 to 3 M with the kernel, its compiling included; issue 41, docs/performance.md). Where
// WebAssembly is missing or refused (a page whose content security policy forbids compiling it, a process whose
// address space is too small for its memory), the same scans run in JavaScript.

/** Bytes copied into the kernel's memory at a time (the records of a larger input go through in turns). */
const CHUNK = 1 << 20;
/** Where the chunk starts in the kernel's memory: below it, the 256-byte table of recordsNotIn. */
const DATA = 256;
const PAGE = 65536;

// The kernel, in WebAssembly's binary format (https://webassembly.github.io/spec/core/binary/): one imported
// memory and three functions over byte addresses in it.
//   firstNonZero(p, end, stride) -> the first p (p, p + stride, ... below end) whose byte is not 0, else the
//     first p at or past end;
//   firstNotIn(p, end, stride) -> likewise the first p whose byte b has table[b] == 0 (table at address 0);
//   firstMasked(p, end, mask) -> the first 4-byte word (p, p + 4, ... below end) with a bit of `mask` set (the
//     word read little-endian, as WebAssembly always reads: byte z of a record is bits 8z to 8z + 7), four
//     words at a time, else end.
const Op = {
  Block: 0x02,
  Loop: 0x03,
  Br: 0x0c,
  BrIf: 0x0d,
  End: 0x0b,
  LocalGet: 0x20,
  LocalSet: 0x21,
  I32Load: 0x28,
  I32Load8U: 0x2d,
  I32Const: 0x41,
  I32Eqz: 0x45,
  I32GtU: 0x4b,
  I32GeU: 0x4f,
  I32Add: 0x6a,
  I32And: 0x71,
  I32Or: 0x72,
  Void: 0x40,
  I32: 0x7f,
} as const;
/** A loop while p < end (or, with `ahead`, while p + ahead <= end) that leaves when `test` is not 0, p += step. */
const scanLoop = (test: number[], step: number[], ahead = 0) => [
  Op.Block, Op.Void, Op.Loop, Op.Void,
  ...(ahead ? [Op.LocalGet, 0, Op.I32Const, ahead, Op.I32Add, Op.LocalGet, 1, Op.I32GtU] : [Op.LocalGet, 0, Op.LocalGet, 1, Op.I32GeU]),
  Op.BrIf, 1, // past the end: leave
  ...test, Op.BrIf, 1, // found: leave
  Op.LocalGet, 0, ...step, Op.I32Add, Op.LocalSet, 0,
  Op.Br, 0, Op.End, Op.End,
];
const byteAt = [Op.LocalGet, 0, Op.I32Load8U, 0, 0];
const wordAt = (offset: number) => [Op.LocalGet, 0, Op.I32Load, 2, offset];
const stride = [Op.LocalGet, 2];

/** An unsigned LEB128 number, as the format writes every length. */
function leb128(n: number): number[] {
  const out: number[] = [];
  do {
    out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  return out;
}
const section = (id: number, content: number[]) => [id, ...leb128(content.length), ...content];
const name = (text: string) => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];
/**
 * The kernel's module bytes, made when it is compiled rather than when the runtime is imported: a command that
 * scans no layer (map extract, info) does not pay for these spreads (start-up, issue 41).
 */
function kernelBytes(): Uint8Array<ArrayBuffer> {
  const functionBodies = [
    [...scanLoop(byteAt, stride), Op.LocalGet, 0, Op.End], // the byte not 0
    [...scanLoop([...byteAt, Op.I32Load8U, 0, 0, Op.I32Eqz], stride), Op.LocalGet, 0, Op.End], // table[byte] == 0
    [
      // Four words or'ed, then the word of the four (or of the last three or fewer) that has a bit of the mask.
      ...scanLoop([...wordAt(0), ...wordAt(4), Op.I32Or, ...wordAt(8), Op.I32Or, ...wordAt(12), Op.I32Or, Op.LocalGet, 2, Op.I32And], [Op.I32Const, 16], 16),
      ...scanLoop([...wordAt(0), Op.LocalGet, 2, Op.I32And], [Op.I32Const, 4]),
      Op.LocalGet, 0, Op.End,
    ],
  ].map((code) => [...leb128(code.length + 1), 0 /* no locals */, ...code]);
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
    ...section(1, [1, 0x60, 3, Op.I32, Op.I32, Op.I32, 1, Op.I32]), // one type: (i32, i32, i32) -> i32
    ...section(2, [1, ...name('m'), ...name('memory'), 0x02, 0x00, 0x00]), // import m.memory, at least 0 pages
    ...section(3, [3, 0, 0, 0]), // three functions of type 0
    ...section(7, [3, ...name('firstNonZero'), 0x00, 0, ...name('firstNotIn'), 0x00, 1, ...name('firstMasked'), 0x00, 2]),
    ...section(10, [3, ...functionBodies.flat()]),
  ]);
}

interface Kernel {
  firstNonZero(p: number, end: number, stride: number): number;
  firstNotIn(p: number, end: number, stride: number): number;
  firstMasked(p: number, end: number, mask: number): number;
  memory: WebAssembly.Memory;
  bytes: Uint8Array;
}

/** The kernel, made on first use and kept (its memory: at most CHUNK bytes and a page); null where it cannot run. */
let kernel: Kernel | null | undefined;
/** The kernel with memory for a chunk of `length` bytes, or undefined where WebAssembly cannot run it. */
function kernelFor(length: number): Kernel | undefined {
  if (kernel === null) return undefined;
  const pages = Math.ceil((DATA + Math.min(length, CHUNK)) / PAGE);
  try {
    if (!kernel) {
      const memory = new WebAssembly.Memory({ initial: pages });
      const exports = new WebAssembly.Instance(new WebAssembly.Module(kernelBytes()), { m: { memory } }).exports as unknown as Kernel;
      kernel = { firstNonZero: exports.firstNonZero, firstNotIn: exports.firstNotIn, firstMasked: exports.firstMasked, memory, bytes: new Uint8Array(memory.buffer) };
    } else if (kernel.bytes.length < pages * PAGE) {
      kernel.memory.grow(pages - kernel.bytes.length / PAGE);
      kernel.bytes = new Uint8Array(kernel.memory.buffer);
    }
    return kernel;
  } catch {
    // No WebAssembly (or not allowed here): JavaScript does the scans from now on. No room for its memory:
    // this time.
    if (!kernel) kernel = kernelModuleCompiles() ? undefined : null;
    return undefined;
  }
}

/** Whether the scans run on the WebAssembly kernel here (for tests). */
export function recordScanKernelRuns(): boolean {
  return kernelFor(1) !== undefined;
}

/** Whether the kernel compiles here (false where a content security policy or the platform refuses it). */
function kernelModuleCompiles(): boolean {
  try {
    new WebAssembly.Module(kernelBytes());
    return true;
  } catch {
    return false;
  }
}

/**
 * The index of the first `size`-byte record of `bytes` (whole records only) with a non-zero byte at one of
 * `offsets` (each below `size`), or -1: the least of firstNonZeroPerOffset's.
 */
export function firstNonZeroRecord(bytes: Uint8Array, size: number, offsets: readonly number[]): number {
  let first = -1;
  for (const r of firstNonZeroPerOffset(bytes, size, offsets)) if (r >= 0 && (first < 0 || r < first)) first = r;
  return first;
}

/**
 * For each of `offsets` (each below `size`), the index of the first `size`-byte record of `bytes` (whole
 * records only) whose byte at that offset is not 0, or -1.
 */
export function firstNonZeroPerOffset(bytes: Uint8Array, size: number, offsets: readonly number[]): number[] {
  const firsts = offsets.map(() => -1);
  const count = Math.floor(bytes.length / size);
  const k = count > 0 && offsets.length > 0 ? kernelFor(count * size) : undefined;
  if (k) {
    const perChunk = Math.max(1, Math.floor(CHUNK / size));
    let left = offsets.length;
    for (let start = 0; start < count && left > 0; start += perChunk) {
      const end = Math.min(count, start + perChunk);
      k.bytes.set(bytes.subarray(start * size, end * size), DATA);
      const to = DATA + (end - start) * size;
      if (size === 4) {
        // One pass for all offsets: each word found with a byte of the mask set is the first for those bytes.
        let mask = 0;
        offsets.forEach((z, i) => {
          if (firsts[i]! < 0) mask |= 0xff << (8 * z);
        });
        for (let at = k.firstMasked(DATA, to, mask); at < to && mask !== 0; at = k.firstMasked(at + 4, to, mask)) {
          const hit = k.bytes[at]! | (k.bytes[at + 1]! << 8) | (k.bytes[at + 2]! << 16) | (k.bytes[at + 3]! << 24);
          offsets.forEach((z, i) => {
            const byte = 0xff << (8 * z);
            if (firsts[i]! >= 0 || (hit & mask & byte) === 0) return;
            firsts[i] = start + (at - DATA) / 4;
            left--;
          });
          offsets.forEach((z, i) => {
            if (firsts[i]! >= 0) mask &= ~(0xff << (8 * z));
          });
        }
        continue;
      }
      offsets.forEach((z, i) => {
        if (firsts[i]! >= 0) return;
        const at = k.firstNonZero(DATA + z, to, size);
        if (at < to) {
          firsts[i] = start + (at - DATA - z) / size;
          left--;
        }
      });
    }
    return firsts;
  }
  offsets.forEach((z, i) => {
    for (let r = 0, o = z; r < count; r++, o += size) {
      if (bytes[o] !== 0) {
        firsts[i] = r;
        break;
      }
    }
  });
  return firsts;
}

/**
 * The records among the first `count` of `bytes` (`size` bytes each, whole records only) whose byte at `offset`
 * is not marked 1 in `table` (256 entries, each 0 or 1): the indices of the first `cap` of them and how many
 * there are in all.
 */
export function recordsNotIn(bytes: Uint8Array, size: number, offset: number, count: number, table: Uint8Array, cap: number): { listed: number[]; total: number } {
  const listed: number[] = [];
  let total = 0;
  count = Math.min(count, Math.floor(bytes.length / size));
  const k = count > 0 ? kernelFor(count * size) : undefined;
  if (k) {
    k.bytes.set(table.subarray(0, 256));
    const perChunk = Math.max(1, Math.floor(CHUNK / size));
    for (let start = 0; start < count; start += perChunk) {
      const end = Math.min(count, start + perChunk);
      k.bytes.set(bytes.subarray(start * size, end * size), DATA);
      const from = DATA + offset;
      const to = DATA + (end - start) * size;
      for (let at = k.firstNotIn(from, to, size); at < to; at = k.firstNotIn(at + size, to, size)) {
        if (++total <= cap) listed.push(start + (at - from) / size);
      }
    }
    return { listed, total };
  }
  for (let i = 0, o = offset; i < count; i++, o += size) if (table[bytes[o]!] !== 1 && ++total <= cap) listed.push(i);
  return { listed, total };
}
