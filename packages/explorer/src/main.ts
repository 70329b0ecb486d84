// The page: a tree of the decoded structure beside a virtualised hex view. Selecting a node highlights its
// bytes; hovering a byte shows the field under it with its type, value and the schema's description. Demos and
// teehistorian files also get an overview: a timeline, the players, and their positions over time.
import { type LayoutNode, leafAt, leaves } from './layout.js';
import { colorOf, drawPlot, drawTimeline, tickAt } from './overview.js';
import { count, envelopeSvg, previewElements, quadsCanvas } from './pictures.js';
import type { Overview } from './streams.js';
import { Player } from './player.js';
import type { OpenReply, WorkerReply, WorkerRequest } from './worker.js';
import sampleDemo from '../../../fixtures/demos/ctf2_server_Alpha_server_manual.demo?url';
import sampleMap from '../../../fixtures/maps/ctf1.map?url';
import sampleTeehistorian from '../../../fixtures/teehistorian/ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian?url';

const ROW_BYTES = 16;
const ROW_HEIGHT = 16;
const TREE_ROW = 18;
const INDENT = 14;

const treeEl = document.getElementById('tree')!;
const treeSpacer = document.getElementById('tree-spacer')!;
const hexEl = document.getElementById('hex')!;
const spacer = document.getElementById('hex-spacer')!;
const details = document.getElementById('details')!;
const statusEl = document.getElementById('status')!;
const fileInput = document.getElementById('file') as HTMLInputElement;
const overviewEl = document.getElementById('overview')!;
const timelineCanvas = document.getElementById('timeline') as HTMLCanvasElement;
const plotCanvas = document.getElementById('plot') as HTMLCanvasElement;
const playersBody = document.querySelector('#players tbody')!;
const eventsEl = document.getElementById('events')!;
const rangeEl = document.getElementById('timeline-range')!;
const welcomeEl = document.getElementById('welcome')!;

interface State {
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
let state: State | undefined;
/** For tests and the curious: what is loaded and selected. */
const api = {
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
  /** The player's state (tick, what it drew where, fps), when it is open. */
  get player() {
    return player?.state;
  },
  /** Opens (true) or closes the player. */
  showPlayer: (show: boolean) => togglePlayer(show),
  /** Why the player refused a map (or could not read it). */
  playerError: '',
  /** Gives the player a map (as a file dropped beside the recording). */
  useMap: (file: File) => useMap(file),
  /** The tile last clicked in a layer picture. */
  tile: undefined as { title: string; lines: string[] } | undefined,
  overview: undefined as { players: number; tracks: number; events: number; firstTick: number; lastTick: number } | undefined,
};
(window as unknown as { __explorer: typeof api }).__explorer = api;

// ---- the worker --------------------------------------------------------------------------------------------

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, (reply: WorkerReply) => void>();

function startWorker(): Worker {
  worker?.terminate();
  for (const resolve of pending.values()) resolve({ id: 0, op: 'open', reply: { ok: false, message: 'Another file was opened.' } });
  pending.clear();
  const w = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  w.onmessage = (e: MessageEvent<WorkerReply>) => {
    const resolve = pending.get(e.data.id);
    pending.delete(e.data.id);
    resolve?.(e.data);
  };
  w.onerror = (e) => {
    for (const resolve of pending.values()) resolve({ id: 0, op: 'open', reply: { ok: false, message: e.message } });
    pending.clear();
  };
  return (worker = w);
}

type Request = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;
function call(request: Request, transfer: Transferable[] = []): Promise<WorkerReply> {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    worker!.postMessage({ ...request, id }, transfer);
  });
}

// ---- opening a file ----------------------------------------------------------------------------------------

