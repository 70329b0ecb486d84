// The map under and over the recording in the player (player.ts): a scene's tile and quad layers (scene.ts has
// them prepared) drawn in their groups with offset and parallax, envelopes animating colour and quads, tiles drawn
// one by one when zoomed in, from chunks painted once when zoomed out, and from the layers' overview pictures when
// a tile is a few pixels. A module of its own: the map's drawing and its caches are apart from the playback.
import { ease } from './pictures.js';
import { type Scene, type SceneEnvelope, type SceneQuadLayer, type SceneTileLayer, variantOf } from './scene.js';

/** World units per tile. */
export const TILE = 32;
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

export class MapPainter {
  private atlases: ImageBitmap[] = [];
  private images: ImageBitmap[] = [];
  private overviews = new Map<SceneTileLayer, ImageBitmap>();
  /** The game layer's picture (the entities view), once loaded. */
  game: ImageBitmap | undefined;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly ctx: CanvasRenderingContext2D,
    private readonly scene: Scene,
    /** Told how many painted chunks are kept, each time one is painted. */
    private readonly onChunks: (chunks: number) => void,
  ) {}

  /** Makes the scene's pictures (tilesets, quad images, overviews, the game layer) bitmaps to draw. */
  async load(): Promise<void> {
    const bitmap = (w: number, h: number, rgba: Uint8ClampedArray<ArrayBuffer>) => createImageBitmap(new ImageData(rgba, w, h));
    const s = this.scene;
    this.atlases = await Promise.all(s.atlases.map((a) => bitmap(a.width, a.height * 8, a.rgba)));
    this.images = await Promise.all(s.images.map((i) => bitmap(i.width, i.height, i.rgba)));
    for (const l of s.layers) if (l.kind === 'tiles' && l.overview.width > 0) this.overviews.set(l, await bitmap(l.overview.width, l.overview.height, l.overview.rgba));
    if (s.game) this.game = await bitmap(s.game.width, s.game.height, s.game.rgba);
  }

  private groupTransform(g: number, z: number, camera: { x: number; y: number }): void {
    const group = this.scene.groups[g]!;
    const { width: W, height: H } = this.canvas;
    // DDNet 16.4 src/game/client/render.cpp MapScreenToWorld: a group's view is centred on
    // offset + camera * parallax / 100.
    const cx = group.offsetX + (camera.x * group.parallaxX) / 100;
    const cy = group.offsetY + (camera.y * group.parallaxY) / 100;
    this.ctx.setTransform(z, 0, 0, z, W / 2 - cx * z, H / 2 - cy * z);
  }

  /** An envelope's channels at `ms`, looping over its length, each point's curve as DDNet evaluates it. */
  private envelopeAt(index: number, ms: number): number[] | undefined {
    const env: SceneEnvelope | undefined = this.scene.envelopes[index];
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

  /** Draws a layer of the map with the view centred on `camera` (world units), `z` canvas pixels per world unit, `timeMs` into the recording (its envelopes). */
  drawLayer(layer: SceneTileLayer | SceneQuadLayer, z: number, camera: { x: number; y: number }, timeMs: number, front = false): void {
    this.groupTransform(layer.group, z, camera);
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

  /** Chunks of zoomed-out layers painted once, the least recently used first. */
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
    this.onChunks(this.chunks.size);
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
}
