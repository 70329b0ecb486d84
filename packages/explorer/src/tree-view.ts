// The tree of the open file's decoded structure, virtualised: only the rows in view exist. Rows open and close
// (lazy children are asked of the worker), demo messages get their summaries when they come into view, the
// keyboard moves the selection, and the splitter beside the tree sets its width. Selecting a node is the page's
// main action: it shows the node's details, its bytes in the hex view and its tick on the overview's timeline.
import type { LayoutNode } from './layout.js';
import { drawTimeline } from './overview.js';
import { api, page, type State, timelineCanvas } from './page.js';
import { call } from './worker-client.js';
import { showDetails } from './details-view.js';
import { scrollHexTo } from './hex-view.js';

const TREE_ROW = 18;
const INDENT = 14;

const treeEl = document.getElementById('tree')!;
const treeSpacer = document.getElementById('tree-spacer')!;

export const hasChildren = (node: LayoutNode) => !!node.children?.length || (!!node.lazy && !node.children);

function refreshTree(): void {
  if (!page.state) return;
  const rows: State['rows'] = [];
  const stack: { node: LayoutNode; depth: number }[] = [{ node: page.state.root, depth: 0 }];
  while (stack.length) {
    const entry = stack.pop()!;
    rows.push(entry);
    if (!page.state.expanded.has(entry.node) || !entry.node.children) continue;
    for (let i = entry.node.children.length - 1; i >= 0; i--) stack.push({ node: entry.node.children[i]!, depth: entry.depth + 1 });
  }
  page.state.rows = rows;
  treeSpacer.style.height = `${rows.length * TREE_ROW}px`;
  renderTree();
}

export function renderTree(): void {
  if (!page.state) return;
  const first = Math.max(0, Math.floor(treeEl.scrollTop / TREE_ROW) - 5);
  const last = Math.min(page.state.rows.length, first + Math.ceil(treeEl.clientHeight / TREE_ROW) + 10);
  const els: HTMLElement[] = [];
  const wanted: LayoutNode[] = [];
  visibleRows.clear();
  for (let i = first; i < last; i++) {
    const node = page.state.rows[i]!.node;
    const row = treeRow(node, page.state.rows[i]!.depth, i);
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
  const current = page.state;
  for (const n of nodes) summarised.add(n);
  const reply = await call({ op: 'summaries', keys: nodes.map((n) => n.lazy!) });
  if (page.state !== current || reply.op !== 'summaries') return;
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
  row.className = `row${node === page.state?.selected ? ' selected' : ''}${node.decoded ? ' decoded' : ''}`;
  row.style.top = `${index * TREE_ROW}px`;
  row.style.paddingLeft = `${depth * INDENT}px`;
  row.dataset.start = String(node.start);
  row.dataset.end = String(node.end);
  // The schema's description on hover, without selecting.
  if (node.description) row.title = node.description;
  const toggle = document.createElement('span');
  toggle.className = 'toggle';
  if (hasChildren(node)) toggle.textContent = page.state!.expanded.has(node) ? '▾' : '▸';
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
    void setExpanded(node, !page.state!.expanded.has(node));
  };
  row.onclick = () => {
    select(node);
    if (!page.state!.expanded.has(node) && hasChildren(node)) void setExpanded(node, true);
  };
  return row;
}

/** Opens or closes a node; lazy children are asked of the worker the first time. */
export async function setExpanded(node: LayoutNode, expand: boolean): Promise<void> {
  if (!page.state) return;
  const current = page.state;
  if (expand && node.lazy && !node.children) {
    const reply = await call({ op: 'children', key: node.lazy });
    if (page.state !== current) return;
    node.children = reply.op === 'children' ? reply.children : [];
    adopt(page.state.parent, node);
  }
  if (expand) page.state.expanded.add(node);
  else page.state.expanded.delete(node);
  refreshTree();
}

/** Expands the path to a node, selects it and scrolls it into view. */
export function reveal(node: LayoutNode): void {
  if (!page.state) return;
  for (let p = page.state.parent.get(node); p; p = page.state.parent.get(p)) page.state.expanded.add(p);
  refreshTree();
  const index = page.state.rows.findIndex((r) => r.node === node);
  const top = index * TREE_ROW;
  if (index >= 0 && (top < treeEl.scrollTop || top > treeEl.scrollTop + treeEl.clientHeight - TREE_ROW * 2)) {
    treeEl.scrollTop = Math.max(0, top - treeEl.clientHeight / 3);
  }
  select(node);
}

function select(node: LayoutNode): void {
  if (!page.state) return;
  page.state.selected = node;
  api.selected = { start: node.start, end: node.end, label: node.label };
  renderTree();
  showDetails(node);
  if (page.state.overview && node.tick !== undefined) drawTimeline(timelineCanvas, page.state.overview, node.tick);
  scrollHexTo(node.start);
}

/** The tree of a newly opened file, from the top (the rows drawn are those at the scroll position). */
export function showTree(): void {
  treeEl.scrollTop = 0;
  refreshTree();
}

/** No tree (the file did not decode). */
export function clearTree(): void {
  treeSpacer.replaceChildren();
  treeSpacer.style.height = '0';
}

/** Records each node's parent (to reveal a node, and for the keyboard's left key). */
export function adopt(parent: WeakMap<LayoutNode, LayoutNode>, node: LayoutNode): void {
  const stack = [node];
  while (stack.length) {
    const n = stack.pop()!;
    for (const c of n.children ?? []) {
      parent.set(c, n);
      stack.push(c);
    }
  }
}

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

// ---- scrolling and the keyboard ---------------------------------------------------------------------------

treeEl.addEventListener('scroll', () => requestAnimationFrame(renderTree));
// Keyboard: up/down move the selection, right opens (or goes to the first child), left closes (or goes to the parent).
treeEl.tabIndex = 0;
treeEl.addEventListener('keydown', (e) => {
  if (!page.state?.selected) return;
  const node = page.state.selected;
  const index = page.state.rows.findIndex((r) => r.node === node);
  let next: LayoutNode | undefined;
  if (e.key === 'ArrowDown') next = page.state.rows[index + 1]?.node;
  else if (e.key === 'ArrowUp') next = page.state.rows[index - 1]?.node;
  else if (e.key === 'ArrowRight') {
    if (hasChildren(node) && !page.state.expanded.has(node)) void setExpanded(node, true);
    else next = node.children?.[0];
  } else if (e.key === 'ArrowLeft') {
    if (page.state.expanded.has(node) && hasChildren(node)) void setExpanded(node, false);
    else next = page.state.parent.get(node);
  } else return;
  e.preventDefault();
  if (next) reveal(next);
});