async function open(file: File): Promise<void> {
  player?.stop();
  player = undefined;
  givenMap = undefined;
  void togglePlayer(false);
  playToggle.hidden = true;
  api.ready = false;
  api.overviewReady = false;
  api.overview = undefined;
  statusEl.textContent = `Reading ${file.name}…`;
  statusEl.className = '';
  overviewEl.hidden = true;
  const t0 = performance.now();
  const bytes = new Uint8Array(await file.arrayBuffer());
  startWorker();
  const copy = bytes.slice();
  const answer = await call({ op: 'open', buffer: copy.buffer }, [copy.buffer]);
  const reply: OpenReply = answer.op === 'open' ? answer.reply : { ok: false, message: 'The worker did not answer.' };
  if (!reply.ok) {
    // The previous file's views go: they would be read as this file's.
    state = undefined;
    welcomeEl.hidden = false;
    treeSpacer.replaceChildren();
    treeSpacer.style.height = '0';
    spacer.style.height = '0';
    spacer.replaceChildren();
    details.replaceChildren();
    statusEl.textContent = reply.message;
    statusEl.className = 'error';
    api.error = reply.message;
    api.ready = true;
    api.overviewReady = true;
    return;
  }
  const parent = new WeakMap<LayoutNode, LayoutNode>();
  adopt(parent, reply.root);
  const expanded = new Set([reply.root]);
  // Nodes the worker marks open (a map's groups and layers) start opened.
  for (const stack = [reply.root]; stack.length; ) {
    const n = stack.pop()!;
    if (n.open) expanded.add(n);
    for (const c of n.children ?? []) if (c.open) stack.push(c);
  }
  state = { bytes, root: reply.root, leaves: leaves(reply.root), selected: undefined, expanded, parent, rows: [], overview: undefined };
  api.kind = reply.kind;
  api.error = reply.damaged ?? '';
  api.ms = performance.now() - t0;
  api.workerMs = reply.ms;
  const findings = reply.root.findingCount ?? 0;
  statusEl.textContent = reply.damaged
    ? `${file.name}: ${reply.damaged}; the tree shows what was read before the error`
    : `${file.name}: ${reply.kind}, ${bytes.length} bytes, read in ${Math.round(api.ms)} ms${reply.kind === 'map' ? `, ${count(findings, 'validation finding')}` : ''}`;
  statusEl.className = reply.damaged ? 'error' : '';
  welcomeEl.hidden = true;
  details.replaceChildren();
  // To the top first: the rows drawn are those at the scroll position.
  treeEl.scrollTop = 0;
  refreshTree();
  spacer.style.height = `${Math.ceil(bytes.length / ROW_BYTES) * ROW_HEIGHT}px`;
  hexEl.scrollTop = 0;
  renderHex();
  api.ready = true;
  if (reply.kind === 'demo' || reply.kind === 'teehistorian' || reply.kind === 'capture') playToggle.hidden = false;
  if (reply.kind === 'demo' || reply.kind === 'teehistorian') {
    const current = state;
    const o = await call({ op: 'overview' });
    if (state !== current || o.op !== 'overview') return;
    if (o.overview) {
      state.overview = o.overview;
      api.overviewMs = performance.now() - t0;
      statusEl.textContent += `; overview (${count(o.overview.players.length, 'player')}, ${count(o.overview.tracks.length, 'position track')}) after ${Math.round(api.overviewMs)} ms`;
      showOverview(o.overview);
    } else if (o.error) statusEl.textContent += `; no overview: ${o.error}`;
  }
  api.overviewReady = true;
}

function adopt(parent: WeakMap<LayoutNode, LayoutNode>, node: LayoutNode): void {
  const stack = [node];
  while (stack.length) {
    const n = stack.pop()!;
    for (const c of n.children ?? []) {
      parent.set(c, n);
      stack.push(c);
    }
  }
}

// ---- the tree (virtualised: only the rows in view exist) ---------------------------------------------------

const hasChildren = (node: LayoutNode) => !!node.children?.length || (!!node.lazy && !node.children);

function refreshTree(): void {
  if (!state) return;
  const rows: State['rows'] = [];
  const stack: { node: LayoutNode; depth: number }[] = [{ node: state.root, depth: 0 }];
  while (stack.length) {
    const entry = stack.pop()!;
    rows.push(entry);
    if (!state.expanded.has(entry.node) || !entry.node.children) continue;
    for (let i = entry.node.children.length - 1; i >= 0; i--) stack.push({ node: entry.node.children[i]!, depth: entry.depth + 1 });
  }
  state.rows = rows;
  treeSpacer.style.height = `${rows.length * TREE_ROW}px`;
  renderTree();
}

function renderTree(): void {
  if (!state) return;
  const first = Math.max(0, Math.floor(treeEl.scrollTop / TREE_ROW) - 5);
  const last = Math.min(state.rows.length, first + Math.ceil(treeEl.clientHeight / TREE_ROW) + 10);
  const els: HTMLElement[] = [];
  const wanted: LayoutNode[] = [];
  visibleRows.clear();
  for (let i = first; i < last; i++) {
    const node = state.rows[i]!.node;
    const row = treeRow(node, state.rows[i]!.depth, i);
    visibleRows.set(node, row);
    els.push(row);
    if (node.lazy?.startsWith('msg:') && !summarised.has(node)) wanted.push(node);
  }
  treeSpacer.replaceChildren(...els);
  if (wanted.length) void summarise(wanted);
}

