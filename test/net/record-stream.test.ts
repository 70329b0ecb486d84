// `net record` against a hostile server on a real UDP socket (test/net-hostile-server.mjs): the demo goes to disk
// as it is recorded, so the command's memory stays flat however big the demo grows (issue 36: 601 MB peak for a
// 245 MB demo, 536 MB under a chat flood, when the whole demo was held and copied at the end), and --seconds ends
// it on time under the flood. The built command runs in a process of its own under /usr/bin/time, which reports
// its peak RSS.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHostileServer } from '../net-hostile-server.mjs';
import { runCli } from '../cli-run.js';
import { repoRoot } from '../corpus.js';

const TIME = '/usr/bin/time';
const dir = mkdtempSync(join(tmpdir(), 'twcodec-record-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `net record` for `seconds` against the hostile server: exit code, stderr, wall seconds, peak RSS in MB. */
async function record(mode: 'keyframes' | 'chat' | 'ticks', seconds: number, out: string, options: { mapName?: string } = {}) {
  const server = await startHostileServer(mode, 0, options);
  try {
    const child = spawn(TIME, ['-f', 'TIME %e %M', 'node', join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs'), 'net', 'record', `127.0.0.1:${server.port}`, out, '--seconds', String(seconds)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const watchdog = setTimeout(() => child.kill('SIGKILL'), (seconds + 20) * 1000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(watchdog);
    const [, wall, rss] = /TIME ([\d.]+) (\d+)/.exec(stderr) ?? [];
    return { code, stderr, wall: Number(wall), peakMb: Number(rss) / 1024 };
  } finally {
    server.stop();
  }
}

describe.skipIf(!existsSync(TIME))('net record streams its demo to disk (hostile server on 127.0.0.1)', () => {
  for (const mode of ['keyframes', 'chat'] as const) {
    it(`${mode === 'keyframes' ? 'a big snapshot, then snap_empty 251 ticks apart (a keyframe each)' : 'a chat flood'}: --seconds 6 ends on time, peak RSS flat (under 160 MB) while the demo grows to tens of MB, the demo reads back`, async () => {
      const out = join(dir, `${mode}.demo`);
      const { code, stderr, wall, peakMb } = await record(mode, 6, out);
      expect(stderr).toMatch(/recorded \d+ snapshots in 6 s/);
      expect(code).toBe(0);
      // Measured (2 shared cores): 92 MB peak for a 41 MB (4 s) and for a 118 MB (12 s) demo of keyframes, 62-67 MB
      // under the chat flood; held in memory it was 166 MB for 4 s and 342 MB for 12 s of keyframes.
      const size = statSync(out).size;
      expect(size).toBeGreaterThan(8 * 1024 * 1024);
      expect(peakMb).toBeLessThan(160);
      // Not a speed check: --seconds must end the recording (issue 36 saw 40 s for --seconds 4 under the flood); the
      // margin is wide so that a loaded machine does not fail it.
      expect(wall).toBeLessThan(6 + 14);
      const info = await runCli(['demo', 'info', out]);
      expect(info.code).toBe(0);
      expect(JSON.parse(info.stdout)).toMatchObject({ fileSize: size, header: { mapName: 'hostile', type: 'client' } });
    }, 60_000);
  }

  it('ticks up to 2^31 - 1 (issue 36: BAD_FIELD input.prediction_tick thrown from the input timer, a stack trace, nothing written): recorded on time, the demo reads back to the last tick', async () => {
    const out = join(dir, 'ticks.demo');
    const { code, stderr } = await record('ticks', 5, out);
    expect(stderr).toMatch(/^recording 5 s of 127\.0\.0\.1:\d+ on [^\n]+\nrecorded \d+ snapshots in 5 s from 127\.0\.0\.1:\d+ to .*ticks\.demo\nTIME/);
    expect(code).toBe(0);
    const snaps = await runCli(['demo', 'snapshots', '--summary', out]);
    const ticks = snaps.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { tick: number }).tick);
    expect(ticks.at(-1)).toBe(2 ** 31 - 1);
    expect(ticks.length).toBeGreaterThan(50);
  }, 60_000);

  it('a map name of 64+ bytes (issue 36: HEADER_FIELD after the whole download): cut into the header as DDNet does, said in one line', async () => {
    const out = join(dir, 'long-name.demo');
    const mapName = `${'long'.repeat(20)}_map`;
    const { code, stderr } = await record('chat', 2, out, { mapName });
    expect(stderr).toContain(`the map name is longer than a demo header holds (63 bytes): the header has '${mapName.slice(0, 63)}'\n`);
    expect(code).toBe(0);
    const info = await runCli(['demo', 'info', out]);
    expect(JSON.parse(info.stdout)).toMatchObject({ header: { mapName: mapName.slice(0, 63) } });
  }, 60_000);
});
