// `tcpdump -U -w - | twcodec net pcap -` against a real DDNet-Server on 127.0.0.1 (issue 41): the lines of a
// server's answers come out while tcpdump is still capturing, not when it stops. Needs tcpdump and the right to
// capture on the loopback interface (root, or CAP_NET_RAW); skipped without them.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect, serverInfo } from '../../packages/net/src/node.js';
import { repoRoot } from '../corpus.js';
import { hasServer, startServer } from '../live-servers.js';

const bin = join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs');
const hasTcpdump = spawnSync('tcpdump', ['--version']).status === 0;

/** Resolves when `read()` holds `text` (rejects after `ms`). */
async function waitFor(read: () => string, test: (text: string) => boolean, what: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!test(read())) {
    if (Date.now() > until) throw new Error(`${what} did not come in ${ms} ms; so far:\n${read().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!hasServer('0.6') || !hasTcpdump)('tcpdump -U -w - | twcodec net pcap - (DDNet-Server on 127.0.0.1)', () => {
  it('prints each datagram as it is captured', async (ctx) => {
    const server = await startServer('0.6');
    let tcpdump: ChildProcess | undefined;
    let twcodec: ChildProcess | undefined;
    try {
      await server.waitForLog('server name is');
      // Only this server's port, immediately (no kernel buffering), each packet written as it comes (-U).
      tcpdump = spawn('timeout', ['120', 'tcpdump', '-i', 'lo', '-U', '--immediate-mode', '-w', '-', 'udp', 'port', String(server.port)], { stdio: ['ignore', 'pipe', 'pipe'] });
      twcodec = spawn(process.execPath, [bin, 'net', 'pcap', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
      tcpdump.stdout!.pipe(twcodec.stdin!);
      let dumpErr = '';
      let lines = '';
      let errors = '';
      tcpdump.stderr!.on('data', (d: Buffer) => (dumpErr += d.toString()));
      twcodec.stdout!.on('data', (d: Buffer) => (lines += d.toString()));
      twcodec.stderr!.on('data', (d: Buffer) => (errors += d.toString()));
      const dumpExit = new Promise<void>((resolve) => tcpdump!.once('exit', () => resolve()));
      try {
        await waitFor(() => dumpErr, (t) => /listening on/.test(t) || /permission|Operation not permitted|don't have permission/i.test(t), 'tcpdump', 10_000);
      } catch {
        // No word from tcpdump: no capture here.
      }
      if (!/listening on/.test(dumpErr)) {
        ctx.skip(`tcpdump cannot capture on lo here: ${dumpErr.trim()}`);
        return;
      }
      // A server-info request: its answer's line comes while tcpdump runs on.
      const info = await serverInfo('127.0.0.1', server.port, '0.6', { timeout: 5000 });
      expect(info.name).toBe(server.name);
      await waitFor(() => lines, (t) => t.split('\n').some((l) => l.includes('"connless"') && l.includes(server.name)), 'the line of the server\'s info');
      expect(tcpdump.exitCode).toBeNull();
      // A player joins and says something: the connection's lines, the chat among them, as they happen.
      const client = await connect({ host: '127.0.0.1', port: server.port, protocol: '0.6', name: 'streamer' });
      try {
        await client.ready();
        client.say('streamed line');
        await client.flushed();
        await waitFor(() => lines, (t) => t.includes('"message":"cl_say"') && t.includes('streamed line'), 'the cl_say line');
      } finally {
        client.disconnect();
      }
      expect(tcpdump.exitCode).toBeNull();
      tcpdump.kill('SIGTERM');
      await dumpExit;
      const exit = await new Promise<number | null>((resolve) => (twcodec!.exitCode !== null ? resolve(twcodec!.exitCode) : twcodec!.once('exit', resolve)));
      // tcpdump stopped mid-record at worst: the lines before are all JSON, and the command ends (0, or 1 on a cut record).
      expect([0, 1]).toContain(exit);
      if (exit === 1) expect(errors).toMatch(/^twcodec: TRUNCATED: /);
      for (const line of lines.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
      expect(lines.split('\n').filter((l) => l.includes('"error"'))).toEqual([]);
    } finally {
      if (tcpdump?.exitCode === null) tcpdump.kill('SIGTERM');
      if (twcodec?.exitCode === null) twcodec.kill('SIGTERM');
      server.stop();
      await server.exited;
    }
  }, 90_000);
});