/** Demo messages are decoded for their rows' summaries only when the rows come into view. */
const summarised = new WeakSet<LayoutNode>();
async function summarise(nodes: LayoutNode[]): Promise<void> {
  const current = state;
  for (const n of nodes) summarised.add(n);
  const reply = await call({ op: 'summaries', keys: nodes.map((n) => n.lazy!) });
  if (state !== current || reply.op !== 'summaries') return;
  reply.values.forEach((v, i) => {
    if (v === undefined) return;
    nodes[i]!.value = v;
    // In place: the rows stay the same elements (a click on one of them is not lost).
    const value = visibleRows.get(nodes[i]!)?.querySelector('.value');
    if (value) value.textContent = v;
  });
}
const visibleRows = new Map<LayoutNode, HTMLElement>();

function treeRow(node: LayoutNode, depth: number, index: number): HTMLElement {
  const row = document.createElement('div');
  row.className = `row${node === state?.selected ? ' selected' : ''}${node.decoded ? ' decoded' : ''}`;
  row.style.top = `${index * TREE_ROW}px`;
  row.style.paddingLeft = `${depth * INDENT}px`;
  row.dataset.start = String(node.start);
  row.dataset.end = String(node.end);
  // The schema's description on hover, without selecting.
  if (node.description) row.title = node.description;
  const toggle = document.createElement('span');
  toggle.className = 'toggle';
  if (hasChildren(node)) toggle.textContent = state!.expanded.has(node) ? '▾' : '▸';
  const label = document.createElement('span');
  label.className = 'label';
  label.textContent = node.label;
  row.append(toggle, label);
  if (node.value !== undefined) {
    const value = document.createElement('span');
    value.className = 'value';
    value.textContent = node.value;
    row.append(value);
  }
  if (node.findingCount) {
    const mark = document.createElement('span');
    mark.className = 'finding-mark';
    mark.title = `${node.findingCount} validation finding(s)`;
    mark.textContent = ` ⚠ ${node.findingCount}`;
    row.append(mark);
  }
  toggle.onclick = (e) => {
    e.stopPropagation();
    void setExpanded(node, !state!.expanded.has(node));
  };
  row.onclick = () => {
    select(node);
    if (!state!.expanded.has(node) && hasChildren(node)) void setExpanded(node, true);
  };
  return row;
}

/** Opens or closes a node; lazy children are asked of the worker the first time. */
async function setExpanded(node: LayoutNode, expand: boolean): Promise<void> {
  if (!state) return;
  const current = state;
  if (expand && node.lazy && !node.children) {
    const reply = await call({ op: 'children', key: node.lazy });
    if (state !== current) return;
    node.children = reply.op === 'children' ? reply.children : [];
    adopt(state.parent, node);
  }
  if (expand) state.expanded.add(node);
  else state.expanded.delete(node);
  refreshTree();
}

/** Expands the path to a node, selects it and scrolls it into view. */
function reveal(node: LayoutNode): void {
  if (!state) return;
  for (let p = state.parent.get(node); p; p = state.parent.get(p)) state.expanded.add(p);
  refreshTree();
  const index = state.rows.findIndex((r) => r.node === node);
  const top = index * TREE_ROW;
  if (index >= 0 && (top < treeEl.scrollTop || top > treeEl.scrollTop + treeEl.clientHeight - TREE_ROW * 2)) {
    treeEl.scrollTop = Math.max(0, top - treeEl.clientHeight / 3);
  }
  select(node);
}

function select(node: LayoutNode): void {
  if (!state) return;
  state.selected = node;
  api.selected = { start: node.start, end: node.end, label: node.label };
  renderTree();
  showDetails(node);
  if (state.overview && node.tick !== undefined) drawTimeline(timelineCanvas, state.overview, node.tick);
  const row = Math.floor(node.start / ROW_BYTES) * ROW_HEIGHT;
  if (row < hexEl.scrollTop || row > hexEl.scrollTop + hexEl.clientHeight - ROW_HEIGHT) hexEl.scrollTop = Math.max(0, row - ROW_HEIGHT * 2);
  renderHex();
}

// ---- details: the field, its description, findings, pictures and plots ------------------------------------

