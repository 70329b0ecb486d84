// Pictures for map nodes: each tilemap layer as one pixel per tile (physics layers coloured by tile meaning,
// tiles layers in their tint), tiles layers with an embedded tileset drawn with it (on request, when selected),
// embedded images as they are, envelopes as plots. Built in the worker, drawn by the page.
import { type MapImage, type MapLayer, readMap, TileFlags, tileIdName, type TilemapLayer, tileColour, type TwMap } from '@twcodec/map';
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
/** Largest layer whose one-pixel-per-tile picture comes with the layout (1.2 MB); larger ones are drawn on request. */
const EAGER_PREVIEW_TILES = 300_000;

/**
 * A tilemap layer one pixel per tile: physics layers in the colours of their tile meanings, tiles layers in their
 * colour (darkened, so that the common white tint shows on the page's light background).
 */
function plainPicture(map: TwMap, layer: TilemapLayer): Preview {
  const { width, height } = layer.item;
  const rgba = new Uint8ClampedArray(width * height * 4);
  const physics = layer.tilemapKind !== 'tiles';
  const tint: Rgb = [layer.item.color.r * 0.6, layer.item.color.g * 0.6, layer.item.color.b * 0.6];
  const tiles = layer.tiles.bytes;
  for (let i = 0; i < width * height; i++) {
    const id = tiles[i * 4]!;
    if (id === 0) continue;
    // Physics layers in the colours of the tile meanings (schemas/map/tile-meanings.yaml), as `map render` draws them.
    const c = !physics ? tint : tileColour(layer.tilemapKind, id)!;
    rgba.set([c[0], c[1], c[2], 255], i * 4);
  }
  const preview: Preview = { width, height, rgba };
  if (!physics && !tilesetOf(map, layer) && map.images[layer.item.image]) {
    preview.note = `One pixel per tile, in the layer colour: its image "${map.images[layer.item.image]!.name ?? layer.item.image}" is external (the client's own copy), not in the file.`;
  }
  return preview;
}

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
      if (layer.tiles.length >= width * height) node.tiles = { key: `${g}:${l}`, width, height };
      if (width * height > MAX_TILES || layer.tiles.length < width * height) return;
      const physics = layer.tilemapKind !== 'tiles';
      // A large layer's picture is drawn when the layer is selected (the worker's `renderLayer`), not with the
      // file's layout: 35 layers of 2000 x 2000 tiles would be 500 MB of pictures sent to the page on opening.
      if (width * height > EAGER_PREVIEW_TILES) {
        node.lazy = `layer:${g}:${l}`;
        return;
      }
      node.preview = plainPicture(map, layer);
      if (!physics && tilesetOf(map, layer)) node.lazy = `layer:${g}:${l}`;
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
  const groupsView = groupsNode(map, groupNodes, layerNodes);
  if (groupsView) root.children!.unshift(groupsView);
  return map;
}

/** What a layer is, as a mapper names it: its tilemap kind (tiles, game, front, tele, speedup, switch, tune), quads or sounds. */
export function layerKindName(layer: MapLayer): string {
  if (layer.kind === 'tilemap') return layer.tilemapKind;
  if (layer.kind === 'sounds_deprecated') return 'sounds (old)';
  return layer.kind === 'unknown' ? 'unknown layer' : layer.kind;
}

/**
 * The map as a mapper sees it: groups in drawing order, each with its layers named by kind and name. A view: its
 * nodes stand for the group and layer items (selecting one highlights their bytes, with their pictures and
 * fields), which stay in `items` as the file holds them.
 */
