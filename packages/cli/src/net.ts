// The work of the net commands (commands/net.ts holds their table): `net pcap`, the UDP datagrams of a capture
// file decoded by @twcodec/net, one JSON line each; `net info`, `net say`, `net record`, a live server through
// @twcodec/net/node's client; `net demo`, a client's demo rebuilt from a capture. Loaded when a net command runs.
import { CaptureDecoder, ConnectionTracker, type NetProtocolName, PACKET_PROTOCOLS, type RecordedDemo } from '@twcodec/net';
import type { NetClient } from '@twcodec/net/node';
import { setFlagsFromString } from 'node:v8';
import { checkOutputPath, CliError, type CliIo, oneLine, plural, UsageError } from './io.js';
import { JsonBytes } from './fast-json.js';
import { messageJson } from './message-json.js';
import { writeDatagram } from './net-pcap-lines.js';

export { datagramJson } from './net-pcap-lines.js';
/** The protocols the net commands speak (commands/net.ts checks --protocol against them). */
export const PROTOCOL_NAMES = Object.keys(PACKET_PROTOCOLS);

/** The options of the commands that talk to a live server (their table: commands/net.ts). */
export interface LiveOptions {
  protocol: string;
  name?: string;
  timeout: string;
}

/** The default port of Teeworlds and DDNet servers. */
const DEFAULT_PORT = 8303;

/** HOST:PORT, [IPv6]:PORT, or HOST alone (port 8303). */
export function parseServerAddress(text: string): { host: string; port: number } {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(text) ?? /^([^:]+)(?::(\d+))?$/.exec(text);
  const port = m?.[2] === undefined ? DEFAULT_PORT : Number(m[2]);
  if (!m || !m[1] || !Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`'${text}' is not HOST:PORT`);
  return { host: m[1], port };
}

/** The name a player joins with; one is needed (a server shows it). */
function nameOf(options: LiveOptions): string {
  if (!options.name) throw new UsageError('--name needs a name');
  return options.name;
}

/** The seconds an option gives: more than 0, at most a day. */
const secondsOf = (text: string, option: string) => {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || n > 86400) throw new UsageError(`--${option} takes seconds (more than 0, at most 86400), not '${text}'`);
  return n;
};

/**
 * A server that never answers may be of the other protocol: Teeworlds 0.7.5's server ignores 0.6 packets (tested
 * against it: TIMEOUT, CONNECT_TIMEOUT with no word), so without --protocol the error says to try 0.7. (DDNet 16.4
 * takes 0.7 clients too while sv_sixup is on, its default, and the map has a maps7/ copy (src/engine/server/
 * server.cpp LoadMap turns sv_sixup off otherwise); then it closes a 0.7 connection with "0.7 connections are not
 * accepted at this time" (src/engine/shared/network_server.cpp TryAcceptClient): CLOSED_BY_SERVER says so.)
 */
function withProtocolHint(e: unknown, given: ReadonlySet<string>, code: string): unknown {
  if (given.has('protocol') || (e as { code?: unknown }).code !== code) return e;
  return new CliError(code, `${(e as Error).message}: no answer; a Teeworlds 0.7 server needs --protocol 0.7`);
}

/**
 * Connects (the handshake under way, bounded by --timeout), runs `work` with the client and disconnects. Ctrl-C
 * (SIGINT) or SIGTERM on the way aborts `signal` (its reason: the signal's name), then disconnects too; a work
 * that fails then ends the command with INTERRUPTED (net record, which keeps what it recorded, returns instead).
 * Without it the process died without telling the server, which kept the player until its timeout (DDNet 16.4:
 * conn_timeout 100 s, in src/engine/shared/config_variables.h). A second signal kills the process as usual.
 */
