import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDir, fixturesDir, hasCorpus, repoRoot } from '../../../test/corpus.js';
import { runCli as run } from '../../../test/cli-run.js';

const lines = (text: string) => text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
type Chunk = { message: string; fields: Record<string, unknown> };
const chatOf = (out: Record<string, unknown>[]) =>
  out.flatMap((l) => ((l.chunks as Chunk[] | undefined) ?? []).filter((c) => c.message === 'cl_say' || c.message === 'sv_chat').map((c) => `${c.message} ${String(c.fields.message)}`));

const fixture = join(fixturesDir, 'net', 'teeworlds-0.7-cut.pcap');

describe('twcodec net pcap', () => {
  it('prints one line per datagram: time, endpoints, protocol, header, chunks with messages', async () => {
    const { code, stdout } = await run(['net', 'pcap', fixture]);
    expect(code).toBe(0);
    const out = lines(stdout);
    expect(out).toHaveLength(257);
    expect(out.filter((l) => 'error' in l)).toEqual([]);
    expect(out[0]).toMatchObject({ index: 0, time: '2026-11-23T15:41:24.917568Z', source: '127.0.0.1:58601', destination: '127.0.0.1:18503', protocol: '0.7', kind: 'control', control: { kind: 'token' } });
    expect(chatOf(out)).toContain('cl_say Hi from Charlie (Teeworlds 0.7.5)! äöü 日本語');
    const chunk = out.flatMap((l) => (l.chunks as Chunk[] | undefined) ?? []).find((c) => c.message === 'sv_chat');
    expect(chunk).toMatchObject({ flags: ['vital'], message: 'sv_chat', fields: { mode: expect.any(Number), clientId: expect.any(Number) } });
  });

  it('a datagram that does not decode gets "error" on its own line and the rest go on', async () => {
    const bytes = new Uint8Array(readFileSync(fixture));
    // The 6th record's UDP payload: its first chunk claims more bytes than the packet holds.
    let pos = 24;
    for (let i = 0; i < 5; i++) pos += 16 + new DataView(bytes.buffer).getUint32(pos + 8, true);
    const payload = pos + 16 + 14 + 20 + 8;
    bytes.set([0x00, 0x00, 0x01, 0xff, 0xff, 0xff, 0xff, 0x3f, 0x3f], payload);
    const file = join(mkdtempSync(join(tmpdir(), 'twcodec-net-')), 'bad.pcap');
    writeFileSync(file, bytes);
    const { code, stdout } = await run(['net', 'pcap', file]);
    expect(code).toBe(0);
    const out = lines(stdout);
    expect(out).toHaveLength(257);
    expect(out.filter((l) => 'error' in l).map((l) => l.index)).toEqual([5]);
    expect(String(out[5]!.error)).toMatch(/^TRUNCATED: /);
  });

  it('refuses a bad --protocol as a usage error, a file that is no capture with one line', async () => {
    expect((await run(['net', 'pcap', '--protocol', '0.8', fixture])).code).toBe(2);
    const bad = await run(['net', 'pcap', join(fixturesDir, 'net', '..', 'LICENSE.md')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^twcodec: BAD_MAGIC: /);
  });

  describe.skipIf(!hasCorpus)('on the corpus captures', () => {
    it.each([
      ['ddnet-0.6-session', 15227],
      ['teeworlds-0.7-session', 2842],
      ['connless', 502],
    ])('%s: tcpdump\'s count of lines, no error', async (name, count) => {
      const out = lines((await run(['net', 'pcap', join(corpusDir, 'net', `${name}.pcap`)])).stdout);
      expect(out).toHaveLength(count);
      expect(out.filter((l) => 'error' in l)).toEqual([]);
      const snapshots = out.flatMap((l) => (l.snapshots as { crcOk?: boolean }[] | undefined) ?? []);
      expect(snapshots.length).toBeGreaterThan(200);
      expect(snapshots.filter((s) => s.crcOk !== true)).toEqual([]);
      const chat = chatOf(out);
      if (name === 'ddnet-0.6-session') for (const t of ['Hello from Alpha! This is a chat message. äöü 日本語', 'Grüße von Bravo – ñ € 中文 ✓', 'Team chat from Alpha', 'Team chat from Bravo', '/me is testing the /me command']) expect(chat).toContain(`cl_say ${t}`);
      if (name === 'teeworlds-0.7-session') for (const t of ['Hi from Charlie (Teeworlds 0.7.5)! äöü 日本語', 'Team chat from Charlie (0.7)', 'Bye from Charlie']) expect(chat).toContain(`sv_chat ${t}`);
    });
  });
});

describe('twcodec net info / say / record (no server; against real servers: test/net/live-servers.test.ts)', () => {
  it('Ctrl-C (SIGINT) while connected tells the server (a close packet) and ends with one INTERRUPTED line, no file', async () => {
    const { createSocket } = await import('node:dgram');
    const { spawn } = await import('node:child_process');
    const { decodePacket } = await import('@twcodec/net');
    const server = createSocket('udp4');
    await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
    const kinds: string[] = [];
    const address = `127.0.0.1:${server.address().port}`;
    const out = join(mkdtempSync(join(tmpdir(), 'twcodec-net-')), 'never.demo');
    try {
      // The built command in a process of its own, to send it the signal; the server answers nothing, so the
      // client is still connecting when the signal comes.
      const child = spawn('node', [join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs'), 'net', 'record', address, out, '--timeout', '10'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      server.on('message', (bytes) => {
        kinds.push(decodePacket(new Uint8Array(bytes), { protocol: '0.6' }).control?.kind ?? 'other');
        if (kinds.length === 1) child.kill('SIGINT');
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      // The close datagram left before the process ended, but this socket may read it after the child's exit
      // is reported: wait for it (bounded) rather than race it.
      for (let waited = 0; kinds.length < 2 && waited < 2000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      expect(kinds).toEqual(['connect', 'close']);
      expect({ code, stderr }).toEqual({ code: 1, stderr: `twcodec: interrupted by SIGINT: left ${address} (the server was told); nothing written\n` });
      expect(existsSync(out)).toBe(false);
    } finally {
      server.close();
    }
  });


  it('HOST:PORT and --protocol are usage errors (exit 2) when malformed', async () => {
    for (const args of [['net', 'info', 'host:99999'], ['net', 'info', 'a:b:c'], ['net', 'info', '127.0.0.1:8303', '--protocol', '0.5'], ['net', 'record', '127.0.0.1:8303', 'x.demo', '--seconds', '-1']]) {
      const { code, stderr } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(/HOST:PORT|--protocol|--seconds/);
    }
  });

  it('a server that does not answer: one line TIMEOUT / CONNECT_TIMEOUT, exit 1, no file written', async () => {
    // A UDP socket that takes every datagram and answers none.
    const { createSocket } = await import('node:dgram');
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    const address = `127.0.0.1:${silent.address().port}`;
    try {
      const info = await run(['net', 'info', address, '--timeout', '0.3']);
      expect(info.code).toBe(1);
      expect(info.stderr).toMatch(/^twcodec: TIMEOUT: no server info from .*: no answer; a Teeworlds 0.7 server needs --protocol 0.7\n$/);
      // Told the protocol, no hint; say's handshake without --protocol gets it too.
      expect((await run(['net', 'info', address, '--timeout', '0.3', '--protocol', '0.6'])).stderr).not.toContain('--protocol 0.7');
      expect((await run(['net', 'say', address, 'hi', '--timeout', '0.3'])).stderr).toMatch(/^twcodec: CONNECT_TIMEOUT: not in game after 300 ms \(state connecting\).*: no answer; a Teeworlds 0\.7 server needs --protocol 0\.7\n$/);
      const out = join(mkdtempSync(join(tmpdir(), 'twcodec-net-')), 'never.demo');
      const record = await run(['net', 'record', address, out, '--timeout', '0.5', '--protocol', '0.7']);
      expect(record.code).toBe(1);
      expect(record.stderr).toMatch(/^twcodec: CONNECT_TIMEOUT: /);
      expect(existsSync(out)).toBe(false);
      // An OUT that cannot be written fails before connecting, not after recording for --seconds (the server
      // answers nothing: a check made after connecting would say CONNECT_TIMEOUT).
      const dir = mkdtempSync(join(tmpdir(), 'twcodec-net-'));
      for (const [target, reason] of [[dir, 'is a directory'], [join(dir, 'missing', 'x.demo'), 'no such file or directory']] as const) {
        const refused = await run(['net', 'record', address, target, '--timeout', '0.5']);
        expect(refused).toMatchObject({ code: 1, stderr: `twcodec: cannot write ${target}: ${reason}${reason === 'is a directory' ? ' (give a file name, or - for standard output)' : ''}\n` });
      }
    } finally {
      silent.close();
    }
  });

  it('a closed port: PORT_CLOSED at once, no protocol hint, nothing written (issue 39: net info waited, then suggested 0.7)', async () => {
    const { createSocket } = await import('node:dgram');
    const probe = createSocket('udp4');
    await new Promise<void>((resolve) => probe.bind(0, '127.0.0.1', resolve));
    const address = `127.0.0.1:${probe.address().port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve())); // the port is now closed
    const out = join(mkdtempSync(join(tmpdir(), 'twcodec-net-')), 'never.demo');
    // --timeout 60: an answer before it can only come from the port's ICMP answer.
    for (const args of [['net', 'info', address], ['net', 'say', address, 'hi'], ['net', 'record', address, out], ['net', 'info', address, '--protocol', '0.7']]) {
      const r = await run([...args, '--timeout', '60']);
      expect(r).toMatchObject({ code: 1, stdout: '' });
      expect(r.stderr).toMatch(/^twcodec: PORT_CLOSED: nothing listens on 127\.0\.0\.1:\d+ \(the host answered that the UDP port is closed\)/);
      expect(r.stderr).not.toContain('--protocol 0.7');
    }
    expect(existsSync(out)).toBe(false);
  });

  it('net record refused while connecting says nothing was recorded, with the server\'s reason (issue 39)', async () => {
    const { createSocket } = await import('node:dgram');
    const { encodePacket } = await import('@twcodec/net');
    const refusing = createSocket('udp4');
    await new Promise<void>((resolve) => refusing.bind(0, '127.0.0.1', resolve));
    // Answers the connect with a close and its reason, as a full server does.
    refusing.on('message', (_bytes, from) => {
      refusing.send(encodePacket({ protocol: '0.6', kind: 'control', header: { flags: 4, ack: 0, num_chunks: 0 }, flags: ['control'], control: { kind: 'close', id: 4, reason: 'This server is full' } }), from.port, from.address);
    });
    const out = join(mkdtempSync(join(tmpdir(), 'twcodec-net-')), 'never.demo');
    try {
      const r = await run(['net', 'record', `127.0.0.1:${refusing.address().port}`, out, '--timeout', '5']);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('twcodec: CLOSED_BY_SERVER: the connection closed before the game began (nothing was recorded): This server is full (at connection)\n');
      expect(existsSync(out)).toBe(false);
    } finally {
      refusing.close();
    }
  });
});
