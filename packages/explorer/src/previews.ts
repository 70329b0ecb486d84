// Pictures for map nodes: each tilemap layer as one pixel per tile (physics layers coloured by tile meaning,
// tiles layers in their tint) and embedded images as they are. Built in the worker, drawn by the page.
import { EntityId, ENTITY_OFFSET, GameTileId, readMap } from '@twcodec/map';
import type { LayoutNode } from './layout.js';

export interface Preview {
  width: number;
  height: number;
  rgba: Uint8ClampedArray<ArrayBuffer>;
}

type Rgb = [number, number, number];
const MEANING: Record<number, Rgb> = {
  [GameTileId.Solid]: [120, 120, 120],
  [GameTileId.Death]: [220, 30, 30],
  [GameTileId.Nohook]: [60, 60, 90],
  [GameTileId.Freeze]: [120, 200, 255],
  [GameTileId.Unfreeze]: [255, 220, 120],
  [GameTileId.Start]: [40, 200, 40],
  [GameTileId.Finish]: [200, 40, 200],
};
const ENTITY: Record<number, Rgb> = {
  [EntityId.Spawn]: [40, 220, 80],
  [EntityId.SpawnRed]: [255, 90, 90],
  [EntityId.SpawnBlue]: [90, 120, 255],
  [EntityId.FlagstandRed]: [180, 0, 0],
  [EntityId.FlagstandBlue]: [0, 0, 180],
};
const OTHER_TILE: Rgb = [230, 160, 40];
const OTHER_ENTITY: Rgb = [250, 240, 60];
/** Largest layer drawn (tiles); larger layers get no preview rather than a huge allocation. */
const MAX_TILES = 4_000_000;

/** Attaches previews to the layer and image item nodes of a map layout. */
export function attachPreviews(bytes: Uint8Array, root: LayoutNode): void {
  const map = readMap(bytes);
  const items = root.children?.find((c) => c.label === 'items')?.children ?? [];
  const ofKind = (kind: string) => items.filter((n) => n.label.startsWith(`${kind} #`));
  const layerNodes = ofKind('layer');
  const groupNodes = ofKind('group');
  map.groups.forEach((group, g) => {
    const start = Number(groupNodes[g]?.children?.find((c) => c.label === 'start_layer')?.value ?? NaN);
    group.layers.forEach((layer, l) => {
      const node = layerNodes[start + l];
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
        const c = !physics ? tint : id >= ENTITY_OFFSET ? (ENTITY[id - ENTITY_OFFSET] ?? OTHER_ENTITY) : (MEANING[id] ?? OTHER_TILE);
        rgba.set([c[0], c[1], c[2], 255], i * 4);
      }
      node.preview = { width, height, rgba };
    });
  });
  const imageNodes = ofKind('image');
  map.images.forEach((image, i) => {
    const node = imageNodes[i];
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
}
