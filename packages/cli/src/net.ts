// `net pcap`: the UDP datagrams of a capture file, decoded by @twcodec/net, one JSON line each. `net info`,
// `net say`, `net record`: a live server, through @twcodec/net/node's client. `net demo`: a client's demo rebuilt
// from a capture.
// index.ts imports the command table below for every command: @twcodec/net (and net/node: sockets, DNS) load
// when a net command runs.
import type { CaptureDatagram, NetProtocolName, RecordedDemo, TrackedDatagram } from '@twcodec/net';
import type { NetClient } from '@twcodec/net/node';
import { checkOutputPath, CliError, type CliIo, plural, UsageError } from './io.js';
import { messageJson } from './message-json.js';

/** ISO 8601 UTC with the capture's fraction: 6 digits, or 9 when the nanoseconds need them. */
function isoTime(seconds: number, nanoseconds: number): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  const fraction = nanoseconds % 1000 === 0 ? String(nanoseconds / 1000).padStart(6, '0') : String(nanoseconds).padStart(9, '0');
  return `${base}.${fraction}Z`;
}

/**
 * The JSON line of one datagram: messages as `demo messages` prints them (message kind, fields); with what the
 * connection tracker made of it, vital chunks the receiver already had (or drops) marked and the snapshots the
 * datagram completed.
 */
export function datagramJson(d: CaptureDatagram, tracked?: TrackedDatagram): string {
  const line: Record<string, unknown> = { index: d.index, time: isoTime(d.seconds, d.nanoseconds), source: d.source, destination: d.destination };
  if (d.error) return messageJson({ ...line, error: d.error.message });
  const p = d.packet!;
  Object.assign(line, { protocol: p.protocol, kind: p.kind, header: p.header, flags: p.flags });
  if (p.securityToken !== undefined) line.securityToken = p.securityToken;
  if (p.control) line.control = p.control;
  if (p.connless) {
    const { kind, ...fields } = p.connless;
    line.connless = { message: kind, fields };
  }
  if (p.chunks)
    line.chunks = p.chunks.map((c, i) => {
      const { kind, trailing, ...fields } = c.message as typeof c.message & { trailing?: Uint8Array };
      const delivery = tracked?.delivery[i];
      return { flags: c.flags, ...(c.sequence !== undefined ? { sequence: c.sequence } : {}), ...(delivery && delivery !== 'delivered' ? { delivery } : {}), size: c.size, message: kind, fields, ...(trailing?.length ? { trailing } : {}) };
    });
  if (tracked?.errors?.length) line.errors = tracked.errors.map((e) => e.message);
  if (tracked?.snapshots.length)
    line.snapshots = tracked.snapshots.map((s) => ({
      tick: s.tick,
      deltaTick: s.deltaTick,
      ...(s.crc !== undefined ? { crc: s.crc } : {}),
      ...(s.crcOk !== undefined ? { crcOk: s.crcOk } : {}),
      ...(s.snapshot ? { items: s.snapshot.items.length } : {}),
      ...(s.error ? { error: s.error } : {}),
    }));
  if (tracked?.maps.length)
    line.maps = tracked.maps.map((m) => ({
      name: m.name,
      size: m.size,
      crc: m.crc.toString(16).padStart(8, '0'),
      ...(m.sha256 ? { sha256: m.sha256 } : {}),
      ...(m.crcOk !== undefined ? { crcOk: m.crcOk } : {}),
      ...(m.sha256Ok !== undefined ? { sha256Ok: m.sha256Ok } : {}),
      ...(m.error ? { error: `${m.error.code}: ${m.error.detail}` } : {}),
    }));
  return messageJson(line);
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

function protocolOf(flags: Record<string, boolean | string | undefined>): NetProtocolName {
  const protocol = flags.protocol ?? '0.6';
  if (protocol !== '0.6' && protocol !== '0.7') throw new UsageError(`--protocol is 0.6 or 0.7, not '${String(protocol)}'`);
  return protocol;
}

function nameOf(flags: Record<string, boolean | string | undefined>): string {
  const name = flags.name ?? 'twcodec';
  if (typeof name !== 'string' || !name) throw new UsageError('--name needs a name');
  return name;
}

const secondsOf = (text: unknown, flag: string, fallback: number) => {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || n > 86400) throw new UsageError(`--${flag} takes seconds (more than 0, at most 86400), not '${String(text)}'`);
  return n;
};

