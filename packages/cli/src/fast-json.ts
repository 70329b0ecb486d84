// JSON text as messageJson (message-json.ts) writes it, byte for byte, written as UTF-8 bytes into one growing
// buffer instead of made by JSON.stringify with a replacer: V8 takes its slow path for every value once there
// is a replacer, and a line built of many small strings costs again when it is flattened and encoded for the
// write. Together they were more than 40% of `net pcap`'s time (issue 41, node --cpu-prof on the corpus DDNet
// session repeated to 10 MB); bytes written here cost a fraction of that. Plain objects, arrays, strings,
// numbers, booleans and null are written here; Uint8Array as a hex string (messageJson's replacer); anything
// else (a class instance, a value with toJSON, a BigInt) is left to messageJson itself, so the text is the same
// whatever the value (net-pcap-stream.test.ts compares the two on the captures).
import { Buffer } from 'node:buffer';
import { type NetJsonText, type NetJsonWriter, netJsonText } from '@twcodec/netmsg';
import { messageJson } from './message-json.js';

/** The two ASCII hex digits of each byte value as a little-endian 16-bit value (the first digit in the low byte). */
const HEX_PAIRS = Uint16Array.from({ length: 256 }, (_, b) => '0123456789abcdef'.charCodeAt(b >> 4) | ('0123456789abcdef'.charCodeAt(b & 15) << 8));

/** The ASCII digits of 00 to 99, two bytes each. */
const DIGIT_PAIRS = Uint8Array.from({ length: 200 }, (_, i) => 48 + (i & 1 ? (i >> 1) % 10 : ((i >> 1) / 10) | 0));
/** The two ASCII digits of 00 to 99 as a little-endian 16-bit value (the first digit in the low byte). */
const DIGIT_PAIR_WORDS = Uint16Array.from({ length: 100 }, (_, i) => (48 + ((i / 10) | 0)) | ((48 + (i % 10)) << 8));

/** How many decimal digits a non-negative int32 has. */
function digitCount(v: number): number {
  if (v < 100000) return v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : 5;
  return v < 1000000 ? 6 : v < 10000000 ? 7 : v < 100000000 ? 8 : v < 1000000000 ? 9 : 10;
}

/** The digits of 2147483648, the magnitude of the one int32 whose negation is no int32. */
const INT32_MIN_DIGITS = Uint8Array.from('2147483648', (c) => c.charCodeAt(0));

/**
 * The int32 `n` as JSON writes it into `buf` at `from` (room for 11 bytes there); where it ends. Positions are
 * int32 by `| 0` throughout: a parameter is any value to V8 (checked for a small integer and untagged), and each
 * `+` of two int32 checked for overflow. With the same in text(), textNumber() and hex(), the JSON lines of the
 * corpus session went from 176 to 158 M instructions (issue 41, callgrind).
 */
function writeInt(buf: Uint8Array, from: number, n: number): number {
  let at = from | 0;
  let v = n | 0;
  if (v < 0) {
    buf[at] = 45;
    at = (at + 1) | 0;
    // -2147483648 has no positive int32: its digits are written as they are.
    if (v === -2147483648) {
      buf.set(INT32_MIN_DIGITS, at);
      return at + 10;
    }
    v = -v | 0;
  }
  // One and two digits (most of a capture's numbers: flags, counts, sizes) without the loops.
  if (v < 10) {
    buf[at] = 48 + v;
    return (at + 1) | 0;
  }
  if (v < 100) {
    const tens = (v / 10) | 0;
    buf[at] = 48 + tens;
    buf[(at + 1) | 0] = 48 + v - tens * 10;
    return (at + 2) | 0;
  }
  // The digits' count and loop written out (not digitCount and padded's loop): each is a call once V8's inlining
  // budget that `net pcap` sets is spent, and most numbers past two digits are a line's index, ticks and CRCs.
  const end = (at + (v < 100000 ? (v < 1000 ? 3 : v < 10000 ? 4 : 5) : v < 10000000 ? (v < 1000000 ? 6 : 7) : v < 100000000 ? 8 : v < 1000000000 ? 9 : 10)) | 0;
  let p = end;
  while (v >= 100) {
    const q = (v / 100) | 0;
    const pair = ((v - q * 100) << 1) | 0;
    p = (p - 2) | 0;
    buf[(p + 1) | 0] = DIGIT_PAIRS[(pair + 1) | 0]!;
    buf[p] = DIGIT_PAIRS[pair]!;
    v = q;
  }
  if (v >= 10) {
    buf[(p - 1) | 0] = DIGIT_PAIRS[((v << 1) + 1) | 0]!;
    buf[(p - 2) | 0] = DIGIT_PAIRS[v << 1]!;
  } else buf[(p - 1) | 0] = 48 + v;
  return end;
}

