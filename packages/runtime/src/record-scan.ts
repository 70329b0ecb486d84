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
/** Where the chunk starts in the kernel's memory: below it, the 256-byte table of firstRecordNotIn. */
const DATA = 256;
const PAGE = 65536;

// The kernel, in WebAssembly's binary format (https://webassembly.github.io/spec/core/binary/): one imported
// memory and two functions over byte addresses in it.
//   firstNonZero(p, end, stride) -> the first p (p, p + stride, ... below end) whose byte is not 0, else the
//     first p at or past end;
//   firstNotIn(p, end, stride) -> likewise the first p whose byte b has table[b] == 0 (table at address 0).
const Op = {
  Block: 0x02,
  Loop: 0x03,
  Br: 0x0c,
  BrIf: 0x0d,
  End: 0x0b,
  LocalGet: 0x20,
  LocalSet: 0x21,
  I32Load8U: 0x2d,
  I32Eqz: 0x45,
  I32GeU: 0x4f,
  I32Add: 0x6a,
  Void: 0x40,
  I32: 0x7f,
} as const;
/** The loop both functions share; `test` leaves a value that is not 0 for the byte at p that ends the scan. */
const scanLoop = (test: number[]) => [
  Op.Block, Op.Void, Op.Loop, Op.Void,
  Op.LocalGet, 0, Op.LocalGet, 1, Op.I32GeU, Op.BrIf, 1, // p >= end: done
  ...test, Op.BrIf, 1, // found: done
  Op.LocalGet, 0, Op.LocalGet, 2, Op.I32Add, Op.LocalSet, 0, // p += stride
  Op.Br, 0, Op.End, Op.End,
  Op.LocalGet, 0, Op.End,
];
const loadByte = [Op.LocalGet, 0, Op.I32Load8U, 0, 0];
const functionBodies = [
  scanLoop(loadByte), // the byte itself: not 0 ends the scan
  scanLoop([...loadByte, Op.I32Load8U, 0, 0, Op.I32Eqz]), // table[byte] == 0 ends the scan
].map((code) => [code.length + 1, 0 /* no locals */, ...code]);
const section = (id: number, content: number[]) => [id, content.length, ...content];
const name = (text: string) => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];
const KERNEL = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  ...section(1, [1, 0x60, 3, Op.I32, Op.I32, Op.I32, 1, Op.I32]), // one type: (i32, i32, i32) -> i32
  ...section(2, [1, ...name('m'), ...name('memory'), 0x02, 0x00, 0x00]), // import m.memory, at least 0 pages
  ...section(3, [2, 0, 0]), // two functions of type 0
  ...section(7, [2, ...name('firstNonZero'), 0x00, 0, ...name('firstNotIn'), 0x00, 1]),
  ...section(10, [2, ...functionBodies.flat()]),
]);

interface Kernel {
  firstNonZero(p: number, end: number, stride: number): number;
  firstNotIn(p: number, end: number, stride: number): number;
  bytes: Uint8Array;
}

let kernelModule: WebAssembly.Module | null | undefined;
/** A kernel with memory for a chunk of `length` bytes, or undefined where WebAssembly cannot run it. */
function newKernel(length: number): Kernel | undefined {
  if (kernelModule === null) return undefined;
  try {
    kernelModule ??= new WebAssembly.Module(KERNEL);
    const memory = new WebAssembly.Memory({ initial: Math.ceil((DATA + Math.min(length, CHUNK)) / PAGE) });
    const exports = new WebAssembly.Instance(kernelModule, { m: { memory } }).exports as unknown as Kernel;
    return { firstNonZero: exports.firstNonZero, firstNotIn: exports.firstNotIn, bytes: new Uint8Array(memory.buffer) };
  } catch {
    // No WebAssembly (or not allowed here), or no room for its memory: JavaScript does the scans.
    if (kernelModule === undefined || typeof WebAssembly === 'undefined') kernelModule = null;
    return undefined;
  }
}

/**
 * For each of `offsets` (each below `size`), the index of the first `size`-byte record of `bytes` (whole
 * records only) whose byte at that offset is not 0, or -1.
 */
export function firstNonZeroPerOffset(bytes: Uint8Array, size: number, offsets: readonly number[]): number[] {
  const firsts = offsets.map(() => -1);
  const count = Math.floor(bytes.length / size);
  const kernel = count > 0 && offsets.length > 0 ? newKernel(count * size) : undefined;
  if (kernel) {
    const perChunk = Math.max(1, Math.floor(CHUNK / size));
    let left = offsets.length;
    for (let start = 0; start < count && left > 0; start += perChunk) {
      const end = Math.min(count, start + perChunk);
      kernel.bytes.set(bytes.subarray(start * size, end * size), DATA);
      const to = DATA + (end - start) * size;
      offsets.forEach((z, k) => {
        if (firsts[k]! >= 0) return;
        const at = kernel.firstNonZero(DATA + z, to, size);
        if (at < to) {
          firsts[k] = start + (at - DATA - z) / size;
          left--;
        }
      });
    }
    return firsts;
  }
  offsets.forEach((z, k) => {
    for (let i = 0, o = z; i < count; i++, o += size) {
      if (bytes[o] !== 0) {
        firsts[k] = i;
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
  const kernel = count > 0 ? newKernel(count * size) : undefined;
  if (kernel) {
    kernel.bytes.set(table.subarray(0, 256));
    const perChunk = Math.max(1, Math.floor(CHUNK / size));
    for (let start = 0; start < count; start += perChunk) {
      const end = Math.min(count, start + perChunk);
      kernel.bytes.set(bytes.subarray(start * size, end * size), DATA);
      const from = DATA + offset;
      const to = DATA + (end - start) * size;
      for (let at = kernel.firstNotIn(from, to, size); at < to; at = kernel.firstNotIn(at + size, to, size)) {
        if (++total <= cap) listed.push(start + (at - from) / size);
      }
    }
    return { listed, total };
  }
  for (let i = 0, o = offset; i < count; i++, o += size) if (table[bytes[o]!] !== 1 && ++total <= cap) listed.push(i);
  return { listed, total };
}
