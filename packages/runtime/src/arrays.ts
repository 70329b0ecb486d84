// Plain byte arrays: views, joins, small copies, and structural equality of decoded values.
/**
 * Structural equality of decoded values (plain objects, arrays, typed arrays); undefined properties count as
 * absent. Iterative, so values nested as deep as untrusted input makes them cannot overflow the stack.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  const pending: [unknown, unknown][] = [[a, b]];
  for (let pair = pending.pop(); pair; pair = pending.pop()) {
    const [x, y] = pair;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const ox = x as Record<string, unknown>;
    const oy = y as Record<string, unknown>;
    const kx = Object.keys(ox).filter((k) => ox[k] !== undefined);
    const ky = Object.keys(oy).filter((k) => oy[k] !== undefined);
    if (kx.length !== ky.length) return false;
    for (const k of kx) pending.push([ox[k], oy[k]]);
  }
  return true;
}

/**
 * A plain Uint8Array view of `bytes`. Node's Buffer is a Uint8Array subclass whose slice() is a view and
 * whose JSON form differs; the runtime works on plain arrays so that copies are copies everywhere.
 */
export function asUint8Array(bytes: Uint8Array): Uint8Array {
  return bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** An empty array that V8 holds as one of objects (PACKED_ELEMENTS); emptyObjectArray copies it. */
const OBJECTS = ([null] as never[]).slice(1);

/**
 * A new empty array that V8 holds as one of objects (PACKED_ELEMENTS), for a list that only ever holds objects
 * and that hot code reads beside lists holding some. An empty array literal (or a copy of one) holds small
 * integers until an object goes in, so optimised code made for lists of objects leaves its code at the first
 * such list it meets late: a push onto it ("not a Smi"), or a read of a list of the other kind, and the
 * function is compiled again (issue 41, node --trace-deopt: applyDelta at a connection's first full snapshot,
 * `net pcap`'s lines at the first map download).
 */
export function emptyObjectArray<T extends object>(): T[] {
  return OBJECTS.slice();
}

/** The chunks one after the other in a new array (`total`, their summed length, when the caller has it). */
export function concatBytes(chunks: readonly Uint8Array[], total = chunks.reduce((n, c) => n + c.length, 0)): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * Copies of up to POOLED_MAX bytes share slabs of POOL_SIZE (as Node's Buffer pool does for small Buffers).
 * Each slab is an allocation outside V8's heap (malloc, zeroed): 64 KiB as the demo reader's int blocks, where
 * 8 KiB slabs made about 60 of them per decode of the corpus capture (its snapshot data) and malloc showed in
 * the profile. A kept copy keeps its slab alive.
 */
const POOL_SIZE = 65536;
const POOLED_MAX = 512;
/**
 * The first slab is a small one, so that copyBytes makes a slab within its first hundred copies or so: after V8
 * has given it a place for feedback (not at its first calls) and before V8 optimises it. With a first slab of
 * POOL_SIZE, the first new one came after, with no feedback, and V8 compiled copyBytes again (issue 41).
 */
const FIRST_SLAB_SIZE = 4096;
let pool = new Uint8Array(FIRST_SLAB_SIZE);
/** The slab's buffer (the copies are views of it) and DataView, for copies four bytes at a time. */
let poolBuffer = pool.buffer;
let poolView = new DataView(poolBuffer);
let poolUsed = 0;
/**
 * The last source of copyBytes whose buffer is at most SOURCE_VIEW_MAX bytes, and a DataView of it: the packet
 * decoder copies its messages' raw fields out of one inflate buffer, packet after packet, so the source is
 * read four bytes a load too (a copy took half the time, 40 against 65 to 80 ns for 48 bytes, Node 20). A
 * larger source (a whole capture file) is read a byte at a time rather than kept alive by the view.
 */
const SOURCE_VIEW_MAX = 65536;
let sourceOf: Uint8Array | undefined;
let sourceView: DataView | undefined;

/**
 * A copy of `bytes[start, end)`. A small copy is a view into a shared slab (its `buffer` is the slab; it keeps
 * the slab alive): a typed array of its own over 64 bytes costs V8 an allocation outside its heap, about five
 * times the copy (measured on Node 20 for the snapshot data of a capture's packets, 60-byte copies). A copy of
 * more than POOLED_MAX bytes has a buffer of its own, as `bytes.slice(start, end)` gives.
 */
export function copyBytes(bytes: Uint8Array, start = 0, end = bytes.length): Uint8Array {
  const n = end - start;
  const inSource = start >= 0 && end <= bytes.length;
  const large = n > POOLED_MAX;
  // (A large range past the source's ends: slice's answer, as always; no caller in this repository asks for one.)
  if (large && !inSource) return bytes.slice(start, end);
  // A large copy is made as a new slab of its own size, by the operations that make a new slab, and copied as
  // a small one: a path of its own (bytes.slice) was first met after V8 had optimised this, at the first
  // snapshot part or map chunk over POOLED_MAX bytes, and sent it back to be compiled again (issue 41).
  let slab = pool;
  let buffer = poolBuffer;
  let view = poolView;
  let at = poolUsed;
  if (large || at + n > slab.length) {
    slab = new Uint8Array(large ? n : POOL_SIZE);
    buffer = slab.buffer;
    view = new DataView(buffer);
    at = 0;
    if (!large) {
      pool = slab;
      poolBuffer = buffer;
      poolView = view;
    }
  }
  // Four bytes a store (a view for TypedArray.set would cost more than copying this few bytes): copying the
  // corpus capture's snapshot data (48 bytes on average) a byte at a time was most of decoding its messages.
  let i = 0;
  if (bytes !== sourceOf && bytes.buffer.byteLength <= SOURCE_VIEW_MAX) {
    sourceOf = bytes;
    sourceView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  // (Within the source only: indexes past it read as zeros, as the byte loop's did.)
  if (bytes === sourceOf && inSource) {
    const source = sourceView!;
    // Int32 positions (`| 0`; a DataView truncates its index as `| 0` does): as they come (parameters, the
    // module's pool position) V8 checked and untagged them at every word (issue 41, callgrind).
    const from = start | 0;
    const to = at | 0;
    const words = (n - 3) | 0;
    for (; i < words; i = (i + 4) | 0) view.setInt32((to + i) | 0, source.getInt32((from + i) | 0, true), true);
  } else {
    for (; i + 4 <= n; i += 4) {
      const s = start + i;
      view.setInt32(at + i, bytes[s]! | (bytes[s + 1]! << 8) | (bytes[s + 2]! << 16) | (bytes[s + 3]! << 24), true);
    }
  }
  for (; i < n; i++) slab[at + i] = bytes[start + i]!;
  if (!large) poolUsed = at + n;
  // A view made by the constructor, not subarray(): half the cost (about 11 against 21 ns on Node 20, where
  // subarray looks up the species constructor), for every snapshot's data of a capture (issue 41).
  return new Uint8Array(buffer, at, n);
}
