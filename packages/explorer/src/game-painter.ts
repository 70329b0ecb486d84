// The game drawn over the map in the player (player.ts): pickups, flags, projectiles on their curves, lasers,
// hooks, the tees (plain bodies in their colours, eyes and weapon towards the aim), and the chat, kill and time
// lines. A module of its own: what a recorded frame looks like, apart from the playback that picks the frame.
import { DEFAULT_BODY, DEFAULT_FEET, type PlayFrame, type Playback, type PlayPlayer, type PlayTee } from './playback.js';

export { DEFAULT_BODY } from './playback.js';

/** The game's ticks per second (the server's tick rate; a demo's and teehistorian file's ticks count them). */
export const TICKS_PER_SECOND = 50;
/**
 * Default tunings of DDNet 16.4 (src/game/tuning.h): projectile curvature and speed per weapon (gun, shotgun,
 * grenade), for the position of a projectile from its start tick as CalcPos does.
 */
const PROJECTILE: Record<number, [curvature: number, speed: number]> = { 1: [1.25, 2200], 2: [1.25, 2750], 3: [7, 1000] };
const WEAPON_COLOURS = ['#8a5a2b', '#c9cbd0', '#6b5a4a', '#7a8a5a', '#6a8fd5', '#222'];
const WEAPON_NAMES = ['hammer', 'gun', 'shotgun', 'grenade', 'laser', 'ninja'];
const PICKUP_COLOURS = ['#e33', '#fb0', '#9aa0a8', '#222'];
const TEAM_COLOURS = ['#e44', '#47f'];

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
  // The player's own tee last, over the others (DDNet 16.4 components/players.cpp renders the local player after them).
  for (const t of [...tees.filter((o) => o.id !== frame.local), ...tees.filter((o) => o.id === frame.local)]) {
    ctx.globalAlpha = teeAlpha(frame, t, tees);
    drawTee(ctx, t, players.get(t.id));
  }
  ctx.globalAlpha = 1;
}

/**
 * How opaque a tee is drawn: DDNet 16.4 (src/game/client/gameclient.cpp IsOtherTeam, components/players.cpp) draws
 * another tee at cl_show_others_alpha (40 %) when it or the player's own tee is in a solo part; a server's
 * recording (no own tee) draws every tee opaque. (DDNet also does so for other race teams, which the snapshots of
 * the page's recordings do not give.)
 */
export function teeAlpha(frame: PlayFrame, t: PlayTee, tees: readonly PlayTee[]): number {
  if (frame.local < 0 || t.id === frame.local) return 1;
  const own = tees.find((o) => o.id === frame.local);
  return t.solo || own?.solo ? 0.4 : 1;
}

/** The default skin's outline and eyes (DDNet 16.4 data/skins/default.png: black outlines, black eyes). */
const OUTLINE = '#000';

/**
 * A tee drawn in the shapes of DDNet's (src/game/client/render.cpp RenderTee): the weapon in its hand towards the
 * aim, the back foot, the body in the player's colour with a black outline, the front foot, the eyes looking
 * along the aim; no skin texture (the skins are the client's own files).
 */
