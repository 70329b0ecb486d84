// The page: a tree of the decoded structure beside a virtualised hex view. Selecting a node highlights its
// bytes; hovering a byte shows the field under it with its type, value and the schema's description. Demos and
// teehistorian files also get an overview: a timeline, the players, and their positions over time.
import { type EnvelopePlot, type LayoutNode, leafAt, leaves, type QuadShape } from './layout.js';
import type { Preview } from './previews.js';
import { type Overview, TRACK_BREAK } from './streams.js';
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
  state = { bytes, root: reply.root, leaves: leaves(reply.root), selected: undefined, expanded: new Set([reply.root]), parent, rows: [], overview: undefined };
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
  refreshTree();
  treeEl.scrollTop = 0;
  spacer.style.height = `${Math.ceil(bytes.length / ROW_BYTES) * ROW_HEIGHT}px`;
  hexEl.scrollTop = 0;
  renderHex();
  api.ready = true;
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

/** "1 player", "2 players". */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

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
  if (state.overview && node.tick !== undefined) drawTimeline(state.overview);
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
  if (node.preview) pictures.push(...previewElements(node.preview, node.preview.note ?? (node.lazy ? 'One pixel per tile, in the layer colour; the tileset drawing follows.' : undefined)));
  if (node.plot) pictures.push(envelopeSvg(node.plot));
  if (node.quads?.length) pictures.push(...quadsCanvas(node.quads));
  details.replaceChildren(h, dl, desc, ...findings, ...pictures);
  // A tiles layer with an embedded tileset: the worker draws it with its tiles.
  if (offset === undefined && node.lazy?.startsWith('layer:') && state) {
    const current = state;
    void call({ op: 'preview', key: node.lazy }).then((reply) => {
      if (state !== current || state.selected !== node || reply.op !== 'preview' || !reply.preview) return;
      details.replaceChildren(h, dl, desc, ...findings, ...previewElements(reply.preview, reply.preview.note, 'tileset'));
    });
  }
}

function previewElements(preview: Preview, note?: string, kind = 'pixels'): HTMLElement[] {
  if (preview.width <= 0 || preview.height <= 0) return [];
  const canvas = document.createElement('canvas');
  canvas.className = `preview ${kind}`;
  canvas.width = preview.width;
  canvas.height = preview.height;
  // Tiles are one pixel each: scale small layers up so that they can be seen.
  canvas.style.width = `${Math.min(Math.max(360, details.clientWidth - 24), preview.width * Math.max(1, Math.floor(360 / preview.width)))}px`;
  canvas.getContext('2d')?.putImageData(new ImageData(preview.rgba, preview.width, preview.height), 0, 0);
  canvas.title = 'Click to see it at full size';
  canvas.onclick = () => canvas.classList.toggle('zoomed');
  const out: HTMLElement[] = [canvas];
  if (note) {
    const p = document.createElement('div');
    p.className = 'note';
    p.textContent = note;
    out.push(p);
  }
  return out;
}

const QUAD_BACKGROUND = '#2a2e36';
const QUAD_OUTLINE = '#ffb000';
/** Pixels around the quads, so that outlines at the layer's edges show whole. */
const QUAD_MARGIN = 2;

