// Plays a recording on its map in a canvas: the map's tiles and quads layers (groups with their parallax and
// offsets), the tees between two recorded ticks interpolated as the game does (DDNet renders between the
// previous and the current snapshot by the fraction of the tick that has passed), their names, aim, hook and
// weapon, projectiles, lasers, pickups and flags, chat and kill lines. The page drives it with play, pause,
// speed, a timeline, tick steps, follow and zoom/pan.
import type { PlayFrame, Playback, PlayPlayer, PlayTee } from './playback.js';
import { type Scene, type SceneEnvelope, type SceneQuadLayer, type SceneTileLayer, variantOf } from './scene.js';
import { ease } from './pictures.js';

export const TICKS_PER_SECOND = 50;
const TILE = 32;
/** DDNet 16.4 src/game/client/render.cpp CalcScreenParams: the view shows about 1150 x 1000 world units' area, at most 1500 wide and 1050 high. */
const VIEW_AREA = 1150 * 1000;
const VIEW_MAX_W = 1500;
const VIEW_MAX_H = 1050;
/** Below this many screen pixels per tile, layers are drawn from their overview pictures. */
const MIN_TILE_PIXELS = 2.5;
/** From this many screen pixels per tile on, tiles are drawn one by one; below, from chunks painted once. */
const DIRECT_TILE_PIXELS = 20;
/**
 * Tiles per side of a chunk (painted at 16 pixels per tile, 8 when the view shows a tile under 10 pixels wide, 4
 * under 5: 512 x 512 pixels, 1 MB, at most) and how many pixels of painted chunks are kept (256 MB).
 */
const CHUNK = 32;
const CHUNK_PIXEL_BUDGET = 64 * 1024 * 1024;
/** How many tiles past a layer's edges its edge tiles are repeated. */
const BORDER = 200;

/**
 * Default tunings of DDNet 16.4 (src/game/tuning.h): projectile curvature and speed per weapon (gun, shotgun,
 * grenade), for the position of a projectile from its start tick as CalcPos does.
 */
const PROJECTILE: Record<number, [curvature: number, speed: number]> = { 1: [1.25, 2200], 2: [1.25, 2750], 3: [7, 1000] };
const WEAPON_COLOURS = ['#8a5a2b', '#9aa0a8', '#6b4a2a', '#5d7a3a', '#3a7bd5', '#222'];
const WEAPON_NAMES = ['hammer', 'gun', 'shotgun', 'grenade', 'laser', 'ninja'];
const PICKUP_COLOURS = ['#e33', '#fb0', '#9aa0a8', '#222'];
const TEAM_COLOURS = ['#e44', '#47f'];
const DEFAULT_BODY: [number, number, number] = [224, 160, 100];

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
}