function drawTee(ctx: CanvasRenderingContext2D, t: PlayTee, p: PlayPlayer | undefined): void {
  const body = p?.body ?? DEFAULT_BODY;
  const feet = p?.feet ?? DEFAULT_FEET;
  const ax = Math.cos(t.angle);
  const ay = Math.sin(t.angle);
  const rgb = (c: [number, number, number]) => `rgb(${c[0]},${c[1]},${c[2]})`;
  drawWeapon(ctx, t, ax, ay, rgb(body));
  // Feet: flat ellipses under the body, the back one darker, turned by the direction the tee walks.
  const foot = (dx: number, shade: number) => {
    ctx.fillStyle = rgb(feet.map((v) => Math.round(v * shade)) as [number, number, number]);
    ctx.strokeStyle = OUTLINE;
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    ctx.ellipse(t.x + dx + t.direction * 3, t.y + 16, 14, 7.5, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
  };
  foot(-8, 0.8);
  ctx.fillStyle = rgb(body);
  ctx.strokeStyle = OUTLINE;
  ctx.lineWidth = 2.5;
  ctx.beginPath();
  ctx.arc(t.x, t.y, 20, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
  foot(8, 1);
  // Eyes: two black upright ovals moved towards the aim (DDNet moves the eyes by the aim direction).
  ctx.fillStyle = OUTLINE;
  for (const side of [-1, 1]) {
    const ex = t.x + ax * 8 + side * 4.5 + ax * side * 0.8;
    const ey = t.y + ay * 6 - 5;
    ctx.beginPath();
    ctx.ellipse(ex, ey, 3, 5.5, 0, 0, Math.PI * 2);
    ctx.fill();
  }
}

/** The weapon in the tee's hand, pointing where it aims (a hammer, a blade, or a gun: longer for the shotgun, grenade launcher and laser), and the hand. */
function drawWeapon(ctx: CanvasRenderingContext2D, t: PlayTee, ax: number, ay: number, hand: string): void {
  ctx.save();
  ctx.translate(t.x, t.y);
  ctx.rotate(Math.atan2(ay, ax));
  // Pointing left, the picture is turned upside down as DDNet flips its weapon sprites.
  if (ax < 0) ctx.scale(1, -1);
  ctx.strokeStyle = OUTLINE;
  ctx.lineWidth = 2;
  const fill = WEAPON_COLOURS[t.weapon] ?? '#888';
  ctx.fillStyle = fill;
  if (t.weapon === 0) {
    // Hammer: a handle and a head, held up.
    ctx.fillStyle = '#8a5a2b';
    ctx.fillRect(6, -3, 30, 6);
    ctx.strokeRect(6, -3, 30, 6);
    ctx.fillStyle = '#7d7f84';
    ctx.fillRect(30, -14, 14, 28);
    ctx.strokeRect(30, -14, 14, 28);
  } else if (t.weapon === 5) {
    // Ninja: a blade.
    ctx.fillStyle = '#d8d8e0';
    ctx.beginPath();
    ctx.moveTo(10, -3);
    ctx.lineTo(56, -1);
    ctx.lineTo(10, 3);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
  } else {
    // Guns: a barrel, longer for the shotgun, grenade launcher and laser, and a grip under it.
    const length = t.weapon === 1 ? 34 : 46;
    const width = t.weapon === 1 ? 9 : 11;
    ctx.fillRect(10, -width / 2 - 2, length, width);
    ctx.strokeRect(10, -width / 2 - 2, length, width);
    ctx.fillRect(14, width / 2 - 2, 7, 9);
    ctx.strokeRect(14, width / 2 - 2, 7, 9);
  }
  // The hand at the grip, in the body's colour.
  ctx.fillStyle = hand;
  ctx.beginPath();
  ctx.arc(t.weapon === 0 ? 10 : 18, t.weapon === 0 ? 0 : 8, 5, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
  ctx.restore();
}

/** How long a chat line stays, and when it starts to fade (DDNet 16.4 src/game/client/components/chat.cpp: 16 s, fading over the last 2). */
const CHAT_SECONDS = 16;
const CHAT_FADE_SECONDS = 14;
/** Lines the chat box shows at most when closed, as DDNet's does at its default size. */
const CHAT_LINES = 8;

/**
 * The chat box as DDNet's client shows it: the lines of the last 16 seconds, newest at the bottom, each on a dark
 * see-through band; server lines (`*** ...`) in DDNet's default system colour (light yellow), players' in white.
 */
function drawChat(ctx: CanvasRenderingContext2D, chat: readonly { tick: number; text: string }[], tick: number, H: number): number {
  const lines = chat.filter((c) => c.tick <= tick && c.tick > tick - CHAT_SECONDS * TICKS_PER_SECOND).slice(-CHAT_LINES);
  ctx.font = '15px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  const lineHeight = 19;
  // Long lines wrap as DDNet's do, the rest of a line indented under its text (after the `*** ` or the name).
  const wrapped = lines.map((c) => ({ c, rows: wrap(ctx, c.text, CHAT_WIDTH) }));
  let y = H - 80 - (wrapped.reduce((n, w) => n + w.rows.length * (lineHeight - 3) + 3, 0) - lineHeight);
  for (const { c, rows } of wrapped) {
    const age = (tick - c.tick) / TICKS_PER_SECOND;
    const blend = age > CHAT_FADE_SECONDS ? Math.max(0, 1 - (age - CHAT_FADE_SECONDS) / (CHAT_SECONDS - CHAT_FADE_SECONDS)) : 1;
    const width = Math.max(...rows.map((r) => r.x + ctx.measureText(r.text).width));
    const height = rows.length * (lineHeight - 3) + 1;
    ctx.globalAlpha = blend;
    ctx.fillStyle = 'rgba(0,0,0,0.25)';
    ctx.beginPath();
    ctx.roundRect(14, y - lineHeight / 2 + 1, width + 16, height, 5);
    ctx.fill();
    ctx.fillStyle = c.text.startsWith('*** ') ? '#ffff80' : '#fff';
    rows.forEach((r, i) => ctx.fillText(r.text, 22 + r.x, y + i * (lineHeight - 3)));
    y += rows.length * (lineHeight - 3) + 3;
  }
  ctx.globalAlpha = 1;
  ctx.textBaseline = 'alphabetic';
  ctx.font = '13px system-ui, sans-serif';
  return lines.length;
}

/** Pixels of text on a chat row before it wraps (DDNet's chat box at a 1400 x 800 window). */
const CHAT_WIDTH = 480;

/** A chat line in rows of at most `width` pixels, broken between words; rows after the first indented. */
function wrap(ctx: CanvasRenderingContext2D, text: string, width: number): { text: string; x: number }[] {
  const indent = ctx.measureText(text.startsWith('*** ') ? '*** ' : `${text.split(': ')[0]}: `).width;
  const rows: { text: string; x: number }[] = [];
  let row = '';
  for (const word of text.split(' ')) {
    const next = row ? `${row} ${word}` : word;
    const x = rows.length ? indent : 0;
    if (row && x + ctx.measureText(next).width > width) {
      rows.push({ text: row, x });
      row = word;
    } else row = next;
  }
  rows.push({ text: row, x: rows.length ? indent : 0 });
  return rows;
}

/** Chat (bottom left) and kills (top right) of the last seconds, the tick and time (top left); how many chat and kill lines were drawn. */
export function drawText(ctx: CanvasRenderingContext2D, playback: Playback, firstTick: number, tick: number, players: Map<number, PlayPlayer>, dpr: number): { chat: number; kills: number } {
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
  const chat = drawChat(ctx, playback.chat, tick, H);
  const kills = playback.kills.filter((k) => k.tick <= tick && k.tick > tick - 6 * TICKS_PER_SECOND).slice(-5);
  ctx.textAlign = 'right';
  kills.forEach((k, i) => {
    const name = (id: number) => players.get(id)?.name ?? `#${id}`;
    const how = k.killer === k.victim ? `${name(k.victim)} killed themselves` : `${name(k.killer)} [${WEAPON_NAMES[k.weapon] ?? 'world'}] ${name(k.victim)}`;
    shadow(how, W - 10, 20 + i * 18, '#fe8');
  });
  return { chat, kills: kills.length };
}