/**
 * Text kept to be written again and again (a line's keys, a second's time, an endpoint's text; the generated
 * writers' keys): JsonBytes.text() stores its words four bytes at a time through a DataView, where a byte loop
 * (charCodeAt, or a copy from bytes) stored one (1.3 to 1.7 ns a byte against 0.9, alternating in one process;
 * issue 41). The last word is padded with zeros, which the next text or byte overwrites.
 */
export type JsonText = NetJsonText;
export const jsonText = netJsonText;

/** A JSON writer into a buffer that grows as needed; `take()` gives what was written as text and starts over. */
export class JsonBytes implements NetJsonWriter {
  // 1 MiB: the lines of a 64 KiB piece of capture (about 350 KB) fit from the start. A buffer replaced by a
  // bigger one changes the field V8 had taken as constant, which sent every method compiled with it back to
  // be compiled again (node --trace-deopt: "code dependencies"; allocUnsafe does not clear the bytes).
  private buf = Buffer.allocUnsafe(1 << 20);
  /** A view of `buf` for text(): made again when `buf` grows. */
  private view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  at = 0;
  /** Keys as `"key":` in bytes, encoded once (a capture's messages use a few hundred names). */
  private readonly keys = new Map<string, Uint8Array>();

  /**
   * Room for `n` more bytes. The growing is a method of its own: V8 inlines room() into every writer method, and
   * with the growing in it room() was 151 bytes of bytecode, most of the 250 that `net pcap` lets V8 inline into
   * a function (net.ts, lessInlining), compiled again into each method (issue 41, node --trace-turbo-inlining).
   */
  private room(n: number): void {
    if (this.at + n > this.buf.length) this.grow(n);
  }

  /** A buffer with room for `n` more bytes than `at`, what was written copied into it. */
  private grow(n: number): void {
    let size = this.buf.length * 2;
    while (size < this.at + n) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buf.copy(grown, 0, 0, this.at);
    this.buf = grown;
    this.view = new DataView(grown.buffer, grown.byteOffset, grown.byteLength);
  }

  /**
   * A JsonText, four bytes at a time (up to three bytes past its end are written and then written over). The
   * loop of textAt written out here: called through textAt, each text was two calls (V8 inlines neither once
   * the command's inlining budget is spent; node --cpu-prof: textAt under text).
   */
  text(t: JsonText): void {
    const words = t.words;
    // Int32 positions (`| 0`): see writeInt.
    const length = t.length | 0;
    const end = (length + 3) >> 2;
    this.room(4 * end);
    const view = this.view;
    const start = this.at | 0;
    let at = start;
    for (let k = 0; k < end; k = (k + 1) | 0, at = (at + 4) | 0) view.setInt32(at, words[k]!, true);
    this.at = (start + length) | 0;
  }

  /** The JsonText words[first, first + ceil(length / 4)) of a list of texts kept in one array: `length` bytes. */
  textAt(words: Int32Array, first: number, length: number): void {
    // Int32 positions (`| 0`): see writeInt.
    const from = first | 0;
    const size = length | 0;
    const end = (from + ((size + 3) >> 2)) | 0;
    this.room(4 * (end - from));
    const view = this.view;
    const start = this.at | 0;
    let at = start;
    for (let k = from; k < end; k = (k + 1) | 0, at = (at + 4) | 0) view.setInt32(at, words[k]!, true);
    this.at = (start + size) | 0;
  }

