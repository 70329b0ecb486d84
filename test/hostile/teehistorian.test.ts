// Regression tests for hostile teehistorian input a fuzzing campaign found (issue 17); inputs generated here.
import { describe, expect, it } from 'vitest';
import { CodecError } from '@twcodec/datafile';
import { ByteWriter, uuidToBytes } from '@twcodec/runtime';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../cli-run.js';
import { decodeClientMessage, readTeehistorian, readTeehistorianStream, scanTeehistorianStream, TEEHISTORIAN_UUID, type TeehistorianMessage, writeTeehistorian } from '@twcodec/teehistorian';

const THEADER = uuidToBytes(TEEHISTORIAN_UUID);

function fileOf(headerJson: Uint8Array, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(16 + headerJson.length + 1 + body.length);
  out.set(THEADER);
  out.set(headerJson, 16);
  out.set(body, 16 + headerJson.length + 1);
  return out;
}

const json = (text: string) => new TextEncoder().encode(text);
const FINISH = (() => {
  const w = new ByteWriter(8);
  w.writeVarInt(-1);
  return w.finish();
})();

async function* chunked(bytes: Uint8Array, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function streamAll(bytes: Uint8Array, size: number, onTruncated: 'throw' | 'stop' = 'throw') {
  const reader = readTeehistorianStream(chunked(bytes, size), { onTruncated });
  const out: TeehistorianMessage[] = [];
  for await (const m of reader) out.push(m);
  return { reader, out };
}

async function streamError(bytes: Uint8Array, size: number): Promise<CodecError> {
  try {
    await streamAll(bytes, size);
  } catch (e) {
    expect(e).toBeInstanceOf(CodecError);
    return e as CodecError;
  }
  throw new Error('expected a CodecError');
}

function syncError(bytes: Uint8Array): CodecError {
  try {
    for (const _ of readTeehistorian(bytes));
  } catch (e) {
    expect(e).toBeInstanceOf(CodecError);
    return e as CodecError;
  }
  throw new Error('expected a CodecError');
}

describe('stream reader in linear time', () => {
  // The old reader copied and rescanned everything pending on every chunk: quadratic, minutes for this file.
  it('a 4 MiB header in 8-byte chunks', async () => {
    const padding = 'x'.repeat(4 * 1024 * 1024);
    const bytes = fileOf(json(`{"version":"2","pad":"${padding}"}`), FINISH);
    const { reader, out } = await streamAll(bytes, 8);
    expect(reader.header?.pad).toBe(padding);
    expect(out.map((m) => m.kind)).toEqual(['FINISH']);
  });

  it('a 4 MiB message in 8-byte chunks', async () => {
    const w = new ByteWriter(1 << 22);
    w.writeVarInt(-10); // CONSOLE_COMMAND
    w.writeVarInt(-1);
    w.writeVarInt(0);
    w.writeCString('say');
    w.writeVarInt(1);
    w.writeCString('y'.repeat(4 * 1024 * 1024));
    w.writeVarInt(-1);
    const bytes = fileOf(json('{"version":"2"}'), w.finish());
    const { out } = await streamAll(bytes, 8);
    expect(out.map((m) => m.kind)).toEqual(['CONSOLE_COMMAND', 'FINISH']);
    // The stream scan holds back the unfinished message the same way (linear, not a rescan per chunk).
    const kinds: string[] = [];
    await scanTeehistorianStream(chunked(bytes, 8), (s) => kinds.push(s.kind));
    expect(kinds).toEqual(['CONSOLE_COMMAND', 'FINISH']);
    const tooLong = scanTeehistorianStream(chunked(bytes, 8), () => {}, { maxMessageSize: 1 << 20 });
    await expect(tooLong).rejects.toMatchObject({ code: 'MESSAGE_TOO_LARGE' });
  });

  it('a console command claiming 2^31-1 arguments is truncation as soon as the bytes cannot hold them', async () => {
    const w = new ByteWriter(32);
    w.writeVarInt(-10);
    w.writeVarInt(-1);
    w.writeVarInt(0);
    w.writeCString('exec');
    w.writeVarInt(0x7fffffff);
    const body = new Uint8Array(w.finish().length + 20_000);
    body.set(w.finish());
    const bytes = fileOf(json('{"version":"2"}'), body);
    expect(syncError(bytes).code).toBe('TRUNCATED');
    expect((await streamError(bytes, 8)).code).toBe('TRUNCATED');
  });

  it('messages split anywhere still come out as the sync reader gives them', async () => {
    const messages: TeehistorianMessage[] = [];
    for (let i = 0; i < 200; i++) messages.push({ kind: 'PLAYER_DIFF', cid: i % 7, dx: i * 1000, dy: -i });
    messages.push({ kind: 'FINISH' });
    const bytes = writeTeehistorian({ header: { version: '2' } }, messages);
    const sync = [...readTeehistorian(bytes)];
    for (const size of [1, 3, 8, 1000]) expect((await streamAll(bytes, size)).out).toEqual(sync);
  });
});

describe('deeply nested header JSON', () => {
  const deep = json(`{"version":"2","x":${'['.repeat(3000)}${']'.repeat(3000)}}`);

  it('is refused with a typed error, not a stack overflow (sync and stream)', async () => {
    const bytes = fileOf(deep, FINISH);
    expect(syncError(bytes).code).toBe('BAD_HEADER');
    expect((await streamError(bytes, 64)).code).toBe('BAD_HEADER');
  });

  it('is refused by the writer too', () => {
    let header: unknown = [];
    for (let i = 0; i < 3000; i++) header = [header];
    expect(() => writeTeehistorian({ header: { version: '2', x: header } }, [])).toThrow(CodecError);
  });
});

describe('strings that are not UTF-8', () => {
  it('survive read and write byte for byte, in the header and in messages', () => {
    const w = new ByteWriter(64);
    w.writeVarInt(-10); // CONSOLE_COMMAND
    w.writeVarInt(3);
    w.writeVarInt(0);
    w.writeBytes(Uint8Array.of(0x73, 0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0)); // stray, broken and surrogate bytes
    w.writeVarInt(2);
    w.writeBytes(Uint8Array.of(0xe2, 0x82, 0)); // a sequence cut off by the NUL
    w.writeBytes(Uint8Array.of(0xc3, 0xa9, 0x41, 0)); // valid: "éA"
    w.writeVarInt(-1); // FINISH
    const bytes = fileOf(Uint8Array.of(...json('{"version":"2","map_name":"'), 0xfe, 0x80, ...json('"}')), w.finish());
    const reader = readTeehistorian(bytes);
    const messages = [...reader];
    const command = messages[0]!;
    expect(command.kind === 'CONSOLE_COMMAND' && command.args[1]).toBe('éA');
    expect(command.kind === 'CONSOLE_COMMAND' && command.command).toBe('s\udcff\udcc3(\udced\udca0\udc80');
    expect(writeTeehistorian({ header: reader.header, headerText: reader.headerText }, messages)).toEqual(bytes);
  });
});

describe('a header with control characters where JSON breaks (fuzzer finding of teehistorian-cli)', () => {
  it('the CLI prints the error as one line: the newlines JSON.parse quotes from the input are escaped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-hostile-'));
    const file = join(dir, 'bad.teehistorian');
    writeFileSync(file, fileOf(json('{"version":"2","map_name":\u0003\u0001\n\u0003\u0001\n\u0004"}'), FINISH));
    for (const command of ['stats', 'dump', 'chat', 'resave']) {
      const cli = await runCli(['teehistorian', command, file, ...(command === 'resave' ? [join(dir, 'out')] : [])]);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toMatch(/^twcodec: BAD_HEADER: header is not JSON: [^\n]*\\u0003\\u0001\\n[^\n]*\n$/);
    }
    rmSync(dir, { recursive: true });
  });
});

