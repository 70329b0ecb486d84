import { describe, expect, it } from 'vitest';
import { ByteWriter, CodecError, uuidFromName } from '@twcodec/runtime';
import { fixturesDir, readBytes } from '../../../test/corpus.js';
import { type TeehistorianMessage, TickTracker } from './messages.js';
import { readTeehistorian } from './reader.js';
import { type ByteSource, readTeehistorianStream } from './stream.js';
import { maxClientsOf, writeTeehistorian, writeTeehistorianTicked } from './writer.js';

const header = { version: '2', version_minor: '4', game_uuid: '00000000-0000-0000-0000-000000000000' };
const file = (messages: TeehistorianMessage[]) => writeTeehistorian({ header }, messages);
const cut = (bytes: Uint8Array, end: number) => bytes.subarray(0, end);
const diff = (cid: number, dx = 1, dy = 0): TeehistorianMessage => ({ kind: 'PLAYER_DIFF', cid, dx, dy });

async function* chunks(bytes: Uint8Array, sizes: number[]) {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length]!;
    yield bytes.subarray(at, at + n);
    at += n;
  }
}

async function readAll(source: ByteSource) {
  const reader = readTeehistorianStream(source, { onTruncated: 'stop' });
  const out = [];
  for await (const m of reader) out.push(m);
  return { reader, out };
}

describe('ticks', () => {
  it('follow DDNet: implicit when client ids wrap, TICK_SKIP moves and suppresses the next implicit tick', () => {
    const t = new TickTracker();
    const ticks = [diff(0), diff(3), diff(1), diff(2), { kind: 'TICK_SKIP', dt: 4 } as TeehistorianMessage, diff(0), diff(5), diff(5)].map((m) => t.apply(m));
    expect(ticks).toEqual([1, 1, 2, 2, 7, 7, 7, 8]);
  });

  it('are written back exactly as the server writes them', () => {
    const messages: { tick: number; message: TeehistorianMessage }[] = [
      { tick: 1, message: diff(0) },
      { tick: 1, message: diff(2) },
      { tick: 2, message: diff(1) }, // 1 <= 2: implicit tick
      { tick: 3, message: diff(4) }, // 4 > 1: TICK_SKIP 0
      { tick: 9, message: diff(0) }, // gap: TICK_SKIP 5
      { tick: 9, message: { kind: 'JOIN', cid: 3 } },
      { tick: 12, message: { kind: 'JOIN', cid: 4 } }, // no player record: TICK_SKIP 2
      { tick: 13, message: diff(0) }, // tick 12 had no player record: TICK_SKIP 0
      { tick: 13, message: { kind: 'FINISH' } },
    ];
    const bytes = writeTeehistorianTicked({ header }, messages);
    const read = [...readTeehistorian(bytes)];
    expect(read.filter((m) => m.kind === 'TICK_SKIP').map((m) => (m.kind === 'TICK_SKIP' ? m.dt : 0))).toEqual([0, 5, 2, 0]);
    expect(read.filter((m) => m.kind !== 'TICK_SKIP').map((m) => m.tick)).toEqual(messages.map((m) => m.tick));
  });
  it("put the first tick where the header's server writes it: MAX_CLIENTS 64 up to DDNet 18, 128 from 19.0", () => {
    const first = [{ tick: 1, message: diff(100) }, { tick: 2, message: diff(0) }];
    const skips = (bytes: Uint8Array) => [...readTeehistorian(bytes)].filter((m) => m.kind === 'TICK_SKIP').length;
    const ddnet = (version: string) => ({ header: { ...header, server_version: version } });
    expect(maxClientsOf(ddnet('0.6.4, 16.4').header)).toBe(64);
    expect(maxClientsOf(ddnet('0.6.4, 18.9').header)).toBe(64);
    expect(maxClientsOf(ddnet('0.6.4, 19.0').header)).toBe(128);
    expect(maxClientsOf(ddnet('0.6, 20.1').header)).toBe(128);
    expect(maxClientsOf({ ...header, server_version: undefined })).toBe(64);
    // Client 100 is above 64: a 16.4 server writes the first tick; below 128: a 19.0 server does not.
    expect(skips(writeTeehistorianTicked(ddnet('0.6.4, 16.4'), first))).toBe(1);
    expect(skips(writeTeehistorianTicked(ddnet('0.6.4, 19.0'), first))).toBe(0);
    expect(skips(writeTeehistorianTicked(ddnet('0.6.4, 16.4'), first, { maxClients: 128 }))).toBe(0);
    for (const v of ['0.6.4, 16.4', '0.6.4, 19.0']) expect([...readTeehistorian(writeTeehistorianTicked(ddnet(v), first))].filter((m) => m.kind === 'PLAYER_DIFF').map((m) => m.tick)).toEqual([1, 2]);
  });
});

