// The overview of a demo or teehistorian file above the views: a timeline of its events, the players, and their
// positions over time (overview.ts draws them). A click on a player, an event or a tick of the pictures selects
// that tick's node in the tree.
import { colorOf, drawPlot, drawTimeline, tickAt } from './overview.js';
import { api, page, timelineCanvas } from './page.js';
import type { Overview } from './streams.js';
import { hasChildren, reveal, setExpanded } from './tree-view.js';

const overviewEl = document.getElementById('overview')!;
const plotCanvas = document.getElementById('plot') as HTMLCanvasElement;
const playersBody = document.querySelector('#players tbody')!;
const eventsEl = document.getElementById('events')!;
const rangeEl = document.getElementById('timeline-range')!;

export function showOverview(o: Overview): void {
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
  drawTimeline(timelineCanvas, o, page.state?.selected?.tick);
  drawPlot(plotCanvas, o);
}

/** Selects the tree node of a tick (a demo tick, or the first teehistorian message at or after it). */
function goToTick(tick: number): void {
  if (!page.state) return;
  const list = page.state.root.children?.find((c) => c.label === 'chunks' || c.label === 'messages')?.children ?? [];
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
    const o = page.state?.overview;
    if (o) canvas.title = `tick ${tickAt(canvas, o, e.clientX)} (click to go there)`;
  });
  canvas.addEventListener('click', (e) => {
    const o = page.state?.overview;
    if (o) goToTick(tickAt(canvas, o, e.clientX));
  });
}

/** No overview (another file is being opened). */
export function hideOverview(): void {
  overviewEl.hidden = true;
}

/** Draws the timeline and the positions again (the window's size changed). */
export function redrawOverview(): void {
  if (page.state?.overview) {
    drawTimeline(timelineCanvas, page.state.overview, page.state.selected?.tick);
    drawPlot(plotCanvas, page.state.overview);
  }
}
