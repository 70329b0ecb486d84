// A map prepared for the player (player.ts): its groups with their offsets and parallax, the layers DDNet draws
// (tiles layers and quads layers; physics layers are not drawn in the game) in drawing order, each tiles layer's
// tileset turned into an atlas of its 8 flip/rotation variants already tinted with the layer colour, so that
// the page draws a tile with one drawImage. Built in the worker from the map model, sent with its pixel
// buffers transferred.
import { LayerFlags, type MapImage, readMap, TileFlags, tileColour, type TwMap } from '@twcodec/map';

/** A tileset's 256 cells in the 8 flip/rotation variants, stacked vertically (variant v at y = v * height). */
export interface SceneAtlas {
  width: number;
  height: number;
  rgba: Uint8ClampedArray<ArrayBuffer>;
}

export interface SceneGroup {
  offsetX: number;
  offsetY: number;
  parallaxX: number;
  parallaxY: number;
  /** The clip rectangle in world units, when the group clips. */
  clip?: [number, number, number, number];
}

export interface SceneTileLayer {
  kind: 'tiles';
  group: number;
  name: string;
  width: number;
  height: number;
  /** Two bytes per tile: id, flags. */
  tiles: Uint8Array<ArrayBuffer>;
  /** Index into `atlases`; without one (the image is external: the client's own copy), tiles are filled with `fill`. */
  atlas?: number;
  fill: [number, number, number, number];
  /** Colour envelope (its alpha is applied) and its offset in ms; -1 none. */
  colorEnv: number;
  colorEnvOffset: number;
  /** The whole layer, a few pixels per tile, for when the view is zoomed out too far to draw single tiles. */
  overview: { width: number; height: number; rgba: Uint8ClampedArray<ArrayBuffer> };
}

/** An envelope's points: time in ms, curve type, values (22.10 fixed point divided by 1024: colours 0..1, positions in world units, rotation in degrees). */
export interface SceneEnvelope {
  points: { time: number; curve: number; values: number[] }[];
}

export interface SceneQuad {
  /** Corners in world units: top-left, top-right, bottom-left, bottom-right (the file's order). */
  points: number[];
  /** Corner colours, 0..255, in the same order (4 x rgba). */
  colors: number[];
  /** Texture coordinates (1.0 = the image's size), same order. */
  uv: number[];
  /** Centre of rotation (world units). */
  pivot: [number, number];
  /** Position envelope (x, y, rotation) and colour envelope: indices into `Scene.envelopes`, -1 none; offsets in ms. */
  posEnv: number;
  posEnvOffset: number;
  colorEnv: number;
  colorEnvOffset: number;
}

export interface SceneQuadLayer {
  kind: 'quads';
  group: number;
  name: string;
  /** Index into `images` (embedded images only). */
  image?: number;
  quads: SceneQuad[];
}

export interface Scene {
  groups: SceneGroup[];
  layers: (SceneTileLayer | SceneQuadLayer)[];
  atlases: SceneAtlas[];
  envelopes: SceneEnvelope[];
  images: { width: number; height: number; rgba: Uint8ClampedArray<ArrayBuffer> }[];
  /** The game layer, one pixel per tile in the colours of the tile meanings (the "entities" overlay), and its group. */
  game?: { width: number; height: number; rgba: Uint8ClampedArray<ArrayBuffer> };
  /** What could not be drawn as the game draws it (external images), said under the view. */
  notes: string[];
  /** The names of external images the map uses that were not given (drawn as plain shapes, or left out). */
  missing?: string[];
  /** Layers before this index are behind the tees (up to the game layer), the rest in front. */
  foreground: number;
}

/** Largest overview picture of a layer (pixels). */
const MAX_OVERVIEW_PIXELS = 1_000_000;
/** Most quads kept per layer. */
const MAX_QUADS = 20_000;

/** An image the user gave for a map's external image (the client's own copy, e.g. DDNet's data/mapres/grass_main.png), by name without ".png". */
export interface GivenImage {
  name: string;
  width: number;
  height: number;
  rgba: Uint8ClampedArray<ArrayBuffer>;
}