async function withClient<T>(address: string, options: LiveOptions, given: ReadonlySet<string>, downloadMap: boolean, work: (client: NetClient, signal: AbortSignal) => Promise<T>): Promise<T> {
  const { host, port } = parseServerAddress(address);
  const timeout = secondsOf(options.timeout, 'timeout') * 1000;
  const { connect } = await import('@twcodec/net/node');
  const interruption = new AbortController();
  let client: NetClient | undefined;
  const leave = (signal: NodeJS.Signals) => {
    // The work first (net record finishes its demo while the client is still in game), then the close packet,
    // which goes out before the socket closes (@twcodec/net/node).
    interruption.abort(signal);
    client?.disconnect();
  };
  // Listening before connecting: connect() sends the first packet before it resolves, so a signal can come
  // before it returns (the process then died without the close packet; seen in the SIGINT test under load).
  process.once('SIGINT', leave).once('SIGTERM', leave);
  try {
    client = await connect({ host, port, protocol: options.protocol as NetProtocolName, name: nameOf(options), connectTimeout: timeout, timeout, downloadMap });
    if (interruption.signal.aborted) throw new Error('interrupted while connecting');
    return await work(client, interruption.signal);
  } catch (e) {
    if (interruption.signal.aborted) throw new CliError('INTERRUPTED', `interrupted by ${String(interruption.signal.reason)}: left ${address} (the server was told); nothing written`);
    // Still connecting: the server never answered the handshake.
    throw /\(state connecting\)/.test(String((e as Error).message)) ? withProtocolHint(e, given, 'CONNECT_TIMEOUT') : e;
  } finally {
    process.off('SIGINT', leave).off('SIGTERM', leave);
    client?.disconnect();
  }
}


/**
 * Less inlining by V8's optimising compiler, for the rest of the process. `net pcap` runs many functions often
 * enough to be optimised (decoding, tracking, writing), and for a capture of a few MB compiling them is most of
 * its CPU time: 42% of the instructions on the corpus DDNet session (1.5 MB, callgrind), much of it graphs of
 * inlined callees. With at most 250 bytes of bytecode inlined into a function (V8's default 920) the command
 * took 15% less CPU on that session and 8% less on 10 MB of it (issue 41; docs/performance.md). Set before the
 * work's code is optimised (it is read when a function is compiled); compiled code already made keeps its own.
 */
function lessInlining(): void {
  setFlagsFromString('--max-inlined-bytecode-size-cumulative=250');
}

/**
 * `net pcap FILE`: a JSON line per datagram, with what the connection tracker made of it. The capture is read
 * as a stream (a file in pieces, or standard input as it comes: `tcpdump -U -w - | twcodec net pcap -`): the
 * lines of each piece's datagrams go out together before the next piece is read, so a datagram's line is
 * printed as soon as its frame has come, and memory does not grow with the capture.
 */
export async function netPcap(io: CliIo, file: string, protocol: string | undefined): Promise<void> {
  lessInlining();
  const tracker = new ConnectionTracker();
  const decoder = new CaptureDecoder(protocol ? { protocol: protocol as NetProtocolName } : {});
  const lines = new JsonBytes();
  const decode = () => {
    for (let d = decoder.next(); d; d = decoder.next()) {
      writeDatagram(lines, d, tracker.feed(d), true, decoder.route);
    }
  };
  // Written as they are made when the capture is damaged: the lines before the error go out before it. The
  // bytes are the line buffer's own (lent), written over only once the write has them.
  const flush = async () => {
    if (lines.at > 0) await io.stdout(lines.lendBytes());
  };
  try {
    for await (const chunk of io.openRead(file)) {
      decoder.push(chunk);
      decode();
      await flush();
    }
    decoder.end();
    decode();
  } finally {
    await flush();
  }
}

/** `net info HOST:PORT`: the server's info as JSON. */
export async function netInfo(io: CliIo, address: string, options: { protocol: string; timeout: string }, given: ReadonlySet<string>): Promise<void> {
  const { host, port } = parseServerAddress(address);
  const { serverInfo } = await import('@twcodec/net/node');
  const info = await serverInfo(host, port, options.protocol as NetProtocolName, { timeout: secondsOf(options.timeout, 'timeout') * 1000 }).catch((e: unknown) => {
    throw withProtocolHint(e, given, 'TIMEOUT');
  });
  await io.stdout(`${JSON.stringify(info, null, 2)}\n`);
}

