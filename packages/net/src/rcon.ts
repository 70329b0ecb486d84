// The remote console of a live client (`client.rcon`): log in, run commands and get the lines the server
// answered, the command list the server grants. No end-of-answer marker exists: DDNet 16.4 and Teeworlds 0.7.5
// send a command's output as rcon_line messages while it runs (src/engine/server/server.cpp, ConsoleOutput
// callback) and nothing after the last one, so an answer is the lines that arrive until the server has been
// quiet for a while (measured against DDNet-Server 16.4 on 127.0.0.1: a `status` answer comes within one tick,
// ~20 ms, of the command's arrival). A wrong password gets no rcon_auth_status but the line "Wrong password
// N/M." (DDNet 16.4 and Teeworlds 0.7.5 server.cpp, NETMSG_RCON_AUTH), which is how a failed login is told.
import type { AnyNetMessage } from '@twcodec/netmsg';
import type { NetClock } from './client-api.js';
import { NetError } from './errors.js';

/** What the rcon layer needs of its client (NetClient implements it). */
export interface RconHost {
  readonly protocol: '0.6' | '0.7';
  readonly clock: NetClock;
  readonly closeReason: unknown;
  sendMessage(message: { kind: string; [field: string]: unknown }): void;
  /** Resolves when the server acknowledged every vital chunk sent so far. */
  flushed(): Promise<void>;
}

/** A console command the server lets the logged-in user run (rcon_cmd_add). */
export interface RconCommandInfo {
  name: string;
  help: string;
  /** The parameter format, e.g. `s[map]` or `?i[seconds]`. */
  params: string;
}

export interface RconAuthOptions {
  /** DDNet: the account name (empty: the plain rcon password, the default). 0.7 has no names. */
  name?: string;
  /** Milliseconds to wait for the server's answer (default 5000). */
  timeout?: number;
}

export interface RconCommandOptions {
  /**
   * The answer ends when no line came for this many milliseconds after the last one, or after the server
   * acknowledged the command when none came (default 300).
   */
  quiet?: number;
  /** At most this long for the whole answer (default 3000). */
  timeout?: number;
}

type LineListener = (line: string) => void;

/** The lines a command's answer can hold at most: a server that never falls quiet cannot grow one without bound. */
export const MAX_RCON_ANSWER_LINES = 10000;
/** The command list's size at most (DDNet 16.4 grants an admin a few hundred). */
export const MAX_RCON_COMMANDS = 4096;

/** The wrong-password line of DDNet 16.4 and Teeworlds 0.7.5 ("Wrong password 1/30."). */
const WRONG_PASSWORD = /^Wrong password\b/;

