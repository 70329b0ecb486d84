import { Datafile, inflateSlices, type ZlibCodec } from '@twcodec/datafile';
import { expandSkippedTiles, LARGEST_TILE_BYTES, LayerFlags, type MapImage, MapError, readMap, TILE_BYTE_OFFSETS, TILE_TILE_BYTES, TileFlags, type TilemapLayer, TilemapLayerVersion, tileColour, type TwMap } from '@twcodec/map';
import { pngToRgba, type RgbaImage } from './images.js';
import { encodePng, type PngEncodeOptions } from './png-encode.js';

/** Where a tile's id is in its bytes. */
const TILE_ID = TILE_BYTE_OFFSETS.tile.id;

export interface RenderOptions {
  /** Pixels per tile (default 4 for the game layer, 8 for the map). */
  tileSize?: number;
  /** Looks up an external image by name (e.g. DDNet's data/mapres/<name>.png); placeholders are drawn without it. */
  mapres?: (name: string) => Uint8Array | undefined;
  /** Larger previews are scaled down to at most this many pixels a side (default 4096). */
  maxSide?: number;
  /** renderGameLayerFile / renderMapFile: the zlib codec the map's data is inflated with (default: the platform's). */
  zlib?: ZlibCodec;
  /** How the PNG is compressed (default: encodePng's). */
  png?: PngEncodeOptions;
}

type Rgba = [number, number, number, number];

const SKY: Rgba = [30, 34, 44, 255];

/** The colour a game tile id is drawn in: its meaning's in schemas/map/tile-meanings.yaml (generated `tileColour`). */
export function gameTileColour(id: number): Rgba | undefined {
  const c = tileColour('game', id);
  return c && [c[0], c[1], c[2], 255];
}

