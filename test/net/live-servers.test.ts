// The live client against real servers: Debian's DDNet-Server 16.4 (0.6/DDNet) and teeworlds-server 0.7.5,
// started here on 127.0.0.1 (test/live-servers.ts). Without a server binary the suite skips (the skip names it).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoChat, readDemo } from '../../packages/demo/src/index.js';
import { connect, serverInfo } from '../../packages/net/src/node.js';
import { runCli, runRecording } from '../cli-run.js';
import { repoRoot } from '../corpus.js';
import { CLIENT, playInClient, TEEWORLDS_CLIENT, XVFB_RUN } from '../ddnet-client.js';
import { ddnetUserDir } from '../ddnet-tools.js';
import { hasServer, type LiveServer, SERVER_BINARIES, startServer } from '../live-servers.js';

for (const protocol of ['0.6', '0.7'] as const) {
  describe.skipIf(!hasServer(protocol))(`live ${protocol} server (${SERVER_BINARIES[protocol]}; skipped when not installed)`, () => {
    let server: LiveServer;
    const address = () => `127.0.0.1:${server.port}`;
    beforeAll(async () => {
      server = await startServer(protocol);
    });
    afterAll(() => server?.stop());

    it('net info shows the configured name and map', async () => {
      const { code, stdout, stderr } = await runCli(['net', 'info', address(), '--protocol', protocol]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const info = JSON.parse(stdout) as Record<string, unknown>;
      expect(info).toMatchObject({ protocol, name: server.name, map: server.map, version: protocol === '0.6' ? '0.6.4, 16.4' : '0.7.5' });
      expect(info.form).toBe(protocol === '0.6' ? 'info_extended' : 'info_07');
    });

    it('net say makes the server log the line', async () => {
      const text = `twcodec says hi äöü 日本語 (${protocol})`;
      const { code, stderr } = await runCli(['net', 'say', address(), text, '--name', 'sayer', '--protocol', protocol]);
      expect(stderr).toContain('said');
      expect(code).toBe(0);
      // DDNet: "chat: 0:-2:sayer: TEXT"; Teeworlds 0.7.5: "[chat]: 1:0:sayer: TEXT".
      await server.waitForLog(`:sayer: ${text}`);
      // And it left: the server got the close packet. A dropped one leaves the player listed until the server's
      // timeout (DDNet 16.4: conn_timeout 100 s, and sv_max_clients_per_ip 4 refuses a fifth client from the
      // address, config_variables.h; 0.7.5 dropped it after 10 s).
      let names = ['sayer'];
      for (const until = Date.now() + 3000; names.includes('sayer') && Date.now() < until; await new Promise((r) => setTimeout(r, 100)))
        names = (await serverInfo('127.0.0.1', server.port, protocol)).clients.map((c) => c.name);
      expect(names).not.toContain('sayer');
    });

    it('net record for 8 s gives a demo with a snapshot every tick or two that demo snapshots reads and the game\'s client plays', async () => {
      const out = join(mkdtempSync(join(tmpdir(), 'twcodec-record-')), 'live.demo');
      const recording = runRecording(['net', 'record', address(), out, '--seconds', '8', '--name', 'recorder', '--protocol', protocol]);
      // Another player says a line while the recorder records (from its first snapshot in the game, which a fixed
      // wait did not always reach on a loaded machine): the demo holds it.
      await recording.started;
      await new Promise((r) => setTimeout(r, 500));
      const chatter = await connect({ host: '127.0.0.1', port: server.port, protocol, name: 'chatter' });
      await chatter.ready();
      const line = `recorded line ${protocol}`;
      chatter.say(line);
      await chatter.flushed();
      chatter.disconnect();
      const { code, stderr } = await recording.done;
      expect(stderr).toContain('recorded');
      expect(code).toBe(0);
      const bytes = new Uint8Array(readFileSync(out));
      const demo = readDemo(bytes);
      // The map, downloaded over UDP and checked against the announced CRC and SHA-256, is in the demo.
      expect(demo.header).toMatchObject({ mapName: server.map, type: 'client' });
      expect(demo.header.mapSize).toBeGreaterThan(1000);
      expect(demo.map?.length).toBe(demo.header.mapSize);
      expect([...demoChat(demo)].map((c) => c.text)).toContain(line);
      const snaps = await runCli(['demo', 'snapshots', '--summary', out]);
      expect(snaps.code).toBe(0);
      const ticks = snaps.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { tick: number }).tick);
      // Every snapshot the client rebuilt is in the demo.
      expect(stderr).toContain(`recorded ${ticks.length} snapshots`);
      // 8 s at 50 ticks a second, a snapshot every second tick: about 200.
      expect(ticks.length).toBeGreaterThan(150);
      const gaps = ticks.slice(1).map((t, i) => t - ticks[i]!);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1);
      // A server that falls behind on a loaded machine runs several ticks in one go and snaps once (DDNet's
      // server loop), so a rare gap of 4 is the server's; nearly all are one or two ticks.
      expect(gaps.filter((g) => g > 2).length).toBeLessThanOrEqual(gaps.length / 20);
      // The game's own client plays the demo with the map it holds: DDNet's to the chat line (it logs chat), Teeworlds 0.7.5's to the end (it logs no chat).
      const player = protocol === '0.6' ? CLIENT : TEEWORLDS_CLIENT;
      if (!player || !XVFB_RUN) return;
      const demos = join(protocol === '0.6' ? ddnetUserDir : join(homedir(), '.local', 'share', 'teeworlds'), 'demos');
      const file = `twcodec-net-record-${process.pid}.demo`;
      mkdirSync(demos, { recursive: true });
      writeFileSync(join(demos, file), bytes);
      try {
        const until = protocol === '0.6' ? line : 'demo_player]: end of file';
        const log = await playInClient(file, until, 60, player);
        expect(log).not.toMatch(/demo_player\]?: .*(failed|due to error)/);
        expect(log).toContain(until);
      } finally {
        rmSync(join(demos, file), { force: true });
      }
    }, 120_000);

    /** The ticks `twcodec demo snapshots` reads from a demo file. */
    const ticksOf = async (file: string) => {
      const snaps = await runCli(['demo', 'snapshots', '--summary', file]);
      expect(snaps.code).toBe(0);
      return snaps.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { tick: number }).tick);
    };
    /** `wrote N snapshots (ticks A..B) to OUT`, checked against what `demo snapshots` reads from OUT. */
    const expectWrote = async (line: string, out: string) => {
      const [, n, first, last] = /wrote (\d+) snapshots \(ticks (\d+)\.\.(\d+)\) to /.exec(line) ?? [];
      const ticks = await ticksOf(out);
      expect([ticks.length, ticks[0], ticks.at(-1)]).toEqual([Number(n), Number(first), Number(last)]);
      // About a second in game, a snapshot every second tick.
      expect(ticks.length).toBeGreaterThan(15);
    };

    // The game's server logs "*** 'NAME' entered and joined the game" (DDNet 16.4; 0.7.5 logs it otherwise): 0.6 only.
    it.runIf(protocol === '0.6')('net record stopped by Ctrl-C (SIGINT) a second into the game writes the demo of what it recorded, says so in one line (exit 1) and leaves', async () => {
      const out = join(mkdtempSync(join(tmpdir(), 'twcodec-record-')), 'stopped.demo');
      // The built command in a process of its own, to send it the signal.
      const child = spawn('node', [join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs'), 'net', 'record', address(), out, '--seconds', '20', '--name', 'stopper', '--protocol', protocol], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      try {
        // A second into the recording: from its "recording" line (its first snapshot in the game), which comes
        // after the server's "entered" line, later on a loaded machine.
        await server.waitForLog("'stopper' entered and joined the game", 10_000);
        for (const until = Date.now() + 10_000; !stderr.startsWith('recording ') && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
        await new Promise((r) => setTimeout(r, 1000));
        child.kill('SIGINT');
        expect(await exited).toBe(1);
        expect(stderr).toMatch(/^recording 20 s of 127\.0\.0\.1:\d+ on [^\n]+\ntwcodec: interrupted by SIGINT: wrote \d+ snapshots \(ticks \d+\.\.\d+\) to .*stopped\.demo; left 127\.0\.0\.1:\d+\n$/);
        await expectWrote(stderr, out);
        await server.waitForLog("'stopper' has left the game", 3000);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    }, 30_000);

    it.runIf(protocol === '0.6')('net record when the server shuts down mid-recording writes the demo of what it recorded and says so in one line (exit 1)', async () => {
      // A server of its own, stopped (SIGTERM: DDNet tells its clients "Server shutdown").
      const own = await startServer(protocol);
      let running = true;
      try {
        const out = join(mkdtempSync(join(tmpdir(), 'twcodec-record-')), 'closed.demo');
        const recording = runRecording(['net', 'record', `127.0.0.1:${own.port}`, out, '--seconds', '20', '--name', 'closed', '--protocol', protocol]);
        await own.waitForLog("'closed' entered and joined the game", 10_000);
        await recording.started;
        await new Promise((r) => setTimeout(r, 1000));
        own.stop();
        running = false;
        const { code, stderr } = await recording.done;
        expect(code).toBe(1);
        expect(stderr).toMatch(/^recording 20 s of 127\.0\.0\.1:\d+ on [^\n]+\ntwcodec: CLOSED_BY_SERVER: the connection closed while recording: Server shutdown; wrote \d+ snapshots \(ticks \d+\.\.\d+\) to .*closed\.demo\n$/);
        await expectWrote(stderr, out);
      } finally {
        if (running) own.stop();
      }
    }, 30_000);

    it('the library: in game with snapshots, listed by the server info, chat echoed back, disconnect', async () => {
      const client = await connect({ host: '127.0.0.1', port: server.port, protocol, name: 'libbot' });
      const chat: string[] = [];
      let snapshots = 0;
      client.on('message', (m) => m.message.kind === 'sv_chat' && chat.push(String(m.message.message)));
      client.on('snapshot', () => snapshots++);
      await client.ready();
      const info = await serverInfo('127.0.0.1', server.port, protocol);
      expect(info.clients.map((c) => c.name)).toContain('libbot');
      client.say('echo me');
      await client.flushed();
      const until = Date.now() + 3000;
      while (!chat.includes('echo me') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(chat).toContain('echo me');
      await new Promise((r) => setTimeout(r, 500));
      expect(snapshots).toBeGreaterThan(5);
      client.disconnect('bye');
      expect(client.closeReason).toEqual({ cause: 'disconnect', reason: 'bye' });
    });
  });
}
