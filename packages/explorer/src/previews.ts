// Pictures for map nodes: each tilemap layer as one pixel per tile (physics layers coloured by tile meaning,
// tiles layers in their tint), tiles layers with an embedded tileset drawn with it (on request, when selected),
// embedded images as they are, envelopes as plots. Built in the worker, drawn by the page.
import { type MapImage, readMap, TileFlags, type TilemapLayer, tileColour, type TwMap } from '@twcodec/map';
import type { LayoutNode } from './layout.js';

export interface Preview {
  width: number;
  height: number;
  rgba: Uint8ClampedArray<ArrayBuffer>;
  /** Said under the picture (how it was drawn). */
  note?: string;
}

type Rgb = readonly [number, number, number];
/** Largest layer drawn (tiles); larger layers get no preview rather than a huge allocation. */
const MAX_TILES = 4_000_000;

/** Most quads drawn for one layer. */
const MAX_QUADS = 20_000;
/** Largest tileset rendering (pixels); the tile size is chosen to stay under it. */
const MAX_RENDER_PIXELS = 3_000_000;

/**
 * Attaches previews to the layer and image item nodes of a map layout and plots to its envelopes. Tiles layers
 * whose tileset is embedded get `lazy` keys: `renderLayer(map, key)` draws them with their tiles.
 */
export function attachPreviews(bytes: Uint8Array, root: LayoutNode): TwMap {
  const map = readMap(bytes);
  const items = root.children?.find((c) => c.label === 'items')?.children ?? [];
  const ofKind = (kind: string) => items.filter((n) => n.label.startsWith(`${kind} #`));
  const layerNodes = ofKind('layer');
  const groupNodes = ofKind('group');
  map.groups.forEach((group, g) => {
    const start = Number(groupNodes[g]?.children?.find((c) => c.label === 'start_layer')?.value ?? NaN);
    group.layers.forEach((layer, l) => {
      const node = layerNodes[start + l];
      if (node && layer.kind === 'quads') {
        // Corner positions are 22.10 fixed point; the picture uses the mean of the corner colours.
        node.quads = layer.quads.slice(0, MAX_QUADS).map((q) => {
          const colours = [q.colorTopLeft, q.colorTopRight, q.colorBottomRight, q.colorBottomLeft];
          const mean = (k: 'r' | 'g' | 'b' | 'a') => colours.reduce((sum, c) => sum + c[k], 0) / 4;
          return {
            corners: [q.topLeft, q.topRight, q.bottomRight, q.bottomLeft].map((p): [number, number] => [p.x / 1024, p.y / 1024]),
            rgba: [mean('r'), mean('g'), mean('b'), mean('a')],
          };
        });
      }
      if (!node || layer.kind !== 'tilemap') return;
      const { width, height } = layer.item;
      if (width * height > MAX_TILES || layer.tiles.length < width * height) return;
      const rgba = new Uint8ClampedArray(width * height * 4);
      const physics = layer.tilemapKind !== 'tiles';
      // Darkened, so that the common white tint shows on the page's light background.
      const tint: Rgb = [layer.item.color.r * 0.6, layer.item.color.g * 0.6, layer.item.color.b * 0.6];
      const tiles = layer.tiles.bytes;
      for (let i = 0; i < width * height; i++) {
        const id = tiles[i * 4]!;
        if (id === 0) continue;
        // Physics layers in the colours of the tile meanings (schemas/map/tile-meanings.yaml), as `map render` draws them.
        const c = !physics ? tint : tileColour(layer.tilemapKind, id)!;
        rgba.set([c[0], c[1], c[2], 255], i * 4);
      }
      node.preview = { width, height, rgba };
      if (!physics && tilesetOf(map, layer)) node.lazy = `layer:${g}:${l}`;
      else if (!physics && map.images[layer.item.image]) {
        node.preview.note = `One pixel per tile, in the layer colour: its image "${map.images[layer.item.image]!.name ?? layer.item.image}" is external (the client's own copy), not in the file.`;
      }
    });
  });
  const envelopeNodes = ofKind('envelope');
  map.envelopes.forEach((envelope, e) => {
    const node = envelopeNodes[e];
    if (!node) return;
    const n = Math.max(1, Math.min(4, envelope.item.channels));
    const channels = envelope.item.channels === 1 ? ['volume'] : envelope.item.channels === 3 ? ['x', 'y', 'rotation'] : ['r', 'g', 'b', 'a'].slice(0, n);
    // Values are 22.10 fixed point (colours 0-1024).
    node.plot = {
      channels,
      points: envelope.points.map((p) => ({
        time: p.time,
        curve: p.curveType,
        values: p.values.slice(0, channels.length).map((v) => v / 1024),
        ...(p.bezier
          ? {
              in: channels.map((_, c): [number, number] => [p.bezier!.inTangentDx[c] ?? 0, (p.bezier!.inTangentDy[c] ?? 0) / 1024]),
              out: channels.map((_, c): [number, number] => [p.bezier!.outTangentDx[c] ?? 0, (p.bezier!.outTangentDy[c] ?? 0) / 1024]),
            }
          : {}),
      })),
    };
  });
  // Images and sounds keep their names in a data item (not in the item's ints, as layers, groups and envelopes
  // do): the tree shows them as the map reader reads them.
  const soundNodes = ofKind('sound');
  map.sounds.forEach((sound, i) => {
    if (soundNodes[i] && sound.name !== undefined) soundNodes[i].value = JSON.stringify(sound.name);
  });
  const imageNodes = ofKind('image');
  map.images.forEach((image, i) => {
    const node = imageNodes[i];
    if (node && image.name !== undefined) node.value = JSON.stringify(image.name);
    const { width, height } = image.item;
    if (!node || !image.pixels || width * height > MAX_TILES) return;
    const channels = image.pixels.length === width * height * 3 ? 3 : 4;
    if (image.pixels.length !== width * height * channels) return;
    const rgba = new Uint8ClampedArray(width * height * 4);
    for (let p = 0; p < width * height; p++) {
      rgba[p * 4] = image.pixels[p * channels]!;
      rgba[p * 4 + 1] = image.pixels[p * channels + 1]!;
      rgba[p * 4 + 2] = image.pixels[p * channels + 2]!;
      rgba[p * 4 + 3] = channels === 4 ? image.pixels[p * 4 + 3]! : 255;
    }
    node.preview = { width, height, rgba };
  });
  return map;
}

