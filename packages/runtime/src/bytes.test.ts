import { describe, expect, it, vi } from 'vitest';
import { ByteReader, ByteWriter } from './bytes.js';
import { decodeUtf8, decodeUtf8Escaped, encodeUtf8Escaped } from './utf8.js';
import { packVarInt, unpackVarInt, unpackVarInts, varIntSize } from './varint.js';
import { BinaryError } from './errors.js';
import { asciiInt32s, bytesEqual } from './ints.js';
import { firstNonZeroRecord } from './record-scan.js';
import { decodeI32String, encodeI32String } from './i32string.js';
import { md5 } from './md5.js';
import { CodecError } from './errors.js';
import { uuidFromBytes, uuidFromInts, uuidFromName, uuidToBytes, uuidToInts } from './uuid.js';

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');

describe('variable-width int', () => {
  const values = [0, 1, -1, 63, 64, -64, -65, 8191, 8192, 1 << 20, -(1 << 20), 0x7fffffff, -0x80000000, 123456789];
  it.each(values)('round-trips %i', (v) => {
    const w = new ByteWriter();
    w.writeVarInt(v);
    const bytes = w.finish();
    expect(bytes.length).toBe(varIntSize(v));
    const r = new ByteReader(bytes);
    expect(r.readVarInt()).toBe(v);
    expect(r.remaining).toBe(0);
  });

  it('reads every one- and two-byte int, both signs, as packVarInt wrote it', () => {
    const out = new Uint8Array(5);
    for (let v = -8192; v < 8192; v++) {
      const n = packVarInt(v, out, 0);
      expect(n).toBe(v >= -64 && v < 64 ? 1 : 2);
      const r = new ByteReader(out.subarray(0, n));
      if (r.readVarInt() !== v) expect(v).toBe('read back');
    }
  });

  it('writes little-endian ints across buffer growth, and compares what it wrote', () => {
    const w = new ByteWriter(16);
    w.writeU16LE(0x0201);
    for (let i = 0; i < 10; i++) w.writeI32LE(0x06050403 + i);
    const bytes = w.finish();
    expect(hex(bytes.subarray(0, 6))).toBe('010203040506');
    expect(new ByteReader(bytes, 2 + 36).readI32LE()).toBe(0x06050403 + 9);
    expect(w.equals(bytes.slice())).toBe(true);
    expect(w.equals(bytes.slice(0, -1))).toBe(false);
    const other = bytes.slice();
    other[20]! ^= 1;
    expect(w.equals(other)).toBe(false);
  });

  it('matches the documented layout', () => {
    const out = new Uint8Array(5);
    expect(hex(out.subarray(0, packVarInt(64, out, 0)))).toBe('8001');
    expect(hex(out.subarray(0, packVarInt(-1, out, 0)))).toBe('40');
    expect(hex(out.subarray(0, packVarInt(-65, out, 0)))).toBe('c001');
  });

  it('rejects non-canonical encodings, which could not be written back the same', () => {
    expect(() => new ByteReader(Uint8Array.of(0x81, 0x00)).readVarInt()).toThrowError(expect.objectContaining({ code: 'VARINT_NONCANONICAL' }));
  });

  it('rejects truncated and over-long encodings with an offset', () => {
    expect(() => new ByteReader(Uint8Array.of(0x80)).readVarInt('x')).toThrowError(BinaryError);
    const overlong = new ByteReader(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x10), 0, 5, 100);
    try {
      overlong.readVarInt('field');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(BinaryError);
      expect((e as BinaryError).code).toBe('VARINT_OVERLONG');
      expect((e as BinaryError).offset).toBe(104);
      expect((e as BinaryError).path).toBe('field');
    }
  });
});

