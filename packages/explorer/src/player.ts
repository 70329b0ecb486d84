// Plays a recording on its map in a canvas: the map's tiles and quads layers (groups with their parallax and
// offsets), the tees between two recorded ticks interpolated as the game does (DDNet renders between the
// previous and the current snapshot by the fraction of the tick that has passed), their names, aim, hook and
// weapon, projectiles, lasers, pickups and flags, chat and kill lines. The page drives it with play, pause,
// speed, a timeline, tick steps, follow and zoom/pan.
// The map's layers are map-painter.ts's to draw, the tees and items game-painter.ts's.
import { DEFAULT_BODY, drawItems, drawText, teeAlpha, TICKS_PER_SECOND } from './game-painter.js';
import { MapPainter, TILE } from './map-painter.js';
import type { PlayFrame, Playback, PlayPlayer, PlayTee } from './playback.js';
import type { Scene } from './scene.js';

/** DDNet 16.4 src/game/client/render.cpp CalcScreenParams: the view shows about 1150 x 1000 world units' area, at most 1500 wide and 1050 high. */
const VIEW_AREA = 1150 * 1000;
const VIEW_MAX_W = 1500;
const VIEW_MAX_H = 1050;

export interface DrawnTee {
  id: number;
  name: string;
  /** World position drawn (interpolated). */
  x: number;
  y: number;
  /** Where on the canvas (CSS pixels). */
  sx: number;
  sy: number;
  /** Aim angle (radians) and body colour drawn. */
  angle: number;
  body: [number, number, number];
  /** How opaque the tee was drawn (see-through in another solo part, as DDNet draws it). */
  alpha: number;
}

export interface PlayerState {
  tick: number;
  playing: boolean;
  speed: number;
  follow: string;
  zoom: number;
  drawn: DrawnTee[];
  /** CSS pixels per world unit. */
  scale: number;
  /** Frames drawn per second, over the last two seconds of playing. */
  fps: number;
  /** Chunks of zoomed-out layers kept (painted ones; empty ones cost nothing). */
  chunks: number;
  /** Mean time one frame took to draw (ms), over the last two seconds of playing: 1000 / drawMs is the most frames per second the drawing allows. */
  drawMs: number;
  frames: number;
  /** Chat and kill lines shown in the last frame. */
  chatLines: number;
  killLines: number;
}