function groupsNode(map: TwMap, groupNodes: LayoutNode[], layerNodes: LayoutNode[]): LayoutNode | undefined {
  if (!map.groups.length) return undefined;
  const copy = (n: LayoutNode | undefined, label: string, extra: Partial<LayoutNode>): LayoutNode => ({
    label,
    start: n?.start ?? 0,
    end: n?.end ?? 0,
    view: true,
    ...(n?.description ? { description: n.description } : {}),
    ...(n?.preview ? { preview: n.preview } : {}),
    ...(n?.lazy ? { lazy: n.lazy } : {}),
    ...(n?.quads ? { quads: n.quads } : {}),
    ...(n?.tiles ? { tiles: n.tiles } : {}),
    ...(n?.findingCount ? { findingCount: n.findingCount, findings: n.findings } : {}),
    // The item's fields (copies: a node has one parent in the tree), after the type and size ints.
    children: (n?.children ?? []).slice(2).map((c) => ({ ...c, view: true, children: undefined })),
    ...extra,
  });
  const groups = map.groups.map((group, g) => {
    const gi = group.item;
    const start = Number(groupNodes[g]?.children?.find((c) => c.label === 'start_layer')?.value ?? NaN);
    const layers = group.layers.map((layer, l) => {
      const kind = layerKindName(layer);
      const name = 'name' in layer.item && typeof layer.item.name === 'string' && layer.item.name ? ` "${layer.item.name}"` : '';
      let value: string | undefined;
      if (layer.kind === 'tilemap') {
        const image = layer.tilemapKind === 'tiles' ? map.images[layer.item.image] : undefined;
        value = `${layer.item.width} × ${layer.item.height} tiles${image ? `, image "${image.name ?? layer.item.image}"${image.pixels ? '' : ' (external)'}` : ''}`;
      } else if (layer.kind === 'quads') value = `${layer.quads.length} quads`;
      else if (layer.kind === 'sounds') value = `${layer.sources.length} sources`;
      // The item node keeps the lazy key of the tileset drawing; the view node asks the same.
      return copy(layerNodes[start + l], `${kind}${name}`, { ...(value ? { value } : {}), lazy: layerNodes[start + l]?.lazy });
    });
    const parallax = gi.parallaxX === 100 && gi.parallaxY === 100 ? '' : `, parallax ${gi.parallaxX}/${gi.parallaxY}`;
    const node = copy(groupNodes[g], `group ${g}${gi.name ? ` "${gi.name}"` : ''}`, {
      value: `${group.layers.length} layer${group.layers.length === 1 ? '' : 's'}${parallax}${gi.offsetX || gi.offsetY ? `, offset ${gi.offsetX}, ${gi.offsetY}` : ''}${gi.clipping ? ', clipped' : ''}`,
      open: true,
    });
    // Layers first, then the group's own fields under one node.
    const fields = node.children!;
    node.children = [...layers, { label: 'fields', start: node.start, end: node.end, view: true, description: 'The group item\'s fields.', children: fields }];
    return node;
  });
  return {
    label: 'groups and layers',
    start: groupNodes[0]?.start ?? 0,
    end: layerNodes[layerNodes.length - 1]?.end ?? groupNodes[groupNodes.length - 1]?.end ?? 0,
    view: true,
    open: true,
    value: `${map.groups.length} groups, ${map.groups.reduce((n, g) => n + g.layers.length, 0)} layers`,
    description: 'The groups in drawing order (back to front), each with its layers named by kind: tiles, game, front, tele, speedup, switch, tune, quads, sounds. The same items, as the file lists them, are under "items".',
    children: groups,
  };
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
  const { width, height } = layer.item;
  if (width * height > MAX_TILES || layer.tiles.length < width * height) return undefined;
  const image = tilesetOf(map, layer);
  // A large layer without a tileset drawing (physics, external image): its one-pixel-per-tile picture.
  if (!image) return width * height > EAGER_PREVIEW_TILES ? plainPicture(map, layer) : undefined;
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

const FLAG_NAMES: [number, string][] = [
  [TileFlags.Xflip, 'x flip'],
  [TileFlags.Yflip, 'y flip'],
  [TileFlags.Opaque, 'opaque'],
  [TileFlags.Rotate, 'rotate'],
];

/** What one tile of a tilemap layer holds and means: `key` is `g:l`; x, y in tiles. */
export function tileInfo(map: TwMap, key: string, x: number, y: number): { title: string; lines: string[] } | undefined {
  const [g, l] = key.split(':').map(Number);
  const layer = map.groups[g!]?.layers[l!];
  if (!layer || layer.kind !== 'tilemap') return undefined;
  const { width, height } = layer.item;
  if (x < 0 || y < 0 || x >= width || y >= height) return undefined;
  const i = y * width + x;
  const kind = layer.tilemapKind;
  const lines: string[] = [];
  const flagText = (flags: number) => (flags ? `${flags} (${FLAG_NAMES.filter(([bit]) => flags & bit).map(([, n]) => n).join(', ')})` : '0');
  const meaning = (id: number) => (id === 0 ? 'air (empty)' : (tileIdName(kind === 'tiles' ? 'game' : kind, id)?.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() ?? 'not a tile this layer accepts'));
  const base = layer.tiles.get(i);
  if (kind === 'tiles') {
    lines.push(`id ${base.id}: tileset cell row ${base.id >> 4}, column ${base.id % 16}`, `flags ${flagText(base.flags)}`);
  } else if (kind === 'game' || kind === 'front') {
    const t = kind === 'front' ? layer.front.get(i) : base;
    lines.push(`id ${t.id}: ${meaning(t.id)}`, `flags ${flagText(t.flags)}`);
  } else if (kind === 'tele') {
    const t = layer.tele.get(i);
    lines.push(`id ${t.id}: ${meaning(t.id)}`, `number ${t.number}`);
  } else if (kind === 'speedup') {
    const t = layer.speedup.get(i);
    lines.push(`id ${t.id}: ${meaning(t.id)}`, `force ${t.force}, max speed ${t.maxSpeed}, angle ${t.angle}°`);
  } else if (kind === 'switch') {
    const t = layer.switch.get(i);
    lines.push(`id ${t.id}: ${meaning(t.id)}`, `number ${t.number}, delay ${t.delay}, flags ${flagText(t.flags)}`);
  } else if (kind === 'tune') {
    const t = layer.tune.get(i);
    lines.push(`id ${t.id}: ${meaning(t.id)}`, `tune zone ${t.number}`);
  }
  return { title: `tile ${x}, ${y} of the ${kind} layer`, lines };
}