export function sceneOf(bytes: Uint8Array, given: ReadonlyMap<string, GivenImage> = new Map()): Scene {
  return sceneOfMap(readMap(bytes), given);
}

export function sceneOfMap(map: TwMap, given: ReadonlyMap<string, GivenImage> = new Map()): Scene {
  const scene: Scene = { groups: [], layers: [], atlases: [], envelopes: [], images: [], notes: [], foreground: -1 };
  scene.envelopes = map.envelopes.map((e) => ({ points: e.points.map((p) => ({ time: p.time, curve: p.curveType, values: p.values.map((v) => v / 1024) })) }));
  const atlasKey = new Map<string, number>();
  const imageIndex = new Map<number, number>();
  const external = new Set<string>();
  map.groups.forEach((group, g) => {
    const gi = group.item;
    scene.groups.push({
      offsetX: gi.offsetX,
      offsetY: gi.offsetY,
      parallaxX: gi.parallaxX,
      parallaxY: gi.parallaxY,
      ...(gi.clipping && gi.clipW && gi.clipH ? { clip: [gi.clipX ?? 0, gi.clipY ?? 0, gi.clipW, gi.clipH] as [number, number, number, number] } : {}),
    });
    for (const layer of group.layers) {
      const name = 'name' in layer.item && typeof layer.item.name === 'string' ? layer.item.name : '';
      if (layer.kind === 'tilemap') {
        const { width, height } = layer.item;
        if (layer.tiles.length < width * height) continue;
        if (layer.tilemapKind === 'game') {
          const rgba = new Uint8ClampedArray(width * height * 4);
          const t = layer.tiles.bytes;
          for (let i = 0; i < width * height; i++) {
            const c = tileColour('game', t[i * 4]!);
            if (c) rgba.set([c[0], c[1], c[2], 200], i * 4);
          }
          scene.game = { width, height, rgba };
          scene.foreground = scene.layers.length;
          continue;
        }
        if (layer.tilemapKind !== 'tiles') continue;
        const tiles = new Uint8Array(width * height * 2);
        const src = layer.tiles.bytes;
        for (let i = 0; i < width * height; i++) {
          tiles[i * 2] = src[i * 4]!;
          tiles[i * 2 + 1] = src[i * 4 + 1]!;
        }
        const { r, g: green, b, a } = layer.item.color;
        const image = map.images[layer.item.image];
        const tileset = image && (tilesetImage(image) ?? givenTileset(given.get(image.name ?? '')));
        let atlas: number | undefined;
        if (tileset) {
          const key = `${layer.item.image}:${r},${green},${b},${a}`;
          atlas = atlasKey.get(key);
          if (atlas === undefined) {
            atlasKey.set(key, (atlas = scene.atlases.length));
            scene.atlases.push(buildAtlas(tileset, [r, green, b, a]));
          }
        } else if (image) {
          external.add(image.name ?? String(layer.item.image));
          // A detail layer (grass tufts, bushes, stones: DDNet's LAYERFLAG_DETAIL, the layers its client hides when
          // high detail is off) of an external tileset is left out until the image is given: its tiles are small
          // shapes on transparent cells, and filled as plain squares they would lay brown rectangles over the map
          // where DDNet draws a few tufts (DDNet 16.4 src/game/client/components/maplayers.cpp skips detail
          // layers only with gfx_high_detail 0; it draws the image from its data/mapres).
          if (layer.item.flags & LayerFlags.Detail) continue;
        }
        // External tilesets: the shape of the layer in its colour (walls, unhookable, death tiles: what the
        // player must see), earthy for a main tileset.
        const fill: [number, number, number, number] = [(r * 150) / 255, (green * 120) / 255, (b * 95) / 255, a / 255];
        scene.layers.push({ kind: 'tiles', group: g, name, width, height, tiles, ...(atlas !== undefined ? { atlas } : {}), fill, colorEnv: layer.item.colorEnv, colorEnvOffset: layer.item.colorEnvOffset, overview: layerOverview(width, height, tiles, atlas !== undefined ? scene.atlases[atlas]! : undefined, fill) });
      } else if (layer.kind === 'quads') {
        const image = layer.item.image >= 0 ? map.images[layer.item.image] : undefined;
        let index: number | undefined;
        const own = image && !image.pixels ? given.get(image.name ?? '') : undefined;
        if (image?.pixels || own) {
          index = imageIndex.get(layer.item.image);
          if (index === undefined) {
            const rgba = own ? own.rgba : imageRgba(image!);
            if (rgba) {
              imageIndex.set(layer.item.image, (index = scene.images.length));
              scene.images.push(own ? { width: own.width, height: own.height, rgba: own.rgba.slice() } : { width: image!.item.width, height: image!.item.height, rgba });
            }
          }
        } else if (image) external.add(image.name ?? String(layer.item.image));
        const quads = layer.quads.slice(0, MAX_QUADS).map((q): SceneQuad => {
          const corners = [q.topLeft, q.topRight, q.bottomLeft, q.bottomRight];
          const colours = [q.colorTopLeft, q.colorTopRight, q.colorBottomLeft, q.colorBottomRight];
          const uv = [q.texcoordTopLeft, q.texcoordTopRight, q.texcoordBottomLeft, q.texcoordBottomRight];
          // Positions and texture coordinates are 22.10 fixed point (schemas/map/records).
          return {
            points: corners.flatMap((p) => [p.x / 1024, p.y / 1024]),
            colors: colours.flatMap((c) => [c.r, c.g, c.b, c.a]),
            uv: uv.flatMap((p) => [p.x / 1024, p.y / 1024]),
            pivot: [q.pivot.x / 1024, q.pivot.y / 1024],
            posEnv: q.posEnv,
            posEnvOffset: q.posEnvOffset,
            colorEnv: q.colorEnv,
            colorEnvOffset: q.colorEnvOffset,
          };
        });
        // Quads of an external image (the client's own: stars, mountains, clouds) are left out: drawn in their
        // colours only they would be white shapes over the sky.
        if (image && index === undefined) continue;
        scene.layers.push({ kind: 'quads', group: g, name, ...(index !== undefined ? { image: index } : {}), quads });
      }
    }
  });
  if (scene.foreground < 0) scene.foreground = scene.layers.length;
  scene.missing = [...external];
  if (external.size) scene.notes.push(`External images (the client's own copies, not in the file) tiles drawn as plain shapes, detail layers and quads left out: ${[...external].join(', ')}.`);
  return scene;
}

