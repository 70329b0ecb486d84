import { readMap, type TwMap, validateMap, writeMap } from '@twcodec/map';

export function mapInfo(bytes: Uint8Array) {
  const map = readMap(bytes, { strict: false });
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
    unknownItems: map.unknownItems.length,
  };
}

export function mapValidate(bytes: Uint8Array) {
  const map = readMap(bytes, { strict: false });
  const issues = validateMap(map);
  const count = (s: string) => issues.filter((i) => i.severity === s).length;
  return { ok: count('error') === 0, errors: count('error'), fixed: count('fixed'), warnings: count('warning'), issues };
}

/** `lenient`: also maps DDNet refuses, as far as the model can hold them (validateMap says what is wrong). */
export function mapResave(bytes: Uint8Array, ddnet: boolean, lenient = false): Uint8Array {
  return writeMap(readMap(bytes, { strict: !lenient }), { mode: ddnet ? 'ddnet' : 'lossless' });
}

/**
 * The whole model as JSON. Byte arrays (pixels, tiles, sounds) are summarised as `{ "bytes": n }`, or, with
 * `blobs`, handed to it and replaced by the name it returns.
 */
export function mapJson(bytes: Uint8Array, blobs?: (name: string, data: Uint8Array) => string): string {
  const map = readMap(bytes, { strict: false });
  const convert = (value: unknown, path: string): unknown => {
    if (value instanceof Uint8Array) return { bytes: value.length, ...(blobs ? { file: blobs(path, value) } : {}) };
    if (value && typeof value === 'object' && 'bytes' in value && value.bytes instanceof Uint8Array) {
      // Tiles views: the count and the bytes behind them.
      const tiles = value as { bytes: Uint8Array; length: number };
      return { tiles: tiles.length, bytes: tiles.bytes.length, ...(blobs ? { file: blobs(path, tiles.bytes) } : {}) };
    }
    if (Array.isArray(value)) return value.map((v, i) => convert(v, `${path}[${i}]`));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = convert(v, path ? `${path}.${k}` : k);
      return out;
    }
    return value;
  };
  const { datafile: _datafile, unreadData: _unreadData, ...model } = map satisfies TwMap;
  return `${JSON.stringify(convert(model, ''), null, 2)}\n`;
}

function sortKeys(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
