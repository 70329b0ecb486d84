// What a NetClient's user gives and gets: its options, the clock it runs on, the events' values, and its
// limits against a hostile server (the connection itself is client.ts).
import type { AnyNetMessage, UnknownNetMessage } from '@twcodec/netmsg';
import type { Ddnet06Objects, Snapshot } from '@twcodec/snapshot';
import type { NetError } from './errors.js';
import type { NetProtocolName } from './packet.js';

/** Hostile-server caps: unacknowledged vital chunks kept, datagrams that do not decode, snapshots that do not rebuild. */
export const CLIENT_LIMITS = { maxUnacked: 256, maxBadPackets: 64, maxBadSnapshots: 64, maxChunkBytes: 1024 } as const;

/**
 * The time and timers a client runs on: the system's by default (Date.now, setInterval, setTimeout). A clock
 * the caller advances (tests, the fuzzer, a replay of a capture) makes every wait a matter of that clock: the
 * client then never looks at the real time.
 */
export interface NetClock {
  /** Milliseconds. */
  now(): number;
  /** Calls `callback` every `ms` milliseconds until cleared; returns the handle to clear it with. */
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  /** Calls `callback` once after `ms` milliseconds unless cleared. */
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The system clock; the globals are looked up on each call, so that test frameworks' fake timers apply. */
export const SYSTEM_CLOCK: NetClock = {
  now: () => Date.now(),
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface ClientOptions {
  protocol?: NetProtocolName;
  /** The player's name (at most 15 bytes are shown by the game). */
  name: string;
  clan?: string;
  /** ISO 3166-1 numeric country code, -1 for none. */
  country?: number;
  password?: string;
  /** Milliseconds from start until in game (default 10000). */
  connectTimeout?: number;
  /** Milliseconds without a packet from the server, or with a vital chunk unacknowledged, before giving up (default 10000). */
  timeout?: number;
  /** The clock the client's waits run on (default SYSTEM_CLOCK). */
  clock?: NetClock;
  /**
   * 0.7: the client's own token, which the server puts in every packet header (default: random, as the game's
   * client picks it). A fixed one lets recorded server datagrams be replayed into the client.
   */
  token?: number;
  /**
   * Download the map over UDP when the server names it (as a game client without the map does), and enter the
   * game only once it arrived whole with the announced CRC and SHA-256 (`client.map.data`). Default false: the
   * server lets a client in that says it is ready without the map.
   */
  downloadMap?: boolean;
  /** The biggest map downloaded (default DEFAULT_MAX_MAP_SIZE, 64 MiB); a bigger one closes with MAP_TOO_BIG. */
  maxMapSize?: number;
  /**
   * 0.6: the DDNet version the client says it speaks, before its info (clientver@ddnet.tw), as DDNet's client
   * does (default DDNET_CLIENT_VERSION, DDNet 16.4's protocol). A DDNet server shows a client without one (0: a
   * vanilla 0.6 client) at most 16 players, their ids mapped, and gives the chat of the others to a stand-in.
   */
  ddnetVersion?: number;
}

/** A message the server sent (each vital one once, in order). */
export interface ClientMessage {
  message: AnyNetMessage | UnknownNetMessage;
  /** System (engine) message or game message. */
  system: boolean;
  /** The message's bytes as sent (id and fields): what a demo records. */
  data: Uint8Array;
}

/** A snapshot rebuilt from the server's delta, its CRC right. */
export interface ClientSnapshot {
  tick: number;
  snapshot: Snapshot;
}

/** Why the connection ended. */
export interface ClientClose {
  /** `disconnect` (the caller), `server` (the server closed it), `timeout`, or `error`. */
  cause: 'disconnect' | 'server' | 'timeout' | 'error';
  /** The server's or the caller's reason text, or the error message. */
  reason: string;
  error?: NetError;
}

/** The map the server named in map_change (with the SHA-256 of DDNet's map_details before it): what a demo header carries. */
export interface ClientMap {
  name: string;
  crc: number;
  size: number;
  /** SHA-256 as 64 hex digits (DDNet's map_details, 0.7's map_change). */
  sha256?: string;
  /** The map file, downloaded and checked (ClientOptions.downloadMap). */
  data?: Uint8Array;
}

/**
 * The player's input: the fields of the snapshot schema's player_input object (CNetObj_PlayerInput), which the
 * input message carries as its data; unset fields are 0, target (1, 0) and player flags 1 (playing).
 */
export type PlayerInput = { -readonly [Field in keyof Ddnet06Objects['player_input']]?: number };

/** Where the client is: getting a token (0.7), connecting, loading the map, entering the game, in game, closed. */
export type ClientState = 'token' | 'connecting' | 'loading' | 'entering' | 'ingame' | 'closed';
