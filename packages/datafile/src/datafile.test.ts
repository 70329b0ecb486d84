import { describe, expect, it } from 'vitest';
import { fixtureMaps, readBytes } from '../../../test/corpus.js';
import { countDecompressionStreams } from '../../../test/decompression-streams.js';
import { Datafile, ITEMTYPE_EX } from './datafile.js';
import { DatafileError } from './errors.js';
import { CodecError, uuidFromName } from '@twcodec/runtime';
import { deflateLikeZlib } from './deflate.js';
import { DECOMPRESSION_STREAM_MIN_SIZE, fflateZlib } from './zlib/fflate.js';
import { nodeZlib } from './zlib/node.js';

const AUTOMAPPER = uuidFromName('mapitemtype-automapper-config@ddnet.tw');

function sample(): Datafile {
  const df = new Datafile();
  df.addItem(0, 0, Int32Array.of(1));
  df.addItem(2, 0, Int32Array.of(1, 64, 64, 0, -1, 0));
  df.addItem(AUTOMAPPER, 0, Int32Array.of(1, 0, 1, 2, 0, 0));
  df.addData(new TextEncoder().encode('grass_main\0'));
  df.addData(new Uint8Array(4096));
  return df;
}

function setI32(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setInt32(offset, value, true);
  return copy;
}

function expectCode(bytes: Uint8Array, code: string, options: { inflate?: boolean } = {}): DatafileError {
  try {
    const df = Datafile.read(bytes);
    if (options.inflate) for (const d of df.data) d.bytes();
  } catch (e) {
    expect(e).toBeInstanceOf(DatafileError);
    expect((e as DatafileError).code).toBe(code);
    return e as DatafileError;
  }
  throw new Error(`expected ${code}, read fine`);
}

describe('Datafile on the fixtures', () => {
  it.each(fixtureMaps())('$name: lossless resave is byte-identical, ddnet resave matches map_resave', ({ path, resavedPath }) => {
    const bytes = readBytes(path);
    const df = Datafile.read(bytes);
    expect(df.write()).toEqual(bytes);
    if (resavedPath) expect(df.write({ mode: 'ddnet' })).toEqual(readBytes(resavedPath));
  });

  it.each(fixtureMaps())("$name: each item's data holds its ints as stored, in a copy of its own (not the input's memory)", ({ path }) => {
    const bytes = readBytes(path);
    const input = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const df = Datafile.read(bytes);
    const before = df.items.map((item) => Array.from(item.data));
    df.items.forEach((item, i) => {
      expect(Array.from({ length: item.data.length }, (_, k) => input.getInt32(item.offset! + k * 4, true))).toEqual(before[i]);
    });
    // Items are read from one copy of the item area: changing one item's ints (or the input) changes no other.
    for (const item of df.items) if (item.data.length) item.data[0] = ~item.data[0]!;
    bytes.fill(0xa5, 0, bytes.length);
    df.items.forEach((item, i) => {
      if (item.data.length) item.data[0] = ~item.data[0]!;
      expect(Array.from(item.data)).toEqual(before[i]);
    });
  });

  it('keeps the legacy v4 size fields in lossless mode and fixes them in ddnet mode', () => {
    const bytes = readBytes(fixtureMaps().find((m) => m.name.startsWith('dm7'))!.path);
    const df = Datafile.read(bytes);
    expect(df.legacySize && df.legacySwaplen).toBe(true);
    const fixed = Datafile.read(df.write({ mode: 'ddnet' }));
    expect(fixed.legacySize || fixed.legacySwaplen).toBe(false);
  });

  it('resolves UUID item types through the index', () => {
    const df = Datafile.read(readBytes(fixtureMaps().find((m) => m.name === 'coverage.map')!.path));
    const automappers = df.itemsOfType(AUTOMAPPER);
    expect(automappers.length).toBeGreaterThan(0);
    expect(automappers[0]!.type).toBe(0xfffe);
    expect(df.uuidIndex().get(0xfffe)).toBe(AUTOMAPPER);
  });
});

