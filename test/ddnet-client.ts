// DDNet's own client (Debian package ddnet) under Xvfb, playing a demo from DDNet's user directory: the
// strictest demo reader there is (DDNet has no command-line demo tool).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CLIENT = ['/usr/games/DDNet', '/usr/bin/DDNet'].find((p) => existsSync(p));
export const XVFB_RUN = ['/usr/bin/xvfb-run'].find((p) => existsSync(p));
/** Teeworlds 0.7.5's client (Debian package teeworlds): it plays 0.7 demos from ~/.local/share/teeworlds/demos. */
export const TEEWORLDS_CLIENT = ['/usr/games/teeworlds'].find((p) => existsSync(p));

/**
 * Where xvfb-run starts looking for a free display number: apart for each test worker (vitest's VITEST_POOL_ID),
 * as two xvfb-runs started at once from the same number can both take it, and one then fails.
 */
const displayFrom = String(100 + 20 * Number(process.env.VITEST_POOL_ID ?? 0));

/**
 * Runs the client (DDNet's, or `client`) on `demos/<name>` (in its user directory) until its log shows `until`
 * or `seconds` pass, and returns the log.
 */
export function playInClient(name: string, until: string, seconds: number, client = CLIENT): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(XVFB_RUN!, ['-a', '-n', displayFrom, '-s', '-screen 0 640x480x24', 'stdbuf', '-oL', '-eL', client!, `snd_enable 0; gfx_fullscreen 0; play demos/${name}`], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    const stop = () => {
      try {
        // The whole process group: xvfb-run, Xvfb and the client (which does not quit on SIGTERM without its display).
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(stop, seconds * 1000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (log.includes(until)) stop();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(log);
    });
  });
}