export class ClientRcon {
  /** Logged in (the server said so: DDNet's rcon_auth_status, 0.7's rcon_auth_on). */
  authed = false;
  /** The commands the server granted, by name (rcon_cmd_add, less rcon_cmd_rem). */
  readonly commands = new Map<string, RconCommandInfo>();
  private readonly lineListeners: LineListener[] = [];
  private pendingAuth: { resolve: () => void; reject: (e: NetError) => void } | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly host: RconHost) {}

  /** Calls `listener` with each rcon line the server sends (log lines too, while logged in). */
  onLine(listener: LineListener): () => void {
    this.lineListeners.push(listener);
    return () => {
      const i = this.lineListeners.indexOf(listener);
      if (i >= 0) this.lineListeners.splice(i, 1);
    };
  }

  /**
   * Logs in. Resolves once the server says so; rejects with RCON_AUTH_FAILED (wrong password: the server's
   * line is the message), TIMEOUT (no answer in time) or CLOSED (the connection ended first).
   */
  auth(password: string, options: RconAuthOptions = {}): Promise<void> {
    if (this.pendingAuth) return Promise.reject(new NetError('RCON_BUSY', 'a login is already under way', -1, 'rcon'));
    const timeout = options.timeout ?? 5000;
    return new Promise<void>((resolve, reject) => {
      const clock = this.host.clock;
      const timer = clock.setTimeout(() => settle(new NetError('TIMEOUT', `no answer to the rcon login within ${timeout} ms`, -1, 'rcon')), timeout);
      const settle = (error?: NetError) => {
        clock.clearTimeout(timer);
        this.pendingAuth = undefined;
        if (error) reject(error);
        else resolve();
      };
      this.pendingAuth = { resolve: () => settle(), reject: settle };
      try {
        this.host.sendMessage(this.host.protocol === '0.7' ? { kind: 'rcon_auth', password } : { kind: 'rcon_auth', name: options.name ?? '', password, sendRconCmds: true });
      } catch (e) {
        settle(e instanceof NetError ? e : new NetError('CLIENT_ERROR', String(e), -1, 'rcon', { cause: e }));
      }
    });
  }

  /**
   * Runs a console command (logged in first: else NOT_AUTHED) and resolves with the lines the server sent until
   * it fell quiet (RconCommandOptions). Commands run one after another: each answer is its own command's.
   */
  command(command: string, options: RconCommandOptions = {}): Promise<string[]> {
    const run = this.queue.then(() => this.runCommand(command, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private runCommand(command: string, options: RconCommandOptions): Promise<string[]> {
    if (!this.authed) return Promise.reject(new NetError('NOT_AUTHED', 'not logged in to the remote console (await client.rcon.auth(password) first)', -1, 'rcon'));
    const quiet = options.quiet ?? 300;
    const timeout = options.timeout ?? 3000;
    const clock = this.host.clock;
    return new Promise<string[]>((resolve, reject) => {
      const lines: string[] = [];
      let quietTimer: unknown;
      let finished = false;
      const done = () => {
        finished = true;
        clock.clearTimeout(limit);
        if (quietTimer !== undefined) clock.clearTimeout(quietTimer);
        off();
        this.closeWatch = undefined;
        resolve(lines);
      };
      const limit = clock.setTimeout(done, timeout);
      const off = this.onLine((line) => {
        if (lines.length < MAX_RCON_ANSWER_LINES) lines.push(line);
        if (quietTimer !== undefined) clock.clearTimeout(quietTimer);
        quietTimer = clock.setTimeout(done, quiet);
      });
      this.closeWatch = (e) => {
        finished = true;
        clock.clearTimeout(limit);
        if (quietTimer !== undefined) clock.clearTimeout(quietTimer);
        off();
        this.closeWatch = undefined;
        reject(e);
      };
      try {
        this.host.sendMessage({ kind: 'rcon_cmd', command });
      } catch (e) {
        this.closeWatch(e instanceof NetError ? e : new NetError('CLIENT_ERROR', String(e), -1, 'rcon', { cause: e }));
        return;
      }
      // A command that prints nothing (Teeworlds 0.7.5's change_map, which only ends the round) ends `quiet` ms
      // after the server acknowledged it, not at `timeout`: servers run a command in the tick its packet
      // arrives and send its lines with (or before) the acknowledgement (the chunks of that tick go out
      // together). Measured on 127.0.0.1: teeworlds-server 0.7.5's change_map took the whole 10 s of
      // `net rcon --timeout` before this.
      this.host.flushed().then(
        () => {
          if (!finished && quietTimer === undefined) quietTimer = clock.setTimeout(done, quiet);
        },
        () => undefined, // the connection ended: closeWatch rejects
      );
    });
  }

  private closeWatch: ((e: NetError) => void) | undefined;

  /** @internal The client hands over each message the server sent. */
  message(m: AnyNetMessage): void {
    switch (m.kind) {
      case 'rcon_auth_status':
        this.authed = m.authed === true;
        if (this.authed) this.pendingAuth?.resolve();
        else this.pendingAuth?.reject(new NetError('RCON_AUTH_FAILED', 'the server refused the rcon login', -1, 'rcon'));
        break;
      case 'rcon_auth_on':
        this.authed = true;
        this.pendingAuth?.resolve();
        break;
      case 'rcon_auth_off':
        this.authed = false;
        this.commands.clear();
        break;
      case 'rcon_line': {
        const line = String(m.line ?? '');
        if (!this.authed && this.pendingAuth && WRONG_PASSWORD.test(line)) this.pendingAuth.reject(new NetError('RCON_AUTH_FAILED', `the server refused the rcon password (it said ${JSON.stringify(line)})`, -1, 'rcon'));
        for (const listener of [...this.lineListeners]) listener(line);
        break;
      }
      case 'rcon_cmd_add':
        if (this.commands.size < MAX_RCON_COMMANDS || this.commands.has(String(m.name))) this.commands.set(String(m.name), { name: String(m.name), help: String(m.help ?? ''), params: String(m.params ?? '') });
        break;
      case 'rcon_cmd_rem':
        this.commands.delete(String(m.name));
        break;
    }
  }

  /** @internal The connection ended: whatever waits fails with `error`. */
  closed(error: NetError): void {
    this.authed = false;
    this.pendingAuth?.reject(error);
    this.closeWatch?.(error);
  }
}