export class Player {
  readonly state: PlayerState;
  private readonly ctx: CanvasRenderingContext2D;
  private atlases: ImageBitmap[] = [];
  private images: ImageBitmap[] = [];
  private overviews = new Map<SceneTileLayer, ImageBitmap>();
  private game: ImageBitmap | undefined;
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
    this.state = { tick: this.firstTick, playing: false, speed: 1, follow: 'recorder', zoom: 1, drawn: [], scale: 1, fps: 0, drawMs: 0, chunks: 0, frames: 0 };
    const first = frames[0]?.tees[0];
    if (first) this.camera = { x: first.x, y: first.y };
  }

  async load(): Promise<void> {
    const bitmap = (w: number, h: number, rgba: Uint8ClampedArray<ArrayBuffer>) => createImageBitmap(new ImageData(rgba, w, h));
    const s = this.scene;
    if (!s) return;
    this.atlases = await Promise.all(s.atlases.map((a) => bitmap(a.width, a.height * 8, a.rgba)));
    this.images = await Promise.all(s.images.map((i) => bitmap(i.width, i.height, i.rgba)));
    for (const l of s.layers) if (l.kind === 'tiles' && l.overview.width > 0) this.overviews.set(l, await bitmap(l.overview.width, l.overview.height, l.overview.rgba));
    if (s.game) this.game = await bitmap(s.game.width, s.game.height, s.game.rgba);
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
    if (s) for (let i = 0; i < s.foreground; i++) this.drawLayer(s.layers[i]!, z, timeMs);
    // The world at the game group's scale (parallax 100, no offset).
    const world = () => ctx.setTransform(z, 0, 0, z, W / 2 - this.camera.x * z, H / 2 - this.camera.y * z);
    world();
    if (this.entities && this.game) {
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(this.game, 0, 0, this.game.width * TILE, this.game.height * TILE);
      ctx.imageSmoothingEnabled = true;
    }
    this.drawItems(frame, tick, tees, players);
    if (s && this.front) for (let i = s.foreground; i < s.layers.length; i++) this.drawLayer(s.layers[i]!, z, timeMs, true);
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
      drawn.push({ id: t.id, name, x: t.x, y: t.y, sx, sy, angle: t.angle, body: p?.body ?? DEFAULT_BODY });
      ctx.lineWidth = 3;
      ctx.strokeStyle = 'rgba(0,0,0,0.6)';
      ctx.fillStyle = '#fff';
      const ny = sy - (56 * z) / dpr;
      ctx.strokeText(name, sx, ny);
      ctx.fillText(name, sx, ny);
    }
    this.state.drawn = drawn;
    this.state.scale = z / dpr;
    this.drawText(tick, players, dpr);
    this.state.frames++;
  }

  private groupTransform(g: number, z: number): void {
    const group = this.scene!.groups[g]!;
    const { width: W, height: H } = this.canvas;
    // DDNet 16.4 src/game/client/render.cpp MapScreenToWorld: a group's view is centred on
    // offset + camera * parallax / 100.
    const cx = group.offsetX + (this.camera.x * group.parallaxX) / 100;
    const cy = group.offsetY + (this.camera.y * group.parallaxY) / 100;
    this.ctx.setTransform(z, 0, 0, z, W / 2 - cx * z, H / 2 - cy * z);
  }

  /** An envelope's channels at `ms`, looping over its length, each point's curve as DDNet evaluates it. */
  private envelopeAt(index: number, ms: number): number[] | undefined {
    const env: SceneEnvelope | undefined = this.scene?.envelopes[index];
    const points = env?.points;
    if (!points?.length) return undefined;
    const end = points[points.length - 1]!.time;
    const t = end > 0 ? ((ms % end) + end) % end : 0;
    let i = 0;
    while (i + 1 < points.length && points[i + 1]!.time <= t) i++;
    const a = points[i]!;
    const b = points[i + 1];
    if (!b || a.curve === 0 || b.time <= a.time) return a.values;
    const f = ease(a.curve, (t - a.time) / (b.time - a.time));
    return a.values.map((v, k) => v + ((b.values[k] ?? v) - v) * f);
  }

  private drawLayer(layer: SceneTileLayer | SceneQuadLayer, z: number, timeMs: number, front = false): void {
    this.groupTransform(layer.group, z);
    if (layer.kind === 'quads') return this.drawQuads(layer, timeMs);
    const { ctx } = this;
    // A colour envelope's alpha fades the layer (its colour is already in the atlas).
    const envelope = layer.colorEnv >= 0 ? this.envelopeAt(layer.colorEnv, timeMs + layer.colorEnvOffset) : undefined;
    ctx.globalAlpha = Math.max(0, Math.min(1, envelope?.[3] ?? 1));
    try {
      this.drawTiles(layer, z, front);
    } finally {
      ctx.globalAlpha = 1;
    }
  }

  private drawTiles(layer: SceneTileLayer, z: number, front: boolean): void {
    const { ctx } = this;
    const m = ctx.getTransform();
    // The tiles in view, in the layer's own coordinates. DDNet draws a tile layer's edge tiles on outside it
    // (CMapLayers' tile borders): the view past the edge repeats the outermost row or column, here up to BORDER
    // tiles out.
    const x0 = Math.max(-BORDER, Math.floor(-m.e / m.a / TILE));
    const y0 = Math.max(-BORDER, Math.floor(-m.f / m.d / TILE));
    const x1 = Math.min(layer.width + BORDER, Math.ceil((this.canvas.width - m.e) / m.a / TILE));
    const y1 = Math.min(layer.height + BORDER, Math.ceil((this.canvas.height - m.f) / m.d / TILE));
    if (x1 <= x0 || y1 <= y0) return;
    const pixels = TILE * z;
    if (pixels < MIN_TILE_PIXELS) {
      const o = this.overviews.get(layer);
      if (o) ctx.drawImage(o, 0, 0, layer.width * TILE, layer.height * TILE);
      return;
    }
    if (pixels >= DIRECT_TILE_PIXELS) {
      this.paintTiles(ctx, layer, x0, y0, x1, y1, front, 0.6 / z);
      return;
    }
    // Zoomed out: the view holds thousands of tiles; draw them from chunks painted once (CHUNK tiles square,
    // CHUNK_PIXELS per tile) and kept while they are used.
    const c0 = Math.floor(x0 / CHUNK);
    const r0 = Math.floor(y0 / CHUNK);
    for (let cy = r0; cy * CHUNK < y1; cy++) {
      for (let cx = c0; cx * CHUNK < x1; cx++) {
        const chunk = this.chunk(layer, cx, cy, front, pixels >= 10 ? 16 : pixels >= 5 ? 8 : 4);
        if (chunk) ctx.drawImage(chunk, cx * CHUNK * TILE, cy * CHUNK * TILE, CHUNK * TILE + 0.6 / z, CHUNK * TILE + 0.6 / z);
      }
    }
  }

  private chunks = new Map<string, OffscreenCanvas>();
  /** Chunks with no tile in them (not kept as canvases, not counted). */
  private emptyChunks = new Set<string>();
  private chunkPixels = 0;
  private layerIds = new Map<SceneTileLayer, number>();

  /**
   * A chunk of a layer painted on its own canvas at `perTile` pixels per tile (null: nothing in it), kept for later
   * frames: at most CHUNK_PIXEL_BUDGET pixels of them, the least recently used go first.
   */
  private chunk(layer: SceneTileLayer, cx: number, cy: number, front: boolean, perTile: number): OffscreenCanvas | null {
    let id = this.layerIds.get(layer);
    if (id === undefined) this.layerIds.set(layer, (id = this.layerIds.size));
    const key = `${id}:${cx}:${cy}:${front ? 1 : 0}:${perTile}`;
    if (this.emptyChunks.has(key)) return null;
    const kept = this.chunks.get(key);
    if (kept) {
      // Most recently used last.
      this.chunks.delete(key);
      this.chunks.set(key, kept);
      return kept;
    }
    const size = CHUNK * perTile;
    const canvas = new OffscreenCanvas(size, size);
    const c = canvas.getContext('2d')!;
    c.setTransform(perTile / TILE, 0, 0, perTile / TILE, -cx * CHUNK * perTile, -cy * CHUNK * perTile);
    if (!this.paintTiles(c, layer, cx * CHUNK, cy * CHUNK, (cx + 1) * CHUNK, (cy + 1) * CHUNK, front, 0)) {
      this.emptyChunks.add(key);
      return null;
    }
    this.chunks.set(key, canvas);
    this.chunkPixels += size * size;
    while (this.chunkPixels > CHUNK_PIXEL_BUDGET && this.chunks.size > 1) {
      const [oldest, old] = this.chunks.entries().next().value!;
      this.chunkPixels -= old.width * old.height;
      this.chunks.delete(oldest);
    }
    this.state.chunks = this.chunks.size;
    return canvas;
  }

  /** Paints the tiles of [x0, x1) x [y0, y1) (layer units on `ctx`'s transform); false when none was there. */
  private paintTiles(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, layer: SceneTileLayer, x0: number, y0: number, x1: number, y1: number, front: boolean, pad: number): boolean {
    const at = (x: number, y: number) => (Math.max(0, Math.min(layer.height - 1, y)) * layer.width + Math.max(0, Math.min(layer.width - 1, x))) * 2;
    const atlas = layer.atlas !== undefined ? this.atlases[layer.atlas] : undefined;
    const tiles = layer.tiles;
    let any = false;
    if (!atlas) {
      const [r, g, b, a] = layer.fill;
      // In front of the tees, plain shapes would hide them: see-through.
      const alpha = front ? Math.min(a, 0.3) : a;
      ctx.fillStyle = `rgba(${r | 0},${g | 0},${b | 0},${alpha})`;
      // See-through tiles must not overlap (the overlap would show as a grid): a path of exact squares.
      const p = alpha < 1 ? 0 : pad;
      ctx.beginPath();
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (tiles[at(x, y)]) (ctx.rect(x * TILE, y * TILE, TILE + p, TILE + p), (any = true));
      ctx.fill();
      return any;
    }
    const cw = atlas.width / 16;
    const ch = atlas.height / 8 / 16;
    const vh = atlas.height / 8;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const i = at(x, y);
        const id = tiles[i]!;
        if (!id) continue;
        any = true;
        const v = variantOf(tiles[i + 1]!);
        ctx.drawImage(atlas, (id & 15) * cw + 0.5, v * vh + (id >> 4) * ch + 0.5, cw - 1, ch - 1, x * TILE, y * TILE, TILE + pad, TILE + pad);
      }
    }
    return any;
  }

  private drawQuads(layer: SceneQuadLayer, timeMs: number): void {
    const { ctx } = this;
    const base = ctx.getTransform();
    const image = layer.image !== undefined ? this.images[layer.image] : undefined;
    for (const q of layer.quads) {
      const [x0, y0, x1, y1, x2, y2] = q.points as [number, number, number, number, number, number];
      ctx.setTransform(base);
      // A position envelope moves the quad by (x, y) and turns it around its pivot by `rotation` degrees.
      const pos = q.posEnv >= 0 ? this.envelopeAt(q.posEnv, timeMs + q.posEnvOffset) : undefined;
      if (pos) {
        const [px, py] = q.pivot;
        ctx.translate(px + (pos[0] ?? 0), py + (pos[1] ?? 0));
        ctx.rotate(((pos[2] ?? 0) * Math.PI) / 180);
        ctx.translate(-px, -py);
      }
      // The unit square onto the quad: top-left, top-right minus it, bottom-left minus it (quads are nearly
      // always parallelograms).
      ctx.transform(x1 - x0, y1 - y0, x2 - x0, y2 - y0, x0, y0);
      const c = q.colors;
      const colour = q.colorEnv >= 0 ? this.envelopeAt(q.colorEnv, timeMs + q.colorEnvOffset) : undefined;
      const alpha = ((c[3]! + c[7]! + c[11]! + c[15]!) / 4 / 255) * Math.max(0, Math.min(1, colour?.[3] ?? 1));
      if (alpha <= 0) continue;
      if (image) {
        const [u0, v0, u1, , , v2] = q.uv as [number, number, number, number, number, number];
        const su = Math.max(0, Math.min(1, Math.min(u0, u1)));
        const sv = Math.max(0, Math.min(1, Math.min(v0, v2)));
        const eu = Math.max(0, Math.min(1, Math.max(u0, u1)));
        const ev = Math.max(0, Math.min(1, Math.max(v0, v2)));
        if (eu <= su || ev <= sv) continue;
        if (u1 < u0) ctx.transform(-1, 0, 0, 1, 1, 0);
        if (v2 < v0) ctx.transform(1, 0, 0, -1, 0, 1);
        ctx.globalAlpha = alpha;
        ctx.drawImage(image, su * image.width, sv * image.height, (eu - su) * image.width, (ev - sv) * image.height, 0, 0, 1, 1);
        ctx.globalAlpha = 1;
      } else {
        // Corner colours: a vertical gradient from the top edge's mean to the bottom edge's.
        const g = ctx.createLinearGradient(0, 0, 0, 1);
        const mean = (a: number, b: number) => [0, 1, 2, 3].map((k) => (c[a * 4 + k]! + c[b * 4 + k]!) / 2);
        const [tr, tg, tb, ta] = mean(0, 1);
        const [br, bg, bb, ba] = mean(2, 3);
        g.addColorStop(0, `rgba(${tr! | 0},${tg! | 0},${tb! | 0},${ta! / 255})`);
        g.addColorStop(1, `rgba(${br! | 0},${bg! | 0},${bb! | 0},${ba! / 255})`);
        ctx.fillStyle = g;
        ctx.globalAlpha = Math.max(0, Math.min(1, colour?.[3] ?? 1));
        ctx.fillRect(0, 0, 1, 1);
        ctx.globalAlpha = 1;
      }
    }
    ctx.setTransform(base);
  }

  private drawItems(frame: PlayFrame, tick: number, tees: PlayTee[], players: Map<number, PlayPlayer>): void {
    const { ctx } = this;
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
    for (const t of tees) this.drawTee(t, players.get(t.id));
  }

  /** A plain tee: feet, body in the player's colour, eyes and weapon towards the aim. */
  private drawTee(t: PlayTee, p: PlayPlayer | undefined): void {
    const { ctx } = this;
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
  private drawText(tick: number, players: Map<number, PlayPlayer>, dpr: number): void {
    const { ctx } = this;
    const W = this.canvas.width / dpr;
    const H = this.canvas.height / dpr;
    ctx.textAlign = 'left';
    ctx.font = '13px system-ui, sans-serif';
    const shadow = (text: string, x: number, y: number, colour = '#fff') => {
      ctx.lineWidth = 3;
      ctx.strokeStyle = 'rgba(0,0,0,0.7)';
      ctx.strokeText(text, x, y);
      ctx.fillStyle = colour;
      ctx.fillText(text, x, y);
    };
    const seconds = (tick - this.firstTick) / TICKS_PER_SECOND;
    shadow(`tick ${Math.floor(tick)}  ${Math.floor(seconds / 60)}:${(seconds % 60).toFixed(1).padStart(4, '0')}`, 10, 20);
    const chat = this.playback.chat.filter((c) => c.tick <= tick && c.tick > tick - 10 * TICKS_PER_SECOND).slice(-8);
    chat.forEach((c, i) => shadow(c.text, 10, H - 14 - (chat.length - 1 - i) * 18));
    const kills = this.playback.kills.filter((k) => k.tick <= tick && k.tick > tick - 6 * TICKS_PER_SECOND).slice(-5);
    ctx.textAlign = 'right';
    kills.forEach((k, i) => {
      const name = (id: number) => players.get(id)?.name ?? `#${id}`;
      const how = k.killer === k.victim ? `${name(k.victim)} killed themselves` : `${name(k.killer)} [${WEAPON_NAMES[k.weapon] ?? 'world'}] ${name(k.victim)}`;
      shadow(how, W - 10, 20 + i * 18, '#fe8');
    });
  }
}