describe('ByteReader', () => {
  it('reads little- and big-endian ints and C strings with bounds checks', () => {
    const r = new ByteReader(Uint8Array.of(1, 0, 0, 0, 0, 0, 0, 2, 0x68, 0x69, 0, 7));
    expect(r.readI32LE()).toBe(1);
    expect(r.readI32BE()).toBe(2);
    expect(r.readCString()).toBe('hi');
    expect(() => r.readI32LE('tail')).toThrowError(expect.objectContaining({ code: 'TRUNCATED', offset: 11, path: 'tail' }));
  });

  it('reads other bytes once repointed, as a new reader over them would (its view too)', () => {
    const r = new ByteReader(Uint8Array.of(9, 9, 9, 9));
    expect(r.readI32LE()).toBe(0x09090909);
    const other = Uint8Array.of(5, 1, 0, 0, 0, 3);
    expect(r.repoint(other, 1, 5, 100)).toBe(r);
    expect([r.pos, r.end, r.baseOffset, r.remaining, r.offset]).toEqual([1, 5, 100, 4, 101]);
    expect(r.readI32LE()).toBe(1);
    expect(() => r.readU8('past')).toThrowError(expect.objectContaining({ code: 'TRUNCATED', offset: 105, path: 'past' }));
  });
});

describe('asciiInt32s', () => {
  // The char codes' low bytes, four to a little-endian word, the last padded with zeros: ASCII text by the
  // encoder (issue 41), other text by the loop; both as the loop alone made them.
  const byLoop = (text: string) => {
    const words = new Int32Array((text.length + 3) >> 2);
    for (let i = 0; i < text.length; i++) words[i >> 2]! |= (text.charCodeAt(i) & 255) << ((i & 3) * 8);
    return words;
  };
  it('gives the words of the char codes, ASCII or not', () => {
    for (const text of ['', 'a', 'ab', 'abc', 'abcd', '{"index":', ',"time":"2026-11-23T15:33:41.', '\0\x7f~', 'é', 'aé', 'abcdé€😀', '\ud800x']) {
      expect([...asciiInt32s(text)], JSON.stringify(text)).toEqual([...byLoop(text)]);
    }
  });
});

describe('I32String', () => {
  it('round-trips and stores bytes +128 big-endian with a NUL last byte', () => {
    const ints = encodeI32String('Grass', 8);
    expect(ints.length).toBe(8);
    // 'G' 'r' 'a' 's' = 47 72 61 73, each +0x80: c7 f2 e1 f3 (worked out by hand).
    expect(ints[0]! >>> 0).toBe(0xc7f2e1f3);
    expect((ints[7]! & 0xff)).toBe(0);
    expect(decodeI32String(ints)).toBe('Grass');
  });

  it('cuts text to 4n-1 bytes', () => {
    expect(decodeI32String(encodeI32String('abcdefgh', 2))).toBe('abcdefg');
  });

  it('decodes non-ASCII names as UTF-8 (past the ASCII fast path), also when a byte is not UTF-8', () => {
    for (const name of ['Grün', 'ё', '⚑ flag', 'a😀b', 'x\u007f']) expect(decodeI32String(encodeI32String(name, 4))).toBe(name);
    // 'a', 0xff, then NUL, stored +128: the 0xff becomes U+FFFD as TextDecoder makes it.
    expect(decodeI32String(Int32Array.of((((0x61 + 0x80) << 24) | (0x7f << 16) | (0x80 << 8)) | 0))).toBe('a\ufffd');
  });
});

describe('decodeUtf8', () => {
  it('gives what TextDecoder gives for any bytes, short (the ASCII loop) and long', () => {
    const reference = new TextDecoder();
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
    for (let n = 0; n < 2000; n++) {
      const bytes = Uint8Array.from({ length: n % 90 }, () => (n % 3 === 0 ? random() & 0x7f : random()));
      expect(decodeUtf8(bytes)).toBe(reference.decode(bytes));
    }
    // A leading BOM is dropped, as TextDecoder drops it.
    expect(decodeUtf8(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61))).toBe('a');
    expect(decodeUtf8(new Uint8Array(0))).toBe('');
  });
});