const PROTOCOL_FLAG = { protocol: { type: 'string' as const, value: '0.6|0.7', help: 'the server\'s protocol: 0.6 (Teeworlds 0.6 and DDNet, the default) or 0.7 (Teeworlds 0.7, and DDNet servers, which take 0.7 clients too)' } };
const LIVE_FLAGS = {
  ...PROTOCOL_FLAG,
  name: { type: 'string' as const, value: 'NAME', help: 'the player name (default twcodec)' },
  timeout: { type: 'string' as const, value: 'SECONDS', help: 'give up when not in game after this long, or when the server is silent this long (default 10)' },
};

/**
 * A server that never answers may be of the other protocol: Teeworlds 0.7.5's server ignores 0.6 packets (tested
 * against it: TIMEOUT, CONNECT_TIMEOUT with no word), so without --protocol the error says to try 0.7. (DDNet 16.4
 * takes 0.7 clients too while sv_sixup is on, its default, and the map has a maps7/ copy (src/engine/server/
 * server.cpp LoadMap turns sv_sixup off otherwise); then it closes a 0.7 connection with "0.7 connections are not
 * accepted at this time" (src/engine/shared/network_server.cpp TryAcceptClient): CLOSED_BY_SERVER says so.)
 */
function withProtocolHint(e: unknown, flags: Record<string, boolean | string | undefined>, code: string): unknown {
  if (flags.protocol !== undefined || (e as { code?: unknown }).code !== code) return e;
  return new CliError(code, `${(e as Error).message}: no answer; a Teeworlds 0.7 server needs --protocol 0.7`);
}

/**
 * Connects (the handshake under way, bounded by --timeout), runs `work` with the client and disconnects. Ctrl-C
 * (SIGINT) or SIGTERM on the way aborts `signal` (its reason: the signal's name), then disconnects too; a work
 * that fails then ends the command with INTERRUPTED (net record, which keeps what it recorded, returns instead).
 * Without it the process died without telling the server, which kept the player until its timeout (DDNet 16.4:
 * conn_timeout 100 s, in src/engine/shared/config_variables.h). A second signal kills the process as usual.
 */
async function withClient<T>(address: string, flags: Record<string, boolean | string | undefined>, downloadMap: boolean, work: (client: NetClient, signal: AbortSignal) => Promise<T>): Promise<T> {
  const { host, port } = parseServerAddress(address);
  const timeout = secondsOf(flags.timeout, 'timeout', 10) * 1000;
  const { connect } = await import('@twcodec/net/node');
  const client = await connect({ host, port, protocol: protocolOf(flags), name: nameOf(flags), connectTimeout: timeout, timeout, downloadMap });
  const interruption = new AbortController();
  const leave = (signal: NodeJS.Signals) => {
    // The work first (net record finishes its demo while the client is still in game), then the close packet,
    // which goes out before the socket closes (@twcodec/net/node).
    interruption.abort(signal);
    client.disconnect();
  };
  process.once('SIGINT', leave).once('SIGTERM', leave);
  try {
    return await work(client, interruption.signal);
  } catch (e) {
    if (interruption.signal.aborted) throw new CliError('INTERRUPTED', `interrupted by ${String(interruption.signal.reason)}: left ${address} (the server was told); nothing written`);
    // Still connecting: the server never answered the handshake.
    throw /\(state connecting\)/.test(String((e as Error).message)) ? withProtocolHint(e, flags, 'CONNECT_TIMEOUT') : e;
  } finally {
    process.off('SIGINT', leave).off('SIGTERM', leave);
    client.disconnect();
  }
}

