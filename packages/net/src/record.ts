// A live client's demo: what NetClient receives, written with @twcodec/demo's DemoWriter as a game client
// records it (`twcodec net record`). Facts on what a client records: DDNet 16.4 src/engine/client/client.cpp
// (ProcessServerPacket: each snapshot whose CRC is right at its tick, game messages as their packed bytes; the
// demo header names the map by name, CRC and, from version 6, SHA-256) - the same facts capture-demo.ts follows,
// with its DemoState07 for the demo-only items (de_client_info, ...) a Teeworlds 0.7.5 client adds.
import { DemoWriter } from '@twcodec/demo';
import type { Teeworlds07Message } from '@twcodec/netmsg';
import { concatBytes } from '@twcodec/runtime';
import { DemoState07 } from './capture-demo.js';
import type { ClientClose, ClientMap, ClientMessage, ClientSnapshot } from './client-api.js';
import { NET_VERSIONS, type NetClient } from './client.js';
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
  stopped?: 'signal' | 'closed' | 'timeout' | 'error' | 'map_change';
  /**
   * With `stopped` `closed`, `timeout` or `error`: what the connection closed with (CLOSED_BY_SERVER with the
   * server's reason, TIMEOUT, BAD_PEER, the client's own CLIENT_ERROR; the server was told with a close); with
   * `map_change`, when the connection closed while the next map loaded (its download failed).
   */
  closeError?: NetError;
  /**
   * With `stopped` `map_change`: the map the server changed to. DDNet 16.4's client stops every demo recorder
   * when it has loaded the next map (src/engine/client/client.cpp, LoadMap: "stop demo recording if we loaded a
   * new map"), keeping the file: the demo holds the game on the old map, up to the change.
   */
  nextMap?: ClientMap;
  /** The map name in the header, when the server's was longer than the header holds (see MAP_NAME_BYTES). */
  truncatedMapName?: string;
}

/** The demo header's map name field: 64 bytes with the NUL (DDNet 16.4 src/engine/shared/demo.h CDemoHeader::m_aMapName). */
export const MAP_NAME_BYTES = 64;

/**
 * The map name as DDNet 16.4's demo recorder puts it in the header (src/engine/shared/demo.cpp, Start:
 * str_copy into the 64-byte field; base/system.cpp str_copy keeps 63 bytes and drops a UTF-8 sequence cut short
 * at the end): a longer name is cut, not refused.
 */
export function headerMapName(name: string): string {
  const bytes = new TextEncoder().encode(name);
  if (bytes.length < MAP_NAME_BYTES) return name;
  let end = MAP_NAME_BYTES - 1;
  // The last sequence kept: from its lead byte (continuation bytes are 10xxxxxx) it needs `length` bytes.
  let lead = end - 1;
  while (lead > 0 && (bytes[lead]! & 0xc0) === 0x80) lead--;
  const first = bytes[lead]!;
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  if (lead + length > end) end = lead;
  return new TextDecoder().decode(bytes.subarray(0, end));
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
 * snapshot, by `options.signal`, by the server changing map (as DDNet's client stops its recording then), or by
 * the connection ending other than by the caller (the server closing it, falling silent, an error such as BAD_PEER),
 * it resolves with what was recorded and `stopped` saying why. A map name longer than the header holds is cut as
 * DDNet's recorder cuts it (headerMapName). Rejects with a NetError when the connection closes before the first
 * snapshot (CLOSED_BY_SERVER, TIMEOUT, CONNECT_TIMEOUT, ...), when the signal aborts before it (ABORTED), when the
 * caller disconnects (CLOSED), when the server named no map before the game started (NO_MAP), when the demo would
 * pass `maxBytes` (DEMO_TOO_BIG), or with the demo writer's error for a snapshot it refuses; nothing is returned
 * then. Listeners are attached at the call, so nothing the
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
    /** A map_change came while recording: the demo ends once the next map is there (or the connection goes). */
    let changing = false;
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
      client.off('ingame', begin).off('snapshot', snapshot).off('message', message).off('mapchange', changed).off('close', closed);
      signal?.removeEventListener('abort', aborted);
      if (stop !== undefined) clock.clearTimeout(stop);
      if (error !== undefined) return reject(error);
      const header = writer!.finish();
      result.demo = options.sink ? header : concatBytes(parts);
      if (stopped) Object.assign(result, { stopped }, closeError ? { closeError } : {});
      if (stopped === 'map_change') result.nextMap = client.map;
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
      const mapName = headerMapName(map.name);
      if (mapName !== map.name) result.truncatedMapName = mapName;
      try {
        writer = new DemoWriter(
          {
            version: client.protocol === '0.7' ? 4 : map.sha256 ? 6 : 5,
            netVersion: NET_VERSIONS[client.protocol],
            mapName,
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
      if (writer && m.system && m.message.kind === 'map_change') changing = true;
      if (m.system) return;
      // A 0.7 client applies some (from before the game too) to the demo-only items instead of recording them.
      const bytes = state07 ? state07.received(m.message as Teeworlds07Message, () => m.data) : m.data;
      if (bytes && writer && write(() => writer!.message(bytes))) result.messages++;
    }
    function closed(c: ClientClose): void {
      // Before the game began nothing was recorded: say so rather than "while recording" (issue 39).
      const when = writer ? 'while recording' : 'before the game began (nothing was recorded)';
      const error = c.error ?? new NetError(c.cause === 'server' ? 'CLOSED_BY_SERVER' : 'CLOSED', `the connection closed ${when}: ${c.reason || c.cause}`, -1, 'connection');
      // The connection ending after the first snapshot (the server closing it, its silence, an error: what DDNet's
      // client meets as a disconnect, which stops its demo recorders and keeps the files) keeps the demo; the
      // caller's disconnect ends it with the error (the caller chose to end it without its demo).
      if (result.snapshots > 0 && c.cause !== 'disconnect') return end(undefined, changing ? 'map_change' : c.cause === 'server' ? 'closed' : c.cause, error);
      end(error);
    }
    function changed(): void {
      // Before the first snapshot (the change came while entering) the recording waits for the new game.
      if (writer) end(undefined, 'map_change');
    }
    function aborted(): void {
      if (result.snapshots > 0) end(undefined, 'signal');
      else end(abortError());
    }
    if (client.state === 'closed') return closed(client.closeReason ?? { cause: 'disconnect', reason: '' });
    client.on('ingame', begin).on('snapshot', snapshot).on('message', message).on('mapchange', changed).on('close', closed);
    signal?.addEventListener('abort', aborted, { once: true });
    if (client.state === 'ingame') begin();
  });
}
