import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter } from '@twcodec/runtime';
import { corpusDir, fixturesDir, readBytes } from '../../../test/corpus.js';
import { decodeMessage, MESSAGE_INT_FIELDS, MESSAGE_KINDS, SCAN_INTS, scanMessage } from './generated/messages.gen.js';
import type { TeehistorianEnd, TickedMessage } from './messages.js';
import { readTeehistorian } from './reader.js';
import { scanTeehistorian, scanTeehistorianStream, teehistorianColumns } from './scanner.js';
import { writeTeehistorian } from './writer.js';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const header = { version: '2', version_minor: '4', game_uuid: '00000000-0000-0000-0000-000000000000' };

function filesIn(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.teehistorian')).map((f) => join(dir, f)) : [];
}
const files = [...filesIn(join(fixturesDir, 'teehistorian')), ...filesIn(join(corpusDir, 'teehistorian'))];

/** The ints the scanner reports for a message, taken from the object the iterator gives. */
function intsOf(m: TickedMessage): number[] {
  const fields = MESSAGE_INT_FIELDS[m.kind.startsWith('EX') ? 'EX' : (m.kind as keyof typeof MESSAGE_INT_FIELDS)];
  return fields.map((name) => {
    const array = /^(\w+)\[(\d+)\]$/.exec(name);
    const record = m as unknown as Record<string, number & number[]>;
    return array ? record[array[1]!]![Number(array[2])]! : record[name]!;
  });
}

type Outcome = { messages: [string, number, number, number[]][]; end?: TeehistorianEnd; error?: string };

function viaIterator(bytes: Uint8Array, onTruncated: 'stop' | 'throw'): Outcome {
  const out: Outcome = { messages: [] };
  try {
    const r = readTeehistorian(bytes, { onTruncated });
    for (const m of r) out.messages.push([m.kind.startsWith('EX') ? 'EX' : m.kind, m.tick, m.offset, intsOf(m)]);
    out.end = r.end;
  } catch (e) {
    out.error = `${(e as { code?: string }).code} ${(e as { offset?: number }).offset} ${(e as { path?: string }).path}`;
  }
  return out;
}

function viaScanner(bytes: Uint8Array, onTruncated: 'stop' | 'throw'): Outcome {
  const out: Outcome = { messages: [] };
  try {
    const s = scanTeehistorian(bytes, { onTruncated });
    while (s.next()) out.messages.push([s.kind, s.tick, s.offset, Array.from(s.ints.subarray(1, 1 + MESSAGE_INT_FIELDS[s.kind].length))]);
    out.end = s.end;
  } catch (e) {
    out.error = `${(e as { code?: string }).code} ${(e as { offset?: number }).offset} ${(e as { path?: string }).path}`;
  }
  return out;
}

/** The same outcome from the stream scanner, the file split into chunks of `size` bytes. */
async function viaStreamScanner(bytes: Uint8Array, onTruncated: 'stop' | 'throw', size: number): Promise<Outcome> {
  const out: Outcome = { messages: [] };
  async function* chunks() {
    for (let p = 0; p < bytes.length; p += size) yield bytes.slice(p, p + size);
  }
  try {
    const s = await scanTeehistorianStream(
      chunks(),
      (s) => out.messages.push([s.kind, s.tick, s.offset, Array.from(s.ints.subarray(1, 1 + MESSAGE_INT_FIELDS[s.kind].length))]),
      { onTruncated },
    );
    out.end = s.end;
  } catch (e) {
    out.error = `${(e as { code?: string }).code} ${(e as { offset?: number }).offset} ${(e as { path?: string }).path}`;
  }
  return out;
}

