import { BinaryError } from './errors.js';

const textDecoder = new TextDecoder('utf-8', { fatal: false });
const textEncoder = new TextEncoder();

/**
 * Decodes UTF-8 (invalid sequences become U+FFFD). Short ASCII strings, nearly every name in a map or a
 * recording, are built from their char codes: TextDecoder costs about 0.7 us a call whatever the length
 * (measured on Node 20: 1300 layer names 0.9 ms against 0.06 ms); any byte over 0x7F goes to TextDecoder.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  return shortAscii(bytes, 0, bytes.length) ?? textDecoder.decode(bytes);
}

/** The text of `bytes[start..end)` when it is at most SHORT_STRING bytes of ASCII (the same under any UTF-8 decoder); undefined otherwise. */
function shortAscii(bytes: Uint8Array, start: number, end: number): string | undefined {
  if (end - start > SHORT_STRING) return undefined;
  let text = '';
  let i = start;
  // Eight chars per String.fromCharCode: a string per char made as much garbage as the strings themselves and
  // took twice as long (3000 names of 3 to 42 chars, Node 20).
  for (; i + 8 <= end; i += 8) {
    const b0 = bytes[i]!, b1 = bytes[i + 1]!, b2 = bytes[i + 2]!, b3 = bytes[i + 3]!;
    const b4 = bytes[i + 4]!, b5 = bytes[i + 5]!, b6 = bytes[i + 6]!, b7 = bytes[i + 7]!;
    if ((b0 | b1 | b2 | b3 | b4 | b5 | b6 | b7) > 0x7f) return undefined;
    text += String.fromCharCode(b0, b1, b2, b3, b4, b5, b6, b7);
  }
  for (; i < end; i++) {
    const b = bytes[i]!;
    if (b > 0x7f) return undefined;
    text += String.fromCharCode(b);
  }
  return text;
}

/** Up to this many bytes, decodeUtf8 tries its ASCII loop before TextDecoder. */
const SHORT_STRING = 64;

export function encodeUtf8(text: string): Uint8Array {
  return textEncoder.encode(text);
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });
/** Lone low surrogates U+DC80..U+DCFF: the escapes decodeUtf8Escaped gives bytes that are not UTF-8. */
const ESCAPED_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;

/** The length of the valid UTF-8 sequence at `bytes[i]` (WHATWG/RFC 3629 rules), or 0 when there is none. */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < bytes.length && bytes[i + k]! >= lo && bytes[i + k]! <= hi;
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    const ok = b === 0xe0 ? cont(1, 0xa0) : b === 0xed ? cont(1, 0x80, 0x9f) : cont(1);
    return ok && cont(2) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const ok = b === 0xf0 ? cont(1, 0x90) : b === 0xf4 ? cont(1, 0x80, 0x8f) : cont(1);
    return ok && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/**
 * UTF-8 text that keeps bytes which are not UTF-8: each such byte b becomes the lone surrogate U+DC00 + b
 * (as Python's "surrogateescape" does), which no valid UTF-8 decodes to, and encodeUtf8Escaped turns it back
 * into the byte. Servers and clients store whatever bytes they got, so this is what makes a resave exact.
 */
export function decodeUtf8Escaped(bytes: Uint8Array): string {
  // Short ASCII (names, console commands) without TextDecoder's per-call cost, as in decodeUtf8.
  const ascii = shortAscii(bytes, 0, bytes.length);
  if (ascii !== undefined) return ascii;
  try {
    return strictDecoder.decode(bytes);
  } catch {
    let out = '';
    let run = 0; // start of the current run of valid sequences
    for (let i = 0; i < bytes.length; ) {
      const n = utf8SequenceLength(bytes, i);
      if (n) {
        i += n;
        continue;
      }
      out += textDecoder.decode(bytes.subarray(run, i)) + String.fromCharCode(0xdc00 + bytes[i]!);
      run = ++i;
    }
    return out + textDecoder.decode(bytes.subarray(run));
  }
}