function showDetails(node: LayoutNode, offset?: number): void {
  const h = document.createElement('h3');
  h.textContent = node.label;
  const dl = document.createElement('dl');
  const add = (k: string, v: string | undefined) => {
    if (v === undefined) return;
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.className = k;
    dd.textContent = v;
    dl.append(dt, dd);
  };
  add('bytes', `${node.start}–${node.end - 1} (${node.end - node.start} bytes)${node.decoded ? ': those of the chunk or record it is decoded from' : ''}`);
  if (offset !== undefined) add('offset', String(offset));
  if (node.tick !== undefined) add('tick', String(node.tick));
  add('type', node.type);
  add('value', node.value);
  const desc = document.createElement('div');
  desc.className = 'description';
  desc.textContent = node.description ?? '';
  const findings = (node.findings ?? []).map((f) => {
    const p = document.createElement('div');
    p.className = `finding ${f.severity}`;
    p.textContent = `${f.severity} ${f.code} at ${f.path}: ${f.message}`;
    return p;
  });
  const pictures: Element[] = [];
  // A click on a layer's tile: what it holds and means, under the picture.
  const tileEl = document.createElement('div');
  tileEl.className = 'tile-info';
  const onTile = node.tiles
    ? (x: number, y: number) => {
        const current = state;
        void call({ op: 'tile', key: node.tiles!.key, x, y }).then((reply) => {
          if (state !== current || reply.op !== 'tile') return;
          api.tile = reply.tile;
          tileEl.replaceChildren();
          if (!reply.tile) return;
          const b = document.createElement('strong');
          b.textContent = reply.tile.title;
          tileEl.append(b, ...reply.tile.lines.map((line) => Object.assign(document.createElement('div'), { textContent: line })));
        });
      }
    : undefined;
  if (node.preview) pictures.push(...previewElements(node.preview, details.clientWidth, node.preview.note ?? (node.lazy ? 'The layer in its colour; the tileset drawing follows.' : undefined), 'pixels', node.tiles, onTile));
  if (node.tiles) pictures.push(tileEl);
  if (node.plot) pictures.push(envelopeSvg(node.plot));
  if (node.quads?.length) pictures.push(...quadsCanvas(node.quads));
  details.replaceChildren(h, dl, desc, ...findings, ...pictures);
  // A tiles layer with an embedded tileset: the worker draws it with its tiles.
  if (offset === undefined && node.lazy?.startsWith('layer:') && state) {
    const current = state;
    void call({ op: 'preview', key: node.lazy }).then((reply) => {
      if (state !== current || state.selected !== node || reply.op !== 'preview' || !reply.preview) return;
      details.replaceChildren(h, dl, desc, ...findings, ...previewElements(reply.preview, details.clientWidth, reply.preview.note, 'tileset', node.tiles, onTile), ...(node.tiles ? [tileEl] : []));
    });
  }
}

// ---- the overview: timeline, players, positions ------------------------------------------------------------

function showOverview(o: Overview): void {
  overviewEl.hidden = false;
  api.overview = { players: o.players.length, tracks: o.tracks.length, events: o.events.length, firstTick: o.firstTick, lastTick: o.lastTick };
  rangeEl.textContent = `ticks ${o.firstTick}–${o.lastTick} (${((o.lastTick - o.firstTick) / 50).toFixed(1)} s at 50 ticks/s)`;
  playersBody.replaceChildren(
    ...o.players.map((p) => {
      const tr = document.createElement('tr');
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = colorOf(p.clientId);
      const cells = [swatch, String(p.clientId), p.name || '(no name)', p.clan ?? '', `${p.fromTick}–${p.toTick}`];
      for (const c of cells) {
        const td = document.createElement('td');
        if (typeof c === 'string') td.textContent = c;
        else td.append(c);
        tr.append(td);
      }
      tr.onclick = () => goToTick(p.fromTick);
      return tr;
    }),
  );
  // At most a few hundred lines: the timeline shows where the rest are.
  const shown = o.events.slice(0, 400);
  eventsEl.replaceChildren(
    ...shown.map((e) => {
      const div = document.createElement('div');
      div.className = e.kind;
      const tick = document.createElement('span');
      tick.className = 'tick';
      tick.textContent = String(e.tick);
      div.append(tick, e.text);
      div.onclick = () => goToTick(e.tick);
      return div;
    }),
  );
  if (o.events.length > shown.length) eventsEl.append(`… and ${o.events.length - shown.length} more`);
  drawTimeline(timelineCanvas, o, state?.selected?.tick);
  drawPlot(plotCanvas, o);
}