/** `net say HOST:PORT TEXT`: joins, says TEXT, leaves once the server has it. */
export async function netSay(io: CliIo, address: string, text: string, options: LiveOptions & { team: boolean }, given: ReadonlySet<string>): Promise<void> {
  await withClient(address, options, given, false, async (client) => {
    await client.ready();
    client.say(text, options.team);
    await client.flushed();
  });
  io.stderr(`said ${JSON.stringify(text)} as ${JSON.stringify(nameOf(options))} on ${address}\n`);
}

/** `net rcon HOST:PORT --password PW COMMAND...`: joins, logs in to the remote console, prints the command's answer, leaves. */
export async function netRcon(io: CliIo, address: string, command: string, options: LiveOptions & { password: string; quiet: string }, given: ReadonlySet<string>): Promise<void> {
  const quiet = secondsOf(options.quiet, 'quiet') * 1000;
  const timeout = secondsOf(options.timeout, 'timeout') * 1000;
  const lines = await withClient(address, options, given, false, async (client) => {
    await client.ready();
    try {
      await client.rcon.auth(options.password, { timeout });
    } catch (e) {
      if ((e as { code?: unknown }).code === 'RCON_AUTH_FAILED') {
        const said = /\(it said .*\)$/.exec((e as { detail?: string }).detail ?? '')?.[0];
        throw new CliError('RCON_AUTH_FAILED', `${address} refused the rcon password${said ? ` ${said}` : ''}`);
      }
      throw e;
    }
    return client.rcon.command(command, { quiet, timeout: Math.max(timeout, quiet) });
  });
  for (const line of lines) await io.stdout(`${line}\n`);
}

/** `net watch HOST:PORT`: NDJSON of the game's events until Ctrl-C, following map changes, connecting again when the connection ends. */
export async function netWatch(io: CliIo, address: string, options: LiveOptions, given: ReadonlySet<string>): Promise<void> {
  const { host, port } = parseServerAddress(address);
  const timeout = secondsOf(options.timeout, 'timeout') * 1000;
  const { stayConnected } = await import('@twcodec/net/node');
  const stop = new AbortController();
  const leave = (signal: NodeJS.Signals) => stop.abort(signal);
  process.once('SIGINT', leave).once('SIGTERM', leave);
  // Lines go out in order; a closed stdout (| head) stops the watch.
  let out: Promise<void> = Promise.resolve();
  const print = (value: object) => {
    out = out.then(() => io.stdout(`${JSON.stringify({ time: new Date().toISOString(), ...value })}\n`)).catch((e: unknown) => {
      stop.abort('output closed');
      throw e;
    });
  };
  try {
    await stayConnected({
      host,
      port,
      protocol: options.protocol as NetProtocolName,
      name: nameOf(options),
      connectTimeout: timeout,
      timeout,
      signal: stop.signal,
      onClient(client) {
        client.on('ingame', () => print({ type: 'connected', map: client.map?.name ?? '' }));
        client.game.on('*', (e) => (e.type === 'rcon' ? undefined : print(e)));
      },
      onRetry(close, delay) {
        print({ type: 'disconnected', cause: close.error?.code ?? close.cause, reason: close.reason, retryIn: delay });
      },
    });
  } catch (e) {
    throw /\(state connecting\)/.test(String((e as Error).message)) ? withProtocolHint(e, given, 'CONNECT_TIMEOUT') : e;
  } finally {
    process.off('SIGINT', leave).off('SIGTERM', leave);
  }
  await out;
}

