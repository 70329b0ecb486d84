// A live client's demo: what NetClient receives, written with @twcodec/demo's DemoWriter as a game client
// records it (`twcodec net record`). Facts on what a client records: DDNet 16.4 src/engine/client/client.cpp
// (ProcessServerPacket: each snapshot whose CRC is right at its tick, game messages as their packed bytes; the
// demo header names the map by name, CRC and, from version 6, SHA-256) - the same facts capture-demo.ts follows,
// with its DemoState07 for the demo-only items (de_client_info, ...) a Teeworlds 0.7.5 client adds.
import { DemoWriter } from '@twcodec/demo';
import { encodeNetMessage, TEEWORLDS_0_7_MESSAGES, type Teeworlds07Message } from '@twcodec/netmsg';
import { concatBytes } from '@twcodec/runtime';
import { DemoState07, NOT_RECORDED_07 } from './capture-demo.js';
import { type ClientClose, type ClientMessage, type ClientSnapshot, NET_VERSIONS, type NetClient } from './client.js';
import { NetError } from './errors.js';

/** The default cap on a recorded demo's size (DEMO_TOO_BIG past it). */
export const DEFAULT_MAX_DEMO_SIZE = 256 * 1024 * 1024;

export interface RecordDemoOptions {
  /** How long to record, in milliseconds of the client's clock, from entering the game (or from the call, when in game already). */
  duration: number;
  /** The header's timestamp, `YYYY-MM-DD_HH-MM-SS` (default: the client's clock at the start, UTC). */
  timestamp?: string;
  /**
   * Where the demo's bytes go as they are written (DemoWriter's sink); `demo` is then the final header, to put
   * over the first bytes the sink received. Without a sink the demo is kept and returned whole.
   */
  sink?: (bytes: Uint8Array) => void;
  /**
   * The most bytes the demo may take (default 256 MiB): a server can make a small datagram cost a full
   * snapshot in the demo (a tick far ahead makes a keyframe), so the recording ends with DEMO_TOO_BIG past it.
   */
  maxBytes?: number;
  /**
   * Stops the recording early: aborted after the first snapshot, the demo is finished with what was recorded and
   * returned with `stopped: 'signal'`; before it, the recording rejects with ABORTED (nothing recorded).
   */
  signal?: AbortSignal;
}

export interface RecordedDemo {
  /** The demo file (with a sink: its final header). */
  demo: Uint8Array;
  /** Snapshots and messages written. */
  snapshots: number;
  messages: number;
  /** The tick of the first and last snapshot (-1 when none came). */
  firstTick: number;
  lastTick: number;
  /**
   * Why the recording ended before `duration` ran out (absent when it ran out): `signal` (options.signal
   * aborted), `closed` (the server closed the connection: a kick, a ban, a shutdown) or `timeout` (the server
   * fell silent past the client's time-out). The demo holds what was recorded until then, as DDNet's client keeps
   * its demo when the connection goes (16.4 src/engine/client/client.cpp: Update() calls Disconnect() when the
   * connection is offline, a close or a timeout alike, and DisconnectWithReason stops every demo recorder).
   */
  stopped?: 'signal' | 'closed' | 'timeout';
  /** With `stopped` `closed` or `timeout`: what the connection closed with (CLOSED_BY_SERVER with the server's reason, TIMEOUT). */
  closeError?: NetError;
}

/** `YYYY-MM-DD_HH-MM-SS` (UTC) of a clock's time; a time no Date holds (a caller's clock) gives the epoch's. */
const timestampOf = (ms: number) => new Date(Math.abs(ms) <= 8.64e15 ? ms : 0).toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');

/**
 * Records what `client` receives as a client demo: from the moment it is in the game (at once when it is), for
 * `duration` ms of its clock, every snapshot it rebuilds (CRC right) at its tick and every game message it
 * receives (system messages are the engine's, not the demo's). The header names the server's map (`client.map`:
 * name, CRC, SHA-256; version 6 with a SHA-256, else 5; 0.7 demos version 4), and the demo holds the map file
 * when the client downloaded it (ClientOptions.downloadMap), as a game client's demo does. Resolves with
 * the demo when the time is up; the connection stays open (the caller disconnects). Ended early after the first
 * snapshot, by `options.signal` or by the server (closing the connection or falling silent), it resolves with what
 * was recorded and `stopped` saying why. Rejects with a NetError when the connection closes before the first
 * snapshot (CLOSED_BY_SERVER, TIMEOUT, CONNECT_TIMEOUT, ...), when the signal aborts before it (ABORTED), when the
 * caller disconnects (CLOSED) or the server sends what does not decode (BAD_PEER), when the server named no map
 * before the game started (NO_MAP), when the demo would pass `maxBytes` (DEMO_TOO_BIG), or with the demo writer's
 * error for a snapshot it refuses; nothing is returned then. Listeners are attached at the call, so nothing the
 * client receives after it is missed.
 */