describe('Datafile writing', () => {
  it('builds a file that reads back, with a UUID index item', () => {
    const bytes = sample().write();
    const df = Datafile.read(bytes);
    expect(df.items.map((i) => i.type)).toEqual([0, 2, 0xfffe, ITEMTYPE_EX]);
    expect(df.findItem(AUTOMAPPER, 0)?.data).toEqual(Int32Array.of(1, 0, 1, 2, 0, 0));
    expect(new TextDecoder().decode(df.data[0]!.bytes())).toBe('grass_main\0');
    expect(df.data[1]!.bytes()).toEqual(new Uint8Array(4096));
    expect(df.write()).toEqual(bytes);
  });

  it('recompresses changed data only', () => {
    const original = sample().write();
    const df = Datafile.read(original);
    const untouched = df.data[1]!.stored;
    df.data[0]!.set(new TextEncoder().encode('desert_main\0'));
    const again = Datafile.read(df.write());
    expect(new TextDecoder().decode(again.data[0]!.bytes())).toBe('desert_main\0');
    expect(again.data[1]!.stored).toEqual(untouched);
  });

  it('ddnet mode sorts types, drops duplicate index items and renumbers UUID types by first use', () => {
    const df = new Datafile();
    const test = uuidFromName('mapitemtype-test@ddnet.tw');
    df.items.push(
      { type: ITEMTYPE_EX, id: 0xfffd, data: Int32Array.from([0x3e1b2716, 0x178c3978, -0x6426_4ee6, -0x1fbef228]) },
      { type: ITEMTYPE_EX, id: 0xfffd, data: Int32Array.of(0, 0, 0, 0) },
      { type: 5, id: 0, data: Int32Array.of(7) },
      { type: 0xfffd, id: 0, uuid: AUTOMAPPER, data: Int32Array.of(1) },
      { type: 0, id: 0, data: Int32Array.of(1) },
    );
    df.addItem(test, 0, Int32Array.of(2));
    const out = Datafile.read(df.write({ mode: 'ddnet' }));
    expect(out.items.map((i) => [i.type, i.id, i.uuid])).toEqual([
      [0, 0, undefined],
      [5, 0, undefined],
      [0xfffd, 0, test],
      [0xfffe, 0, AUTOMAPPER],
      [ITEMTYPE_EX, 0xfffe, undefined],
      [ITEMTYPE_EX, 0xfffd, undefined],
    ]);
  });

  it('reads and writes version 3 (uncompressed data)', () => {
    const df = sample();
    df.version = 3;
    const bytes = df.write();
    const back = Datafile.read(bytes);
    expect(back.version).toBe(3);
    expect(back.data[1]!.bytes()).toEqual(new Uint8Array(4096));
    expect(back.write()).toEqual(bytes);
    expect(Datafile.read(back.write({ mode: 'ddnet' })).version).toBe(4);
  });

  it('deflates with the deflate option, else the codec, else (in Node) pako; the browser codec has none', () => {
    expect(fflateZlib.deflate).toBeUndefined();
    const expected = sample().write();
    const withFflate = sample();
    withFflate.zlib = fflateZlib;
    expect(withFflate.write()).toEqual(expected);
    const calls: number[] = [];
    const counting = (data: Uint8Array, level: number) => {
      calls.push(level);
      return deflateLikeZlib(data, level);
    };
    expect(sample().write({ deflate: counting })).toEqual(expected);
    expect(calls).toEqual([6, 6]);
    calls.length = 0;
    sample().write({ zlib: { ...fflateZlib, name: 'custom', deflate: counting } });
    expect(calls).toEqual([6, 6]);
  });

  it("the Node codec's deflater (pako's deflate-only build, required when it first deflates) gives deflate.ts's bytes", () => {
    let items = 0;
    for (const { path } of fixtureMaps())
      for (const data of Datafile.read(readBytes(path)).data) {
        const raw = data.bytes();
        for (const level of [1, 6, 9]) expect(nodeZlib.deflate!(raw, level)).toEqual(deflateLikeZlib(raw, level));
        items++;
      }
    expect(items).toBeGreaterThan(20);
  });

  it('refuses items it cannot write', () => {
    const df = sample();
    df.items.push({ type: 0x10000, id: 0, data: new Int32Array() });
    expect(() => df.write()).toThrowError(expect.objectContaining({ code: 'WRITE_BAD_TYPE', path: 'items[4].type' }));
  });
});