export class Player {
  readonly state: PlayerState;
  private readonly ctx: CanvasRenderingContext2D;
  /** The map's layers (none without a scene). */
  private readonly map: MapPainter | undefined;
  private camera = { x: 0, y: 0 };
  private last = 0;
  private frameTimes: number[] = [];
  private drawTimes: number[] = [];
  private raf = 0;
  entities = false;
  /** Draw the layers in front of the tees (after the game layer). */
  front = true;
  readonly firstTick: number;
  readonly lastTick: number;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly playback: Playback,
    private readonly scene: Scene | undefined,
    private readonly onTick: (p: Player) => void,
  ) {
    this.ctx = canvas.getContext('2d', { alpha: false })!;
    const frames = playback.frames;
    this.firstTick = frames[0]?.tick ?? 0;
    this.lastTick = frames[frames.length - 1]?.tick ?? 0;
    this.state = { tick: this.firstTick, playing: false, speed: 1, follow: 'recorder', zoom: 1, drawn: [], scale: 1, fps: 0, drawMs: 0, chunks: 0, frames: 0, chatLines: 0, killLines: 0 };
    const first = frames[0]?.tees[0];
    if (first) this.camera = { x: first.x, y: first.y };
    if (scene) this.map = new MapPainter(canvas, this.ctx, scene, (chunks) => (this.state.chunks = chunks));
  }

  async load(): Promise<void> {
    await this.map?.load();
  }

  /** The recorded frame at or before `tick` (its index), by binary search. */
  frameIndex(tick: number): number {
    const f = this.playback.frames;
    let lo = 0;
    let hi = f.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (f[mid]!.tick <= tick) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  players(frame: PlayFrame): Map<number, PlayPlayer> {
    return new Map(this.playback.rosters[frame.roster]?.map((p) => [p.id, p]) ?? []);
  }

  play(): void {
    if (this.state.tick >= this.lastTick) this.state.tick = this.firstTick;
    this.state.playing = true;
    this.frameTimes = [];
    this.drawTimes = [];
    this.last = performance.now();
    this.loop();
  }

  pause(): void {
    this.state.playing = false;
  }

  seek(tick: number): void {
    this.state.tick = Math.max(this.firstTick, Math.min(this.lastTick, tick));
    this.draw();
  }

  step(ticks: number): void {
    this.pause();
    this.seek(Math.round(this.state.tick) + ticks);
  }

  stop(): void {
    this.state.playing = false;
    cancelAnimationFrame(this.raf);
  }

  private loop = (): void => {
    cancelAnimationFrame(this.raf);
    this.raf = requestAnimationFrame((now) => {
      if (!this.state.playing) return;
      const dt = Math.min(0.25, (now - this.last) / 1000);
      this.last = now;
      this.state.tick = Math.min(this.lastTick, this.state.tick + dt * TICKS_PER_SECOND * this.state.speed);
      this.frameTimes.push(now);
      while (this.frameTimes.length && this.frameTimes[0]! < now - 2000) this.frameTimes.shift();
      if (this.frameTimes.length > 1) this.state.fps = ((this.frameTimes.length - 1) * 1000) / (now - this.frameTimes[0]!);
      const t0 = performance.now();
      this.draw();
      this.drawTimes.push(performance.now() - t0);
      if (this.drawTimes.length > this.frameTimes.length) this.drawTimes.splice(0, this.drawTimes.length - this.frameTimes.length);
      this.state.drawMs = this.drawTimes.reduce((a, b) => a + b, 0) / this.drawTimes.length;
      if (this.state.tick >= this.lastTick) this.state.playing = false;
      this.onTick(this);
      if (this.state.playing) this.loop();
    });
  };

  /** World position to canvas pixels, with the current camera and zoom. */
  private zoomNow(): number {
    const { width, height } = this.canvas;
    const aspect = width / Math.max(1, height);
    let w = Math.sqrt(VIEW_AREA * aspect);
    let h = w / aspect;
    if (w > VIEW_MAX_W) (w = VIEW_MAX_W), (h = w / aspect);
    if (h > VIEW_MAX_H) (h = VIEW_MAX_H), (w = h * aspect);
    return (width / w) * this.state.zoom;
  }

  /** Moves the camera by screen pixels (a drag): the view stops following. */
  pan(dx: number, dy: number): void {
    const z = this.zoomNow();
    this.camera.x -= dx / z;
    this.camera.y -= dy / z;
    this.state.follow = 'free';
    this.draw();
  }

  zoomBy(factor: number): void {
    this.state.zoom = Math.max(0.05, Math.min(8, this.state.zoom * factor));
    this.draw();
  }

  /** The tees at `tick`, interpolated between the recorded frames around it. */
  teesAt(tick: number): { frame: PlayFrame; tees: PlayTee[]; intra: number; next: PlayFrame } {
    const frames = this.playback.frames;
    const i = this.frameIndex(tick);
    const a = frames[i]!;
    const b = frames[Math.min(frames.length - 1, i + 1)]!;
    const intra = b.tick > a.tick ? Math.max(0, Math.min(1, (tick - a.tick) / (b.tick - a.tick))) : 0;
    const next = new Map(b.tees.map((t) => [t.id, t]));
    const mix = (x: number, y: number) => x + (y - x) * intra;
    const tees = a.tees.map((t) => {
      const n = next.get(t.id);
      if (!n) return t;
      let da = n.angle - t.angle;
      while (da > Math.PI) da -= 2 * Math.PI;
      while (da < -Math.PI) da += 2 * Math.PI;
      return { ...t, x: mix(t.x, n.x), y: mix(t.y, n.y), angle: t.angle + da * intra, hookX: n.hookState === t.hookState ? mix(t.hookX, n.hookX) : t.hookX, hookY: n.hookState === t.hookState ? mix(t.hookY, n.hookY) : t.hookY };
    });
    return { frame: a, tees, intra, next: b };
  }

  draw(): void {
    const { canvas, ctx } = this;
    // The backing store follows the element's size (CSS pixels times the device pixel ratio).
    const dpr = window.devicePixelRatio || 1;
    const cw = Math.max(1, Math.round(canvas.clientWidth * dpr));
    const ch = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== cw || canvas.height !== ch) (canvas.width = cw), (canvas.height = ch);
    const tick = this.state.tick;
    const { frame, tees } = this.teesAt(tick);
    const players = this.players(frame);
    // The camera: a followed tee, the recorder's own, or where the user left it.
    const follow = this.state.follow;
    const target = follow === 'recorder' ? (frame.local >= 0 ? frame.local : tees[0]?.id) : follow === 'free' ? undefined : Number(follow);
    const tee = tees.find((t) => t.id === target);
    if (tee) this.camera = { x: tee.x, y: tee.y };
    const z = this.zoomNow();
    const W = canvas.width;
    const H = canvas.height;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#5f7fa6';
    ctx.fillRect(0, 0, W, H);
    const s = this.scene;
    const timeMs = ((tick - this.firstTick) / TICKS_PER_SECOND) * 1000;
    const map = this.map;
    if (s && map) for (let i = 0; i < s.foreground; i++) map.drawLayer(s.layers[i]!, z, this.camera, timeMs);
    // The world at the game group's scale (parallax 100, no offset).
    const world = () => ctx.setTransform(z, 0, 0, z, W / 2 - this.camera.x * z, H / 2 - this.camera.y * z);
    world();
    const game = map?.game;
    if (this.entities && game) {
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(game, 0, 0, game.width * TILE, game.height * TILE);
      ctx.imageSmoothingEnabled = true;
    }
    drawItems(ctx, frame, tick, tees, players);
    if (s && map && this.front) for (let i = s.foreground; i < s.layers.length; i++) map.drawLayer(s.layers[i]!, z, this.camera, timeMs, true);
    // Names on top of everything, in screen pixels.
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.font = '600 13px system-ui, sans-serif';
    ctx.textAlign = 'center';
    const drawn: DrawnTee[] = [];
    for (const t of tees) {
      const sx = (W / 2 + (t.x - this.camera.x) * z) / dpr;
      const sy = (H / 2 + (t.y - this.camera.y) * z) / dpr;
      const p = players.get(t.id);
      const name = p?.name ?? `#${t.id}`;
      const alpha = teeAlpha(frame, t, tees);
      drawn.push({ id: t.id, name, x: t.x, y: t.y, sx, sy, angle: t.angle, body: p?.body ?? DEFAULT_BODY, alpha });
      // DDNet does not name the player's own tee (its name plate shows the others', as see-through as the tee).
      if (t.id === frame.local) continue;
      ctx.globalAlpha = alpha;
      ctx.lineWidth = 3;
      ctx.strokeStyle = 'rgba(0,0,0,0.6)';
      ctx.fillStyle = '#fff';
      const ny = sy - (56 * z) / dpr;
      ctx.strokeText(name, sx, ny);
      ctx.fillText(name, sx, ny);
    }
    ctx.globalAlpha = 1;
    this.state.drawn = drawn;
    this.state.scale = z / dpr;
    const lines = drawText(ctx, this.playback, this.firstTick, tick, players, dpr);
    this.state.chatLines = lines.chat;
    this.state.killLines = lines.kills;
    this.state.frames++;
  }

}
