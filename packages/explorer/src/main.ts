// The page: a tree of the decoded structure beside a virtualised hex view. Selecting a node highlights its
// bytes; hovering a byte shows the field under it with its type, value and the schema's description. Demos and
// teehistorian files also get an overview: a timeline, the players, and their positions over time. This module is
// the page's entry: opening a file (chosen, dropped or a sample) and handing it to the views, each a module of
// its own (tree-view.ts, hex-view.ts, details-view.ts, overview-panel.ts, player-panel.ts; page.ts is what they share).
import { type LayoutNode, leaves } from './layout.js';
import { count } from './pictures.js';
import type { PlayerState } from './player.js';
import type { OpenReply } from './worker.js';
import { api, page, statusEl } from './page.js';
import { call, startWorker } from './worker-client.js';
import { adopt, clearTree, renderTree, showTree } from './tree-view.js';
import { clearHex, showHex } from './hex-view.js';
import { clearDetails } from './details-view.js';
import { hideOverview, redrawOverview, showOverview } from './overview-panel.js';
import { closePlayer, currentPlayer, offerPlayer, togglePlayer, useImages, useMap } from './player-panel.js';
import sampleDemo from '../../../fixtures/demos/ctf2_server_Alpha_server_manual.demo?url';
import sampleMap from '../../../fixtures/maps/ctf1.map?url';
import sampleTeehistorian from '../../../fixtures/teehistorian/ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian?url';

const fileInput = document.getElementById('file') as HTMLInputElement;
const welcomeEl = document.getElementById('welcome')!;

/** The page's api with the player's live members (page.ts has the rest). */
const explorer = Object.defineProperties(api, {
  /** The player's state (tick, what it drew where, fps), when it is open. */
  player: { get: () => currentPlayer()?.state, enumerable: true },
  /** Opens (true) or closes the player. */
  showPlayer: { value: (show: boolean) => togglePlayer(show), enumerable: true },
  /** Gives the player a map (as a file dropped beside the recording). */
  useMap: { value: (file: File) => useMap(file), enumerable: true },
}) as typeof api & { readonly player: PlayerState | undefined; showPlayer(show: boolean): Promise<void>; useMap(file: File): Promise<void> };
(window as unknown as { __explorer: typeof explorer }).__explorer = explorer;

// ---- opening a file ----------------------------------------------------------------------------------------

async function open(file: File): Promise<void> {
  closePlayer();
  api.ready = false;
  api.overviewReady = false;
  api.overview = undefined;
  statusEl.textContent = `Reading ${file.name}…`;
  statusEl.className = '';
  hideOverview();
  const t0 = performance.now();
  const bytes = new Uint8Array(await file.arrayBuffer());
  startWorker();
  const copy = bytes.slice();
  const answer = await call({ op: 'open', buffer: copy.buffer }, [copy.buffer]);
  const reply: OpenReply = answer.op === 'open' ? answer.reply : { ok: false, message: 'The worker did not answer.' };
  if (!reply.ok) {
    // The previous file's views go: they would be read as this file's.
    page.state = undefined;
    welcomeEl.hidden = false;
    clearTree();
    clearHex();
    clearDetails();
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
  page.state = { bytes, root: reply.root, leaves: leaves(reply.root), selected: undefined, expanded, parent, rows: [], overview: undefined };
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
  clearDetails();
  showTree();
  showHex(bytes.length);
  api.ready = true;
  if (reply.kind === 'demo' || reply.kind === 'teehistorian' || reply.kind === 'capture') offerPlayer();
  if (reply.kind === 'demo' || reply.kind === 'teehistorian') {
    const current = page.state;
    const o = await call({ op: 'overview' });
    if (page.state !== current || o.op !== 'overview') return;
    if (o.overview) {
      page.state.overview = o.overview;
      api.overviewMs = performance.now() - t0;
      statusEl.textContent += `; overview (${count(o.overview.players.length, 'player')}, ${count(o.overview.tracks.length, 'position track')}) after ${Math.round(api.overviewMs)} ms`;
      showOverview(o.overview);
    } else if (o.error) statusEl.textContent += `; no overview: ${o.error}`;
  }
  api.overviewReady = true;
}

// The window's size: the overview's pictures and the tree's rows in view are drawn again.
window.addEventListener('resize', () => {
  redrawOverview();
  renderTree();
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
  if (pngs.length && currentPlayer()) {
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