/** The inverse of decodeUtf8Escaped: UTF-8, with each escaped byte (lone U+DC80..U+DCFF) written as that byte. */
export function encodeUtf8Escaped(text: string): Uint8Array {
  if (!ESCAPED_BYTE.test(text)) return textEncoder.encode(text);
  const parts: Uint8Array[] = [];
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const lone = c >= 0xdc80 && c <= 0xdcff && !(i > 0 && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800);
    if (!lone) continue;
    parts.push(textEncoder.encode(text.slice(run, i)), Uint8Array.of(c - 0xdc00));
    run = i + 1;
  }
  parts.push(textEncoder.encode(text.slice(run)));
  return concatBytes(parts);
}

/** The string in a C string buffer: its bytes up to the first NUL (or all of them), as UTF-8. */
export function decodeCString(bytes: Uint8Array): string {
  const nul = bytes.indexOf(0);
  return decodeUtf8(nul < 0 ? bytes : bytes.subarray(0, nul));
}

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
let pool = new Uint8Array(POOL_SIZE);
/** The slab's DataView, for copies four bytes at a time. */
let poolView = new DataView(pool.buffer);
let poolUsed = 0;

/**
 * A copy of `bytes[start, end)`. A small copy is a view into a shared slab (its `buffer` is the slab; it keeps
 * the slab alive): a typed array of its own over 64 bytes costs V8 an allocation outside its heap, about five
 * times the copy (measured on Node 20 for the snapshot data of a capture's packets, 60-byte copies).
 */
export function copyBytes(bytes: Uint8Array, start = 0, end = bytes.length): Uint8Array {
  const n = end - start;
  if (n > POOLED_MAX) return bytes.slice(start, end);
  if (poolUsed + n > POOL_SIZE) {
    pool = new Uint8Array(POOL_SIZE);
    poolView = new DataView(pool.buffer);
    poolUsed = 0;
  }
  const at = poolUsed;
  const slab = pool;
  const view = poolView;
  // Four bytes a store (a view for TypedArray.set would cost more than copying this few bytes): copying the
  // corpus capture's snapshot data (48 bytes on average) a byte at a time was most of decoding its messages.
  // The source is read a byte at a time: a DataView of it would have to be made per call or kept (and keep
  // a whole capture file alive).
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const s = start + i;
    view.setInt32(at + i, bytes[s]! | (bytes[s + 1]! << 8) | (bytes[s + 2]! << 16) | (bytes[s + 3]! << 24), true);
  }
  for (; i < n; i++) slab[at + i] = bytes[start + i]!;
  poolUsed += n;
  return slab.subarray(at, at + n);
}

/** What a released ByteReader points at. */
const RELEASED = new Uint8Array(0);

/**
 * Reads little- and big-endian integers, variable-width ints and strings from a Uint8Array, with a bounds
 * check on every read. Offsets reported in errors are absolute within `bytes` plus `baseOffset`, so a
 * reader over a slice can still point into the original file.
 */
export class ByteReader {
  readonly bytes: Uint8Array;
  pos: number;
  readonly end: number;
  readonly baseOffset: number;
  private dataView: DataView | undefined;

  constructor(bytes: Uint8Array, start = 0, end = bytes.length, baseOffset = 0) {
    this.bytes = asUint8Array(bytes);
    this.pos = start;
    this.end = end;
    this.baseOffset = baseOffset;
  }

  /**
   * Points the reader at `bytes[start, end)` as the constructor would, for a decoder that reads many small
   * inputs one after another (the messages of a capture's packets): a reader is 76 bytes, and making one per
   * message was a ninth of the garbage of decoding a capture. Returns the reader.
   */
  repoint(bytes: Uint8Array, start = 0, end = bytes.length, baseOffset = 0): this {
    const self = this as { bytes: Uint8Array; end: number; baseOffset: number };
    if (bytes !== this.bytes) {
      self.bytes = asUint8Array(bytes);
      this.dataView = undefined;
    }
    this.pos = start;
    self.end = end;
    self.baseOffset = baseOffset;
    return this;
  }