describe('Datafile load checks', () => {
  const good = sample().write();
  // Offsets of the header fields.
  const NUM_TYPES = 16, NUM_ITEMS = 20, ITEM_SIZE = 28, DATA_SIZE = 32;
  const typesAt = 36;
  const itemOffsetsAt = typesAt + 4 * 12;
  const dataOffsetsAt = itemOffsetsAt + 4 * 4;
  const dataSizesAt = dataOffsetsAt + 2 * 4;

  it.each([
    ['short header', good.subarray(0, 20), 'TRUNCATED_HEADER'],
    ['magic', Uint8Array.from([...new TextEncoder().encode('DATX'), ...good.subarray(4)]), 'BAD_MAGIC'],
    ['version', setI32(good, 4, 5), 'BAD_VERSION'],
    ['negative counts', setI32(good, NUM_ITEMS, -1), 'BAD_HEADER'],
    ['unaligned item size', setI32(good, ITEM_SIZE, 6), 'BAD_HEADER'],
    ['truncated file', good.subarray(0, good.length - 1), 'FILE_SIZE_MISMATCH'],
    ['huge count', setI32(good, NUM_TYPES, 0x7fff), 'FILE_SIZE_MISMATCH'],
    ['data size', setI32(good, DATA_SIZE, 1 << 30), 'FILE_SIZE_MISMATCH'],
    ['size field', setI32(good, 8, 12345), 'BAD_HEADER_SIZE'],
    ['swaplen field', setI32(good, 12, 12345), 'BAD_HEADER_SWAPLEN'],
    ['type out of range', setI32(good, typesAt, 0x10000), 'ITEM_TYPE_INVALID'],
    ['duplicate type', setI32(good, typesAt + 12, 0), 'ITEM_TYPE_DUPLICATE'],
    ['empty type', setI32(good, typesAt + 8, 0), 'ITEM_TYPE_EMPTY'],
    ['type start', setI32(good, typesAt + 12 + 4, 3), 'ITEM_TYPE_START'],
    ['item offset order', setI32(good, itemOffsetsAt + 8, 4), 'ITEM_OFFSET_ORDER'],
    ['item offset range', setI32(good, itemOffsetsAt + 12, 100000), 'ITEM_OFFSET_RANGE'],
    ['data offset order', setI32(good, dataOffsetsAt, 4), 'DATA_OFFSET_ORDER'],
    ['negative data size', setI32(good, dataSizesAt, -5), 'DATA_SIZE_NEGATIVE'],
  ])('%s', (_name, bytes, code) => {
    const err = expectCode(bytes, code);
    expect(err.offset).toBeGreaterThanOrEqual(0);
    expect(err.path).not.toBe('');
  });

  it('checks item headers against the type table', () => {
    const df = Datafile.read(good);
    const itemsAt = dataSizesAt + 8;
    expectCode(setI32(good, itemsAt, (3 << 16) | 0), 'ITEM_TYPE_MISMATCH');
    expectCode(setI32(good, itemsAt + 4, 8), 'ITEM_SIZE');
    expect(df.items.length).toBe(4);
  });

  it('rejects duplicate ids except for UUID index items', () => {
    const df = sample();
    df.items.splice(1, 0, { type: 0, id: 1, data: Int32Array.of(1) });
    // The writer refuses duplicates (below): the second item's id is made 0 in the written bytes.
    const bytes = df.write();
    const second = Datafile.read(bytes).items[1]!;
    new DataView(bytes.buffer, bytes.byteOffset).setUint16(second.offset! - 8, 0, true);
    expectCode(bytes, 'ITEM_DUPLICATE_ID');
    const dupIndex = sample();
    dupIndex.items.push({ ...dupIndex.items[3]! });
    expect(Datafile.read(dupIndex.write()).items.length).toBe(5);
  });

  it('finds a duplicate id after ids out of ascending order (the set of ids is made only then; issue 41)', () => {
    const df = new Datafile();
    for (const id of [3, 1, 2]) df.addItem(2, id, Int32Array.of(id));
    const bytes = df.write();
    const read = Datafile.read(bytes);
    expect(read.items.map((i) => i.id)).toEqual([3, 1, 2]);
    // The third id made 3, the first's: refused at the third item.
    const third = read.items[2]!;
    const copy = bytes.slice();
    new DataView(copy.buffer).setUint16(third.offset! - 8, 3, true);
    expect(() => Datafile.read(copy)).toThrow(expect.objectContaining({ code: 'ITEM_DUPLICATE_ID', offset: third.offset! - 8, path: 'items[2].id' }));
  });

  it('refuses to write two items of one type with one id, which its reader refuses (issue 36 row 15)', () => {
    for (const mode of ['lossless', 'ddnet'] as const) {
      const df = sample();
      df.items.splice(1, 0, { type: 0, id: 0, data: Int32Array.of(1) });
      expect(() => df.write({ mode })).toThrow(expect.objectContaining({ code: 'WRITE_DUPLICATE_ID', path: 'items[1].id' }));
    }
  });

  it('checks data against its declared size: zip bombs, lies and zero sizes', () => {
    const declared = (size: number) => setI32(good, dataSizesAt + 4, size);
    const bomb = expectCode(declared(4095), 'DATA_SIZE_MISMATCH', { inflate: true });
    expect(bomb.path).toBe('data[1]');
    expectCode(declared(4097), 'DATA_SIZE_MISMATCH', { inflate: true });
    expectCode(declared(0x7fffffff), 'DATA_SIZE_IMPOSSIBLE', { inflate: true });
    expectCode(declared(0), 'DATA_SIZE_ZERO', { inflate: true });
    const corrupt = good.slice();
    corrupt[corrupt.length - 8]! ^= 0xff;
    expectCode(corrupt, 'INFLATE_FAILED', { inflate: true });
  });

  it.each([nodeZlib, fflateZlib])('stops inflating at the declared size with $name', (zlib) => {
    const zeros = deflateLikeZlib(new Uint8Array(1 << 24), 6);
    expect(zeros.length).toBeLessThan(1 << 16);
    let out: Uint8Array | undefined;
    try {
      out = zlib.inflate(zeros, 1000);
    } catch (e) {
      expect((e as Error).name).toBe('InflateLimitError');
      // Every error about bad input is a CodecError with a code (issue 37: this one was a plain Error).
      expect(e).toBeInstanceOf(CodecError);
      expect(e).toBeInstanceOf(DatafileError);
      expect((e as DatafileError).code).toBe('INFLATE_LIMIT');
    }
    if (out) expect(out.length).toBe(1001);
    expect(zlib.inflate(zeros, 1 << 24).length).toBe(1 << 24);
  });

  it('node:zlib: the reused engine gives what inflateSync gives, and recovers after corrupt, truncated and long streams', () => {
    const text = new TextEncoder().encode('tiles and quads '.repeat(500));
    const good = deflateLikeZlib(text, 6);
    const corrupt = good.slice();
    corrupt[good.length - 20]! ^= 0x55;
    const outcomes = [good, corrupt, good.subarray(0, good.length - 10), good, new Uint8Array(0), good].map((input) => {
      try {
        return nodeZlib.inflate(input, text.length);
      } catch (e) {
        return (e as Error).name === 'InflateLimitError' ? 'limit' : 'error';
      }
    });
    expect(outcomes.map((o) => (typeof o === 'string' ? o : o.length))).toEqual([text.length, 'error', 'error', text.length, 'error', text.length]);
    expect(outcomes[5]).toEqual(text);
    expect(() => nodeZlib.inflate(good, text.length - 1)).toThrow(/inflates to more than/);
    expect(nodeZlib.inflate(good, text.length)).toEqual(text);
  });
});