  /**
   * text(t) then number(n) in one call: a key and its int are most of what a line holds (its index, a packet
   * header's fields, a message's int fields, a snapshot's ticks), and each call into the writer costs about as
   * much as the bytes it writes (issue 41).
   */
  textNumber(t: JsonText, n: number): void {
    if (n !== (n | 0)) {
      this.text(t);
      this.number(n);
      return;
    }
    const words = t.words;
    // Int32 positions (`| 0`): see writeInt.
    const length = t.length | 0;
    const end = (length + 3) >> 2;
    this.room(4 * end + 11);
    const view = this.view;
    const start = this.at | 0;
    let at = start;
    for (let k = 0; k < end; k = (k + 1) | 0, at = (at + 4) | 0) view.setInt32(at, words[k]!, true);
    // One and two digits (a header's flags, a chunk's size, a snapshot's item count: most of the ints a line
    // writes after a key) stored here, one store by the view, rather than by a call of writeInt: the corpus
    // session's JSON lines 155 to 148 M instructions (issue 41, callgrind; three and four digits so as well made
    // it 163).
    const v = n | 0;
    const digitsAt = (start + length) | 0;
    if (v >= 0 && v < 100) {
      if (v < 10) {
        view.setUint8(digitsAt, 48 + v);
        this.at = (digitsAt + 1) | 0;
      } else {
        view.setUint16(digitsAt, DIGIT_PAIR_WORDS[v]!, true);
        this.at = (digitsAt + 2) | 0;
      }
      return;
    }
    this.at = writeInt(this.buf, digitsAt, n);
  }

  /** Bytes of ASCII JSON text as they are, by one native copy (long texts kept whole: net-pcap-lines.ts keptBytes). */
  raw(bytes: Uint8Array): void {
    const n = bytes.length;
    this.room(n);
    this.buf.set(bytes, this.at);
    this.at += n;
  }

  /** Whether a byte past ASCII may have been written since the last take() (else the text is read as Latin-1, which copies it without decoding). */
  private wide = false;

  /** The text written since the last take(). */
  take(): string {
    const text = this.buf.toString(this.wide ? 'utf8' : 'latin1', 0, this.at);
    this.at = 0;
    this.wide = false;
    return text;
  }

  /**
   * The bytes written since the last take(), as a view of the writer's own buffer, and starts over: what goes
   * to standard output as it is (CliIo.stdout lends them). Reading them as text for the write and the write
   * encoding that text again cost 10% of `net pcap`'s CPU time (issue 41, node --cpu-prof over a 10 MB
   * capture), and copying them out before the write another 2%. The view's bytes are written over by what is
   * written next: the caller is done with them first.
   */
  lendBytes(): Uint8Array {
    const bytes = this.buf.subarray(0, this.at);
    this.at = 0;
    this.wide = false;
    return bytes;
  }

  /**
   * A non-negative int32 in at least `width` digits (zeros in front): a capture's fraction of a second, below 10^9
   * (int division, where Math.floor kept the digits in floats).
   */
  padded(n: number, width: number): void {
    // `| 0`: V8 then knows an int32 and divides by 10 with a multiply; a number it took for a float (a fraction
    // of a second from a division, a token's low digits) went to fmod for every digit (issue 41, node --cpu-prof).
    const v = n | 0;
    const digits = digitCount(v);
    const size = (width > digits ? width : digits) | 0;
    this.room(size);
    // Int32 positions (`| 0`): see writeInt.
    const end = ((this.at | 0) + size) | 0;
    // The last `size` digits (zeros in front), two at a time, from the end.
    const buf = this.buf;
    let rest = v;
    let at = end;
    let left = size;
    while (left >= 2) {
      const q = (rest / 100) | 0;
      const pair = ((rest - q * 100) << 1) | 0;
      at = (at - 2) | 0;
      buf[(at + 1) | 0] = DIGIT_PAIRS[(pair + 1) | 0]!;
      buf[at] = DIGIT_PAIRS[pair]!;
      rest = q;
      left = (left - 2) | 0;
    }
    if (left) buf[(at - 1) | 0] = 48 + (rest % 10);
    this.at = end;
  }