/** Selects the tree node of a tick (a demo tick, or the first teehistorian message at or after it). */
function goToTick(tick: number): void {
  if (!state) return;
  const list = state.root.children?.find((c) => c.label === 'chunks' || c.label === 'messages')?.children ?? [];
  let lo = 0;
  let hi = list.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid]!.tick ?? -Infinity) < tick) lo = mid + 1;
    else hi = mid;
  }
  const node = list[lo];
  if (node) {
    reveal(node);
    if (hasChildren(node)) void setExpanded(node, true);
  }
}

for (const canvas of [timelineCanvas, plotCanvas]) {
  canvas.addEventListener('mousemove', (e) => {
    const o = state?.overview;
    if (o) canvas.title = `tick ${tickAt(canvas, o, e.clientX)} (click to go there)`;
  });
  canvas.addEventListener('click', (e) => {
    const o = state?.overview;
    if (o) goToTick(tickAt(canvas, o, e.clientX));
  });
}
window.addEventListener('resize', () => {
  if (state?.overview) {
    drawTimeline(timelineCanvas, state.overview, state.selected?.tick);
    drawPlot(plotCanvas, state.overview);
  }
  renderTree();
});

// ---- the player: the recording played on its map ----------------------------------------------------------

const playToggle = document.getElementById('play-toggle') as HTMLButtonElement;
const playerEl = document.getElementById('player')!;
const viewCanvas = document.getElementById('view') as HTMLCanvasElement;
const pPlay = document.getElementById('p-play') as HTMLButtonElement;
const pTime = document.getElementById('p-time') as HTMLInputElement;
const pTick = document.getElementById('p-tick')!;
const pSpeed = document.getElementById('p-speed') as HTMLSelectElement;
const pFollow = document.getElementById('p-follow') as HTMLSelectElement;
const pEntities = document.getElementById('p-entities') as HTMLInputElement;
const pFps = document.getElementById('p-fps')!;
const pNote = document.getElementById('p-note')!;
let player: Player | undefined;
/** The map the user gave for the open recording (kept for another client of the same capture). */
let givenMap: ArrayBuffer | undefined;
const pClient = document.getElementById('p-client') as HTMLSelectElement;
pClient.onchange = () => void preparePlayer(undefined, pClient.value);

function showControls(p: Player): void {
  pPlay.textContent = p.state.playing ? '❚❚' : '▶';
  pTime.value = String(Math.round(p.state.tick));
  pTick.textContent = `tick ${Math.floor(p.state.tick)} / ${p.lastTick}`;
  pFps.textContent = p.state.playing && p.state.fps ? `${p.state.fps.toFixed(0)} fps` : '';
  if (pFollow.value !== p.state.follow && Array.from(pFollow.options).some((o) => o.value === p.state.follow)) pFollow.value = p.state.follow;
}

/** Opens the player (asking the worker for the frames and the map the first time), or goes back to the bytes. */
async function togglePlayer(show = playerEl.hidden): Promise<void> {
  if (!show) {
    player?.pause();
    playerEl.hidden = true;
    document.body.classList.remove('playing');
    playToggle.textContent = '▶ Play on the map';
    return;
  }
  if (!player && !(await preparePlayer())) return;
  playerEl.hidden = false;
  document.body.classList.add('playing');
  playToggle.textContent = '☰ Bytes';
  player!.draw();
  showControls(player!);
  viewCanvas.focus();
}

/**
 * Asks the worker for the frames and the map (`map`: one the user gave, for a teehistorian file or instead of a
 * demo's own) and makes the player. False when there is nothing to play.
 */