describe('UUIDs', () => {
  it('computes MD5', () => {
    expect(hex(md5(new TextEncoder().encode('')))).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(hex(md5(new TextEncoder().encode('The quick brown fox jumps over the lazy dog')))).toBe(
      '9e107d9d372bb6826bd81d3542a419d6',
    );
  });

  it('computes version-3 UUIDs in the Teeworlds namespace', () => {
    // Values from FORMAT-NOTES.md (checked against DDNet).
    expect(uuidFromName('mapitemtype-automapper-config@ddnet.tw')).toBe('3e1b2716-178c-3978-9bd9-b11ae0410dd8');
    expect(uuidFromName('teehistorian@ddnet.tw')).toBe('699db17b-8efb-34ff-b1d8-da6f60c15dd1');
  });

  it('converts to and from the big-endian int form', () => {
    const uuid = uuidFromName('mapitemtype-test@ddnet.tw');
    expect(uuidFromInts(uuidToInts(uuid))).toBe(uuid);
    expect(uuidToInts('3e1b2716-178c-3978-9bd9-b11ae0410dd8')[0]).toBe(0x3e1b2716);
  });

  it('converts to and from 16 bytes, and refuses short input and malformed text', () => {
    const bytes = Uint8Array.from({ length: 18 }, (_, i) => (i * 17 + 3) & 0xff);
    const text = '03142536-4758-697a-8b9c-adbecfe0f102';
    expect(uuidFromBytes(bytes)).toBe(text);
    expect(uuidFromBytes(bytes, 2)).toBe('25364758-697a-8b9c-adbe-cfe0f1021324');
    expect([...uuidToBytes(text)]).toEqual([...bytes.subarray(0, 16)]);
    expect([...uuidToBytes('ffffffff-0000-0000-0000-00000000000a')]).toEqual([255, 255, 255, 255, ...new Array(11).fill(0), 10]);
    expect(() => uuidFromBytes(bytes, 3)).toThrow(CodecError);
    expect(() => uuidFromBytes(bytes, -1)).toThrow(CodecError);
    expect(() => uuidToBytes('03142536-4758-697a-8b9c-ADBECFE0F102')).toThrow(CodecError);
  });

  it('gives the text of the bytes given, whatever UUIDs it made before (its table of recent ones, issue 41)', () => {
    const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    const naive = (bytes: Uint8Array) => hex(bytes).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
    let seed = 99;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
    const base = Uint8Array.from({ length: 16 }, next);
    for (let n = 0; n < 400; n++) {
      // The same first four bytes with other last ones, one byte changed anywhere, the same bytes at another
      // offset and changed after use, and many new ones (more than the table holds).
      const bytes = new Uint8Array(20);
      bytes.set(base, n % 4);
      if (n % 3 === 0) bytes[(n % 4) + (n % 16)] = bytes[(n % 4) + (n % 16)]! ^ (1 + (n % 255));
      if (n % 5 === 0) for (let i = 4; i < 16; i++) bytes[(n % 4) + i] = next();
      if (n % 7 === 0) for (let i = 0; i < 16; i++) bytes[(n % 4) + i] = next();
      const view = bytes.subarray(n % 4, (n % 4) + 16);
      const want = naive(view);
      expect(uuidFromBytes(bytes, n % 4)).toBe(want);
      // and back: a new array each time, the same bytes whoever changed an earlier one
      const back = uuidToBytes(want);
      expect(hex(back)).toBe(hex(view));
      back.fill(0);
      expect(hex(uuidToBytes(want))).toBe(hex(view));
      expect(() => uuidToBytes(want.toUpperCase().replace(/^[0-9]/, 'A'))).toThrow(CodecError);
      bytes.fill(0xee);
      expect(uuidFromBytes(bytes, n % 4)).toBe('eeeeeeee-eeee-eeee-eeee-eeeeeeeeeeee');
    }
  });
});