  /**
   * Text of ASCII characters that need no escape in JSON (keys, punctuation, digits, addresses), character by
   * character: for texts not kept (kept ones go by text()).
   */
  ascii(s: string): void {
    this.room(s.length);
    const { buf } = this;
    let at = this.at;
    for (let i = 0; i < s.length; i++) buf[at++] = s.charCodeAt(i);
    this.at = at;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.at++] = b;
  }

  /** `"key":` (after a comma when `comma`). */
  key(key: string, comma: boolean): void {
    let bytes = this.keys.get(key);
    if (bytes === undefined) {
      bytes = Buffer.from(`,${JSON.stringify(key)}:`);
      if (this.keys.size < 4096) this.keys.set(key, bytes);
    }
    const from = comma ? 0 : 1;
    this.room(bytes.length);
    const { buf } = this;
    let at = this.at;
    for (let i = from; i < bytes.length; i++) buf[at++] = bytes[i]!;
    this.at = at;
  }

  /** A number as JSON writes it (integers digit by digit, others by their text; not finite: null). */
  number(n: number): void {
    if (n === (n | 0)) {
      this.room(11);
      this.at = writeInt(this.buf, this.at, n);
      return;
    }
    // Integers past int32 up to 2^53 (a 0.6 packet's security token, above 2^31 half the time, is on every line
    // of a DDNet capture): as two int parts, the high digits then the low nine, where the text of the number
    // was a string made and copied per line (issue 41). Both parts are exact: each is below 2^53.
    if (Number.isSafeInteger(n)) {
      let v = n;
      if (v < 0) {
        this.byte(45);
        v = -v;
      }
      const high = Math.floor(v / 1e9);
      this.number(high);
      this.padded(v - high * 1e9, 9);
      return;
    }
    this.ascii(Number.isFinite(n) ? `${n}` : 'null');
  }

  /** A JSON string: ASCII without quotes, backslashes or control characters as it is; others as JSON.stringify escapes them, in UTF-8. */
  string(s: string): void {
    const n = s.length;
    this.room(n + 2);
    const { buf } = this;
    let at = this.at;
    buf[at++] = 34;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c === 34 || c === 92 || c >= 0x80) {
        const json = JSON.stringify(s);
        this.room(3 * json.length);
        this.at += this.buf.write(json, this.at, 'utf8');
        this.wide = true;
        return;
      }
      buf[at++] = c;
    }
    buf[at++] = 34;
    this.at = at;
  }

  boolean(value: boolean): void {
    this.ascii(value ? 'true' : 'false');
  }

  /** A byte array as messageJson writes it (hex: see hex()); what a message's generated json() writes raw fields with. */
  bytes(value: Uint8Array): void {
    this.hex(value);
  }

  /**
   * An array of numbers as JSON writes it: the room for ints made once (an input message's ten ints are on a
   * third of a game's lines; a call per number and per comma was most of writing them, issue 41).
   */
  numbers(values: readonly number[]): void {
    const n = values.length;
    this.room(12 * n + 2);
    let buf = this.buf;
    // Int32 positions (`| 0`): see writeInt.
    let at = this.at | 0;
    buf[at] = 91;
    at = (at + 1) | 0;
    for (let i = 0; i < n; i++) {
      if (i) buf[at++] = 44;
      const v = values[i]!;
      // One digit (most of an input's ints: its direction, jump, fire, hook) stored here, as textNumber does.
      if (v >= 0 && v < 10 && v === (v | 0)) {
        buf[at] = 48 + v;
        at = (at + 1) | 0;
      } else if (v === (v | 0)) at = writeInt(buf, at, v) | 0;
      else {
        // Past int32 or not an integer: by number(), which makes its own room.
        this.at = at;
        this.number(v);
        this.room(12 * (n - i) + 2);
        buf = this.buf;
        at = this.at | 0;
      }
    }
    buf[at++] = 93;
    this.at = at;
  }

  /** An array of strings as JSON writes it. */
  strings(values: readonly string[]): void {
    this.byte(91);
    for (let i = 0; i < values.length; i++) {
      if (i) this.byte(44);
      this.string(values[i]!);
    }
    this.byte(93);
  }

  /** A byte array as messageJson writes it: its hex in a JSON string. */
  hex(bytes: Uint8Array): void {
    this.room(2 * bytes.length + 2);
    const { buf, view } = this;
    // Int32 positions (`| 0`): see writeInt.
    let at = this.at | 0;
    buf[at] = 34;
    at = (at + 1) | 0;
    // The four digits of two bytes in one store (a snapshot delta's data is on most lines of a game's capture).
    const n = bytes.length | 0;
    let i = 0;
    for (; ((i + 2) | 0) <= n; i = (i + 2) | 0, at = (at + 4) | 0) view.setInt32(at, HEX_PAIRS[bytes[i]!]! | (HEX_PAIRS[bytes[i + 1]!]! << 16), true);
    if (i < n) {
      view.setUint16(at, HEX_PAIRS[bytes[i]!]!, true);
      at += 2;
    }
    buf[at++] = 34;
    this.at = at;
  }

  /** `value` as messageJson writes it; false (nothing written) for what JSON leaves out (undefined, a function, a symbol). */
  value(value: unknown): boolean {
    switch (typeof value) {
      case 'string':
        this.string(value);
        return true;
      case 'number':
        this.number(value);
        return true;
      case 'boolean':
        this.ascii(value ? 'true' : 'false');
        return true;
      case 'undefined':
      case 'function':
      case 'symbol':
        return false;
      case 'object': {
        if (value === null) {
          this.ascii('null');
          return true;
        }
        if (value instanceof Uint8Array && value.constructor === Uint8Array) {
          this.hex(value);
          return true;
        }
        if (Array.isArray(value)) {
          if (Object.getPrototypeOf(value) !== Array.prototype) break;
          this.byte(91);
          for (let i = 0; i < value.length; i++) {
            if (i) this.byte(44);
            if (!this.value(value[i])) this.ascii('null');
          }
          this.byte(93);
          return true;
        }
        if (Object.getPrototypeOf(value) !== Object.prototype || 'toJSON' in value) break;
        this.object(value as Record<string, unknown>);
        return true;
      }
    }
    const json = messageJson(value as object) as string | undefined;
    if (json === undefined) return false;
    this.room(3 * json.length);
    this.at += this.buf.write(json, this.at, 'utf8');
    this.wide = true;
    return true;
  }

  /**
   * The JSON object of the members of `object` in its key order (a plain object's), leaving out the keys `skipA`
   * and `skipB` (a message's kind and trailing bytes, which its line writes elsewhere).
   */
  object(object: Record<string, unknown>, skipA?: string, skipB?: string): void {
    this.byte(123);
    let first = true;
    for (const key in object) {
      if (!Object.hasOwn(object, key) || key === skipA || key === skipB) continue;
      const mark = this.at;
      this.key(key, !first);
      // A value JSON leaves out takes its key back out.
      if (this.value(object[key])) first = false;
      else this.at = mark;
    }
    this.byte(125);
  }

  /** `,"key":` in bytes, for a caller's keys of its own (written by memberOf without a look-up). */
  static keyOf(key: string): Uint8Array {
    return Buffer.from(`,${JSON.stringify(key)}:`);
  }

  /** member() with the key's bytes from keyOf. */
  memberOf(key: Uint8Array, value: unknown, comma = true): boolean {
    if (value === undefined) return false;
    const mark = this.at;
    this.room(key.length);
    const { buf } = this;
    let at = this.at;
    for (let i = comma ? 0 : 1; i < key.length; i++) buf[at++] = key[i]!;
    this.at = at;
    if (this.value(value)) return true;
    this.at = mark;
    return false;
  }

  /** `,"key":value` when JSON keeps the value (not undefined, a function or a symbol); nothing otherwise. */
  member(key: string, value: unknown, comma = true): boolean {
    if (value === undefined) return false;
    const mark = this.at;
    this.key(key, comma);
    if (this.value(value)) return true;
    this.at = mark;
    return false;
  }
}
