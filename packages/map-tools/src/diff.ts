import { type MapLayer, TILEMAP_KINDS, type TwMap } from '@twcodec/map';

export interface TileChange {
  group: number;
  layer: number;
  /** The layer's name (as DDNet's map_diff prints it). */
  name: string;
  /** Which tiles: `tiles` (the layer's own tiles), or a physics kind's (`tele`, `speedup`, ...). */
  kind: string;
  x: number;
  y: number;
  /** The tile's bytes before and after, in hex (for `tiles`: index, flags, skip, reserved). */
  from: string;
  to: string;
  /** The tile index (first byte) before and after. */
  fromIndex: number;
  toIndex: number;
}

export interface MapDifference {
  /** Where, with the model's names: `images[2]`, `groups[1].layers[0]`, `info`, `items.automapper[0]`, ... */
  path: string;
  what: string;
}

export interface MapDiff {
  /** Element-level differences (added/removed/changed items, layers, images, sounds, envelopes, quads). */
  changes: MapDifference[];
  /** Tile by tile differences of tilemap layers present in both maps with the same size. */
  tiles: TileChange[];
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a, replacer) === JSON.stringify(b, replacer);
function replacer(_key: string, value: unknown) {
  if (value instanceof Uint8Array || value instanceof Int32Array) return `bytes:${value.length}:${hash(value)}`;
  if (value && typeof value === 'object' && 'bytes' in value && value.bytes instanceof Uint8Array) return `tiles:${hash(value.bytes)}`;
  return value;
}
function hash(a: ArrayLike<number>): number {
  let h = 2166136261;
  for (let i = 0; i < a.length; i++) h = Math.imul(h ^ (a[i]! & 0xffffffff), 16777619);
  return h >>> 0;
}
// Index fields writeMap recomputes; they are not differences of the map's content.
const DERIVED = new Set(['data', 'name', 'startLayer', 'numLayers', 'startPoint', 'numPoints', 'numQuads', 'numSources', 'dataSize', 'dataTele', 'dataSpeedup', 'dataFront', 'dataSwitch', 'dataTune']);
const content = (item: unknown) => Object.fromEntries(Object.entries(item as object).filter(([k]) => !DERIVED.has(k)));

function compareList<T>(out: MapDifference[], path: string, a: T[], b: T[], label: (x: T) => string, eq: (x: T, y: T) => boolean, detail?: (p: string, x: T, y: T) => void) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const p = `${path}[${i}]`;
    if (i >= a.length) out.push({ path: p, what: `added ${label(b[i]!)}` });
    else if (i >= b.length) out.push({ path: p, what: `removed ${label(a[i]!)}` });
    else if (!eq(a[i]!, b[i]!)) (detail ?? ((pp) => out.push({ path: pp, what: `changed ${label(b[i]!)}` })))(p, a[i]!, b[i]!);
  }
}

const layerLabel = (l: MapLayer) => `${l.kind === 'tilemap' ? `${l.tilemapKind} ` : ''}${l.kind} layer "${(l.item as { name?: string }).name ?? ''}"`;

// The layer's own tiles and every physics kind's tile property, from the generated kind table.
const TILE_PROPERTIES = ['tiles', ...new Set(TILEMAP_KINDS.flatMap((k) => (k.property ? [k.property] : [])))];