class Canvas {
  readonly pixels: Uint8Array;
  constructor(readonly width: number, readonly height: number, fill: Rgba) {
    this.pixels = new Uint8Array(width * height * 4);
    // One pixel, then doubling copies: a pixel-by-pixel fill of a 4096x4096 canvas takes seconds.
    this.pixels.set(fill.slice(0, Math.min(4, this.pixels.length)));
    for (let n = 4; n < this.pixels.length; n *= 2) this.pixels.copyWithin(n, 0, Math.min(n, this.pixels.length - n));
  }
  blend(x: number, y: number, r: number, g: number, b: number, a: number): void {
    if (a === 0 || x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const o = (y * this.width + x) * 4;
    const p = this.pixels;
    const k = a / 255;
    p[o] = p[o]! + (r - p[o]!) * k;
    p[o + 1] = p[o + 1]! + (g - p[o + 1]!) * k;
    p[o + 2] = p[o + 2]! + (b - p[o + 2]!) * k;
    p[o + 3] = 255;
  }
  png(options?: PngEncodeOptions): Uint8Array {
    return encodePng(this.width, this.height, 4, this.pixels, options);
  }
}

function gameLayerOf(map: TwMap) {
  for (let g = 0; g < map.groups.length; g++) {
    const layers = map.groups[g]!.layers;
    for (let l = 0; l < layers.length; l++) {
      const layer = layers[l]!;
      if (layer.kind === 'tilemap' && layer.tilemapKind === 'game') return { layer, path: `groups[${g}].layers[${l}]` };
    }
  }
  return undefined;
}

/**
 * What a preview may cost, however many layers and tiles a map claims: pixels blended (about 13 ns each on a
 * 2-core Xeon, so under 1 s) and tiles looked at (empty ones cost ~1 ns).
 */
const BLEND_BUDGET = 1 << 25;
const VISIT_BUDGET = 1 << 28;
const DEFAULT_MAX_SIDE = 4096;
/**
 * Most pixels a canvas has: encoding the PNG costs about 0.1 s a million pixels (deflate), so 2^23 keeps the
 * encode near a second; a 4096x2048 preview fits, a square one is at most 2896 a side.
 */
const MAX_CANVAS_PIXELS = 1 << 23;

/**
 * How a grid of `width` x `height` tiles maps onto the canvas: `size` pixels a tile, drawing every `step`-th
 * tile in each direction (one of them is 1). Scaled down from the asked tile size until the canvas fits
 * `maxSide` a side and drawing the layers fits the budgets.
 */
export interface RenderScale {
  size: number;
  step: number;
  /** Canvas size in pixels. */
  width: number;
  height: number;
}

/** What drawing costs at one tile a pixel: tiles visited, and tiles drawn (not empty; all, when too many to count). */
interface RenderCost {
  visits: number;
  drawn: number;
}

function scaleFor(width: number, height: number, tileSize: number, maxSide: number, cost: RenderCost): RenderScale {
  const side = Math.max(width, height);
  const drawn = Math.max(1, cost.drawn);
  const area = width * height;
  let size = Math.min(Math.max(1, Math.floor(tileSize)), Math.floor(maxSide / side), Math.floor(Math.sqrt(BLEND_BUDGET / drawn)), Math.floor(Math.sqrt(MAX_CANVAS_PIXELS / area)));
  if (size >= 1 && cost.visits > VISIT_BUDGET) size = 0;
  if (size >= 1) return { size, step: 1, width: width * size, height: height * size };
  let step = Math.max(2, Math.ceil(side / maxSide), Math.ceil(Math.sqrt(drawn / BLEND_BUDGET)), Math.ceil(Math.sqrt(cost.visits / VISIT_BUDGET)), Math.ceil(Math.sqrt(area / MAX_CANVAS_PIXELS)));
  while (Math.max(Math.ceil(width / step), Math.ceil(height / step)) > maxSide || Math.ceil(width / step) * Math.ceil(height / step) > MAX_CANVAS_PIXELS) step++;
  return { size: 1, step, width: Math.ceil(width / step), height: Math.ceil(height / step) };
}

/**
 * The grid a preview is drawn over: the game layer's (1x1 without one). A game layer whose size is not
 * positive is refused with a MapError (the reader keeps such a layer, empty, in a lenient read).
 */
function gridOf(map: TwMap) {
  const game = gameLayerOf(map);
  if (!game) return { layer: undefined, width: 1, height: 1 };
  const { width, height } = game.layer.item;
  if (!(width > 0 && height > 0)) throw new MapError('render.layer_size', `the game layer is ${width}x${height}; nothing to draw over`, -1, game.path);
  return { layer: game.layer, width, height };
}

/** The scale renderGameLayer / renderMap use for a map and options (canvas size, pixels a tile, tiles skipped). */
export function renderScale(map: TwMap, options: RenderOptions = {}, what: 'game' | 'tiles' = 'tiles'): RenderScale {
  return scaleOf(map, options, what, MODEL_TILES);
}

function scaleOf(map: TwMap, options: RenderOptions, what: 'game' | 'tiles', tiles: TileSource): RenderScale {
  const { layer, width, height } = gridOf(map);
  const layers = what === 'game' ? (layer ? [layer] : []) : drawnLayers(map);
  const areas = layers.map((l) => Math.min(l.item.width, width) * Math.min(l.item.height, height));
  const visits = areas.reduce((n, a) => n + a, 0);
  // Count the tiles that are drawn when that is cheap (at most the visits the budget allows); else all count,
  // and the layers are only read through (a file's broken layer data is found before drawing starts).
  let drawn = visits;
  if (visits > VISIT_BUDGET) for (const l of layers) tiles.rows(l, 0, () => {});
  else drawn = layers.reduce((n, l) => n + nonEmptyTiles(tiles, l, width, height), 0);
  return scaleFor(width, height, options.tileSize ?? (what === 'game' ? 4 : 8), options.maxSide ?? DEFAULT_MAX_SIDE, { visits, drawn });
}

/** Tiles with a non-zero id within the grid's `width` x `height` of a layer. */
function nonEmptyTiles(tiles: TileSource, layer: TilemapLayer, width: number, height: number): number {
  let n = 0;
  const columns = Math.min(layer.item.width, width) * TILE_TILE_BYTES;
  tiles.rows(layer, height, (row) => {
    const end = Math.min(row.length - (row.length % TILE_TILE_BYTES), columns);
    for (let o = 0; o < end; o += TILE_TILE_BYTES) if (row[o + TILE_ID] !== 0) n++;
  });
  return n;
}

/**
 * Where a preview gets a layer's tiles and an image's pixels: the model's (renderGameLayer, renderMap), or a
 * map file's data items, inflated as they are drawn (renderGameLayerFile, renderMapFile).
 */
interface TileSource {
  /** Hands over the layer's rows in order (TILE_TILE_BYTES a tile; the last may be short), at most `maxRows` of them. */
  rows(layer: TilemapLayer, maxRows: number, onRow: (row: Uint8Array, y: number) => void): void;
  pixels(image: MapImage): Uint8Array | undefined;
}

const MODEL_TILES: TileSource = {
  rows: (layer, maxRows, onRow) => rowsOfBytes(layer.tiles.bytes, layer.item.width * TILE_TILE_BYTES, maxRows, onRow),
  pixels: (image) => image.pixels,
};

function rowsOfBytes(bytes: Uint8Array, rowBytes: number, maxRows: number, onRow: (row: Uint8Array, y: number) => void): void {
  for (let y = 0, o = 0; o < bytes.length && y < maxRows; y++, o += rowBytes) onRow(bytes.subarray(o, o + rowBytes), y);
}

/** A PNG of the game layer, one square a tile coloured by the tile's meaning (see gameTileColour). */
export function renderGameLayer(map: TwMap, options: RenderOptions = {}): Uint8Array {
  return drawGameLayer(map, options, MODEL_TILES);
}

function drawGameLayer(map: TwMap, options: RenderOptions, tiles: TileSource): Uint8Array {
  const { layer, width, height } = gridOf(map);
  const { size, step, width: cw, height: ch } = scaleOf(map, options, 'game', tiles);
  const canvas = new Canvas(cw, ch, SKY);
  if (layer) {
    tiles.rows(layer, height, (row, ty) => {
      if (ty % step) return;
      const end = Math.min(row.length - (row.length % TILE_TILE_BYTES), width * TILE_TILE_BYTES);
      for (let tx = 0; tx * TILE_TILE_BYTES < end; tx += step) {
        const colour = gameTileColour(row[tx * TILE_TILE_BYTES + TILE_ID]!);
        if (!colour) continue;
        const x0 = (tx / step) * size;
        const y0 = (ty / step) * size;
        for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) canvas.blend(x0 + x, y0 + y, colour[0], colour[1], colour[2], colour[3]);
      }
    });
  }
  return canvas.png(options.png);
}

