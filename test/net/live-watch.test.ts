// `net watch` against DDNet-Server 16.4 on 127.0.0.1 (test/live-servers.ts) started with an rcon password: it
// prints the chat said before and after a `change_map` run through `net rcon`, an event for the change, keeps
// going, and ends with exit 0 on Ctrl-C (SIGINT). A server that goes away and comes back on the same port:
// `disconnected`, then `connected` again.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli-run.js';
import { hasServer, type LiveServer, SERVER_BINARIES, startServer } from '../live-servers.js';

const repoRoot = join(import.meta.dirname, '..', '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `twcodec net watch` in a process of its own (to send it SIGINT), its output as parsed lines. */
function watch(args: string[]): { child: ChildProcess; events: () => Record<string, unknown>[]; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn('node', [join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs'), 'net', 'watch', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, events: () => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>), stderr: () => stderr, exited };
}

async function until(what: string, test: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(50);
  }
}

describe.skipIf(!hasServer('0.6'))(`net watch on a live DDNet server (${SERVER_BINARIES['0.6']}; skipped when not installed)`, () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await startServer('0.6', { rcon: true });
  });
  afterAll(() => server?.stop());

  it('prints the chat before and after change_map (run through net rcon), the map change, keeps going; exit 0 on SIGINT', async () => {
    const address = `127.0.0.1:${server.port}`;
    const w = watch([address, '--name', 'watcher']);
    try {
      await until('connected', () => w.events().some((e) => e.type === 'connected'));
      expect((await runCli(['net', 'say', address, 'before the change', '--name', 'sayer'])).code).toBe(0);
      await until('the chat before', () => w.events().some((e) => e.type === 'chat' && e.text === 'before the change'));
      const rcon = await runCli(['net', 'rcon', address, '--password', server.rconPassword, 'change_map', 'ctf1']);
      expect(rcon.code).toBe(0);
      await until('the map change', () => w.events().some((e) => e.type === 'mapchange' && e.map === 'ctf1'));
      await until('in game again', () => w.events().filter((e) => e.type === 'connected').length >= 2);
      expect((await runCli(['net', 'say', address, 'after the change', '--name', 'sayer'])).code).toBe(0);
      await until('the chat after', () => w.events().some((e) => e.type === 'chat' && e.text === 'after the change'));
      const chat = w.events().find((e) => e.type === 'chat' && e.text === 'after the change')!;
      expect(chat).toMatchObject({ name: 'sayer', team: 'all' });
      expect(typeof chat.time).toBe('string');
      expect(w.child.exitCode).toBe(null);
      w.child.kill('SIGINT');
      expect(await w.exited).toBe(0);
      expect(w.stderr()).toBe('');
    } finally {
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    }
  }, 60_000);

  it('a server that shuts down and comes back: disconnected, connected again (backoff), chat after it', async () => {
    let own = await startServer('0.6');
    const port = own.port;
    const w = watch([`127.0.0.1:${port}`, '--name', 'survivor', '--timeout', '3']);
    try {
      await until('connected', () => w.events().some((e) => e.type === 'connected'));
      own.stop();
      await until('disconnected', () => w.events().some((e) => e.type === 'disconnected'));
      // The same port again only once the old process has let it go (on a loaded machine it took a while).
      await own.exited;
      own = await startServer('0.6', { port });
      await until('connected again', () => w.events().filter((e) => e.type === 'connected').length >= 2, 30_000);
      expect((await runCli(['net', 'say', `127.0.0.1:${port}`, 'back again', '--name', 'sayer'])).code).toBe(0);
      await until('the chat after', () => w.events().some((e) => e.type === 'chat' && e.text === 'back again'));
      const gone = w.events().find((e) => e.type === 'disconnected')!;
      expect(gone).toMatchObject({ retryIn: 1000 });
      w.child.kill('SIGINT');
      expect(await w.exited).toBe(0);
    } finally {
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
      own.stop();
    }
  }, 60_000);

  // A server that stops answering without closing (hung, or the network drops everything): the watch meets a
  // time-out, tries again 1 s, then 2 s later (each try fails: no answer within --timeout), and is back in the
  // game once the server answers again. Before the fix the second wait was 1 s again (1, 1, 2, ... s).
  it('a server that stops answering: disconnected TIMEOUT, tries 1 s then 2 s apart, in the game again once it answers', async () => {
    const own = await startServer('0.6');
    const w = watch([`127.0.0.1:${own.port}`, '--name', 'patient', '--timeout', '2']);
    try {
      await until('connected', () => w.events().some((e) => e.type === 'connected'));
      own.pause();
      const gone = () => w.events().filter((e) => e.type === 'disconnected');
      // 2 s of silence, then tries at +1 s and +2 s, each failing after 2 s: three disconnects within about 9 s.
      await until('three disconnects', () => gone().length >= 3, 20_000);
      own.resume();
      await until('connected again', () => w.events().filter((e) => e.type === 'connected').length >= 2, 20_000);
      const [first, second, third] = gone();
      expect(first).toMatchObject({ cause: 'TIMEOUT', retryIn: 1000 });
      expect(second).toMatchObject({ cause: 'CONNECT_TIMEOUT', retryIn: 2000 });
      expect(third).toMatchObject({ cause: 'CONNECT_TIMEOUT', retryIn: 4000 });
      expect((await runCli(['net', 'say', `127.0.0.1:${own.port}`, 'awake again', '--name', 'sayer'])).code).toBe(0);
      await until('the chat after', () => w.events().some((e) => e.type === 'chat' && e.text === 'awake again'));
      w.child.kill('SIGINT');
      expect(await w.exited).toBe(0);
    } finally {
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
      own.resume();
      own.stop();
    }
  }, 60_000);

  it('a closed port: exit 1 with one line', async () => {
    const { code, stderr } = await runCli(['net', 'watch', '127.0.0.1:1', '--timeout', '2']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^twcodec: .*PORT_CLOSED|^twcodec: nothing listens/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  }, 20_000);
});