/** `net record HOST:PORT OUT`: joins and records what the client receives as a demo, written as it comes. */
export async function netRecord(io: CliIo, address: string, out: string, options: LiveOptions & { seconds: string }, given: ReadonlySet<string>): Promise<void> {
  const seconds = secondsOf(options.seconds, 'seconds');
  // A path that cannot take OUT fails now, not after the recording.
  await checkOutputPath(out);
  const { recordDemo } = await import('./net-live.js');
  // The demo goes to disk as it is recorded (a temporary file beside OUT, renamed over it at the end), as
  // DDNet's recorder writes as it goes and puts the final header in place when it stops: memory stays flat
  // however long the recording and whatever the server sends.
  const file = await io.openWrite(out);
  // From before the game starts, so that the snapshot that brings the client into the game is recorded too.
  let interruption: AbortSignal | undefined;
  let recorded: RecordedDemo;
  try {
    recorded = await withClient(address, options, given, true, (client, signal) => {
      interruption = signal;
      // A line when the recording starts (the client's first snapshot in the game, where --seconds counts from):
      // the wait before it (handshake, map download) can be long, and a script may act once it is recording.
      const started = () => {
        client.off('ingame', started);
        io.stderr(`recording ${seconds} s of ${address} on ${oneLine(client.map?.name ?? 'its map')}\n`);
      };
      if (client.state === 'ingame') started();
      else client.on('ingame', started);
      return recordDemo(client, { duration: seconds * 1000, signal, sink: (bytes) => file.append(bytes) });
    });
    // With a sink, `demo` is the final header (its length and markers), put over the first bytes written.
    file.writeAt(0, recorded.demo);
  } catch (e) {
    await file.discard();
    throw e;
  }
  // Ended early after the first snapshot (Ctrl-C, SIGTERM, the server closing the connection, falling silent
  // or changing map, an error of the connection): the demo of what was recorded is written, as DDNet's client
  // keeps its demo, and the command says why it ended in one line (exit 1: the recording is shorter than
  // asked; docs/cli.md).
  await file.commit();
  const wrote = `wrote ${plural(recorded.snapshots, 'snapshot')} (ticks ${recorded.firstTick}..${recorded.lastTick}) to ${out}`;
  if (recorded.truncatedMapName !== undefined) io.stderr(`the map name is longer than a demo header holds (63 bytes): the header has '${recorded.truncatedMapName}'\n`);
  if (recorded.stopped === 'signal') throw new CliError('INTERRUPTED', `interrupted by ${String(interruption?.reason)}: ${wrote}; left ${address}`);
  if (recorded.stopped === 'map_change') throw new CliError('MAP_CHANGED', `the server changed map to '${recorded.nextMap?.name ?? ''}': the demo ends at the change, as DDNet's client ends its recording; ${wrote}`);
  const closed = recorded.closeError;
  if (closed) throw new CliError(closed.code, `${closed.code}: ${closed.detail}; ${wrote}`);
  io.stderr(`recorded ${recorded.snapshots} snapshots in ${seconds} s from ${address} to ${out}\n`);
}

/** `net demo FILE OUT --player NAME`: the demo that player's client would have recorded, from a capture. */
export async function netDemo(io: CliIo, file: string, out: string, options: { player: string; map: string | undefined; protocol: string | undefined }): Promise<void> {
  const map = options.map === undefined ? undefined : await io.readFile(options.map);
  const { captureDemo } = await import('./net-live.js');
  const { CodecError, errorAbout } = await import('./runtime-names.js');
  let result: ReturnType<typeof captureDemo>;
  try {
    result = captureDemo(await io.readFile(file), { player: options.player, ...(map ? { map } : {}), ...(options.protocol ? { protocol: options.protocol as NetProtocolName } : {}) });
  } catch (e) {
    // A map that is not the one the server announced is the fault of --map FILE, not of the capture (the
    // error named the capture: "MAP_MISMATCH: the map given has ... (in session.pcap, at map)").
    if (map && e instanceof CodecError && e.code === 'MAP_MISMATCH') throw errorAbout(e, options.map!);
    throw e;
  }
  await io.writeFile(out, result.demo);
  const { demo, map: m, ...rest } = result;
  await io.stdout(`${messageJson({ ...rest, map: { name: m.name, size: m.size, crc: m.crc.toString(16).padStart(8, '0'), sha256: m.sha256, from: m.from }, bytes: demo.length })}\n`);
}
