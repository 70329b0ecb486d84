// The page: a tree of the decoded structure beside a virtualised hex view. Selecting a node highlights its
// bytes; hovering a byte shows the field under it with its type, value and the schema's description.
import { type LayoutNode, leafAt, leaves } from './layout.js';
import type { WorkerReply } from './worker.js';

const ROW_BYTES = 16;
const ROW_HEIGHT = 16;

const treeEl = document.getElementById('tree')!;
const hexEl = document.getElementById('hex')!;
const spacer = document.getElementById('hex-spacer')!;
const details = document.getElementById('details')!;
const statusEl = document.getElementById('status')!;
const fileInput = document.getElementById('file') as HTMLInputElement;

interface State {
  bytes: Uint8Array;
  root: LayoutNode;
  leaves: LayoutNode[];
  selected: LayoutNode | undefined;
}
let state: State | undefined;
/** For tests and the curious: what is loaded and selected. */
const api = { ready: false, kind: '', ms: 0, error: '', selected: undefined as { start: number; end: number; label: string } | undefined };
(window as unknown as { __explorer: typeof api }).__explorer = api;

function decode(bytes: Uint8Array): Promise<WorkerReply> {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  return new Promise((resolve) => {
    worker.onmessage = (e: MessageEvent<WorkerReply>) => {
      worker.terminate();
      resolve(e.data);
    };
    worker.onerror = (e) => {
      worker.terminate();
      resolve({ ok: false, message: e.message });
    };
    const copy = bytes.slice();
    worker.postMessage(copy.buffer, [copy.buffer]);
  });
}

async function open(file: File): Promise<void> {
  api.ready = false;
  statusEl.textContent = `Reading ${file.name}…`;
  statusEl.className = '';
  const t0 = performance.now();
  const bytes = new Uint8Array(await file.arrayBuffer());
  const reply = await decode(bytes);
  if (!reply.ok) {
    statusEl.textContent = reply.message;
    statusEl.className = 'error';
    api.error = reply.message;
    api.ready = true;
    return;
  }
  state = { bytes, root: reply.root, leaves: leaves(reply.root), selected: undefined };
  api.kind = reply.kind;
  api.error = '';
  api.ms = performance.now() - t0;
  const findings = reply.root.findingCount ?? 0;
  statusEl.textContent = `${file.name}: ${reply.kind}, ${bytes.length} bytes, read in ${Math.round(api.ms)} ms${reply.kind === 'map' ? `, ${findings} validation finding(s)` : ''}`;
  treeEl.replaceChildren(treeNode(reply.root, true));
  spacer.style.height = `${Math.ceil(bytes.length / ROW_BYTES) * ROW_HEIGHT}px`;
  hexEl.scrollTop = 0;
  renderHex();
  api.ready = true;
}

function treeNode(node: LayoutNode, expanded = false): HTMLElement {
  const el = document.createElement('div');
  el.className = 'node';
  const row = document.createElement('div');
  row.className = 'row';
  row.dataset.start = String(node.start);
  row.dataset.end = String(node.end);
  const toggle = document.createElement('span');
  toggle.className = 'toggle';
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
  el.append(row);
  let childrenEl: HTMLElement | undefined;
  // Children are built when first expanded, so a file with many thousands of entries opens at once.
  const setExpanded = (open: boolean) => {
    if (!node.children?.length) return;
    toggle.textContent = open ? '▾' : '▸';
    if (open && !childrenEl) {
      childrenEl = document.createElement('div');
      childrenEl.append(...node.children.map((c) => treeNode(c)));
      el.append(childrenEl);
    }
    if (childrenEl) childrenEl.hidden = !open;
  };
  setExpanded(expanded);
  toggle.onclick = (e) => {
    e.stopPropagation();
    setExpanded(!!childrenEl?.hidden || !childrenEl);
  };
  row.onclick = () => {
    treeEl.querySelector('.row.selected')?.classList.remove('selected');
    row.classList.add('selected');
    select(node);
    if (childrenEl?.hidden !== false) setExpanded(true);
  };
  return el;
}

function select(node: LayoutNode): void {
  if (!state) return;
  state.selected = node;
  api.selected = { start: node.start, end: node.end, label: node.label };
  showDetails(node);
  const row = Math.floor(node.start / ROW_BYTES) * ROW_HEIGHT;
  if (row < hexEl.scrollTop || row > hexEl.scrollTop + hexEl.clientHeight - ROW_HEIGHT) hexEl.scrollTop = Math.max(0, row - ROW_HEIGHT * 2);
  renderHex();
}

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
  add('bytes', `${node.start}–${node.end - 1} (${node.end - node.start} bytes)`);
  if (offset !== undefined) add('offset', String(offset));
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
  const pictures: HTMLElement[] = [];
  if (node.preview && node.preview.width > 0 && node.preview.height > 0) {
    const canvas = document.createElement('canvas');
    canvas.className = 'preview';
    canvas.width = node.preview.width;
    canvas.height = node.preview.height;
    // Tiles are one pixel each: scale small layers up so that they can be seen.
    canvas.style.width = `${Math.min(360, node.preview.width * Math.max(1, Math.floor(360 / node.preview.width)))}px`;
    canvas.getContext('2d')?.putImageData(new ImageData(node.preview.rgba, node.preview.width, node.preview.height), 0, 0);
    pictures.push(canvas);
  }
  details.replaceChildren(h, dl, desc, ...findings, ...pictures);
}

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
    for (let i = r * ROW_BYTES; i < Math.min(bytes.length, (r + 1) * ROW_BYTES); i++) {
      const b = document.createElement('span');
      b.className = selected && i >= selected.start && i < selected.end ? 'byte sel' : 'byte';
      b.dataset.offset = String(i);
      b.textContent = bytes[i]!.toString(16).padStart(2, '0');
      row.append(b);
    }
    rows.push(row);
  }
  spacer.replaceChildren(...rows);
}

hexEl.addEventListener('scroll', () => requestAnimationFrame(renderHex));
hexEl.addEventListener('mouseover', (e) => {
  const offset = (e.target as HTMLElement).dataset?.offset;
  if (!state || offset === undefined) return;
  const leaf = leafAt(state.leaves, Number(offset));
  if (leaf) showDetails(leaf, Number(offset));
});
fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
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