async function preparePlayer(map?: ArrayBuffer, who?: string): Promise<boolean> {
  const current = state;
  playToggle.disabled = true;
  const before = statusEl.textContent;
  statusEl.textContent = 'Preparing the recording and its map…';
  if (map) givenMap = map.slice(0);
  const reply = await call({ op: 'playback', ...(map ? { map } : givenMap ? { map: givenMap.slice(0) } : {}), ...(who ? { player: who } : {}), ...(givenImages.length ? { images: givenImages } : {}) }, map ? [map] : []);
  playToggle.disabled = false;
  statusEl.textContent = before;
  if (state !== current || reply.op !== 'playback') return false;
  if (!reply.playback && !reply.needsMap) {
    statusEl.textContent = reply.error ?? 'Nothing to play.';
    return false;
  }
  // A capture whose map must be given first: an empty recording until it is.
  if (!reply.playback) reply.playback = { source: 'capture', frames: [{ tick: 0, tees: [], projectiles: [], lasers: [], pickups: [], flags: [], roster: 0, local: -1 }], rosters: [[]], chat: [], kills: [], note: '' };
  // Captures: whose received snapshots are played.
  pClient.hidden = !reply.players?.length;
  pClient.parentElement!.hidden = pClient.hidden;
  if (reply.players?.length) {
    pClient.replaceChildren(...reply.players.map((n) => new Option(n, n)));
    if (reply.player) pClient.value = reply.player;
  }
  const keep = player && { tick: player.state.tick, follow: player.state.follow, zoom: player.state.zoom };
  player?.stop();
  player = new Player(viewCanvas, reply.playback, reply.scene, showControls);
  await player.load();
  if (keep) Object.assign(player.state, keep);
  api.playbackMs = reply.ms;
  api.playerError = reply.error ?? '';
  pTime.min = String(player.firstTick);
  pTime.max = String(player.lastTick);
  // Follow: the recorder's view, each player by name, or a free camera.
  const names = new Map<number, string>();
  for (const roster of reply.playback.rosters) for (const p of roster) if (!names.has(p.id)) names.set(p.id, p.name);
  pFollow.replaceChildren(
    new Option(reply.playback.source === 'teehistorian' ? 'the first player' : "the recorder's view", 'recorder'),
    ...[...names].sort((a, b) => a[0] - b[0]).map(([id, name]) => new Option(`${name} (#${id})`, String(id))),
    new Option('free camera (drag)', 'free'),
  );
  const text = [reply.playback.note, ...(reply.scene?.notes ?? []), 'Tees are drawn as plain bodies in their colours; positions are interpolated between recorded ticks.'].join(' ');
  pNote.replaceChildren(text);
  if (reply.error) pNote.prepend(Object.assign(document.createElement('div'), { className: 'error', textContent: reply.error }));
  if (reply.needsMap) {
    // The map is not in the file: the user gives it (checked against the header's SHA-256 by the worker).
    const label = document.createElement('label');
    label.className = 'need-map';
    label.textContent = `Drop the map "${reply.needsMap.name}" here or choose it${reply.needsMap.sha256 ? ` (SHA-256 ${reply.needsMap.sha256})` : ''}: `;
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'p-map';
    input.accept = '.map';
    input.onchange = () => {
      const file = input.files?.[0];
      if (file) void useMap(file);
    };
    label.append(input);
    pNote.prepend(label);
  } else if (!reply.scene) pNote.prepend('No map to draw on. ');
  if (reply.scene?.missing?.length) {
    // External images are the client's own: the user can give them (DDNet's data/mapres/*.png) to draw them.
    const label = document.createElement('label');
    label.className = 'need-map';
    label.textContent = `To draw ${reply.scene.missing.map((n) => `${n}.png`).join(', ')}, drop them here or choose them (from your DDNet's data/mapres): `;
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'p-images';
    input.multiple = true;
    input.accept = '.png';
    input.onchange = () => void useImages(Array.from(input.files ?? []));
    label.append(input);
    pNote.prepend(label);
  }
  player.draw();
  return true;
}

/** Images the user gave for the map's external images (the client's mapres), sent with every playback request. */
const givenImages: { name: string; width: number; height: number; rgba: Uint8ClampedArray<ArrayBuffer> }[] = [];