function tilesetOf(map: TwMap, layer: TilemapLayer): MapImage | undefined {
  const image = map.images[layer.item.image];
  if (!image?.pixels) return undefined;
  const { width, height } = image.item;
  if (width < 16 || height < 16 || image.pixels.length !== width * height * 4) return undefined;
  return image;
}

/**
 * A tiles layer drawn with its embedded tileset (16 x 16 tiles), each tile flipped and rotated as its flags say
 * (x flip, y flip, then rotation, as schemas/map/enums say) and tinted with the layer colour. Tiles are drawn
 * `tile` pixels wide, chosen so that the picture stays under a few million pixels.
 */
export function renderLayer(map: TwMap, key: string): Preview | undefined {
  const [, g, l] = key.split(':').map(Number);
  const layer = map.groups[g!]?.layers[l!];
  if (!layer || layer.kind !== 'tilemap') return undefined;
  const image = tilesetOf(map, layer);
  if (!image) return undefined;
  const { width, height } = layer.item;
  if (width * height > MAX_TILES || layer.tiles.length < width * height) return undefined;
  const tile = Math.max(1, Math.min(16, Math.floor(Math.sqrt(MAX_RENDER_PIXELS / (width * height)))));
  const out = new Uint8ClampedArray(width * tile * height * tile * 4);
  const src = image.pixels!;
  const imageWidth = image.item.width;
  const cellW = image.item.width / 16;
  const cellH = image.item.height / 16;
  const { r, g: green, b, a } = layer.item.color;
  const tiles = layer.tiles.bytes;
  const rowStride = width * tile * 4;
  for (let ty = 0; ty < height; ty++) {
    for (let tx = 0; tx < width; tx++) {
      const i = ty * width + tx;
      const id = tiles[i * 4]!;
      if (id === 0) continue;
      const flags = tiles[i * 4 + 1]!;
      const cellX = (id % 16) * cellW;
      const cellY = (id >> 4) * cellH;
      for (let py = 0; py < tile; py++) {
        for (let px = 0; px < tile; px++) {
          let u = (px + 0.5) / tile;
          let v = (py + 0.5) / tile;
          if (flags & TileFlags.Rotate) [u, v] = [v, 1 - u];
          if (flags & TileFlags.Xflip) u = 1 - u;
          if (flags & TileFlags.Yflip) v = 1 - v;
          const s = ((cellY + Math.floor(v * cellH)) * imageWidth + cellX + Math.floor(u * cellW)) * 4;
          const o = (ty * tile + py) * rowStride + (tx * tile + px) * 4;
          out[o] = (src[s]! * r) / 255;
          out[o + 1] = (src[s + 1]! * green) / 255;
          out[o + 2] = (src[s + 2]! * b) / 255;
          out[o + 3] = (src[s + 3]! * a) / 255;
        }
      }
    }
  }
  return { width: width * tile, height: height * tile, rgba: out, note: `Drawn with the embedded image "${image.name ?? layer.item.image}", ${tile} pixels per tile.` };
}