export const NET_COMMANDS = {
  'net pcap': {
    args: ['FILE'],
    flags: { protocol: { type: 'string' as const, value: '0.6|0.7', help: 'the protocol of flows the capture holds no handshake of (default: told from their packets, else 0.6)' } },
    summary: 'NDJSON: one line per UDP datagram of a pcap/pcapng capture: time, source, destination, protocol, header, chunks with their messages',
    details:
      'Messages carry the names and fields of `demo messages` (https://github.com/twcodec/twcodec/blob/main/docs/formats/net-messages.md); control and connectionless packets (server info) are named as in https://github.com/twcodec/twcodec/blob/main/docs/formats/network.md. A datagram that does not decode gets its line with "error" and the rest go on. Each flow takes its protocol from its handshake (0.7 token/connect, 0.6 connect). Vital chunks the receiver already had carry "delivery": "duplicate" (out of order: "out_of_order"); each snapshot a datagram completes (snap parts of a tick, the delta applied to the snapshot of the delta tick) is listed under "snapshots" with its tick, item count and "crcOk"; snapshot parts a real client would drop (a part number outside its count, a part too big) are listed under "errors"; a map download over UDP (DDNet\'s map_details/map_change/map_data, 0.7\'s map_change/map_data) that a datagram completes is listed under "maps" with its name, size, CRC, SHA-256, "crcOk" and "sha256Ok" (a map-change announcing more than 64 MiB, or chunks beyond the announced size, give "error" there). FILE may be - to read standard input.',
    async run(io: CliIo, [file]: string[], flags: Record<string, boolean | string | undefined>) {
      const protocol = flags.protocol;
      if (protocol !== undefined && protocol !== '0.6' && protocol !== '0.7') throw new UsageError(`--protocol is 0.6 or 0.7, not '${String(protocol)}'`);
      const options = protocol ? { protocol: protocol as NetProtocolName } : {};
      const { ConnectionTracker, decodeCapture } = await import('@twcodec/net');
      const tracker = new ConnectionTracker();
      for (const d of decodeCapture(await io.readFile(file!), options)) await io.stdout(`${datagramJson(d, tracker.feed(d))}\n`);
    },
  },  'net info': {
    args: ['HOST:PORT'],
    flags: { ...PROTOCOL_FLAG, timeout: { type: 'string' as const, value: 'SECONDS', help: 'how long to wait for the answer (default 3)' } },
    summary: "JSON: a live server's info (name, map, game type, version, players and their clients)",
    details:
      'Asks as a server browser does: 0.6/DDNet sends DDNet\'s info request and reads DDNet\'s extended info (all clients, over several packets, with the map\'s CRC and size) or a vanilla server\'s inf3; 0.7 gets the server\'s token first, then its info. Fields: protocol, form (info, info_extended, info_07), version, name, map, gameType, flags, numPlayers, maxPlayers, numClients, maxClients, mapCrc and mapSize (DDNet), hostname and skillLevel (0.7), clients [{name, clan, country, score, isPlayer}]. No answer in time: error TIMEOUT. The port defaults to 8303.',
    async run(io: CliIo, [address]: string[], flags: Record<string, boolean | string | undefined>) {
      const { host, port } = parseServerAddress(address!);
      const { serverInfo } = await import('@twcodec/net/node');
      const info = await serverInfo(host, port, protocolOf(flags), { timeout: secondsOf(flags.timeout, 'timeout', 3) * 1000 }).catch((e: unknown) => {
        throw withProtocolHint(e, flags, 'TIMEOUT');
      });
      await io.stdout(`${JSON.stringify(info, null, 2)}\n`);
    },
  },
  'net say': {
    args: ['HOST:PORT', 'TEXT'],
    flags: { ...LIVE_FLAGS, team: { type: 'boolean' as const, help: 'team chat' } },
    summary: 'Joins a live server as a player, says TEXT in the chat, and leaves',
    details:
      'Connects (0.6/DDNet: the TKEN handshake with DDNet\'s security token; 0.7: tokens), enters the game without downloading the map, sends the chat line, waits until the server acknowledged it, and disconnects. Errors: CONNECT_TIMEOUT (not in game in time), TIMEOUT, CLOSED_BY_SERVER (the server\'s reason, e.g. a ban or a full server).',
    async run(io: CliIo, [address, text]: string[], flags: Record<string, boolean | string | undefined>) {
      await withClient(address!, flags, false, async (client) => {
        await client.ready();
        client.say(text!, flags.team === true);
        await client.flushed();
      });
      io.stderr(`said ${JSON.stringify(text)} as ${JSON.stringify(nameOf(flags))} on ${address}\n`);
    },
  },
  'net record': {
    args: ['HOST:PORT', 'OUT'],
    flags: { ...LIVE_FLAGS, seconds: { type: 'string' as const, value: 'N', help: 'how long to record (default 10)' } },
    summary: 'Joins a live server as a player and records what it receives as a demo',
    details:
      'A client demo as a game client records it: a snapshot at every tick the server sent one (rebuilt from the deltas, CRC checked; DDNet and 0.7.5 servers send one every second tick) and the game messages, for N seconds after entering the game. The map is downloaded over UDP first, as a client without it does, checked against the CRC and SHA-256 the server announced (MAP_CRC_MISMATCH, MAP_SHA256_MISMATCH; more than 64 MiB: MAP_TOO_BIG), and the demo holds it. 0.6/DDNet demos are version 6 (5 when the server sends no SHA-256), 0.7 demos version 4; a map name longer than the header holds (63 bytes) is cut as DDNet cuts it, and a line says so. The demo goes to disk as it is recorded (a temporary file beside OUT, renamed to OUT at the end): memory stays flat. Stopped after the first snapshot by Ctrl-C (SIGINT) or SIGTERM, by the server closing the connection (a kick, a shutdown: CLOSED_BY_SERVER), falling silent (TIMEOUT), sending what ends the connection (BAD_PEER, ...) or changing map (MAP_CHANGED: the demo ends at the change, as the DDNet client ends its recording), OUT holds what was recorded and one line says why and what was written (`wrote N snapshots (ticks A..B) to OUT`), exit 1; before it, and on any other error, nothing is written. A connection that gives up tells the server (a close packet), which frees the slot of the player at once.',
    async run(io: CliIo, [address, out]: string[], flags: Record<string, boolean | string | undefined>) {
      const seconds = secondsOf(flags.seconds, 'seconds', 10);
      // A path that cannot take OUT fails now, not after the recording.
      await checkOutputPath(out!);
      const { recordDemo } = await import('@twcodec/net');
      // The demo goes to disk as it is recorded (a temporary file beside OUT, renamed over it at the end), as
      // DDNet's recorder writes as it goes and puts the final header in place when it stops: memory stays flat
      // however long the recording and whatever the server sends.
      const file = await io.openWrite(out!);
      // From before the game starts, so that the snapshot that brings the client into the game is recorded too.
      let interruption: AbortSignal | undefined;
      let recorded: RecordedDemo;
      try {
        recorded = await withClient(address!, flags, true, (client, signal) => {
          interruption = signal;
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
    },
  },
  'net demo': {
    args: ['FILE', 'OUT'],
    flags: {
      player: { type: 'string' as const, value: 'NAME', required: true as const, help: 'the player whose client recorded the demo (the name its start info carries)' },
      map: { type: 'string' as const, value: 'FILE', help: 'the map file, when the capture holds no download of it' },
      protocol: { type: 'string' as const, value: '0.6|0.7', help: 'the protocol of flows the capture holds no handshake of' },
    },
    summary: 'Writes the demo the client playing NAME would have recorded, from a pcap/pcapng capture of its session',
    details:
      "The demo holds the map (from its download in the capture, else --map FILE, checked against the CRC, size and SHA-256 the server announced), every snapshot the client received with its CRC right, at its tick, and the game messages it received, as the client records them: DDNet 16.4 (0.6) from the connection the player controls, its own or its dummy's (told from the order in which the client sends their inputs; around a switch the capture cannot show the exact frame, so a snapshot or two there may be the other connection's), with its tuning at each snapshot; Teeworlds 0.7.5 with the demo-only items (de_client_info, de_game_info, de_tune_params) and messages (de_client_enter/leave) its client adds. Messages before the first snapshot come right after it. Keyframes wait for deltas of an eighth of their size, so the demo stays proportional to the capture; one that would pass 8 times its size is refused (DEMO_TOO_BIG). Prints what it wrote as JSON: client, dummy and server endpoints, map, snapshots, messages and switchTicks (the ticks whose connection is a guess).",
    async run(io: CliIo, [file, out]: string[], flags: Record<string, boolean | string | undefined>) {
      // Required (the option table): the command line has it.
      const player = flags.player as string;
      const protocol = flags.protocol;
      if (protocol !== undefined && protocol !== '0.6' && protocol !== '0.7') throw new UsageError(`--protocol is 0.6 or 0.7, not '${String(protocol)}'`);
      const map = typeof flags.map === 'string' ? await io.readFile(flags.map) : undefined;
      const { captureDemo } = await import('@twcodec/net');
      const { CodecError, errorAbout } = await import('@twcodec/runtime');
      let result: ReturnType<typeof captureDemo>;
      try {
        result = captureDemo(await io.readFile(file!), { player, ...(map ? { map } : {}), ...(protocol ? { protocol: protocol as NetProtocolName } : {}) });
      } catch (e) {
        // A map that is not the one the server announced is the fault of --map FILE, not of the capture (the
        // error named the capture: "MAP_MISMATCH: the map given has ... (in session.pcap, at map)").
        if (map && e instanceof CodecError && e.code === 'MAP_MISMATCH') throw errorAbout(e, flags.map as string);
        throw e;
      }
      await io.writeFile(out!, result.demo);
      const { demo, map: m, ...rest } = result;
      await io.stdout(`${messageJson({ ...rest, map: { name: m.name, size: m.size, crc: m.crc.toString(16).padStart(8, '0'), sha256: m.sha256, from: m.from }, bytes: demo.length })}\n`);
    },
  },
};
