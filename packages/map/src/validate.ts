// What DDNet's map loader (src/engine/shared/map.cpp, CMap::Load and the tile layer checks, current
// master) refuses or silently fixes, reported on the map model with the element's path.
import { LayerFlags, SPEEDUP_TILE_BYTES, TILE_TILE_BYTES } from './generated/index.gen.js';
import type { MapIssue, TilemapKind, TilemapLayer, TwMap } from './model.js';
import { tilemapKind } from './tilemap.js';
import { validateTileIds } from './tile-validity.js';

const PHYSICS_NAMES: Record<Exclude<TilemapKind, 'tiles'>, string> = {
  game: 'Game',
  tele: 'Tele',
  speedup: 'Speedup',
  front: 'Front',
  switch: 'Switch',
  tune: 'Tune',
};
const PHYSICS_FLAGS = 1 | 2 | 4 | 8 | 16 | 32;

/** Everything DDNet would refuse (`error`) or change (`fixed`) when loading this map, plus read issues. */
export function validateMap(map: TwMap): MapIssue[] {
  const issues: MapIssue[] = [...map.readIssues];
  const error = (code: string, path: string, message: string) => issues.push({ severity: 'error', code, path, message });
  const fixed = (code: string, path: string, message: string) => issues.push({ severity: 'fixed', code, path, message });
  const warning = (code: string, path: string, message: string) => issues.push({ severity: 'warning', code, path, message });

  if (!map.version) error('VERSION_MISSING', 'version', 'the map version item is missing');
  else if (map.version.version !== 1) error('VERSION_UNSUPPORTED', 'version', `map version ${map.version.version} is not 1`);

  const refCheck = (value: number, count: number, what: string, path: string, optional = true) => {
    if (optional && value === -1) return;
    if (value < 0 || value >= count) error('REFERENCE_RANGE', path, `${what} ${value} does not exist (the map has ${count})`);
  };

  map.images.forEach((image, i) => {
    const path = `images[${i}]`;
    if (!image.item.external && image.pixels) {
      const bpp = image.item.version >= 2 && image.item.format === 0 ? 3 : 4;
      const want = image.item.width * image.item.height * bpp;
      if (image.pixels.length !== want) error('IMAGE_DATA_SIZE', `${path}.data`, `${image.pixels.length} bytes of pixels, ${image.item.width}x${image.item.height}x${bpp} needs ${want}`);
    }
    if (!image.item.external && !image.pixels) error('IMAGE_DATA_MISSING', `${path}.data`, 'an embedded image has no pixel data');
  });

  map.envelopes.forEach((envelope, e) => {
    let last = -Infinity;
    envelope.points.forEach((p, k) => {
      if (p.time < last) warning('ENVELOPE_TIME_ORDER', `envelopes[${e}].points[${k}]`, `time ${p.time} before the previous point's ${last}`);
      last = p.time;
    });
  });

  let gameLayer: TilemapLayer | undefined;
  let gamePath = '';
  const tilemaps: [TilemapLayer, string, TilemapKind][] = [];
  map.groups.forEach((group, g) => {
    group.layers.forEach((layer, l) => {
      const path = `groups[${g}].layers[${l}]`;
      if (layer.item.layerVersion !== 0) fixed('LAYER_VERSION', `${path}.layer_version`, `unused version ${layer.item.layerVersion} is reset to 0`);
      switch (layer.kind) {
        case 'tilemap': {
          const kind = tilemapKind(layer.item.tilemapFlags);
          tilemaps.push([layer, path, kind]);
          if (kind === 'game') {
            if (gameLayer) warning('GAME_LAYER_DUPLICATE', path, `another game layer (${gamePath}); DDNet uses the last one`);
            gameLayer = layer;
            gamePath = path;
          }
          break;
        }
        case 'quads':
          refCheck(layer.item.image, map.images.length, 'image', `${path}.image`);
          layer.quads.forEach((q, k) => {
            refCheck(q.posEnv, map.envelopes.length, 'envelope', `${path}.quads[${k}].pos_env`);
            refCheck(q.colorEnv, map.envelopes.length, 'envelope', `${path}.quads[${k}].color_env`);
          });
          break;
        case 'sounds':
        case 'sounds_deprecated':
          refCheck(layer.item.sound, map.sounds.length, 'sound', `${path}.sound`);
          break;
        default:
          warning('LAYER_TYPE_UNKNOWN', `${path}.type`, `layer type ${layer.item.type} is unknown; DDNet ignores the layer`);
      }
    });
  });
  if (!gameLayer) error('GAME_LAYER_MISSING', 'groups', 'the map has no game layer');

  for (const [layer, path, kind] of tilemaps) {
    const item = layer.item;
    if (item.version < 2 || item.version > 4) error('TILEMAP_VERSION', `${path}.version`, `unsupported tilemap version ${item.version}`);
    if ((item.tilemapFlags & PHYSICS_FLAGS & (item.tilemapFlags & PHYSICS_FLAGS) - 1) !== 0) {
      error('TILEMAP_FLAGS', `${path}.tilemap_flags`, `flags ${item.tilemapFlags} set more than one physics layer kind`);
    }
    if (item.width < 2 || item.height < 2) error('TILEMAP_SIZE', path, `size ${item.width}x${item.height}: DDNet needs at least 2x2`);
    refCheck(item.image, map.images.length, 'image', `${path}.image`);
    refCheck(item.colorEnv, map.envelopes.length, 'envelope', `${path}.color_env`);
    const count = item.width * item.height;
    const checkSize = (bytes: Uint8Array | undefined, tileBytes: number, field: string) => {
      if (bytes && bytes.length < count * tileBytes) error('TILE_DATA_SIZE', `${path}.${field}`, `${bytes.length / tileBytes} tiles for a ${item.width}x${item.height} layer`);
    };
    const physicsData = { tele: layer.tele, speedup: layer.speedup, front: layer.front, switch: layer.switch, tune: layer.tune };
    if (kind === 'tiles' || kind === 'game') {
      checkSize(layer.tiles.bytes, TILE_TILE_BYTES, 'data');
      for (let i = 0; i < layer.tiles.length; i++) {
        if (layer.tiles.getReserved(i) !== 0) {
          error('TILE_RESERVED_NONZERO', `${path}.data`, `tile ${i} has reserved byte ${layer.tiles.getReserved(i)}`);
          break;
        }
        if (layer.tiles.getSkip(i) !== 0) {
          error('TILE_SKIP_NONZERO', `${path}.data`, `tile ${i} has skip ${layer.tiles.getSkip(i)} but the layer does not use skip compression`);
          break;
        }
      }
    } else {
      const tiles = physicsData[kind];
      const tileBytes = tiles ? tiles.bytes.length / Math.max(1, tiles.length) : 0;
      checkSize(tiles?.bytes, tileBytes, `data_${kind}`);
      if (gameLayer && count < gameLayer.item.width * gameLayer.item.height) {
        error('PHYSICS_LAYER_SMALL', path, `${kind} layer ${item.width}x${item.height} is smaller than the game layer ${gameLayer.item.width}x${gameLayer.item.height}`);
      }
      if (kind === 'speedup' && layer.speedup) {
        for (let i = 0; i < layer.speedup.length; i++) {
          if (layer.speedup.bytes[i * SPEEDUP_TILE_BYTES + 3] !== 0) {
            error('SPEEDUP_PADDING_NONZERO', `${path}.data_speedup`, `tile ${i} has a non-zero padding byte`);
            break;
          }
        }
      }
    }
    if (kind !== 'tiles') {
      const expected = PHYSICS_NAMES[kind];
      if (item.name !== undefined && item.name !== expected) fixed('PHYSICS_LAYER_NAME', `${path}.name`, `name '${item.name}' is reset to '${expected}'`);
      const c = item.color;
      if (c.r !== 255 || c.g !== 255 || c.b !== 255 || c.a !== 255) fixed('PHYSICS_LAYER_COLOR', `${path}.color`, 'colour is reset to white');
      if (layer.item.flags & LayerFlags.Detail) fixed('PHYSICS_LAYER_DETAIL', `${path}.flags`, 'detail flag is cleared');
    } else {
      const c = item.color;
      if ([c.r, c.g, c.b, c.a].some((v) => v < 0 || v > 255)) error('TILEMAP_COLOR', `${path}.color`, `colour (${c.r}, ${c.g}, ${c.b}, ${c.a}) out of range`);
    }
    const unused: [TilemapKind, number | undefined, string][] = [
      ['tele', item.dataTele, 'data_tele'],
      ['speedup', item.dataSpeedup, 'data_speedup'],
      ['front', item.dataFront, 'data_front'],
      ['switch', item.dataSwitch, 'data_switch'],
      ['tune', item.dataTune, 'data_tune'],
    ];
    for (const [k, value, field] of unused) {
      if (k !== kind && value !== undefined && value !== -1) fixed('PHYSICS_DATA_UNUSED', `${path}.${field}`, `unused ${k} data index ${value} is reset to -1`);
    }
  }

  map.automappers.forEach((a, i) => {
    const path = `automappers[${i}]`;
    // Only DDNet's editor reads these, and only version 1; the loader never looks at them.
    if (a.version !== 1) {
      warning('AUTOMAPPER_VERSION', `${path}.version`, `version ${a.version}: DDNet's editor ignores this config`);
      return;
    }
    const group = map.groups[a.group];
    if (!group || a.layer < 0 || a.layer >= group.layers.length) {
      warning('AUTOMAPPER_TARGET', path, `group ${a.group} layer ${a.layer} does not exist; the editor ignores this config`);
    }
  });
  issues.push(...validateTileIds(map));
  return issues;
}