describe('messages', () => {
  it('round-trip every core kind, known and unknown extensions', () => {
    const unknown = uuidFromName('teehistorian-future@example.org');
    const messages: TeehistorianMessage[] = [
      { kind: 'PLAYER_NEW', cid: 1, x: -500, y: 1 << 20 },
      { kind: 'INPUT_NEW', cid: 1, input: [1, -2, 3, 4, 5, 6, 7, 8, 9, 10] },
      { kind: 'MESSAGE', cid: 1, data: Uint8Array.of(9, 8, 7) },
      { kind: 'DROP', cid: 1, reason: 'timeout äöü' },
      { kind: 'CONSOLE_COMMAND', cid: -1, flags: 8, command: 'say', args: ['hi', ''] },
      { kind: 'EX:player-team', cid: 1, team: 7 },
      { kind: 'EX:ddnetver', cid: 1, connectionUuid: uuidFromName('x'), ddnetVersion: 16040, ddnetVersionStr: 'DDNet 16.4' },
      { kind: 'EX:antibot', data: Uint8Array.of(1, 2, 3) },
      { kind: 'EX', uuid: unknown, data: Uint8Array.of(0xff, 0) },
      { kind: 'FINISH' },
    ];
    const bytes = file(messages);
    const read = [...readTeehistorian(bytes)].map(({ tick: _t, offset: _o, ...m }) => m);
    expect(read).toEqual(messages);
    expect(file(read as TeehistorianMessage[])).toEqual(bytes);
  });

  it('keeps a known extension whose payload does not parse as raw bytes', () => {
    const w = new ByteWriter();
    w.writeVarInt(5); // player-team needs two ints
    const msg: TeehistorianMessage = { kind: 'EX', uuid: uuidFromName('teehistorian-player-team@ddnet.tw'), data: w.finish().slice() };
    const bytes = file([msg]);
    const [read] = [...readTeehistorian(bytes)];
    expect(read).toMatchObject({ kind: 'EX', data: Uint8Array.of(5) });
    expect(file([read!])).toEqual(bytes);
  });

  it('tracks positions and inputs on request', () => {
    const bytes = file([
      { kind: 'PLAYER_NEW', cid: 0, x: 10, y: 20 },
      { kind: 'INPUT_NEW', cid: 0, input: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
      diff(0, 5, -5),
      { kind: 'INPUT_DIFF', cid: 0, input: [-2, 1, 0, 0, 0, 0, 0, 0, 0, 0] },
    ]);
    const reader = readTeehistorian(bytes, { trackPlayers: true });
    for (const _ of reader);
    expect(reader.players!.positions.get(0)).toEqual({ x: 15, y: 15 });
    expect([...reader.players!.inputs.get(0)!].slice(0, 2)).toEqual([-1, 1]);
    expect(reader.end).toEqual({ finished: false, truncated: false, offset: bytes.length });
  });
});

describe('bad input', () => {
  const good = file([diff(0), { kind: 'MESSAGE', cid: 0, data: new Uint8Array(40) }, diff(1), { kind: 'FINISH' }]);
  const first = [...readTeehistorian(good)];

  const code = (bytes: Uint8Array): [string, number] => {
    try {
      for (const _ of readTeehistorian(bytes));
    } catch (e) {
      expect(e).toBeInstanceOf(CodecError);
      return [(e as CodecError).code, (e as CodecError).offset];
    }
    return ['ok', -1];
  };

  it('gives typed errors with the offset', () => {
    expect(code(good.subarray(0, 10))).toEqual(['TRUNCATED', 10]);
    expect(code(Uint8Array.of(...good.subarray(0, 15), 0x99, ...good.subarray(16)))[0]).toBe('BAD_MAGIC');
    expect(code(cut(good, first[1]!.offset + 5))).toEqual(['TRUNCATED', first[1]!.offset]);
    const withId = (id: number[]) => Uint8Array.of(...cut(good, first[0]!.offset), ...id);
    expect(code(withId([0x40 | 0x20]))).toEqual(['UNKNOWN_MESSAGE', first[0]!.offset]); // -33
    expect(code(withId([0x80, 0x80, 0x80, 0x80, 0x70]))[0]).toBe('VARINT_OVERLONG');
    expect(code(withId([0x46, 0x00, 0x40]))[0]).toBe('BAD_LENGTH'); // MESSAGE with length -1
    expect(code(Uint8Array.of(...good, 0))).toEqual(['TRAILING_DATA', good.length]);
  });

  it('reads a crashed server file up to its last whole message and says so', () => {
    const crashed = cut(good, first[2]!.offset + 1);
    const reader = readTeehistorian(crashed, { onTruncated: 'stop' });
    expect([...reader].map((m) => m.kind)).toEqual(['PLAYER_DIFF', 'MESSAGE']);
    expect(reader.end).toEqual({ finished: false, truncated: true, offset: first[2]!.offset });
  });

  it('refuses to wait for an impossibly large message in a stream', async () => {
    const huge = Uint8Array.of(...cut(good, first[1]!.offset), 0x46, 0x00, 0xbf, 0xff, 0xff, 0xff, 0x07);
    const reader = readTeehistorianStream(chunks(Uint8Array.of(...huge, ...new Uint8Array(3000)), [100]), { maxMessageSize: 1024 });
    await expect(async () => {
      for await (const _ of reader);
    }).rejects.toMatchObject({ code: 'MESSAGE_TOO_LARGE' });
  });
});

describe('stream reading', () => {
  const bytes = readBytes(`${fixturesDir}/teehistorian/idle-ctf1.teehistorian`);
  const small = file([diff(0), { kind: 'MESSAGE', cid: 0, data: new Uint8Array(40) }, { kind: 'EX:player-ready', cid: 0 }, diff(1), { kind: 'FINISH' }]);

  it('gives the same messages for every split of a file into two chunks', async () => {
    const expected = JSON.stringify([...readTeehistorian(small)]);
    for (let at = 0; at <= small.length; at++) {
      const { out } = await readAll(chunks(small, [at || small.length, small.length]));
      expect(JSON.stringify(out)).toBe(expected);
    }
  });

  it('reads byte by byte and from a ReadableStream', async () => {
    const expected = JSON.stringify([...readTeehistorian(bytes)]);
    expect(JSON.stringify((await readAll(chunks(bytes, [1]))).out)).toBe(expected);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 333) controller.enqueue(bytes.slice(i, i + 333));
        controller.close();
      },
    });
    const { reader, out } = await readAll(stream);
    expect(JSON.stringify(out)).toBe(expected);
    expect(reader.header?.map_name).toBe('ctf1');
    expect(reader.end?.finished).toBe(true);
  });
});