describe('scanner (the allocation-free fast path)', () => {
  it('reports what the object iterator reads, message by message, on fixtures and corpus files', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const path of files) {
      const bytes = readBytes(path);
      expect(viaScanner(bytes, 'throw')).toEqual(viaIterator(bytes, 'throw'));
      const s = scanTeehistorian(bytes);
      const all = [...readTeehistorian(bytes)];
      let i = 0;
      while (s.next()) expect(s.message()).toEqual(all[i++]);
    }
  });

  it('ends, and fails, exactly where the object iterator does: every cut and many corrupted bytes', () => {
    const bytes = readBytes(join(fixturesDir, 'teehistorian', 'idle-ctf1.teehistorian'));
    const headerEnd = bytes.indexOf(0, 16) + 1;
    for (let end = headerEnd; end <= bytes.length; end++) {
      for (const mode of ['stop', 'throw'] as const) expect(viaScanner(bytes.subarray(0, end), mode)).toEqual(viaIterator(bytes.subarray(0, end), mode));
    }
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / (1 << 24);
    for (let round = 0; round < 400; round++) {
      const copy = bytes.slice();
      for (let k = 0; k < 3; k++) copy[headerEnd + Math.floor(random() * (copy.length - headerEnd))] = Math.floor(random() * 256);
      expect(viaScanner(copy, 'stop')).toEqual(viaIterator(copy, 'stop'));
    }
  });

  it('refuses non-canonical and overlong varints as decodeMessage does', () => {
    const base = writeTeehistorian({ header }, [{ kind: 'PLAYER_DIFF', cid: 0, dx: 1, dy: 2 }]);
    const headerEnd = base.indexOf(0, 16) + 1;
    for (const tail of [[0x80, 0x00, 0, 0], [0x81, 0x80, 0x00, 0, 0], [0x80, 0x80, 0x80, 0x80, 0x10, 0, 0], [0xc0, 0x00, 0, 0], [0x80, 0x01, 0, 0], [0x80]]) {
      const w = new ByteWriter();
      w.writeBytes(base.subarray(0, headerEnd));
      w.writeBytes(Uint8Array.from(tail));
      const bytes = w.finish();
      expect(viaScanner(bytes, 'throw')).toEqual(viaIterator(bytes, 'throw'));
    }
  });

  it('scanMessage reads or refuses as decodeMessage does around its one-byte front: every triple of edge bytes, cut or not', () => {
    // The front takes a message of three one-byte ints whose first is >= 0; each edge byte below is a
    // sign, continuation or id boundary of a varint, so the triples cover the front and every way out of it.
    const edges = [0x00, 0x01, 0x3f, 0x40, 0x41, 0x7f, 0x80, 0x81, 0xbf, 0xc0, 0xff];
    const ints = new Int32Array(SCAN_INTS);
    let front = 0;
    for (const a of edges)
      for (const b of edges)
        for (const c of edges)
          for (const tail of [[], [0x01], [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x00, 0x00, 0x00]]) {
            const bytes = Uint8Array.from([a, b, c, ...tail]);
            for (const end of [1, 2, 3, bytes.length]) {
              const r = new ByteReader(bytes, 0, end);
              let expected: { pos: number; ints: number[] } | undefined;
              try {
                const m = decodeMessage(r);
                const id = m.kind === 'PLAYER_DIFF' ? 0 : MESSAGE_KINDS.indexOf(m.kind);
                const fields = MESSAGE_INT_FIELDS[m.kind];
                const record = m as unknown as Record<string, number & number[]>;
                const values = fields.map((name) => { const array = /^(\w+)\[(\d+)\]$/.exec(name); return array ? record[array[1]!]![Number(array[2])]! : record[name]!; });
                expected = { pos: r.pos, ints: [id, ...values] };
              } catch {
                expected = undefined;
              }
              ints.fill(0x5a5a5a5a);
              const after = scanMessage(bytes, 0, end, ints);
              if (!expected) {
                expect(after, `${[a, b, c, ...tail].slice(0, end)}`).toBe(-1);
                continue;
              }
              if (expected.ints[0] === 0 && after === 3 && end >= 3) front++;
              expect({ pos: after, ints: Array.from(ints.subarray(0, expected.ints.length)) }, `${[a, b, c, ...tail].slice(0, end)}`).toEqual(expected);
            }
          }
    expect(front).toBeGreaterThan(100);
  });

  it('columns hold every message kind with its ticks, offsets and int fields', () => {
    for (const path of files) {
      const bytes = readBytes(path);
      const columns = teehistorianColumns(bytes, { onTruncated: 'stop' });
      const all = [...readTeehistorian(bytes, { onTruncated: 'stop' })];
      const total = Object.values(columns.kinds).reduce((n, c) => n + c!.count, 0);
      expect(total).toBe(all.length);
      const seen: Record<string, number> = {};
      for (const m of all) {
        const kind = m.kind.startsWith('EX') ? 'EX' : m.kind;
        const c = columns.kinds[kind as (typeof MESSAGE_KINDS)[number] & string]!;
        const i = (seen[kind] = (seen[kind] ?? -1) + 1);
        expect([c.tick[i], c.offset[i]]).toEqual([m.tick, m.offset]);
        const names = MESSAGE_INT_FIELDS[kind as keyof typeof MESSAGE_INT_FIELDS];
        expect(names.map((n) => c.ints[n]![i])).toEqual(intsOf(m));
      }
    }
  });

  it('over a stream: the same messages, ends and errors for any chunking, and message() decodes in full', async () => {
    for (const path of files) {
      const bytes = readBytes(path);
      const expected = viaIterator(bytes, 'throw');
      for (const size of [1, 7, 64, 4096, bytes.length]) expect(await viaStreamScanner(bytes, 'throw', size)).toEqual(expected);
      const all = [...readTeehistorian(bytes)];
      let i = 0;
      await scanTeehistorianStream((async function* () { yield bytes.slice(0, 1000); yield bytes.slice(1000); })(), (s) => expect(s.message()).toEqual(all[i++]));
      expect(i).toBe(all.length);
    }
    const bytes = readBytes(join(fixturesDir, 'teehistorian', 'idle-ctf1.teehistorian'));
    const headerEnd = bytes.indexOf(0, 16) + 1;
    for (let end = headerEnd; end <= bytes.length; end += 3) {
      for (const mode of ['stop', 'throw'] as const) expect(await viaStreamScanner(bytes.subarray(0, end), mode, 5)).toEqual(viaIterator(bytes.subarray(0, end), mode));
    }
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / (1 << 24);
    for (let round = 0; round < 200; round++) {
      const copy = bytes.slice();
      for (let k = 0; k < 3; k++) copy[headerEnd + Math.floor(random() * (copy.length - headerEnd))] = Math.floor(random() * 256);
      expect(await viaStreamScanner(copy, 'stop', 1 + (round % 50))).toEqual(viaIterator(copy, 'stop'));
    }
  });
});