/** The tile layers renderMap draws: tiles layers of a positive size that are not detail layers. */
function drawnLayers(map: TwMap) {
  const out = [];
  for (const group of map.groups) {
    for (const layer of group.layers) {
      if (layer.kind !== 'tilemap' || layer.tilemapKind !== 'tiles') continue;
      if (layer.item.flags & LayerFlags.Detail) continue; // detail layers: DDNet hides them at low detail
      if (!(layer.item.width > 0 && layer.item.height > 0)) continue; // read leniently as empty
      out.push(layer);
    }
  }
  return out;
}

/**
 * A PNG of the map's tile layers drawn in group and layer order in the game layer's tile grid (group offsets
 * and parallax are not applied): tile index i is cell (i % 16, i / 16) of the layer's image, a 16x16 grid,
 * with the tile's flip and rotate flags; layers without an image are drawn as their tile colour; external
 * images come from `mapres`, else a checkered placeholder. Quads are not drawn.
 */
export function renderMap(map: TwMap, options: RenderOptions = {}): Uint8Array {
  return drawMap(map, options, MODEL_TILES);
}

function drawMap(map: TwMap, options: RenderOptions, tiles: TileSource): Uint8Array {
  const { width, height } = gridOf(map);
  const { size, step, width: cw, height: ch } = scaleOf(map, options, 'tiles', tiles);
  const canvas = new Canvas(cw, ch, SKY);
  const out = canvas.pixels;
  const images = new Map<number, RgbaImage | undefined>();
  const imageOf = (index: number): RgbaImage | undefined => {
    if (images.has(index)) return images.get(index);
    const image = map.images[index];
    let rgba: RgbaImage | undefined;
    try {
      const pixels = image && !image.item.external ? tiles.pixels(image) : undefined;
      if (image && pixels) {
        const { width: w, height: h } = image.item;
        const ch = pixels.length / (w * h);
        if (w > 0 && h > 0 && (ch === 3 || ch === 4)) {
          const px = new Uint8Array(w * h * 4);
          for (let i = 0; i < w * h; i++) {
            px.set(pixels.subarray(i * ch, i * ch + 3), i * 4);
            px[i * 4 + 3] = ch === 4 ? pixels[i * ch + 3]! : 255;
          }
          rgba = { width: w, height: h, pixels: px };
        }
      } else if (image?.name !== undefined) {
        const png = options.mapres?.(image.name);
        if (png) rgba = pngToRgba(png, `${image.name}.png`);
      }
    } catch {
      rgba = undefined;
    }
    images.set(index, rgba);
    return rgba;
  };
  for (const layer of drawnLayers(map)) {
    const { width: lw, height: lh, image: imageIndex } = layer.item;
    const colour = layer.item.color;
    // Tint and alpha as integers 0..255 (the blend below is integer arithmetic: this loop runs up to
    // BLEND_BUDGET times).
    const [tr, tg, tb, ta] = colour ? [colour.r & 255, colour.g & 255, colour.b & 255, colour.a & 255] : [255, 255, 255, 255];
    const image = imageIndex >= 0 ? imageOf(imageIndex) : undefined;
    const placeholder = imageIndex >= 0 && !image;
    const cellW = image ? image.width / 16 : 0;
    const cellH = image ? image.height / 16 : 0;
    const columns = Math.min(lw, width);
    const half = size / 2;
    tiles.rows(layer, Math.min(lh, height), (bytes, ty) => {
      if (ty % step) return;
      for (let tx = 0; tx < columns; tx += step) {
        const o = tx * TILE_TILE_BYTES;
        if (o + TILE_TILE_BYTES > bytes.length) break;
        const id = bytes[o + TILE_ID]!;
        if (id === 0) continue;
        const flags = bytes[o + TILE_BYTE_OFFSETS.tile.flags]!;
        const x0 = (tx / step) * size;
        const y0 = (ty / step) * size;
        const cellX = id & 15;
        const cellY = id >> 4;
        for (let y = 0; y < size; y++) {
          let q = ((y0 + y) * cw + x0) * 4;
          for (let x = 0; x < size; x++, q += 4) {
            let r: number, g: number, b: number, a: number;
            if (image) {
              // Position in the tile, 0..1, flipped/rotated as DDNet's renderer does.
              let u = (x + 0.5) / size;
              let v = (y + 0.5) / size;
              if (flags & TileFlags.Rotate) {
                const t = u;
                u = v;
                v = 1 - t;
              }
              if (flags & TileFlags.Xflip) u = 1 - u;
              if (flags & TileFlags.Yflip) v = 1 - v;
              const px = Math.min(image.width - 1, ((cellX + u) * cellW) | 0);
              const py = Math.min(image.height - 1, ((cellY + v) * cellH) | 0);
              const p = (py * image.width + px) * 4;
              r = image.pixels[p]!;
              g = image.pixels[p + 1]!;
              b = image.pixels[p + 2]!;
              a = image.pixels[p + 3]!;
            } else if (placeholder) {
              const checker = (x < half) !== (y < half) ? 150 : 110;
              r = g = checker;
              b = checker + 20;
              a = 160;
            } else {
              r = g = b = 200;
              a = 255;
            }
            // Integer blends (x * 257 >> 16 is x / 255): a float stored into the canvas costs 3x as much.
            const k = (a * ta * 257) >> 16;
            if (k === 0) continue;
            const keep = 255 - k;
            out[q] = ((out[q]! * keep + ((r * tr * 257) >> 16) * k) * 257) >> 16;
            out[q + 1] = ((out[q + 1]! * keep + ((g * tg * 257) >> 16) * k) * 257) >> 16;
            out[q + 2] = ((out[q + 2]! * keep + ((b * tb * 257) >> 16) * k) * 257) >> 16;
          }
        }
      }
    });
  }
  return canvas.png(options.png);
}