describe('async inflate (DecompressionStream, as readMapAsync uses it in browsers)', () => {
  // Node 20 has the same DecompressionStream API as browsers, so the browser codec's async path runs here.
  const text = new TextEncoder().encode('quads and tiles and envelopes '.repeat(4000)); // 120 KB: above the threshold
  const stored = deflateLikeZlib(text, 6);
  const asyncOutcome = async (input: Uint8Array, maxSize: number) => {
    try {
      return (await fflateZlib.inflateAsync!(input, maxSize)).length;
    } catch (e) {
      return (e as Error).name === 'InflateLimitError' ? 'limit' : 'error';
    }
  };

  it('inflates large items through DecompressionStream, small ones through fflate', async () => {
    expect(text.length).toBeGreaterThanOrEqual(DECOMPRESSION_STREAM_MIN_SIZE);
    expect(await countDecompressionStreams(async () => expect(await fflateZlib.inflateAsync!(stored, text.length)).toEqual(text))).toBe(1);
    const small = new TextEncoder().encode('grass_main');
    expect(await countDecompressionStreams(async () => expect(await fflateZlib.inflateAsync!(deflateLikeZlib(small, 6), small.length)).toEqual(small))).toBe(0);
  });

  it('rejects what the sync inflate refuses, and stops at the declared size', async () => {
    const corrupt = stored.slice();
    corrupt[stored.length - 20]! ^= 0x55;
    expect(await asyncOutcome(stored, text.length)).toBe(text.length);
    expect(await asyncOutcome(corrupt, text.length)).toBe('error');
    expect(await asyncOutcome(stored.subarray(0, stored.length - 10), text.length)).toBe('error');
    expect(await asyncOutcome(stored, text.length - 1)).toBe('limit');
    // A stream of 16 MiB of zeros declared as 100 KB stops there instead of producing 16 MiB.
    expect(await asyncOutcome(deflateLikeZlib(new Uint8Array(1 << 24), 6), 100_000)).toBe('limit');
  });

  it('preloadData fills what bytes() would give and leaves every refusal to bytes()', async () => {
    const build = (data: Uint8Array[]) => {
      const df = new Datafile();
      df.addItem(0, 0, Int32Array.of(1));
      for (const d of data) df.addData(d);
      return df.write();
    };
    const file = build([text, new Uint8Array(70_000).fill(7)]);
    const eager = Datafile.read(file, { zlib: fflateZlib });
    await eager.preloadData();
    expect(eager.data.every((d) => d.loaded)).toBe(true);
    const lazy = Datafile.read(file, { zlib: fflateZlib });
    expect(eager.data.map((d) => d.bytes())).toEqual(lazy.data.map((d) => d.bytes()));

    // Corrupt the second item's stream: preload leaves it unloaded, and its access throws as without preload.
    const corrupt = file.slice();
    corrupt[corrupt.length - 6]! ^= 0xff;
    const syncError = (() => {
      try {
        Datafile.read(corrupt, { zlib: fflateZlib }).data[1]!.bytes();
      } catch (e) {
        return e as DatafileError;
      }
    })();
    expect(syncError).toBeInstanceOf(DatafileError);
    const preloaded = Datafile.read(corrupt, { zlib: fflateZlib });
    await preloaded.preloadData();
    expect(preloaded.data[0]!.loaded).toBe(true);
    expect(preloaded.data[1]!.loaded).toBe(false);
    expect(() => preloaded.data[1]!.bytes()).toThrow(syncError!.message);
  });
});