describe('a MESSAGE record without a readable message id (fuzzer finding of teehistorian-cli)', () => {
  it('decodes as an unknown message with the error: dump and chat print the file stats reads', async () => {
    const file = writeTeehistorian({ header: { version: '2' } }, [
      { kind: 'MESSAGE', cid: 0, data: new Uint8Array(0) },
      { kind: 'MESSAGE', cid: 1, data: Uint8Array.of(0x80) }, // a varint cut short
      { kind: 'MESSAGE', cid: 2, data: Uint8Array.of(0x41) }, // a negative id
    ]);
    expect(decodeClientMessage({ data: new Uint8Array(0) })).toMatchObject({ kind: 'unknown', id: -1, error: expect.stringMatching(/^TRUNCATED: /) });
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-hostile-'));
    writeFileSync(join(dir, 'x.teehistorian'), file);
    const dump = await runCli(['teehistorian', 'dump', join(dir, 'x.teehistorian')]);
    expect(dump.stderr).toBe('');
    const lines = dump.stdout.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; net?: { kind: string; id: number } });
    expect(lines.filter((l) => l.kind === 'MESSAGE').map((l) => [l.net?.kind, l.net?.id])).toEqual([['unknown', -1], ['unknown', -1], ['unknown', -1]]);
    expect((await runCli(['teehistorian', 'chat', join(dir, 'x.teehistorian')])).code).toBe(0);
    rmSync(dir, { recursive: true });
  });
});
