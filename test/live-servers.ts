// Real game servers for the live-client tests: Debian's DDNet-Server (16.4) and teeworlds-server (0.7.5), each
// on 127.0.0.1 only, on a free port, with a config written to a temp dir (no master registration), its output
// kept for the test to read. Every server runs under `timeout` (a watchdog should the test process die) and is
// stopped by its PID.
import { type ChildProcess, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, serverInfo } from '../packages/net/src/node.js';

export const SERVER_BINARIES = { '0.6': '/usr/games/DDNet-Server', '0.7': '/usr/games/teeworlds-server' } as const;
/** Maps shipped with the server packages (ddnet-data, teeworlds-data). */
export const SERVER_MAPS = { '0.6': 'ctf2', '0.7': 'dm1' } as const;
/**
 * DDNet-Server for 0.7 clients (startServer('0.7', { sixup: true })): it serves a 0.7 client the map's copy in
 * maps7/ and turns its 0.7 support (sv_sixup, on by default) off for a map without one (DDNet 16.4
 * src/engine/server/server.cpp LoadMap). ddnet-data has Gold Mine in both.
 */
export const SIXUP_MAP = 'Gold Mine';
export const SIXUP_MAP_07 = `/usr/share/games/ddnet/data/maps7/${SIXUP_MAP}.map`;
export const hasSixupServer = () => existsSync(SERVER_BINARIES['0.6']) && existsSync(SIXUP_MAP_07);
/** The watchdog: a server lives at most this long. */
const MAX_SERVER_SECONDS = 300;

export const hasServer = (protocol: '0.6' | '0.7') => existsSync(SERVER_BINARIES[protocol]);

export interface LiveServer {
  protocol: '0.6' | '0.7';
  port: number;
  name: string;
  map: string;
  /** Everything the server printed so far. */
  log(): string;
  /** Resolves when the server printed `text` (rejects after `ms`). */
  waitForLog(text: string, ms?: number): Promise<void>;
  stop(): void;
  /** Resolves when the server's process has ended (and so released its port). */
  exited: Promise<void>;
  /**
   * Freezes the server's process (SIGSTOP): it answers nothing, as a server that hangs or a network that drops
   * every packet, until resume() (SIGCONT). Its clients meet a time-out, not a close.
   */
  pause(): void;
  resume(): void;
  /**
   * Runs a console command (e.g. `change_map ctf1`) as an rcon-authenticated player: a client of its own logs in
   * with the server's rcon password (startServer's `rcon` option), sends it and leaves. Over the game protocol
   * rather than the econ: DDNet 16.4 opens its econ for IPv4 and IPv6 with the same address
   * (src/engine/shared/econ.cpp: NETTYPE_ALL), so `ec_bindaddr 127.0.0.1` fails to bind ("net: failed to bind
   * socket with domain 10") and only a wildcard address works, which these tests do not open.
   */
  rcon(command: string): Promise<void>;
  /** The rcon password (startServer's `rcon` option), for tests of the rcon client itself. */
  rconPassword: string;
}

export interface ServerOptions {
  /** Set an rcon password of the server's own, for LiveServer.rcon. */
  rcon?: boolean;
  /** For protocol 0.7: DDNet-Server on SIXUP_MAP, taking 0.7 clients (sv_sixup), instead of teeworlds-server. */
  sixup?: boolean;
  /** This port instead of a free one (a server started again where another was). */
  port?: number;
  /** More config lines (e.g. `sv_max_clients_per_ip 24`). */
  config?: string[];
}

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/**
 * Starts a server for `protocol`: DDNet-Server on ctf2 for 0.6, teeworlds-server on dm1 for 0.7, or with
 * `sixup` DDNet-Server on SIXUP_MAP for 0.7 clients (queried and awaited with protocol 0.7).
 */
export async function startServer(protocol: '0.6' | '0.7', options: ServerOptions = {}): Promise<LiveServer> {
  const port = options.port ?? (await freeUdpPort());
  const rconPassword = `twcodec-${process.pid}-${port}`;
  const ddnet = protocol === '0.6' || options.sixup === true;
  const dir = mkdtempSync(join(tmpdir(), `twcodec-live-${protocol}-`));
  const name = `twcodec-live-${protocol}${options.sixup ? '-sixup' : ''}-${process.pid}`;
  const map = options.sixup ? SIXUP_MAP : SERVER_MAPS[protocol];
  // bindaddr 127.0.0.1 with IPv6 also tried fails to open the socket on DDNet: sv_ipv4only (DDNet only).
  const config = [`sv_name "${name}"`, `sv_map "${map}"`, `sv_port ${port}`, 'bindaddr "127.0.0.1"', 'sv_register 0', ...(ddnet ? ['sv_ipv4only 1'] : []), ...(options.rcon ? [`sv_rcon_password "${rconPassword}"`] : []), ...(options.config ?? [])];
  writeFileSync(join(dir, 'server.cfg'), `${config.join('\n')}\n`);
  // Teeworlds reads config files relative to its storage paths only: the temp dir is the current directory.
  const child: ChildProcess = spawn('timeout', [String(MAX_SERVER_SECONDS), ddnet ? SERVER_BINARIES['0.6'] : SERVER_BINARIES['0.7'], '-f', 'server.cfg'], { cwd: dir, env: { ...process.env, HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (b: Buffer) => (output += b.toString('utf8')));
  child.stderr!.on('data', (b: Buffer) => (output += b.toString('utf8')));
  const stop = () => {
    if (child.exitCode === null && child.pid !== undefined) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  // The server is the child of `timeout` (which does not pass SIGSTOP on): its PID from /proc (Linux).
  const serverPid = () => {
    const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    if (children.length !== 1) throw new Error(`the ${protocol} server's process under timeout (PID ${child.pid}) was not found`);
    return Number(children[0]);
  };
  const exited = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
  const server: LiveServer = {
    exited,
    protocol,
    port,
    name,
    map,
    log: () => output,
    rconPassword,
    async waitForLog(text, ms = 5000) {
      const until = Date.now() + ms;
      while (!output.includes(text)) {
        if (Date.now() > until) throw new Error(`the ${protocol} server did not print ${JSON.stringify(text)} in ${ms} ms; it printed:\n${output.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop,
    pause: () => process.kill(serverPid(), 'SIGSTOP'),
    resume: () => process.kill(serverPid(), 'SIGCONT'),
    async rcon(command) {
      if (!options.rcon) throw new Error('the server was started without an rcon password');
      const admin = await connect({ host: '127.0.0.1', port, protocol, name: 'rcon' });
      try {
        await admin.ready();
        admin.sendMessage(protocol === '0.6' ? { kind: 'rcon_auth', name: '', password: rconPassword } : { kind: 'rcon_auth', password: rconPassword });
        admin.sendMessage({ kind: 'rcon_cmd', command });
        await admin.flushed();
      } finally {
        admin.disconnect();
      }
    },
  };
  // Up when it answers an info request (bounded: 20 tries). Before the server binds its port the request fails
  // at once with PORT_CLOSED (the kernel's ICMP answer): wait the try's half second all the same.
  for (let i = 0; ; i++) {
    const started = Date.now();
    try {
      await serverInfo('127.0.0.1', port, protocol, { timeout: 500 });
      return server;
    } catch (e) {
      if ((e as { code?: string }).code === 'PORT_CLOSED') await new Promise((r) => setTimeout(r, Math.max(0, 500 - (Date.now() - started))));
      if (i >= 20 || child.exitCode !== null) {
        stop();
        throw new Error(`the ${protocol} server did not come up on port ${port}: ${String(e)}\n${output.slice(-2000)}`);
      }
    }
  }
}