describe('stream reader iteration', () => {
  const bytes = file([diff(0), diff(1), diff(0), { kind: 'TICK_SKIP', dt: 3 }, diff(2), { kind: 'FINISH' }]);

  it('releases a ReadableStream when the loop breaks early, and hands out concurrent next() calls in order', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let p = 0; p < bytes.length; p += 3) controller.enqueue(bytes.slice(p, p + 3));
        controller.close();
      },
    });
    for await (const m of readTeehistorianStream(stream)) {
      expect(m.kind).toBe('PLAYER_DIFF');
      break;
    }
    expect(stream.locked).toBe(false);

    const expected = [...readTeehistorian(bytes)];
    const it = readTeehistorianStream(chunks(bytes, [1, 2, 5]))[Symbol.asyncIterator]();
    const results = await Promise.all(expected.map(() => it.next()));
    expect(results.map((r) => r.value)).toEqual(expected);
    expect(await it.next()).toEqual({ done: true, value: undefined });
  });

  it('ends for good after an error', async () => {
    const trailing = Uint8Array.of(...bytes, 0x00);
    const it = readTeehistorianStream(chunks(trailing, [4]))[Symbol.asyncIterator]();
    let error: unknown;
    try {
      for (;;) if ((await it.next()).done) break;
    } catch (e) {
      error = e;
    }
    expect((error as CodecError).code).toBe('TRAILING_DATA');
    expect(await it.next()).toEqual({ done: true, value: undefined });
  });
});