describe('UTF-8 with escaped bytes', () => {
  it('gives back any bytes exactly, and valid UTF-8 as TextDecoder reads it', () => {
    let seed = 12345;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
    for (let n = 0; n < 2000; n++) {
      const bytes = Uint8Array.from({ length: n % 40 }, next);
      const text = decodeUtf8Escaped(bytes);
      expect(encodeUtf8Escaped(text)).toEqual(bytes);
    }
    const valid = new TextEncoder().encode('plain, é, 😀, \u{10ffff}');
    expect(decodeUtf8Escaped(valid)).toBe(new TextDecoder().decode(valid));
    expect(decodeUtf8Escaped(Uint8Array.of(0x61, 0xff, 0xf0, 0x9f, 0x98))).toBe('a\udcff\udcf0\udc9f\udc98');
  });

  it('keeps lone surrogates of real text apart from escapes only where UTF-8 cannot hold them', () => {
    expect(encodeUtf8Escaped('\ud83d\ude00')).toEqual(new TextEncoder().encode('😀'));
    expect(encodeUtf8Escaped('x\udc80')).toEqual(Uint8Array.of(0x78, 0x80));
  });
});

describe('unpackVarInt (the allocation-free decoder the teehistorian scanner uses)', () => {
  it('reads what ByteReader.readVarInt reads and gives -1 where it throws', () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
    const out = new Int32Array(2);
    for (let n = 0; n < 20_000; n++) {
      const bytes = Uint8Array.from({ length: 1 + (n % 6) }, next);
      const end = n % 7 === 0 ? bytes.length - 1 : bytes.length;
      const reader = new ByteReader(bytes, 0, end);
      let expected: number | undefined;
      try {
        expected = reader.readVarInt();
      } catch (e) {
        expect(e).toBeInstanceOf(BinaryError);
      }
      const pos = unpackVarInt(bytes, 0, end, out, 1);
      if (expected === undefined) expect(pos).toBe(-1);
      else expect([pos, out[1]]).toEqual([reader.pos, expected]);
    }
  });
});

describe('unpackVarInts', () => {
  it('unpacks what ByteReader.readVarInt reads, and fails where it throws', () => {
    // Every one-byte int, ints of every length, and the forms readVarInt refuses: cut off, longer than 5 bytes,
    // not the shortest; each at the start, in the middle and within the last 4 bytes.
    const good: number[][] = [[0], [0x3f], [0x40], [0x7f], [0x80, 0x01], [0xff, 0x7f], [0x80, 0x80, 0x01], [0xbf, 0xff, 0xff, 0xff, 0x0f], [0xc0, 0x80, 0x80, 0x80, 0x01]];
    const bad: number[][] = [[0x80], [0x80, 0x80], [0x80, 0x00], [0x80, 0x80, 0x00], [0x80, 0x80, 0x80, 0x80, 0x00], [0x80, 0x80, 0x80, 0x80, 0x10], [0x80, 0x80, 0x80, 0x80, 0x81]];
    const cases: number[][] = [];
    for (const a of good) for (const b of [...good, ...bad]) cases.push([...a, ...b], [...b, ...a], [...a, ...b, ...a, 0x00, 0x00, 0x00, 0x00]);
    for (const bytes of cases) {
      const input = Uint8Array.from([9, ...bytes]);
      const out = new Int32Array(input.length + 2).fill(7);
      const n = unpackVarInts(input, 1, input.length, out, 2);
      const r = new ByteReader(input, 1);
      const expected: number[] = [];
      let fails = false;
      try {
        while (r.remaining > 0) expected.push(r.readVarInt());
      } catch {
        fails = true;
      }
      if (fails) expect(n, `${bytes}`).toBe(-1);
      else expect([...out.subarray(2, 2 + n)], `${bytes}`).toEqual(expected);
    }
  });

  it('unpacks every int of one and two bytes, of either sign, as packVarInt packed it', () => {
    const values = Array.from({ length: 2 * 8192 }, (_, i) => i - 8192);
    const packed = new Uint8Array(values.length * 2);
    let at = 0;
    for (const v of values) at = packVarInt(v, packed, at);
    const out = new Int32Array(at);
    expect(unpackVarInts(packed, 0, at, out)).toBe(values.length);
    expect([...out.subarray(0, values.length)]).toEqual(values);
  });
});