describe('rememberingZlib (issue 28)', () => {
  it('inflates an equal stream once, compares with what it remembers, and remembers no errors', async () => {
    const { rememberingZlib } = await import('./zlib/remember.js');
    let inflates = 0;
    const zlib = rememberingZlib({ ...nodeZlib, inflateEquals: undefined, inflate: (c, max) => (inflates++, nodeZlib.inflate(c, max)) });
    const raw = new TextEncoder().encode('grass_main '.repeat(100));
    const stream = deflateLikeZlib(raw, 6);
    expect(zlib.inflate(stream, raw.length)).toEqual(raw);
    // An equal stream in another array (the same data read back from a written file).
    expect(zlib.inflate(stream.slice(), raw.length)).toEqual(raw);
    expect(zlib.inflateEquals!(stream.slice(), raw)).toBe(true);
    expect(zlib.inflateEquals!(stream, raw.slice(1))).toBe(false);
    expect(inflates).toBe(2); // the second: inflateEquals with another size limit
    const broken = stream.slice(0, 10);
    expect(() => zlib.inflate(broken, raw.length)).toThrow();
    expect(() => zlib.inflate(broken, raw.length)).toThrow();
    expect(inflates).toBe(4);
  });
});

describe('datafileInfo (moved from the CLI: issue 37)', () => {
  it('counts item types and data items, naming the UUID types the caller knows', async () => {
    const { datafileInfo } = await import('./info.js');
    const { path } = fixtureMaps().find((m) => m.name === 'ctf1.map')!;
    const bytes = readBytes(path);
    const df = Datafile.read(bytes);
    const info = datafileInfo(bytes, { uuidName: () => 'named' });
    expect(info).toMatchObject({ fileSize: bytes.length, magic: df.magic, version: df.version, itemCount: df.items.length, data: { count: df.data.length } });
    expect(info.itemTypes.reduce((n, t) => n + t.count, 0)).toBe(df.items.length);
    expect(info.itemTypes.filter((t) => t.uuid).every((t) => t.uuidName === 'named')).toBe(true);
    expect(datafileInfo(bytes).itemTypes.some((t) => t.uuidName)).toBe(false);
  });
});
