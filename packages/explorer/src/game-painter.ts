// The game drawn over the map in the player (player.ts): pickups, flags, projectiles on their curves, lasers,
// hooks, the tees (plain bodies in their colours, eyes and weapon towards the aim), and the chat, kill and time
// lines. A module of its own: what a recorded frame looks like, apart from the playback that picks the frame.
import type { PlayFrame, Playback, PlayPlayer, PlayTee } from './playback.js';

/** The game's ticks per second (the server's tick rate; a demo's and teehistorian file's ticks count them). */
export const TICKS_PER_SECOND = 50;
/**
 * Default tunings of DDNet 16.4 (src/game/tuning.h): projectile curvature and speed per weapon (gun, shotgun,
 * grenade), for the position of a projectile from its start tick as CalcPos does.
 */
const PROJECTILE: Record<number, [curvature: number, speed: number]> = { 1: [1.25, 2200], 2: [1.25, 2750], 3: [7, 1000] };
const WEAPON_COLOURS = ['#8a5a2b', '#9aa0a8', '#6b4a2a', '#5d7a3a', '#3a7bd5', '#222'];
const WEAPON_NAMES = ['hammer', 'gun', 'shotgun', 'grenade', 'laser', 'ninja'];
const PICKUP_COLOURS = ['#e33', '#fb0', '#9aa0a8', '#222'];
const TEAM_COLOURS = ['#e44', '#47f'];
/** A tee's body colour when the recording gives none. */
export const DEFAULT_BODY: [number, number, number] = [224, 160, 100];