describe('bytesEqual', () => {
  it('finds a difference at every position, whatever the byte offsets of the two arrays', () => {
    const base = Uint8Array.from({ length: 160 }, (_, i) => (i * 131 + 7) & 0xff);
    for (const length of [0, 1, 3, 4, 63, 64, 65, 67, 130]) {
      for (const offA of [0, 1, 2, 3]) {
        for (const offB of [0, 3]) {
          const a = new Uint8Array(length + 8).subarray(offA, offA + length);
          const b = new Uint8Array(length + 8).subarray(offB, offB + length);
          a.set(base.subarray(0, length));
          b.set(base.subarray(0, length));
          expect(bytesEqual(a, b)).toBe(true);
          for (let at = 0; at < length; at++) {
            b[at] = b[at]! ^ 0x80;
            expect(bytesEqual(a, b)).toBe(false);
            b[at] = b[at]! ^ 0x80;
          }
        }
      }
    }
    expect(bytesEqual(new Uint8Array(64), new Uint8Array(65))).toBe(false);
  });
});

describe('record scans: firstNonZeroPerOffset, recordsNotIn (issue 41)', () => {
  const firstNaive = (bytes: Uint8Array, size: number, z: number) => {
    for (let i = 0; (i + 1) * size <= bytes.length; i++) if (bytes[i * size + z] !== 0) return i;
    return -1;
  };
  const notInNaive = (bytes: Uint8Array, size: number, offset: number, count: number, table: Uint8Array, cap: number) => {
    const listed: number[] = [];
    let total = 0;
    for (let i = 0; i < Math.min(count, Math.floor(bytes.length / size)); i++) if (table[bytes[i * size + offset]!] !== 1 && ++total <= cap) listed.push(i);
    return { listed, total };
  };
  /** The scans with the WebAssembly kernel, and without (a fresh copy of the module where WebAssembly is missing). */
  const implementations = async () => {
    vi.resetModules();
    const withKernel = await import('./record-scan.js');
    expect(withKernel.recordScanKernelRuns()).toBe(true);
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    try {
      const withoutKernel = await import('./record-scan.js');
      expect(withoutKernel.recordScanKernelRuns()).toBe(false);
      return [withKernel, withoutKernel];
    } finally {
      vi.unstubAllGlobals();
    }
  };

  it('find what a byte loop finds, for aligned and unaligned records of every size, with and without WebAssembly', async () => {
    const [a, b] = await implementations();
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) / 65536;
    const table = Uint8Array.from({ length: 256 }, (_, i) => (i % 3 === 0 ? 1 : 0));
    for (const size of [1, 2, 3, 4, 6]) {
      for (const shift of [0, 1, 2]) {
        for (let round = 0; round < 40; round++) {
          const length = Math.floor(rand() * 40) * size + (round % 3);
          const bytes = new Uint8Array(length + shift).subarray(shift);
          for (let n = Math.floor(rand() * 4); n > 0; n--) bytes[Math.floor(rand() * length)] = 1 + Math.floor(rand() * 255);
          const offsets = Array.from({ length: Math.floor(rand() * (size + 1)) }, () => Math.floor(rand() * size));
          const want = offsets.map((z) => firstNaive(bytes, size, z));
          const offset = Math.floor(rand() * size);
          const count = Math.floor(rand() * 50) - 5;
          const cap = Math.floor(rand() * 4);
          for (const scan of [a!, b!]) {
            expect(scan.firstNonZeroPerOffset(bytes, size, offsets), `${size} ${shift} ${offsets} ${bytes}`).toEqual(want);
            expect(scan.recordsNotIn(bytes, size, offset, count, table, cap)).toEqual(notInNaive(bytes, size, offset, count, table, cap));
          }
          const least = want.filter((i) => i >= 0);
          expect(firstNonZeroRecord(bytes, size, offsets)).toBe(least.length ? Math.min(...least) : -1);
        }
      }
    }
  });

  it('go through inputs larger than the kernel memory in chunks, finding records in any chunk and across their edges', async () => {
    const [a, b] = await implementations();
    const table = new Uint8Array(256).fill(1);
    table[7] = 0;
    for (const size of [4, 6]) {
      const count = Math.ceil((3.5 * (1 << 20)) / size);
      const bytes = new Uint8Array(count * size);
      // One record at the end of the first chunk, one just after it, one in the last record.
      const perChunk = Math.floor((1 << 20) / size);
      for (const i of [perChunk - 1, perChunk, count - 1]) bytes[i * size + 1] = 7;
      bytes[(count - 1) * size + 2] = 9;
      for (const scan of [a!, b!]) {
        expect(scan.firstNonZeroPerOffset(bytes, size, [0, 1, 2])).toEqual([-1, perChunk - 1, count - 1]);
        expect(scan.recordsNotIn(bytes, size, 1, count, table, 2)).toEqual({ listed: [perChunk - 1, perChunk], total: 3 });
      }
    }
  });
});