/**
 * renderGameLayer for a map file: the same PNG, with only the items read up front; each drawn layer is
 * inflated a slice at a time as it is drawn (and once before, to count its tiles), so memory does not grow
 * with the layers' size: an 8192x8192 game layer no longer holds 256 MiB of tiles (issue 25). Refuses what
 * a lenient readMap refuses.
 */
export function renderGameLayerFile(bytes: Uint8Array, options: RenderOptions = {}): Uint8Array {
  const { map, tiles } = openForRender(bytes, options.zlib);
  return drawGameLayer(map, options, tiles);
}

/** renderMap for a map file, as renderGameLayerFile: tiles and image pixels are inflated as they are drawn. */
export function renderMapFile(bytes: Uint8Array, options: RenderOptions = {}): Uint8Array {
  const { map, tiles } = openForRender(bytes, options.zlib);
  return drawMap(map, options, tiles);
}

function openForRender(bytes: Uint8Array, zlib: ZlibCodec | undefined): { map: TwMap; tiles: TileSource } {
  const map = readMap(bytes, { strict: false, skipData: true });
  // readMap read the container from these bytes (and refused a broken one with a MapError); reading it again
  // costs the item table only: data stays stored.
  const df = Datafile.read(bytes, zlib ? { zlib } : {});
  return { map, tiles: datafileTiles(df) };
}

