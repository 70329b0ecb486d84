// What the page's views share: the open file's decoded state (one at a time; a view that awaited the worker
// checks that it is still the same file), the page's api for tests and the curious (window.__explorer, set up in
// main.ts), and the elements more than one view writes to. A module of its own so that the views (tree-view.ts,
// hex-view.ts, details-view.ts, overview-panel.ts, player-panel.ts) import it instead of each other.
import type { LayoutNode } from './layout.js';
import type { Overview } from './streams.js';

export interface State {
  bytes: Uint8Array;
  root: LayoutNode;
  leaves: LayoutNode[];
  selected: LayoutNode | undefined;
  expanded: Set<LayoutNode>;
  parent: WeakMap<LayoutNode, LayoutNode>;
  /** The visible rows of the tree (the expanded part), in order. */
  rows: { node: LayoutNode; depth: number }[];
  overview: Overview | undefined;
}

/** The open file, once it decoded. */
export const page: { state: State | undefined } = { state: undefined };

/** For tests and the curious: what is loaded and selected (main.ts adds the player's state and actions). */
export const api = {
  ready: false,
  kind: '',
  ms: 0,
  overviewMs: 0,
  /** Of `ms`, the time the worker took to decode the file. */
  workerMs: 0,
  overviewReady: false,
  error: '',
  selected: undefined as { start: number; end: number; label: string } | undefined,
  /** How long the worker took to prepare the player's frames and map (ms). */
  playbackMs: 0,
  /** Why the player refused a map (or could not read it). */
  playerError: '',
  /** The tile last clicked in a layer picture. */
  tile: undefined as { title: string; lines: string[] } | undefined,
  overview: undefined as { players: number; tracks: number; events: number; firstTick: number; lastTick: number } | undefined,
};

/** The status line above the views. */
export const statusEl = document.getElementById('status')!;
/** The overview's timeline: the tree marks the selected node's tick on it. */
export const timelineCanvas = document.getElementById('timeline') as HTMLCanvasElement;