describe('variable-width ints as docs/formats/teehistorian.md describes them', () => {
  it('pack the worked examples the docs give (groups least significant first, sign in bit 6 of the first byte)', () => {
    const hex = (v: number) => {
      const out = new Uint8Array(5);
      return Array.from(out.subarray(0, packVarInt(v, out, 0)), (b) => b.toString(16).padStart(2, '0')).join(' ');
    };
    expect([0, 63, 64, -1, -65].map(hex)).toEqual(['00', '3f', '80 01', '40', 'c0 01']);
  });
});

describe('copyBytes', () => {
  // Every length up to past the pool's limit, from a small source (read through a kept DataView), a view with an
  // offset into a bigger buffer, a large source (read a byte at a time), and ranges past the source's end
  // (zeros, as index reads give): always the bytes of bytes.slice, in an array of its own.
  it('copies the bytes of the range whatever the source and length', async () => {
    const { copyBytes } = await import('./arrays.js');
    const small = Uint8Array.from({ length: 1400 }, (_, i) => (i * 37 + 11) & 0xff);
    const offset = new Uint8Array(Uint8Array.from({ length: 3000 }, (_, i) => (i * 13) & 0xff).buffer, 7, 2000);
    const large = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7 + 3) & 0xff);
    for (const source of [small, offset, large, small]) {
      for (let n = 0; n <= 600; n += n < 20 ? 1 : 37) {
        const start = (n * 11) % (source.length - n);
        const copy = copyBytes(source, start, start + n);
        expect(Array.from(copy)).toEqual(Array.from(source.slice(start, start + n)));
      }
    }
    // The source changed after a copy: the next copy has its new bytes.
    small[5] = 0xab;
    expect(copyBytes(small, 4, 12)[1]).toBe(0xab);
    // A copy is not a view of its source.
    const copy = copyBytes(small, 0, 8);
    small[0] = small[0]! ^ 0xff;
    expect(copy[0]).toBe(small[0]! ^ 0xff);
    // Past the end: the bytes that are there, then zeros.
    expect(Array.from(copyBytes(small, 1396, 1404))).toEqual([...Array.from(small.subarray(1396)), 0, 0, 0, 0]);
    // A large copy has a buffer of its own, as slice gives; a large range past the end is slice's too.
    for (const source of [small, offset, large]) {
      const big = copyBytes(source, 100, 1300);
      expect([big.byteOffset, big.buffer.byteLength]).toEqual([0, 1200]);
      expect(Array.from(big)).toEqual(Array.from(source.slice(100, 1300)));
    }
    expect(Array.from(copyBytes(small, 800, 1500))).toEqual(Array.from(small.slice(800, 1500)));
    // Small copies go on in the slab after a large one.
    const [a, b] = [copyBytes(small, 0, 8), copyBytes(small, 8, 16)];
    expect([a.buffer === b.buffer, b.byteOffset - a.byteOffset]).toEqual([true, 8]);
  });
});
