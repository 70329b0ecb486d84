// What the explorer's stream views (demo-view.ts, teehistorian-view.ts; capture.ts for captures) hand the worker
// and the page: the session a decoded file keeps, the overview drawn above the tree (a timeline, the players and
// their positions over time), what the player gets, and the schema descriptions they show. What lives inside
// compressed chunks (snapshot items, net messages) is built when a node is expanded (`lazy`), so that a large file
// opens quickly; those nodes carry `decoded` and the byte range of their chunk.
import type { LayoutNode } from './layout.js';
import type { Playback } from './playback.js';

/** Schema descriptions the page needs for decoded insides (built from the YAML by vite.config.mjs). */
export interface StreamDocs {
  /** protocol -> snapshot object name -> its description and its fields' descriptions. */
  snapshot: Record<string, Record<string, { description: string; fields: Record<string, string> }>>;
  /** teehistorian message (or extension) name -> field name -> description. */
  teehistorianFields: Record<string, Record<string, string>>;
  /** packet protocol (ddnet-0.6, teeworlds-0.7) -> what schemas/net says of its parts. */
  packet: Record<string, PacketDocs>;
}

/** Descriptions of a packet protocol's parts, by schema name (what capture.ts shows beside each byte range). */
export interface PacketDocs {
  description: string;
  header: Record<string, string>;
  packetFlags: Record<string, string>;
  chunkHeader: Record<string, string>;
  chunkFlags: Record<string, string>;
  securityToken?: string;
  control: Record<string, { description: string; fields: Record<string, string> }>;
  connlessDescription: string;
  connlessHeaders: Record<string, { description: string; fields: Record<string, string> }>;
  connless: Record<string, { description: string; fields: Record<string, string> }>;
}

/** One player's presence: a client id and what it was called, from one tick to another. */
export interface OverviewPlayer {
  clientId: number;
  name: string;
  clan?: string;
  skin?: string;
  fromTick: number;
  toTick: number;
}

/** x of a track point that is not a position but a break (the character disappeared). */
export const TRACK_BREAK = -2147483648;

/** A client id's positions: parallel arrays of tick, x and y (world units, 32 per tile). */
export interface Track {
  clientId: number;
  /**
   * Positions hold until the next point (teehistorian records only changes; breaks are marked by TRACK_BREAK);
   * otherwise a point per recorded snapshot, and a gap in the ticks is a gap in the line.
   */
  hold?: boolean;
  ticks: Int32Array<ArrayBuffer>;
  x: Int32Array<ArrayBuffer>;
  y: Int32Array<ArrayBuffer>;
}

/** What the page draws above the tree for a demo or teehistorian file. */
export interface Overview {
  firstTick: number;
  lastTick: number;
  /** Demo keyframes (full snapshots). */
  keyframes: number[];
  /** Demo timeline markers (ticks). */
  markers: number[];
  /** Chat lines, joins and leaves. */
  /**
   * `unknownSender`: a chat line from a client id no player held at its tick (DDNet's client drops such lines:
   * the player shows it, the game would not).
   */
  events: { tick: number; kind: 'chat' | 'join' | 'leave'; text: string; unknownSender?: true }[];
  players: OverviewPlayer[];
  tracks: Track[];
  /** How long computing it took in the worker (ms). */
  ms: number;
}

/** A decoded file the worker keeps so that the page can ask for the insides of chunks and records. */
export interface StreamSession {
  root: LayoutNode;
  /** Why reading stopped before the end (a damaged or cut-short file): the tree holds what was read before. */
  damaged?: string;
  children(key: string): LayoutNode[];
  /** A one-line summary of a lazy node (a demo message's fields), for the tree rows in view; undefined: keep. */
  summary(key: string): string | undefined;
  overview(): Overview;
  /**
   * What the player draws at each recorded tick, and the map bytes it is drawn on (a demo's embedded map), or
   * the map it needs (a teehistorian file's header names it and its SHA-256).
   */
  playback?(options?: PlaybackOptions): PlaybackMade;
}

/** For a capture: whose received snapshots to play, and the map when the capture holds no download of it. */
export interface PlaybackOptions {
  player?: string;
  map?: Uint8Array;
}

export interface PlaybackMade {
  /** Undefined when nothing can be played without a map (`needsMap`, `error`). */
  playback?: Playback;
  map?: Uint8Array;
  /** The map the recording names (teehistorian: with its SHA-256, which the worker checks a given map against). */
  needsMap?: { name: string; sha256?: string };
  /** Captures: the players whose clients' snapshots can be played, and the one played. */
  players?: string[];
  player?: string;
  error?: string;
}

