import { asUint8Array } from './arrays.js';
import { BinaryError } from './errors.js';
import { bytesEqual } from './ints.js';
import { decodeUtf8Escaped, encodeUtf8Escaped, SHORT_STRING, shortAscii } from './utf8.js';
import { packVarInt, unpackVarInt, varIntSize } from './varint.js';

/** Where ByteReader's long varints are unpacked. */
const longVarInt = new Int32Array(1);

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
  /**
   * For a decoder that keeps only what writes back byte for byte (netmsg's): when set, readCString counts in
   * `textsNotBack` the texts whose bytes encodeUtf8Escaped does not give back (ByteWriter.writeCString writes
   * them so). Short ASCII always comes back; the others are checked one by one, where encoding a whole message
   * again to compare it cost `net pcap` about 25 ms on a 50 MB capture (issue 41).
   */
  checkTexts = false;
  textsNotBack = 0;

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
    const ascii = shortAscii(this.bytes, start, nul);
    if (ascii !== undefined) return ascii;
    const bytes = this.bytes.subarray(start, nul);
    const text = decodeUtf8Escaped(bytes);
    if (this.checkTexts && !bytesEqual(encodeUtf8Escaped(text), bytes)) this.textsNotBack++;
    return text;
  }

  /** The Teeworlds variable-width int (layout: see packVarInt). */
  readVarInt(path = ''): number {
    // Most ints fit in one byte: [0 | sign | 6 bits], always canonical.
    const p0 = this.pos;
    if (p0 < this.end) {
      const b = this.bytes[p0]!;
      if (!(b & 0x80)) {
        this.pos = p0 + 1;
        // The sign by its mask (varint.ts).
        return (b & 0x3f) ^ ((b << 25) >> 31);
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
        // The sign by its mask (varint.ts): a branch's `~v` first ran at a 0.7 session's first negative
        // two-byte int, after V8 had optimised this (issue 41, node --trace-deopt).
        return v ^ ((b0 << 25) >> 31);
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