/** The buffers of a scene, to transfer to the page. */
export function sceneBuffers(scene: Scene): ArrayBuffer[] {
  return [
    ...scene.atlases.map((a) => a.rgba.buffer),
    ...scene.images.map((i) => i.rgba.buffer),
    ...scene.layers.flatMap((l) => (l.kind === 'tiles' ? [l.tiles.buffer, l.overview.rgba.buffer] : [])),
    ...(scene.game ? [scene.game.rgba.buffer] : []),
  ];
}

function imageRgba(image: MapImage): Uint8ClampedArray<ArrayBuffer> | undefined {
  const { width, height } = image.item;
  const px = image.pixels;
  if (!px) return undefined;
  if (px.length === width * height * 4) return new Uint8ClampedArray(px);
  if (px.length !== width * height * 3) return undefined;
  const out = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) out.set([px[i * 3]!, px[i * 3 + 1]!, px[i * 3 + 2]!, 255], i * 4);
  return out;
}

function givenTileset(image: GivenImage | undefined): { width: number; height: number; rgba: Uint8ClampedArray } | undefined {
  if (!image || image.width < 16 || image.height < 16 || image.width % 16 || image.height % 16) return undefined;
  return image;
}

function tilesetImage(image: MapImage): { width: number; height: number; rgba: Uint8ClampedArray } | undefined {
  const { width, height } = image.item;
  if (width < 16 || height < 16 || width % 16 || height % 16) return undefined;
  const rgba = imageRgba(image);
  return rgba && { width, height, rgba };
}

/** The variant index of a tile's flags: x flip 1, y flip 2, rotate 4. */
export function variantOf(flags: number): number {
  return (flags & TileFlags.Xflip ? 1 : 0) | (flags & TileFlags.Yflip ? 2 : 0) | (flags & TileFlags.Rotate ? 4 : 0);
}