/** The differences of two maps, by element and tile by tile. */
export function diffMaps(a: TwMap, b: TwMap): MapDiff {
  const changes: MapDifference[] = [];
  const tiles: TileChange[] = [];
  if (!same(a.version, b.version)) changes.push({ path: 'version', what: 'changed version item' });
  if (!same(a.info && { ...a.info, item: content(a.info.item) }, b.info && { ...b.info, item: content(b.info.item) })) changes.push({ path: 'info', what: 'changed map info' });
  compareList(changes, 'images', a.images, b.images, (i) => `image "${i.name}"${i.item.external ? ' (external)' : ` ${i.item.width}x${i.item.height}`}`, (x, y) => x.name === y.name && same(content(x.item), content(y.item)) && same(x.pixels, y.pixels));
  compareList(changes, 'sounds', a.sounds, b.sounds, (s) => `sound "${s.name}"`, (x, y) => x.name === y.name && same(x.data, y.data));
  compareList(changes, 'envelopes', a.envelopes, b.envelopes, (e) => `envelope (${e.points.length} points)`, (x, y) => same(content(x.item), content(y.item)) && same(x.points, y.points));
  compareList(changes, 'groups', a.groups, b.groups, (g) => `group "${g.item.name ?? ''}" (${g.layers.length} layers)`, (x, y) => same(x, y), (gp, ga, gb) => {
    if (!same(content(ga.item), content(gb.item))) changes.push({ path: gp, what: `changed group "${gb.item.name ?? ''}" properties` });
    compareList(changes, `${gp}.layers`, ga.layers, gb.layers, layerLabel, (x, y) => same(x, y), (lp, la, lb) => {
      if (la.kind !== lb.kind) return changes.push({ path: lp, what: `replaced ${layerLabel(la)} by ${layerLabel(lb)}` });
      if (!same(content(la.item), content(lb.item))) changes.push({ path: lp, what: `changed ${layerLabel(lb)} properties` });
      if (la.kind === 'quads' && lb.kind === 'quads') {
        compareList(changes, `${lp}.quads`, la.quads, lb.quads, () => 'quad', same);
      } else if ((la.kind === 'sounds' || la.kind === 'sounds_deprecated') && (lb.kind === 'sounds' || lb.kind === 'sounds_deprecated')) {
        compareList(changes, `${lp}.sources`, la.sources, lb.sources, () => 'sound source', same);
      } else if (la.kind === 'tilemap' && lb.kind === 'tilemap') {
        const g = Number(gp.slice(7, -1));
        const l = Number(lp.slice(lp.lastIndexOf('[') + 1, -1));
        if (la.item.width !== lb.item.width || la.item.height !== lb.item.height) {
          return changes.push({ path: lp, what: `resized ${layerLabel(lb)} from ${la.item.width}x${la.item.height} to ${lb.item.width}x${lb.item.height}` });
        }
        for (const prop of TILE_PROPERTIES) {
          const ta = (la as unknown as Record<string, { bytes: Uint8Array } | undefined>)[prop];
          const tb = (lb as unknown as Record<string, { bytes: Uint8Array } | undefined>)[prop];
          if (!ta || !tb) continue;
          const size = ta.bytes.length / Math.max(1, la.item.width * la.item.height) || 1;
          const before = tiles.length;
          for (let i = 0; i * size < Math.min(ta.bytes.length, tb.bytes.length); i++) {
            let differs = false;
            for (let k = 0; k < size; k++) if (ta.bytes[i * size + k] !== tb.bytes[i * size + k]) differs = true;
            if (!differs) continue;
            const hex = (t: Uint8Array) => [...t.subarray(i * size, (i + 1) * size)].map((v) => v.toString(16).padStart(2, '0')).join('');
            tiles.push({ group: g, layer: l, name: lb.item.name ?? '', kind: prop, x: i % la.item.width, y: Math.floor(i / la.item.width), from: hex(ta.bytes), to: hex(tb.bytes), fromIndex: ta.bytes[i * size]!, toIndex: tb.bytes[i * size]! });
          }
          if (tiles.length > before) changes.push({ path: lp, what: `${tiles.length - before} ${prop} changed in ${layerLabel(lb)}` });
        }
      }
      return undefined;
    });
  });
  const kinds = new Set([...Object.keys(a.items), ...Object.keys(b.items)]);
  for (const k of kinds) compareList(changes, `items.${k}`, (a.items as Record<string, unknown[]>)[k] ?? [], (b.items as Record<string, unknown[]>)[k] ?? [], () => `${k} item`, same);
  compareList(changes, 'unknownItems', a.unknownItems, b.unknownItems, (i) => `item type ${i.type} id ${i.id}`, (x, y) => x.type === y.type && x.id === y.id && same(x.data, y.data));
  return { changes, tiles };
}

/** diffMaps as text: one line per element difference, then one per changed tile (as DDNet's map_diff prints them). */
export function formatMapDiff(diff: MapDiff): string {
  const lines = diff.changes.map((c) => `${c.path}: ${c.what}`);
  for (const t of diff.tiles) lines.push(`  [${t.group}.${t.layer}:${t.name}] ${t.kind} ${t.x}x${t.y}: ${t.from} -> ${t.to}`);
  return lines.length ? `${lines.join('\n')}\n` : 'no differences\n';
}