/** The pickups, flags, projectiles, lasers, hooks and tees of a frame at `tick`, on `ctx` in world units. */
export function drawItems(ctx: CanvasRenderingContext2D, frame: PlayFrame, tick: number, tees: PlayTee[], players: Map<number, PlayPlayer>): void {
  for (const p of frame.pickups) {
    ctx.fillStyle = PICKUP_COLOURS[p.type] ?? '#ccc';
    ctx.beginPath();
    ctx.arc(p.x, p.y, 12, 0, Math.PI * 2);
    ctx.fill();
    ctx.strokeStyle = '#fff';
    ctx.lineWidth = 3;
    ctx.stroke();
    if (p.type === 0 || p.type === 1) {
      ctx.fillStyle = '#fff';
      ctx.fillRect(p.x - 7, p.y - 2, 14, 4);
      if (p.type === 0) ctx.fillRect(p.x - 2, p.y - 7, 4, 14);
    }
    if (p.type === 2) {
      ctx.fillStyle = WEAPON_COLOURS[p.subtype] ?? '#888';
      ctx.fillRect(p.x - 10, p.y - 3, 20, 6);
    }
  }
  for (const f of frame.flags) {
    ctx.strokeStyle = '#333';
    ctx.lineWidth = 4;
    ctx.beginPath();
    ctx.moveTo(f.x - 14, f.y + 30);
    ctx.lineTo(f.x - 14, f.y - 42);
    ctx.stroke();
    ctx.fillStyle = TEAM_COLOURS[f.team] ?? '#ccc';
    ctx.beginPath();
    ctx.moveTo(f.x - 12, f.y - 42);
    ctx.lineTo(f.x + 26, f.y - 28);
    ctx.lineTo(f.x - 12, f.y - 12);
    ctx.closePath();
    ctx.fill();
  }
  for (const p of frame.projectiles) {
    const t = Math.max(0, (tick - p.startTick) / TICKS_PER_SECOND);
    const [curvature, speed] = PROJECTILE[p.type] ?? [0, 0];
    const x = p.x + p.vx * speed * t;
    const y = p.y + p.vy * speed * t + (curvature / 10000) * (speed * t) ** 2;
    ctx.fillStyle = WEAPON_COLOURS[p.type] ?? '#fff';
    ctx.strokeStyle = '#fff';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(x, y, p.type === 3 ? 9 : 6, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
  }
  for (const l of frame.lasers) {
    const age = (tick - l.startTick) / TICKS_PER_SECOND;
    ctx.globalAlpha = Math.max(0.25, 1 - age / 0.5);
    ctx.lineCap = 'round';
    ctx.strokeStyle = '#3a6cf0';
    ctx.lineWidth = 10;
    ctx.beginPath();
    ctx.moveTo(l.fromX, l.fromY);
    ctx.lineTo(l.x, l.y);
    ctx.stroke();
    ctx.strokeStyle = '#dfe8ff';
    ctx.lineWidth = 4;
    ctx.stroke();
    ctx.globalAlpha = 1;
  }
  const at = new Map(tees.map((t) => [t.id, t]));
  // Hooks under the tees: a chain from the tee to its hook (or the tee it holds).
  for (const t of tees) {
    if (t.hookState < 4) continue;
    const held = t.hookedPlayer >= 0 ? at.get(t.hookedPlayer) : undefined;
    const hx = held ? held.x : t.hookX;
    const hy = held ? held.y : t.hookY;
    ctx.strokeStyle = '#c9c9c9';
    ctx.lineWidth = 5;
    ctx.setLineDash([8, 4]);
    ctx.beginPath();
    ctx.moveTo(t.x, t.y);
    ctx.lineTo(hx, hy);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = '#888';
    ctx.beginPath();
    ctx.arc(hx, hy, 6, 0, Math.PI * 2);
    ctx.fill();
  }
  for (const t of tees) drawTee(ctx, t, players.get(t.id));
}

/** A plain tee: feet, body in the player's colour, eyes and weapon towards the aim. */
function drawTee(ctx: CanvasRenderingContext2D, t: PlayTee, p: PlayPlayer | undefined): void {
  const body = p?.body ?? DEFAULT_BODY;
  const feet = p?.feet ?? body;
  const ax = Math.cos(t.angle);
  const ay = Math.sin(t.angle);
  // The weapon behind the body, pointing where the tee aims.
  ctx.strokeStyle = WEAPON_COLOURS[t.weapon] ?? '#888';
  ctx.lineWidth = t.weapon === 0 ? 10 : 8;
  ctx.lineCap = 'butt';
  ctx.beginPath();
  ctx.moveTo(t.x + ax * 8, t.y + ay * 8);
  ctx.lineTo(t.x + ax * (t.weapon === 0 ? 30 : 42), t.y + ay * (t.weapon === 0 ? 30 : 42));
  ctx.stroke();
  ctx.fillStyle = `rgb(${feet[0]},${feet[1]},${feet[2]})`;
  ctx.strokeStyle = 'rgba(0,0,0,0.55)';
  ctx.lineWidth = 2;
  for (const dx of [-9, 9]) {
    ctx.beginPath();
    ctx.ellipse(t.x + dx + t.direction * 2, t.y + 15, 11, 6.5, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
  }
  ctx.fillStyle = `rgb(${body[0]},${body[1]},${body[2]})`;
  ctx.beginPath();
  ctx.arc(t.x, t.y, 19, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
  // Eyes looking along the aim.
  ctx.fillStyle = '#fff';
  ctx.strokeStyle = '#222';
  ctx.lineWidth = 1.5;
  for (const side of [-1, 1]) {
    const ex = t.x + ax * 7 + side * 5;
    const ey = t.y + ay * 6 - 4;
    ctx.beginPath();
    ctx.ellipse(ex, ey, 3.6, 5.5, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = '#111';
    ctx.beginPath();
    ctx.arc(ex + ax * 1.2, ey + ay * 1.6, 1.8, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#fff';
  }
}

/** Chat (bottom left) and kills (top right) of the last seconds, the tick and time (top left). */
export function drawText(ctx: CanvasRenderingContext2D, playback: Playback, firstTick: number, tick: number, players: Map<number, PlayPlayer>, dpr: number): void {
  const W = ctx.canvas.width / dpr;
  const H = ctx.canvas.height / dpr;
  ctx.textAlign = 'left';
  ctx.font = '13px system-ui, sans-serif';
  const shadow = (text: string, x: number, y: number, colour = '#fff') => {
    ctx.lineWidth = 3;
    ctx.strokeStyle = 'rgba(0,0,0,0.7)';
    ctx.strokeText(text, x, y);
    ctx.fillStyle = colour;
    ctx.fillText(text, x, y);
  };
  const seconds = (tick - firstTick) / TICKS_PER_SECOND;
  shadow(`tick ${Math.floor(tick)}  ${Math.floor(seconds / 60)}:${(seconds % 60).toFixed(1).padStart(4, '0')}`, 10, 20);
  const chat = playback.chat.filter((c) => c.tick <= tick && c.tick > tick - 10 * TICKS_PER_SECOND).slice(-8);
  chat.forEach((c, i) => shadow(c.text, 10, H - 14 - (chat.length - 1 - i) * 18));
  const kills = playback.kills.filter((k) => k.tick <= tick && k.tick > tick - 6 * TICKS_PER_SECOND).slice(-5);
  ctx.textAlign = 'right';
  kills.forEach((k, i) => {
    const name = (id: number) => players.get(id)?.name ?? `#${id}`;
    const how = k.killer === k.victim ? `${name(k.victim)} killed themselves` : `${name(k.killer)} [${WEAPON_NAMES[k.weapon] ?? 'world'}] ${name(k.victim)}`;
    shadow(how, W - 10, 20 + i * 18, '#fe8');
  });
}
