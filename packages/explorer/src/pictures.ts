// The pictures of the details panel: a layer's or image's pixels, a quads layer's quads and an envelope's
// channels over time, drawn from what the worker sent (details-view.ts puts them in the panel).
import type { EnvelopePlot, QuadShape } from './layout.js';
import type { Preview } from './previews.js';

/** "1 player", "2 players". */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * A layer's or image's pixels, scaled to the panel's `panelWidth` (a small layer's tiles become several pixels
 * wide: one pixel per tile looks empty), with a note below. `tiles`: the picture is a tilemap layer of that size
 * in tiles, and a click on it calls `onTile` with the tile's coordinates (double-click: full size).
 */
export function previewElements(preview: Preview, panelWidth: number, note?: string, kind = 'pixels', tiles?: { width: number; height: number }, onTile?: (x: number, y: number) => void): HTMLElement[] {
  if (preview.width <= 0 || preview.height <= 0) return [];
  const canvas = document.createElement('canvas');
  canvas.className = `preview ${kind}`;
  canvas.width = preview.width;
  canvas.height = preview.height;
  // As wide as the panel, but no tile wider than 32 pixels and no picture taller than 70% of the window.
  const perPixel = tiles ? preview.width / tiles.width : 1;
  const maxWidth = Math.max(240, panelWidth - 24);
  const byHeight = (window.innerHeight * 0.7 * preview.width) / preview.height;
  const width = Math.max(Math.min(preview.width, maxWidth), Math.min(maxWidth, byHeight, (preview.width * 32) / perPixel));
  canvas.style.width = `${Math.round(width)}px`;
  canvas.getContext('2d')?.putImageData(new ImageData(preview.rgba, preview.width, preview.height), 0, 0);
  if (tiles && onTile) {
    canvas.title = 'Click a tile to see its id, flags and meaning; double-click for full size';
    canvas.style.cursor = 'crosshair';
    canvas.onclick = (e) => {
      const r = canvas.getBoundingClientRect();
      onTile(Math.floor(((e.clientX - r.left) / r.width) * tiles.width), Math.floor(((e.clientY - r.top) / r.height) * tiles.height));
    };
    canvas.ondblclick = () => canvas.classList.toggle('zoomed');
  } else {
    canvas.title = 'Click to see it at full size';
    canvas.onclick = () => canvas.classList.toggle('zoomed');
  }
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
export function quadsCanvas(quads: QuadShape[]): HTMLElement[] {
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

export const COLORS = ['#d33', '#2a2', '#33d', '#888', '#e80', '#0aa', '#a0a', '#7a4', '#c57', '#47c', '#a73', '#3a8'];
const SVG = 'http://www.w3.org/2000/svg';

const CURVE_STEPS = 16;

/**
 * How far between two envelope points the value is at fraction `a` of the time, by the first point's curve type
 * (checked against DDNet's envelope evaluation, CEnvelopeEvalGame::RenderEvalEnvelope). A bezier curve without
 * tangents falls back to linear there; with them it is drawn as an SVG cubic curve.
 */
export function ease(curve: number, a: number): number {
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
export function envelopeSvg(plot: EnvelopePlot): SVGSVGElement {
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
