// The overview's drawings of a demo or teehistorian file: the timeline (keyframes, markers, chat, one bar per
// player while present) and the players' positions over the ticks, one colour per client id.
import { COLORS } from './pictures.js';
import { type Overview, TRACK_BREAK } from './streams.js';

/** A client id's colour in the players table, the timeline and the plot. */
export const colorOf = (clientId: number) => COLORS[clientId % COLORS.length]!;

function sizeCanvas(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  canvas.width = Math.max(200, canvas.clientWidth);
  const ctx = canvas.getContext('2d')!;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  return ctx;
}

const tickX = (o: Overview, width: number, tick: number) => 4 + ((tick - o.firstTick) / Math.max(1, o.lastTick - o.firstTick)) * (width - 8);

/** Ticks left to right: keyframes and markers above, chat lines, then one bar per player while present. */
export function drawTimeline(canvas: HTMLCanvasElement, o: Overview, selectedTick: number | undefined): void {
  const ctx = sizeCanvas(canvas);
  const { width, height } = canvas;
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
  if (selectedTick !== undefined) {
    ctx.fillStyle = '#000';
    ctx.fillRect(tickX(o, width, selectedTick), 0, 1, height);
  }
}

/** x (top half) and y (bottom half) of every client id's character over the ticks. */
export function drawPlot(canvas: HTMLCanvasElement, o: Overview): void {
  const ctx = sizeCanvas(canvas);
  const { width, height } = canvas;
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

/** The tick under x = `clientX` of a timeline or plot canvas. */
export const tickAt = (canvas: HTMLCanvasElement, o: Overview, clientX: number) => {
  const rect = canvas.getBoundingClientRect();
  return Math.round(o.firstTick + ((clientX - rect.left - 4) / Math.max(1, rect.width - 8)) * (o.lastTick - o.firstTick));
};