/** A quads layer: every quad as a polygon in its mean corner colour, the layer's extent scaled to the panel. */
function quadsCanvas(quads: QuadShape[]): HTMLElement[] {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const q of quads) for (const [x, y] of q.corners) (x0 = Math.min(x0, x)), (y0 = Math.min(y0, y)), (x1 = Math.max(x1, x)), (y1 = Math.max(y1, y));
  const scale = Math.min(360 / Math.max(1, x1 - x0), 360 / Math.max(1, y1 - y0));
  const canvas = document.createElement('canvas');
  canvas.className = 'preview quads';
  canvas.width = Math.max(1, Math.ceil((x1 - x0) * scale)) + 2 * QUAD_MARGIN;
  canvas.height = Math.max(1, Math.ceil((y1 - y0) * scale)) + 2 * QUAD_MARGIN;
  const ctx = canvas.getContext('2d')!;
  // White quads (the most common colour) would vanish on the page's light background, and transparent ones
  // everywhere: a dark background, and every quad's outline drawn over the fills.
  ctx.fillStyle = QUAD_BACKGROUND;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const path = (q: QuadShape) => {
    ctx.beginPath();
    q.corners.forEach(([x, y], i) => (i ? ctx.lineTo : ctx.moveTo).call(ctx, QUAD_MARGIN + (x - x0) * scale, QUAD_MARGIN + (y - y0) * scale));
    ctx.closePath();
  };
  for (const q of quads) {
    ctx.fillStyle = `rgba(${q.rgba[0]},${q.rgba[1]},${q.rgba[2]},${q.rgba[3] / 255})`;
    path(q);
    ctx.fill();
  }
  ctx.strokeStyle = QUAD_OUTLINE;
  ctx.lineWidth = 1;
  // Half a pixel over, a one-pixel line on whole coordinates covers one row of pixels rather than half of two.
  ctx.translate(0.5, 0.5);
  for (const q of quads) {
    path(q);
    ctx.stroke();
  }
  const note = document.createElement('div');
  note.className = 'note';
  note.textContent = `${count(quads.length, 'quad')} in their mean corner colour (no textures), outlined, on a dark background; x ${Math.round(x0)}..${Math.round(x1)}, y ${Math.round(y0)}..${Math.round(y1)} in world units.`;
  return [canvas, note];
}

const COLORS = ['#d33', '#2a2', '#33d', '#888', '#e80', '#0aa', '#a0a', '#7a4', '#c57', '#47c', '#a73', '#3a8'];
const SVG = 'http://www.w3.org/2000/svg';

const CURVE_STEPS = 16;

/**
 * How far between two envelope points the value is at fraction `a` of the time, by the first point's curve type
 * (checked against DDNet's envelope evaluation, CEnvelopeEvalGame::RenderEvalEnvelope). A bezier curve without
 * tangents falls back to linear there; with them it is drawn as an SVG cubic curve.
 */
function ease(curve: number, a: number): number {
  switch (curve) {
    case 2: // slow
      return a * a * a;
    case 3: // fast
      return 1 - (1 - a) ** 3;
    case 4: // smooth
      return -2 * a * a * a + 3 * a * a;
    default: // linear, bezier without tangents, and unknown curve types
      return a;
  }
}