  /**
   * Lets go of the bytes (as repoint to an empty array would, without checking that array's class): for a
   * reader kept for reuse, so that it does not keep its last input alive.
   */
  release(): void {
    const self = this as { bytes: Uint8Array; end: number; baseOffset: number };
    self.bytes = RELEASED;
    this.dataView = undefined;
    this.pos = 0;
    self.end = 0;
    self.baseOffset = 0;
  }

  /**
   * A DataView over `bytes`, made on first use: most readers read only bytes and varints, and making one per
   * reader was a fifth of the time of decoding a teehistorian message with strings or a payload.
   */
  get view(): DataView {
    return (this.dataView ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength));
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  /** The absolute offset of the next byte, for error messages. */
  get offset(): number {
    return this.baseOffset + this.pos;
  }

  ensure(n: number, path = ''): void {
    if (n < 0 || this.pos + n > this.end) {
      throw new BinaryError('TRUNCATED', `needs ${n} bytes, ${this.end - this.pos} left`, this.offset, path);
    }
  }

  skip(n: number, path = ''): void {
    this.ensure(n, path);
    this.pos += n;
  }

  readU8(path = ''): number {
    this.ensure(1, path);
    return this.bytes[this.pos++]!;
  }

  readU16LE(path = ''): number {
    this.ensure(2, path);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }

  readI32LE(path = ''): number {
    this.ensure(4, path);
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }

  readU32LE(path = ''): number {
    this.ensure(4, path);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  readI32BE(path = ''): number {
    this.ensure(4, path);
    const v = this.view.getInt32(this.pos, false);
    this.pos += 4;
    return v;
  }

  /** A view (not a copy) of the next n bytes. */
  readBytes(n: number, path = ''): Uint8Array {
    this.ensure(n, path);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** A NUL-terminated UTF-8 string; the NUL is consumed. Bytes that are not UTF-8 are kept (decodeUtf8Escaped). */
  readCString(path = ''): string {
    const start = this.pos;
    const nul = this.bytes.indexOf(0, start);
    if (nul < 0 || nul >= this.end) {
      // Running out of bytes before the NUL is truncation (a stream reader waits for more).
      throw new BinaryError('TRUNCATED', 'string has no NUL terminator before the end', this.baseOffset + start, path);
    }
    this.pos = nul + 1;
    // Short ASCII read where it is, without a view of its bytes (decodeUtf8Escaped would give the same).
    return shortAscii(this.bytes, start, nul) ?? decodeUtf8Escaped(this.bytes.subarray(start, nul));
  }

  /** The Teeworlds variable-width int (layout: see packVarInt). */
  readVarInt(path = ''): number {
    // Most ints fit in one byte: [0 | sign | 6 bits], always canonical.
    const p0 = this.pos;
    if (p0 < this.end) {
      const b = this.bytes[p0]!;
      if (!(b & 0x80)) {
        this.pos = p0 + 1;
        return b & 0x40 ? ~(b & 0x3f) : b & 0x3f;
      }
    }
    return this.readLongVarInt(path);
  }

  /** readVarInt past its one-byte case: the byte at `pos` has its extend bit set, or there is none. */
  private readLongVarInt(path: string): number {
    // Two bytes, [1 | sign | 6 bits] [0 | 7 bits] (sizes, coordinates, ticks up to 8191; about a quarter of
    // the corpus capture's message ints, 28231 of 124637), read here: the shortest form unless the second
    // byte is 0.
    const p0 = this.pos;
    if (p0 + 1 < this.end) {
      const b1 = this.bytes[p0 + 1]!;
      if (b1 !== 0 && !(b1 & 0x80)) {
        const b0 = this.bytes[p0]!;
        const v = (b0 & 0x3f) | (b1 << 6);
        this.pos = p0 + 2;
        return b0 & 0x40 ? ~v : v;
      }
    }
    const p = unpackVarInt(this.bytes, this.pos, this.end, longVarInt, 0);
    if (p >= 0) {
      this.pos = p;
      return longVarInt[0]!;
    }
    throw this.varIntError(path);
  }

  /** Why unpackVarInt refused the varint at `pos`: it runs out, is longer than 5 bytes, or is not the shortest form. */
  private varIntError(path: string): BinaryError {
    const bytes = this.bytes;
    if (this.pos >= this.end) return new BinaryError('TRUNCATED', 'varint needs 1 byte, 0 left', this.offset, path);
    let p = this.pos + 1;
    if (bytes[this.pos]! & 0x80) {
      for (let i = 0; ; i++) {
        if (p >= this.end) return new BinaryError('TRUNCATED', 'varint ends in the middle', this.baseOffset + p, path);
        const b = bytes[p++]!;
        // The fifth byte holds the top 4 bits; anything more cannot be written back the same way.
        if (i === 3) {
          if (b & 0xf0) return new BinaryError('VARINT_OVERLONG', 'varint longer than 5 bytes or out of range', this.baseOffset + p - 1, path);
          break;
        }
        if (!(b & 0x80)) break;
      }
    }
    // DDNet always writes the shortest form; a longer one could not be written back byte for byte.
    const result = longVarInt[0]!;
    return new BinaryError('VARINT_NONCANONICAL', `varint of ${result} takes ${p - this.pos} bytes, not ${varIntSize(result)}`, this.offset, path);
  }

}

/**
 * A growable little-endian byte sink. `finish()` returns a view of exactly the bytes written.
 */
export class ByteWriter {
  private buf: Uint8Array;
  private dataView: DataView | undefined;
  pos = 0;

  constructor(initialCapacity = 1024) {
    this.buf = new Uint8Array(Math.max(16, initialCapacity));
  }

  /** Made on first use of a multi-byte write, for the current buffer (see ByteReader#view). */
  private get view(): DataView {
    return (this.dataView ??= new DataView(this.buf.buffer));
  }

  private reserve(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.dataView = undefined;
  }

  writeU8(v: number): void {
    this.reserve(1);
    this.buf[this.pos++] = v;
  }

  writeU16LE(v: number): void {
    this.reserve(2);
    this.view.setUint16(this.pos, v, true);
    this.pos += 2;
  }

  writeI32LE(v: number): void {
    this.reserve(4);
    this.view.setInt32(this.pos, v, true);
    this.pos += 4;
  }

  writeU32LE(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.pos, v >>> 0, true);
    this.pos += 4;
  }

  writeI32BE(v: number): void {
    this.reserve(4);
    this.view.setInt32(this.pos, v, false);
    this.pos += 4;
  }

  writeBytes(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  writeCString(text: string): void {
    // Short ASCII written char by char: its UTF-8 is its char codes, and TextEncoder costs about as much
    // per call as TextDecoder (see decodeUtf8).
    const n = text.length;
    if (n <= SHORT_STRING) {
      this.reserve(n + 1);
      const buf = this.buf;
      const at = this.pos;
      let i = 0;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c > 0x7f) break;
        buf[at + i] = c;
      }
      if (i === n) {
        buf[at + n] = 0;
        this.pos = at + n + 1;
        return;
      }
    }
    this.writeBytes(encodeUtf8Escaped(text));
    this.writeU8(0);
  }

