import { tileColour, type TwMap } from '@twcodec/map';
import { encode } from 'fast-png';
import { pngToRgba, type RgbaImage } from './images.js';

export interface RenderOptions {
  /** Pixels per tile (default 4 for the game layer, 8 for the map). */
  tileSize?: number;
  /** Looks up an external image by name (e.g. DDNet's data/mapres/<name>.png); placeholders are drawn without it. */
  mapres?: (name: string) => Uint8Array | undefined;
  /** Larger previews are scaled down to at most this many pixels a side (default 4096). */
  maxSide?: number;
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
    for (let i = 0; i < this.pixels.length; i += 4) this.pixels.set(fill, i);
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
  png(): Uint8Array {
    return encode({ width: this.width, height: this.height, data: this.pixels, channels: 4, depth: 8 });
  }
}

function gameLayer(map: TwMap) {
  for (const group of map.groups) for (const layer of group.layers) if (layer.kind === 'tilemap' && layer.tilemapKind === 'game') return layer;
  return undefined;
}

/** A canvas over the game layer's grid (1x1 without one), tiles scaled down to fit `maxSide`. */
function gridCanvas(map: TwMap, options: RenderOptions, defaultTileSize: number) {
  const layer = gameLayer(map);
  const width = layer?.item.width ?? 1;
  const height = layer?.item.height ?? 1;
  const size = Math.max(1, Math.min(options.tileSize ?? defaultTileSize, Math.floor((options.maxSide ?? 4096) / Math.max(width, height, 1))));
  return { layer, width, height, size, canvas: new Canvas(width * size, height * size, SKY) };
}

/** A PNG of the game layer, one square a tile coloured by the tile's meaning (see gameTileColour). */
export function renderGameLayer(map: TwMap, options: RenderOptions = {}): Uint8Array {
  const { layer, width, height, size, canvas } = gridCanvas(map, options, 4);
  if (layer) {
    const bytes = layer.tiles.bytes;
    for (let i = 0; i < width * height && i * 4 < bytes.length; i++) {
      const colour = gameTileColour(bytes[i * 4]!);
      if (!colour) continue;
      const x0 = (i % width) * size;
      const y0 = Math.floor(i / width) * size;
      for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) canvas.blend(x0 + x, y0 + y, ...colour);
    }
  }
  return canvas.png();
}

// Tile flags (checked against DDNet src/game/mapitems.h: TILEFLAG_XFLIP 1, YFLIP 2, OPAQUE 4, ROTATE 8).
const XFLIP = 1;
const YFLIP = 2;
const ROTATE = 8;

/**
 * A PNG of the map's tile layers drawn in group and layer order in the game layer's tile grid (group offsets
 * and parallax are not applied): tile index i is cell (i % 16, i / 16) of the layer's image, a 16x16 grid,
 * with the tile's flip and rotate flags; layers without an image are drawn as their tile colour; external
 * images come from `mapres`, else a checkered placeholder. Quads are not drawn.
 */
export function renderMap(map: TwMap, options: RenderOptions = {}): Uint8Array {
  const { width, height, size, canvas } = gridCanvas(map, options, 8);
  const images = new Map<number, RgbaImage | undefined>();
  const imageOf = (index: number): RgbaImage | undefined => {
    if (images.has(index)) return images.get(index);
    const image = map.images[index];
    let rgba: RgbaImage | undefined;
    try {
      if (image?.pixels && !image.item.external) {
        const { width: w, height: h } = image.item;
        const ch = image.pixels.length / (w * h);
        const px = new Uint8Array(w * h * 4);
        for (let i = 0; i < w * h; i++) {
          px.set(image.pixels.subarray(i * ch, i * ch + 3), i * 4);
          px[i * 4 + 3] = ch === 4 ? image.pixels[i * ch + 3]! : 255;
        }
        rgba = { width: w, height: h, pixels: px };
      } else if (image?.name !== undefined) {
        const png = options.mapres?.(image.name);
        if (png) rgba = pngToRgba(png);
      }
    } catch {
      rgba = undefined;
    }
    images.set(index, rgba);
    return rgba;
  };
  for (const group of map.groups) {
    for (const layer of group.layers) {
      if (layer.kind !== 'tilemap' || layer.tilemapKind !== 'tiles') continue;
      if (layer.item.flags & 1) continue; // detail layers: DDNet hides them at low detail
      const { width: lw, height: lh, image: imageIndex } = layer.item;
      const colour = layer.item.color;
      const tint = colour ? [colour.r, colour.g, colour.b, colour.a] : [255, 255, 255, 255];
      const image = imageIndex >= 0 ? imageOf(imageIndex) : undefined;
      const placeholder = imageIndex >= 0 && !image;
      const bytes = layer.tiles.bytes;
      for (let ty = 0; ty < Math.min(lh, height); ty++) {
        for (let tx = 0; tx < Math.min(lw, width); tx++) {
          const o = (ty * lw + tx) * 4;
          const id = bytes[o]!;
          if (id === 0 || o >= bytes.length) continue;
          const flags = bytes[o + 1]!;
          for (let y = 0; y < size; y++) {
            for (let x = 0; x < size; x++) {
              let r: number, g: number, b: number, a: number;
              if (image) {
                // Position in the tile, 0..1, flipped/rotated as DDNet's renderer does.
                let u = (x + 0.5) / size;
                let v = (y + 0.5) / size;
                if (flags & ROTATE) [u, v] = [v, 1 - u];
                if (flags & XFLIP) u = 1 - u;
                if (flags & YFLIP) v = 1 - v;
                const cw = image.width / 16;
                const chh = image.height / 16;
                const px = Math.min(image.width - 1, Math.floor(((id % 16) + u) * cw));
                const py = Math.min(image.height - 1, Math.floor((Math.floor(id / 16) + v) * chh));
                const p = (py * image.width + px) * 4;
                r = image.pixels[p]!;
                g = image.pixels[p + 1]!;
                b = image.pixels[p + 2]!;
                a = image.pixels[p + 3]!;
              } else if (placeholder) {
                const checker = (Math.floor((x * 2) / size) ^ Math.floor((y * 2) / size)) ? 150 : 110;
                [r, g, b, a] = [checker, checker, checker + 20, 160];
              } else {
                [r, g, b, a] = [200, 200, 200, 255];
              }
              canvas.blend(tx * size + x, ty * size + y, (r * tint[0]!) / 255, (g * tint[1]!) / 255, (b * tint[2]!) / 255, (a * tint[3]!) / 255);
            }
          }
        }
      }
    }
  }
  return canvas.png();
}