/** An envelope's channels over time: one line per channel, following each point's curve type. */
function envelopeSvg(plot: EnvelopePlot): SVGSVGElement {
  const width = 360;
  const height = 140;
  const pad = 24;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'envelope');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  const times = plot.points.map((p) => p.time);
  const values = plot.points.flatMap((p) => p.values);
  const t0 = Math.min(0, ...times);
  const t1 = Math.max(t0 + 1, ...times);
  let v0 = Math.min(0, ...values);
  let v1 = Math.max(1, ...values);
  if (v1 - v0 < 1e-9) v1 = v0 + 1;
  const x = (t: number) => pad + ((t - t0) / (t1 - t0)) * (width - 2 * pad);
  const y = (v: number) => height - pad - ((v - v0) / (v1 - v0)) * (height - 2 * pad);
  const text = (tx: number, ty: number, s: string, anchor = 'start') => {
    const el = document.createElementNS(SVG, 'text');
    el.setAttribute('x', String(tx));
    el.setAttribute('y', String(ty));
    el.setAttribute('font-size', '10');
    el.setAttribute('text-anchor', anchor);
    el.textContent = s;
    svg.append(el);
  };
  const axis = document.createElementNS(SVG, 'path');
  axis.setAttribute('d', `M${pad},${pad} V${height - pad} H${width - pad}`);
  axis.setAttribute('stroke', '#999');
  axis.setAttribute('fill', 'none');
  svg.append(axis);
  text(pad, height - 8, `${t0} ms`);
  text(width - pad, height - 8, `${t1} ms`, 'end');
  text(2, y(v1) + 4, String(+v1.toFixed(2)));
  text(2, y(v0), String(+v0.toFixed(2)));
  plot.channels.forEach((name, c) => {
    let d = '';
    plot.points.forEach((p, i) => {
      const px = x(p.time);
      const py = y(p.values[c] ?? 0);
      if (i === 0) {
        d += `M${px},${py}`;
        return;
      }
      const prev = plot.points[i - 1]!;
      if (prev.curve === 0) {
        d += ` H${px} V${py}`;
        return;
      }
      const from = prev.values[c] ?? 0;
      const to = p.values[c] ?? 0;
      const out = prev.out?.[c];
      const into = p.in?.[c];
      if (prev.curve === 5 && out && into) {
        // A cubic bezier from the tangents, its control points' times kept between the two points (as DDNet does).
        const x1 = Math.min(Math.max(prev.time + out[0], prev.time), p.time);
        const x2 = Math.min(Math.max(p.time + into[0], prev.time), p.time);
        d += ` C${x(x1)},${y(from + out[1])} ${x(x2)},${y(to + into[1])} ${px},${py}`;
        return;
      }
      for (let k = 1; k <= CURVE_STEPS; k++) {
        const a = k / CURVE_STEPS;
        d += ` L${x(prev.time + (p.time - prev.time) * a)},${y(from + (to - from) * ease(prev.curve, a))}`;
      }
    });
    const line = document.createElementNS(SVG, 'path');
    line.setAttribute('d', d);
    line.setAttribute('stroke', plot.channels.length === 4 ? ['#d33', '#2a2', '#33d', '#555'][c]! : COLORS[c]!);
    line.setAttribute('fill', 'none');
    line.setAttribute('stroke-width', '1.5');
    line.setAttribute('data-channel', name);
    svg.append(line);
    text(width - pad - 60 + c * 16, 12, name.slice(0, 3));
  });
  for (const p of plot.points) {
    const dot = document.createElementNS(SVG, 'circle');
    dot.setAttribute('cx', String(x(p.time)));
    dot.setAttribute('cy', String(height - pad));
    dot.setAttribute('r', '2');
    dot.setAttribute('fill', '#666');
    svg.append(dot);
  }
  return svg;
}

// ---- the overview: timeline, players, positions ------------------------------------------------------------

const colorOf = (clientId: number) => COLORS[clientId % COLORS.length]!;

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
  drawTimeline(o);
  drawPlot(o);
}

function sizeCanvas(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  canvas.width = Math.max(200, canvas.clientWidth);
  const ctx = canvas.getContext('2d')!;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  return ctx;
}

const tickX = (o: Overview, width: number, tick: number) => 4 + ((tick - o.firstTick) / Math.max(1, o.lastTick - o.firstTick)) * (width - 8);

/** Ticks left to right: keyframes and markers above, chat lines, then one bar per player while present. */
function drawTimeline(o: Overview): void {
  const ctx = sizeCanvas(timelineCanvas);
  const { width, height } = timelineCanvas;
  ctx.fillStyle = '#f6f6f6';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#bbb';
  for (const k of o.keyframes) ctx.fillRect(tickX(o, width, k), 0, 1, 6);
  ctx.fillStyle = '#e80';
  for (const m of o.markers) ctx.fillRect(tickX(o, width, m) - 1, 0, 3, height);
  ctx.fillStyle = '#36c';
  for (const e of o.events) if (e.kind === 'chat') ctx.fillRect(tickX(o, width, e.tick), 8, 1, 8);
  const lanes = Math.max(1, new Set(o.players.map((p) => p.clientId)).size);
  const laneOf = new Map([...new Set(o.players.map((p) => p.clientId))].map((id, i) => [id, i]));
  const laneHeight = Math.max(2, Math.min(10, (height - 20) / lanes));
  for (const p of o.players) {
    ctx.fillStyle = colorOf(p.clientId);
    const x0 = tickX(o, width, p.fromTick);
    ctx.fillRect(x0, 20 + laneOf.get(p.clientId)! * laneHeight, Math.max(1, tickX(o, width, p.toTick) - x0), laneHeight - 1);
  }
  if (state?.selected?.tick !== undefined) {
    ctx.fillStyle = '#000';
    ctx.fillRect(tickX(o, width, state.selected.tick), 0, 1, height);
  }
}

