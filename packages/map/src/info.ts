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
    // The info item's strings as they are (null when the map leaves one out), and the settings commands
    // themselves: a count alone told a user nothing (issue 39).
    info: map.info && {
      author: map.info.author ?? null,
      version: map.info.mapVersion ?? null,
      credits: map.info.credits ?? null,
      license: map.info.license ?? null,
      settings: map.info.settings ?? [],
    },
    images: {
      count: map.images.length,
      embedded: map.images.filter((i) => !i.item.external).length,
      external: map.images.filter((i) => i.item.external).length,
      list: map.images.map((i) => ({ name: i.name ?? null, external: !!i.item.external, width: i.item.width, height: i.item.height })),
    },
    envelopes: { count: map.envelopes.length, points: map.envelopes.reduce((s, e) => s + e.points.length, 0), pointLayout: map.envelopePointLayout },
    groups: map.groups.length,
    layers: { count: map.groups.reduce((s, g) => s + g.layers.length, 0), byKind: sortKeys(layersByKind) },
    gameLayer,
    sounds: { count: map.sounds.length, names: map.sounds.map((s) => s.name ?? null) },
    automappers: map.items.automapper?.length ?? 0,
    // Every other item type of the schemas' registry the map holds, by name, with its count (types it lacks
    // are left out: `"test": 0` on every map read as noise).
    items: Object.fromEntries(
      MAP_ITEM_TYPES.filter((t) => isCollectedItemType(t.name))
        .map((t) => [t.name, (map.items as Record<string, unknown[] | undefined>)[t.name]?.length ?? 0] as const)
        .filter(([, count]) => count > 0),
    ),
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