/** PNG files given for external images: decoded here (the browser's decoder), then the player is prepared again. */
async function useImages(files: File[]): Promise<void> {
  for (const file of files) {
    try {
      const bitmap = await createImageBitmap(file, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const c = canvas.getContext('2d')!;
      c.drawImage(bitmap, 0, 0);
      const { data } = c.getImageData(0, 0, bitmap.width, bitmap.height);
      const name = file.name.replace(/\.png$/i, '');
      const at = givenImages.findIndex((g) => g.name === name);
      if (at >= 0) givenImages.splice(at, 1);
      givenImages.push({ name, width: bitmap.width, height: bitmap.height, rgba: data });
    } catch {
      // Not an image the browser decodes: left out (the note still names what is missing).
    }
  }
  if (await preparePlayer()) {
    player!.draw();
    showControls(player!);
  }
}

/** A map the user gave for the recording in the player. */
async function useMap(file: File): Promise<void> {
  if (await preparePlayer(await file.arrayBuffer())) {
    player!.draw();
    showControls(player!);
  }
}

playToggle.onclick = () => void togglePlayer();
pPlay.onclick = () => {
  if (!player) return;
  if (player.state.playing) player.pause();
  else player.play();
  showControls(player);
};
(document.getElementById('p-back') as HTMLButtonElement).onclick = () => player && (player.step(-1), showControls(player));
(document.getElementById('p-fwd') as HTMLButtonElement).onclick = () => player && (player.step(1), showControls(player));
(document.getElementById('p-zoom-in') as HTMLButtonElement).onclick = () => player?.zoomBy(1.25);
(document.getElementById('p-zoom-out') as HTMLButtonElement).onclick = () => player?.zoomBy(0.8);
pTime.oninput = () => player && (player.seek(Number(pTime.value)), showControls(player));
pSpeed.onchange = () => player && (player.state.speed = Number(pSpeed.value));
pFollow.onchange = () => player && ((player.state.follow = pFollow.value), player.draw());
const pFront = document.getElementById('p-front') as HTMLInputElement;
pFront.onchange = () => player && ((player.front = pFront.checked), player.draw());
pEntities.onchange = () => player && ((player.entities = pEntities.checked), player.draw());
viewCanvas.addEventListener('wheel', (e) => {
  e.preventDefault();
  player?.zoomBy(Math.exp(-e.deltaY * 0.0015));
});
viewCanvas.addEventListener('pointerdown', (e) => {
  if (!player) return;
  viewCanvas.setPointerCapture(e.pointerId);
  viewCanvas.classList.add('dragging');
  let [lx, ly] = [e.clientX, e.clientY];
  const move = (m: PointerEvent) => {
    player?.pan((m.clientX - lx) * devicePixelRatio, (m.clientY - ly) * devicePixelRatio);
    [lx, ly] = [m.clientX, m.clientY];
    if (player) showControls(player);
  };
  const up = () => {
    viewCanvas.classList.remove('dragging');
    viewCanvas.removeEventListener('pointermove', move);
    viewCanvas.removeEventListener('pointerup', up);
  };
  viewCanvas.addEventListener('pointermove', move);
  viewCanvas.addEventListener('pointerup', up);
});
viewCanvas.addEventListener('keydown', (e) => {
  if (!player) return;
  if (e.key === ' ') pPlay.click();
  else if (e.key === 'ArrowLeft') player.step(-1);
  else if (e.key === 'ArrowRight') player.step(1);
  else if (e.key === '+' || e.key === '=') player.zoomBy(1.25);
  else if (e.key === '-') player.zoomBy(0.8);
  else return;
  e.preventDefault();
  showControls(player);
});

// ---- the tree column's width: drag the splitter beside it ---------------------------------------------------

const splitter = document.getElementById('splitter')!;
splitter.addEventListener('pointerdown', (e) => {
  splitter.setPointerCapture(e.pointerId);
  document.body.classList.add('resizing');
  const left = treeEl.getBoundingClientRect().left;
  const move = (m: PointerEvent) => {
    const width = Math.max(160, Math.min(window.innerWidth - 400, m.clientX - left));
    document.documentElement.style.setProperty('--tree-width', `${width}px`);
    renderTree();
  };
  const up = () => {
    document.body.classList.remove('resizing');
    splitter.removeEventListener('pointermove', move);
    splitter.removeEventListener('pointerup', up);
  };
  splitter.addEventListener('pointermove', move);
  splitter.addEventListener('pointerup', up);
});

// ---- the hex view (virtualised) ----------------------------------------------------------------------------

function renderHex(): void {
  if (!state) return;
  const { bytes, selected } = state;
  const first = Math.floor(hexEl.scrollTop / ROW_HEIGHT);
  const count = Math.ceil(hexEl.clientHeight / ROW_HEIGHT) + 1;
  const rows: HTMLElement[] = [];
  for (let r = first; r < first + count && r * ROW_BYTES < bytes.length; r++) {
    const row = document.createElement('div');
    row.className = 'hexrow';
    row.style.top = `${r * ROW_HEIGHT}px`;
    const addr = document.createElement('span');
    addr.className = 'addr';
    addr.textContent = (r * ROW_BYTES).toString(16).padStart(8, '0');
    row.append(addr);
    // The bytes in hex, then as text (printable ASCII, '.' for the rest), both highlighted with the selection.
    const text = document.createElement('span');
    text.className = 'text';
    const end = Math.min(bytes.length, (r + 1) * ROW_BYTES);
    for (let i = r * ROW_BYTES; i < end; i++) {
      const sel = selected && i >= selected.start && i < selected.end ? ' sel' : '';
      const b = document.createElement('span');
      b.className = `byte${sel}`;
      b.dataset.offset = String(i);
      b.textContent = bytes[i]!.toString(16).padStart(2, '0');
      row.append(b);
      const c = document.createElement('span');
      c.className = `char${sel}`;
      c.dataset.offset = String(i);
      c.textContent = bytes[i]! >= 0x20 && bytes[i]! < 0x7f ? String.fromCharCode(bytes[i]!) : '.';
      text.append(c);
    }
    // A short last row keeps the text column where the others have it.
    if (end - r * ROW_BYTES < ROW_BYTES) text.style.marginLeft = `calc(12px + ${ROW_BYTES - (end - r * ROW_BYTES)} * (2ch + 4px))`;
    row.append(text);
    rows.push(row);
  }
  spacer.replaceChildren(...rows);
}

treeEl.addEventListener('scroll', () => requestAnimationFrame(renderTree));
// Keyboard: up/down move the selection, right opens (or goes to the first child), left closes (or goes to the parent).
treeEl.tabIndex = 0;
treeEl.addEventListener('keydown', (e) => {
  if (!state?.selected) return;
  const node = state.selected;
  const index = state.rows.findIndex((r) => r.node === node);
  let next: LayoutNode | undefined;
  if (e.key === 'ArrowDown') next = state.rows[index + 1]?.node;
  else if (e.key === 'ArrowUp') next = state.rows[index - 1]?.node;
  else if (e.key === 'ArrowRight') {
    if (hasChildren(node) && !state.expanded.has(node)) void setExpanded(node, true);
    else next = node.children?.[0];
  } else if (e.key === 'ArrowLeft') {
    if (state.expanded.has(node) && hasChildren(node)) void setExpanded(node, false);
    else next = state.parent.get(node);
  } else return;
  e.preventDefault();
  if (next) reveal(next);
});
hexEl.addEventListener('scroll', () => requestAnimationFrame(renderHex));
hexEl.addEventListener('mouseover', (e) => {
  const offset = (e.target as HTMLElement).dataset?.offset;
  if (!state || offset === undefined) return;
  const leaf = leafAt(state.leaves, Number(offset));
  if (leaf) showDetails(leaf, Number(offset));
});
fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  // Cleared so that choosing the same file again opens it again.
  fileInput.value = '';
  if (file) void open(file);
});
document.addEventListener('dragover', (e) => {
  e.preventDefault();
  document.body.classList.add('dragging');
});
document.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
document.addEventListener('drop', (e) => {
  e.preventDefault();
  document.body.classList.remove('dragging');
  const files = Array.from(e.dataTransfer?.files ?? []);
  void dropped(files);
});