/**
 * Tiles and pixels from the data items: a layer's data whose stream breaks, or inflates to other than its
 * declared size, is not drawn (a lenient readMap reads such a layer as empty). That is found out when the
 * scale is worked out (every layer is read through once), before drawing starts.
 */
function datafileTiles(df: Datafile): TileSource {
  // By layer, not by data index: layers may share a data item, and whether it reads depends on the layer's
  // size and version (a fuzzed map: a 260x115 layer on the data of a 270x120 one, too long for it).
  const broken = new Set<TilemapLayer>();
  return {
    rows(layer, maxRows, onRow) {
      const index = layer.item.data;
      const data = df.data[index];
      if (!data || broken.has(layer)) return;
      const rowBytes = layer.item.width * TILE_TILE_BYTES;
      try {
        // Skip-compressed tiles (Teeworlds 0.7) are expanded whole, as readMap does (to no tiles
        // for a size whose byte count overflows).
        if (layer.item.version >= TilemapLayerVersion.SkipCompressed) {
          const count = layer.item.width * layer.item.height;
          const expanded = expandSkippedTiles(data.bytes(), count <= 0x7fffffff / LARGEST_TILE_BYTES ? count : 0, `data[${index}]`);
          data.unload();
          rowsOfBytes(expanded, rowBytes, maxRows, onRow);
          return;
        }
        if (!data.stored || !data.storedCompressed) {
          rowsOfBytes(data.bytes(), rowBytes, maxRows, onRow);
          return;
        }
        const row = new Uint8Array(rowBytes);
        let filled = 0;
        let y = 0;
        const total = inflateSlices(df.zlib, data.stored, data.size, (slice) => {
          for (let at = 0; at < slice.length && y < maxRows; ) {
            const n = Math.min(slice.length - at, rowBytes - filled);
            // A whole row inside the slice is handed over as it is; one split between slices is copied.
            if (filled === 0 && n === rowBytes) onRow(slice.subarray(at, at + n), y++);
            else {
              row.set(slice.subarray(at, at + n), filled);
              filled += n;
              if (filled === rowBytes) {
                onRow(row, y++);
                filled = 0;
              }
            }
            at += n;
          }
        });
        if (total !== data.size) throw new MapError('DATA_SIZE', `inflates to ${total} bytes, not ${data.size}`, data.fileOffset, `data[${index}]`);
        if (filled > 0 && y < maxRows) onRow(row.subarray(0, filled), y);
      } catch {
        broken.add(layer);
      }
    },
    pixels(image) {
      const data = df.data[image.item.data];
      try {
        return data?.bytes();
      } catch {
        return undefined;
      } finally {
        data?.unload();
      }
    },
  };
}
