// What a map holds at a glance (`twcodec map info`), read without its tiles, pixels and sounds.
import { MAP_ITEM_TYPES } from './generated/registry.gen.js';
import { isCollectedItemType, readMap } from './read.js';

/**
 * A summary of a map (`twcodec map info`): counts of images, envelopes, groups, layers by kind, sounds, the
 * registry's other item types, and the game layer's size. Read leniently and without its data: it summarises
 * maps DDNet refuses too, and an 8192x8192 layer costs nothing.
 */
export function mapInfo(bytes: Uint8Array) {
  // Nothing here needs tiles, pixels or sounds: they stay compressed (an 8192x8192 layer costs nothing).
  const map = readMap(bytes, { strict: false, skipData: true });
  const layersByKind: Record<string, number> = {};
  let gameLayer: { width: number; height: number } | undefined;
  for (const group of map.groups) {
    for (const layer of group.layers) {
      const kind = layer.kind === 'tilemap' ? layer.tilemapKind : layer.kind;
      layersByKind[kind] = (layersByKind[kind] ?? 0) + 1;
      if (kind === 'game' && layer.kind === 'tilemap') gameLayer = { width: layer.item.width, height: layer.item.height };
    }
  }
  return {
    fileSize: bytes.length,
    mapVersion: map.version?.version,
    info: map.info && { author: map.info.author, version: map.info.mapVersion, credits: map.info.credits, license: map.info.license, settings: map.info.settings?.length ?? 0 },
    images: { count: map.images.length, embedded: map.images.filter((i) => !i.item.external).length, external: map.images.filter((i) => i.item.external).length },
    envelopes: { count: map.envelopes.length, points: map.envelopes.reduce((s, e) => s + e.points.length, 0), pointLayout: map.envelopePointLayout },
    groups: map.groups.length,
    layers: { count: map.groups.reduce((s, g) => s + g.layers.length, 0), byKind: sortKeys(layersByKind) },
    gameLayer,
    sounds: map.sounds.length,
    automappers: map.items.automapper?.length ?? 0,
    // Every other item type the schemas' registry knows, by name, with its count (0 when absent).
    items: Object.fromEntries(MAP_ITEM_TYPES.filter((t) => isCollectedItemType(t.name)).map((t) => [t.name, (map.items as Record<string, unknown[] | undefined>)[t.name]?.length ?? 0])),
    unknownItems: map.unknownItems.length,
  };
}

/**
 * The layer kinds by name. They are lowercase ASCII words, whose code-point order is localeCompare's; comparing
 * code points spares building ICU's collator (9 to 15 ms of a map info run). Anything else keeps localeCompare.
 */
function sortKeys(record: Record<string, number>): Record<string, number> {
  const entries = Object.entries(record);
  const plain = entries.every(([k]) => /^[a-z]+$/.test(k));
  return Object.fromEntries(entries.sort(([a], [b]) => (plain ? (a < b ? -1 : a > b ? 1 : 0) : a.localeCompare(b))));
}