/**
 * The 8 variants of every cell, tinted: each tile flipped and rotated as its flags say (rotation by 90° first,
 * then the flips, as the explorer's layer pictures and `map render` do).
 */
function buildAtlas(image: { width: number; height: number; rgba: Uint8ClampedArray }, [r, g, b, a]: number[]): SceneAtlas {
  const { width, height, rgba: src } = image;
  const out = new Uint8ClampedArray(width * height * 8 * 4);
  const cw = width / 16;
  const ch = height / 16;
  // Where each pixel of a cell comes from in the source cell, per variant (the same for all 256 cells).
  const from = new Int32Array(cw * ch);
  const white = r === 255 && g === 255 && b === 255 && a === 255;
  const src32 = new Uint32Array(src.buffer, src.byteOffset, src.byteLength >> 2);
  const out32 = new Uint32Array(out.buffer);
  const lut = [r, g, b, a].map((k) => Uint8Array.from({ length: 256 }, (_, v) => (v * k!) / 255));
  for (let v = 0; v < 8; v++) {
    for (let py = 0; py < ch; py++) {
      for (let px = 0; px < cw; px++) {
        let u = (px + 0.5) / cw;
        let w = (py + 0.5) / ch;
        if (v & 4) [u, w] = [w, 1 - u];
        if (v & 1) u = 1 - u;
        if (v & 2) w = 1 - w;
        from[py * cw + px] = Math.floor(w * ch) * width + Math.floor(u * cw);
      }
    }
    for (let cy = 0; cy < 16; cy++) {
      for (let cx = 0; cx < 16; cx++) {
        const base = cy * ch * width + cx * cw;
        const outBase = (v * height + cy * ch) * width + cx * cw;
        for (let py = 0; py < ch; py++) {
          for (let px = 0; px < cw; px++) {
            const s = base + from[py * cw + px]!;
            const o = outBase + py * width + px;
            if (white) out32[o] = src32[s]!;
            else {
              out[o * 4] = lut[0]![src[s * 4]!]!;
              out[o * 4 + 1] = lut[1]![src[s * 4 + 1]!]!;
              out[o * 4 + 2] = lut[2]![src[s * 4 + 2]!]!;
              out[o * 4 + 3] = lut[3]![src[s * 4 + 3]!]!;
            }
          }
        }
      }
    }
  }
  return { width, height, rgba: out };
}

/** The whole layer at a few pixels per tile (each tile its cell's pixels, sampled). */
function layerOverview(width: number, height: number, tiles: Uint8Array, atlas: SceneAtlas | undefined, fill: number[]): SceneTileLayer['overview'] {
  // Drawn only below 2.5 screen pixels per tile (player.ts): 2 pixels per tile are enough.
  const tile = Math.max(1, Math.min(2, Math.floor(Math.sqrt(MAX_OVERVIEW_PIXELS / (width * height)))));
  const ow = width * tile;
  const out = new Uint8ClampedArray(ow * height * tile * 4);
  const cw = atlas ? atlas.width / 16 : 1;
  const ch = atlas ? atlas.height / 16 : 1;
  for (let ty = 0; ty < height; ty++) {
    for (let tx = 0; tx < width; tx++) {
      const i = ty * width + tx;
      const id = tiles[i * 2]!;
      if (!id) continue;
      const v = variantOf(tiles[i * 2 + 1]!);
      for (let py = 0; py < tile; py++) {
        for (let px = 0; px < tile; px++) {
          const o = ((ty * tile + py) * ow + tx * tile + px) * 4;
          if (!atlas) {
            out.set([fill[0]!, fill[1]!, fill[2]!, fill[3]! * 255], o);
            continue;
          }
          const sx = (id % 16) * cw + Math.floor(((px + 0.5) / tile) * cw);
          const sy = v * atlas.height + (id >> 4) * ch + Math.floor(((py + 0.5) / tile) * ch);
          const s = (sy * atlas.width + sx) * 4;
          out[o] = atlas.rgba[s]!;
          out[o + 1] = atlas.rgba[s + 1]!;
          out[o + 2] = atlas.rgba[s + 2]!;
          out[o + 3] = atlas.rgba[s + 3]!;
        }
      }
    }
  }
  return { width: ow, height: height * tile, rgba: out };
}