/**
 * Dropped files: a map dropped beside an open teehistorian file (or with it) is its map for the player; anything
 * else is opened.
 */
async function dropped(files: File[]): Promise<void> {
  const pngs = files.filter((f) => /\.png$/i.test(f.name));
  if (pngs.length && player) {
    await useImages(pngs);
    files = files.filter((f) => !pngs.includes(f));
    if (!files.length) return;
  }
  const isMap = async (f: File) => /^(DATA|ATAD)/.test(String.fromCharCode(...new Uint8Array(await f.slice(0, 4).arrayBuffer())));
  const maps: File[] = [];
  const others: File[] = [];
  const needsMap = api.kind === 'teehistorian' || api.kind === 'capture';
  for (const f of files) ((files.length > 1 || needsMap) && (await isMap(f)) ? maps : others).push(f);
  if (others.length) await open(others[0]!);
  if (maps[0] && (api.kind === 'teehistorian' || api.kind === 'capture')) {
    await togglePlayer(true);
    await useMap(maps[0]);
  }
}

// The start page offers a sample of each kind (the repository's fixtures, bundled with the page).
const SAMPLES: Record<string, { url: string; name: string }> = {
  map: { url: sampleMap, name: 'ctf1.map' },
  demo: { url: sampleDemo, name: 'ctf2_server_Alpha_server_manual.demo' },
  teehistorian: { url: sampleTeehistorian, name: 'ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian' },
};
for (const button of Array.from(welcomeEl.querySelectorAll<HTMLButtonElement>('button[data-sample]'))) {
  button.onclick = async () => {
    const sample = SAMPLES[button.dataset.sample!]!;
    statusEl.textContent = `Loading the sample ${sample.name}…`;
    const response = await fetch(sample.url);
    void open(new File([await response.arrayBuffer()], sample.name));
  };
}

// Works offline once loaded: a service worker keeps the page's files (not on file: URLs, where none can run).
if ('serviceWorker' in navigator && location.protocol.startsWith('http')) {
  void navigator.serviceWorker.register('./sw.js').catch(() => undefined);
}