export function recordDemo(client: NetClient, options: RecordDemoOptions): Promise<RecordedDemo> {
  const { clock } = client;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DEMO_SIZE;
  if (!(options.duration >= 0)) return Promise.reject(new NetError('BAD_OPTION', `duration ${options.duration}: milliseconds, 0 or more`, -1, 'duration'));
  const { signal } = options;
  const abortError = () => new NetError('ABORTED', 'the recording was stopped before the first snapshot: nothing recorded', -1, 'connection', { cause: signal?.reason });
  if (signal?.aborted) return Promise.reject(abortError());
  return new Promise<RecordedDemo>((resolve, reject) => {
    let writer: DemoWriter | undefined;
    let stop: unknown;
    let bytes = 0;
    const result: RecordedDemo = { demo: new Uint8Array(0), snapshots: 0, messages: 0, firstTick: -1, lastTick: -1 };
    // The writer's bytes: counted against the cap, then the caller's sink or kept (the first part is the header,
    // which finish() brings up to date in place).
    const parts: Uint8Array[] = [];
    // Teeworlds 0.7.5's client adds demo-only items to every snapshot it records (see capture-demo.ts).
    const state07 = client.protocol === '0.7' ? new DemoState07() : undefined;
    const sink = (chunk: Uint8Array) => {
      bytes += chunk.length;
      if (options.sink) options.sink(chunk);
      else parts.push(chunk);
    };
    // Ends the recording: with `error`, a rejection; else the demo, ended early when `stopped` says why.
    const end = (error?: unknown, stopped?: RecordedDemo['stopped'], closeError?: NetError) => {
      client.off('ingame', begin).off('snapshot', snapshot).off('message', message).off('close', closed);
      signal?.removeEventListener('abort', aborted);
      if (stop !== undefined) clock.clearTimeout(stop);
      if (error !== undefined) return reject(error);
      const header = writer!.finish();
      result.demo = options.sink ? header : concatBytes(parts);
      if (stopped) Object.assign(result, { stopped }, closeError ? { closeError } : {});
      resolve(result);
    };
    // A write that takes the demo past the cap ends the recording: the cap is passed by one chunk at most.
    const write = (what: () => void) => {
      try {
        what();
        if (bytes > maxBytes) throw new NetError('DEMO_TOO_BIG', `the demo passed ${maxBytes} bytes`, -1, 'demo');
        return true;
      } catch (e) {
        end(e);
        return false;
      }
    };
    function begin(): void {
      const map = client.map;
      if (!map) return end(new NetError('NO_MAP', 'the server named no map before the game started', -1, 'map_change'));
      try {
        writer = new DemoWriter(
          {
            version: client.protocol === '0.7' ? 4 : map.sha256 ? 6 : 5,
            netVersion: NET_VERSIONS[client.protocol],
            mapName: map.name,
            mapCrc: (map.crc >>> 0).toString(16).padStart(8, '0'),
            type: 'client',
            timestamp: options.timestamp ?? timestampOf(clock.now()),
            mapSha256: map.sha256,
          },
          map.data,
          { sink },
        );
      } catch (e) {
        return end(e);
      }
      stop = clock.setTimeout(() => end(), options.duration);
    }
    function snapshot(s: ClientSnapshot): void {
      if (!writer) return;
      if (!write(() => writer!.snapshot(s.tick, state07 ? state07.decorate(s.snapshot) : s.snapshot))) return;
      result.snapshots++;
      if (result.firstTick < 0) result.firstTick = s.tick;
      result.lastTick = s.tick;
    }
    function message(m: ClientMessage): void {
      if (m.system) return;
      // A 0.7 client applies these (from before the game too) to the demo-only items instead of recording them.
      if (state07 && NOT_RECORDED_07.has(m.message.kind)) {
        const demoMessage = state07.apply(m.message as Teeworlds07Message);
        if (demoMessage && writer && write(() => writer!.message(encodeNetMessage(TEEWORLDS_0_7_MESSAGES, demoMessage)))) result.messages++;
        return;
      }
      if (state07 && m.message.kind === 'sv_team') state07.apply(m.message as Teeworlds07Message);
      if (!writer) return;
      if (write(() => writer!.message(m.data))) result.messages++;
    }
    function closed(c: ClientClose): void {
      const error = c.error ?? new NetError(c.cause === 'server' ? 'CLOSED_BY_SERVER' : 'CLOSED', `the connection closed while recording: ${c.reason || c.cause}`, -1, 'connection');
      // The server ending the connection after the first snapshot keeps the demo; the caller's disconnect and a
      // server that sends what does not decode (BAD_PEER) end it with the error, as before.
      if (result.snapshots > 0 && (c.cause === 'server' || c.cause === 'timeout')) return end(undefined, c.cause === 'server' ? 'closed' : 'timeout', error);
      end(error);
    }
    function aborted(): void {
      if (result.snapshots > 0) end(undefined, 'signal');
      else end(abortError());
    }
    if (client.state === 'closed') return closed(client.closeReason ?? { cause: 'disconnect', reason: '' });
    client.on('ingame', begin).on('snapshot', snapshot).on('message', message).on('close', closed);
    signal?.addEventListener('abort', aborted, { once: true });
    if (client.state === 'ingame') begin();
  });
}