  writeVarInt(value: number): void {
    this.reserve(5);
    this.pos = packVarInt(value, this.buf, this.pos);
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  /** Whether the bytes written so far are exactly `bytes` (without finish()'s view, which costs more here). */
  equals(bytes: Uint8Array): boolean {
    if (bytes.length !== this.pos) return false;
    const buf = this.buf;
    for (let i = 0; i < bytes.length; i++) if (buf[i] !== bytes[i]) return false;
    return true;
  }
}

/**
 * Packs a Teeworlds variable-width int at `pos` and returns the position after it.
 * Layout: first byte [extend | sign | 6 bits], then [extend | 7 bits], at most 5 bytes; a negative value v
 * is stored as the bits of ~v with the sign bit set (checked against DDNet's CVariableInt).
 */
export function packVarInt(value: number, out: Uint8Array, pos: number): number {
  let v = value | 0;
  let first = 0;
  if (v < 0) {
    first = 0x40;
    v = ~v;
  }
  first |= v & 0x3f;
  v >>>= 6;
  if (v === 0) {
    out[pos++] = first;
    return pos;
  }
  out[pos++] = first | 0x80;
  while (true) {
    const b = v & 0x7f;
    v >>>= 7;
    if (v === 0) {
      out[pos++] = b;
      return pos;
    }
    out[pos++] = b | 0x80;
  }
}

/** Where ByteReader's long varints are unpacked. */
const longVarInt = new Int32Array(1);

/**
 * Unpacks the variable-width int at `bytes[pos]` (layout: see packVarInt) into `out[slot]` and returns the
 * position after it, or -1 where ByteReader.readVarInt throws: the int does not end before `end`, is longer
 * than 5 bytes, or is not the shortest form (which could not be written back byte for byte). For decoders
 * that neither allocate nor throw on their fast path (the teehistorian scanner).
 */
export function unpackVarInt(bytes: Uint8Array, pos: number, end: number, out: Int32Array, slot: number): number {
  if (pos >= end) return -1;
  let p = pos;
  let b = bytes[p++]!;
  const sign = (b >> 6) & 1;
  let value = b & 0x3f;
  if (b & 0x80) {
    let shift = 6;
    for (let i = 0; ; i++) {
      if (p >= end) return -1;
      b = bytes[p++]!;
      if (i === 3) {
        if (b & 0xf0) return -1;
        value |= b << shift;
        break;
      }
      value |= (b & 0x7f) << shift;
      shift += 7;
      if (!(b & 0x80)) break;
    }
  }
  const result = sign ? ~value : value | 0;
  // Written also when the form is not the shortest, for ByteReader's error message.
  out[slot] = result;
  return p - pos === varIntSize(result) ? p : -1;
}

/**
 * Unpacks every variable-width int of `bytes[start, end)` into `out` from `slot` on and returns how many, or
 * -1 where ByteReader.readVarInt would throw on one of them (read them again with a ByteReader for the error).
 * `out` needs a slot per byte (`end - start`) from `slot`. For payloads that are nothing but ints (demo
 * chunks): one call per payload, with no allocation; one-byte ints, most of them, take one branch.
 */
export function unpackVarInts(bytes: Uint8Array, start: number, end: number, out: Int32Array, slot = 0): number {
  let n = slot;
  let p = start;
  // Up to here, the 5 bytes an int can take are all before `end`: no bounds checks inside one.
  const unchecked = end - 4;
  while (p < end) {
    let b = bytes[p]!;
    if (!(b & 0x80)) {
      out[n++] = b & 0x40 ? ~(b & 0x3f) : b & 0x3f;
      p++;
      continue;
    }
    if (p >= unchecked) {
      p = unpackVarInt(bytes, p, end, out, n);
      if (p < 0) return -1;
      n++;
      continue;
    }
    const sign = b & 0x40;
    let value = b & 0x3f;
    b = bytes[p + 1]!;
    value |= (b & 0x7f) << 6;
    p += 2;
    if (b & 0x80) {
      b = bytes[p++]!;
      value |= (b & 0x7f) << 13;
      if (b & 0x80) {
        b = bytes[p++]!;
        value |= (b & 0x7f) << 20;
        if (b & 0x80) {
          b = bytes[p++]!;
          if (b & 0xf0) return -1; // longer than 5 bytes or out of range
          value |= b << 27;
        }
      }
    }
    // The shortest form is the one whose last byte holds bits: a zero last byte is a longer form.
    if (b === 0) return -1;
    out[n++] = sign ? ~value : value;
  }
  return n - slot;
}

/** The number of bytes `packVarInt` writes for a value. */
export function varIntSize(value: number): number {
  let v = value | 0;
  if (v < 0) v = ~v;
  v >>>= 6;
  let n = 1;
  while (v !== 0) {
    n++;
    v >>>= 7;
  }
  return n;
}