/** x (top half) and y (bottom half) of every client id's character over the ticks. */
function drawPlot(o: Overview): void {
  const ctx = sizeCanvas(plotCanvas);
  const { width, height } = plotCanvas;
  const half = height / 2;
  for (const [axis, top] of [['x', 0], ['y', half]] as const) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const t of o.tracks) for (const v of t[axis]) if (v !== TRACK_BREAK) (lo = Math.min(lo, v)), (hi = Math.max(hi, v));
    if (!Number.isFinite(lo)) continue;
    if (hi === lo) hi = lo + 1;
    ctx.fillStyle = '#888';
    ctx.font = '10px sans-serif';
    ctx.fillText(`${axis} ${hi}`, 4, top + 10);
    ctx.fillText(`${axis} ${lo}`, 4, top + half - 2);
    ctx.strokeStyle = '#eee';
    ctx.strokeRect(0.5, top + 0.5, width - 1, half - 1);
    for (const t of o.tracks) {
      ctx.strokeStyle = colorOf(t.clientId);
      ctx.beginPath();
      let lastTick = -Infinity;
      let lastY: number | undefined;
      // Thinned to about one point per pixel column: a long demo has many more ticks than the canvas has pixels.
      const step = t.hold ? 1 : Math.max(1, Math.floor(t.ticks.length / (width * 2)));
      for (let i = 0; i < t.ticks.length; i += step) {
        const v = t[axis][i]!;
        if (v === TRACK_BREAK) {
          lastY = undefined;
          continue;
        }
        const px = tickX(o, width, t.ticks[i]!);
        const py = top + half - 2 - ((v - lo) / (hi - lo)) * (half - 4);
        if (t.hold) {
          // Teehistorian positions hold until they change.
          if (lastY === undefined) ctx.moveTo(px, py);
          else ctx.lineTo(px, lastY), ctx.lineTo(px, py);
        } else if (t.ticks[i]! - lastTick > 50 * step) ctx.moveTo(px, py); // a gap of a second: dead, spectating, gone
        else ctx.lineTo(px, py);
        lastTick = t.ticks[i]!;
        lastY = py;
      }
      ctx.stroke();
    }
  }
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

const tickAt = (canvas: HTMLCanvasElement, o: Overview, clientX: number) => {
  const rect = canvas.getBoundingClientRect();
  return Math.round(o.firstTick + ((clientX - rect.left - 4) / Math.max(1, rect.width - 8)) * (o.lastTick - o.firstTick));
};
for (const canvas of [timelineCanvas, plotCanvas]) {
  canvas.addEventListener('mousemove', (e) => {
    const o = state?.overview;
    if (o) canvas.title = `tick ${tickAt(canvas, o, e.clientX)} (click to go there)`;
  });
}
timelineCanvas.addEventListener('click', (e) => {
  const o = state?.overview;
  if (!o) return;
  const rect = timelineCanvas.getBoundingClientRect();
  const fraction = (e.clientX - rect.left - 4) / Math.max(1, rect.width - 8);
  goToTick(Math.round(o.firstTick + fraction * (o.lastTick - o.firstTick)));
});
plotCanvas.addEventListener('click', (e) => {
  const o = state?.overview;
  if (!o) return;
  const rect = plotCanvas.getBoundingClientRect();
  goToTick(Math.round(o.firstTick + ((e.clientX - rect.left - 4) / Math.max(1, rect.width - 8)) * (o.lastTick - o.firstTick)));
});
window.addEventListener('resize', () => {
  if (state?.overview) {
    drawTimeline(state.overview);
    drawPlot(state.overview);
  }
  renderTree();
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
  const file = e.dataTransfer?.files[0];
  if (file) void open(file);
});

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
