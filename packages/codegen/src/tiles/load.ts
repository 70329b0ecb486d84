// Loads the tile meanings (schemas/map/tile-meanings.yaml): tile and entity ids, and per physics layer the
// ids DDNet accepts, resolved to id ranges so the emitters never interpret names.
import { loadPageTemplate, type PageTemplate } from '../shared/pages.js';
import { parseFamily, type ParsedFile, positionOf, SchemaError, type SchemaProblem } from '../shared/schema-files.js';

/** The placeholders the docs template (the .md beside the YAML) may use. */
export const TEMPLATE_PLACEHOLDERS = ['description', 'entity_offset', 'what_ddnet_does', 'layers_table', 'tiles_table', 'entities_table'] as const;

export interface TileMeaningDef {
  id: number;
  name: string;
  /** DDNet's constant, e.g. TILE_TELEINEVIL, only as the schema names it (never made up from `name`). */
  ddnet?: string;
  description: string;
  /** The layers in which the id means this; every layer that accepts the id when the schema does not say. */
  layers: string[];
  /** The colour it is drawn in (map render, explorer previews), when the schema gives one. */
  colour?: Rgb;
}

/** A colour: red, green, blue 0-255. */
export type Rgb = [number, number, number];

/** Which ids a layer (or a named set) accepts. */
export interface TileIdRuleDef {
  name: string;
  description: string;
  /** Sorted, disjoint, non-adjacent inclusive ranges. */
  ranges: [number, number][];
  /** The rule as written, one entry per part, for the docs: e.g. `solid-through (1-6)`. */
  parts: string[];
}

export interface TileMeaningsDef {
  file: string;
  description: string;
  entityOffset: number;
  whatDdnetDoes: string;
  sets: TileIdRuleDef[];
  layers: TileIdRuleDef[];
  tiles: TileMeaningDef[];
  entities: TileMeaningDef[];
  /** The colours of ids without their own. */
  otherTileColour: Rgb;
  otherEntityColour: Rgb;
  /** The docs page's prose, with `{{placeholder}}`s for the tables (schemas/map/tile-meanings.md). */
  template: PageTemplate;
}

type Ref = string | number;
interface RawPart {
  tile?: Ref;
  tiles?: [Ref, Ref];
  entity?: Ref;
  entities?: [Ref, Ref];
  set?: string;
  from_entity?: Ref;
}
interface RawRule {
  name: string;
  description: string;
  valid: RawPart[];
}
interface RawMeaning {
  id: number;
  name: string;
  ddnet?: string;
  layers?: string[];
  colour?: string;
  description: string;
}
interface RawTileMeanings {
  description: string;
  entity_offset: number;
  what_ddnet_does: string;
  sets?: RawRule[];
  layers: RawRule[];
  tiles: RawMeaning[];
  entities: RawMeaning[];
  colours: { other_tile: string; other_entity: string };
}

/** `#rrggbb` (the JSON schema checks the form) as [r, g, b]. */
const rgb = (text: string): Rgb => [1, 3, 5].map((i) => parseInt(text.slice(i, i + 2), 16)) as Rgb;

/** Whether `id` lies in one of `ranges`. */
export const inRanges = (ranges: [number, number][], id: number) => ranges.some(([lo, hi]) => id >= lo && id <= hi);

/** Sorts and merges overlapping or adjacent ranges. */
export function mergeRanges(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [lo, hi] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export const rangeText = ([lo, hi]: [number, number]) => (lo === hi ? `${lo}` : `${lo}-${hi}`);

/**
 * The tile meanings of the map schemas, or undefined when there are none. `layerNames` are the physics layers
 * the map schemas know (the `tilemap_flags` names): every layer rule must name one.
 */
export function loadTileMeanings(schemasDir: string, displayRoot: string, layerNames: string[]): TileMeaningsDef | undefined {
  const files = parseFamily(schemasDir, 'map', displayRoot).filter((f) => 'tile_meanings' in f.data);
  if (!files.length) return undefined;
  if (files.length > 1) {
    throw new SchemaError(files.slice(1).map((f) => ({ file: f.file, line: 1, col: 1, message: `tile meanings are already defined in ${files[0]!.file}` })));
  }
  const f = files[0]!;
  const template = loadPageTemplate(displayRoot, f.file.replace(/\.ya?ml$/, '.md'), TEMPLATE_PLACEHOLDERS);
  return { ...buildTileMeanings(f, layerNames), template };
}

function buildTileMeanings(f: ParsedFile, layerNames: string[]): Omit<TileMeaningsDef, 'template'> {
  const raw = f.data.tile_meanings as RawTileMeanings;
  const problems: SchemaProblem[] = [];
  const problem = (path: (string | number)[], message: string) => problems.push({ file: f.file, ...positionOf(f, ['tile_meanings', ...path]), message });
  const offset = raw.entity_offset;

  const meanings = (list: RawMeaning[], key: 'tiles' | 'entities') => {
    const names = new Set<string>();
    return list.map((m, i): TileMeaningDef => {
      if (names.has(m.name)) problem([key, i, 'name'], `${key === 'tiles' ? 'tile' : 'entity'} '${m.name}' is defined twice`);
      names.add(m.name);
      if (key === 'entities' && m.id + offset > 255) problem([key, i, 'id'], `entity ${m.id} + entity_offset ${offset} is not a tile id (0-255)`);
      return { id: m.id, name: m.name, ...(m.ddnet ? { ddnet: m.ddnet } : {}), description: m.description, layers: m.layers ?? [], ...(m.colour ? { colour: rgb(m.colour) } : {}) };
    });
  };
  const tiles = meanings(raw.tiles, 'tiles');
  const entities = meanings(raw.entities, 'entities');

  const sets: TileIdRuleDef[] = [];
  const rule = (r: RawRule, path: (string | number)[]): TileIdRuleDef => {
    const ranges: [number, number][] = [];
    const parts: string[] = [];
    r.valid.forEach((part, i) => {
      const at = [...path, 'valid', i];
      const resolve = (ref: Ref, list: TileMeaningDef[], what: string, base: number): number | undefined => {
        if (typeof ref === 'number') return ref + base;
        const found = list.find((m) => m.name === ref);
        if (!found) problem(at, `unknown ${what} '${ref}'`);
        return found && found.id + base;
      };
      const span = (from: Ref, to: Ref, list: TileMeaningDef[], what: string, base: number, label: string) => {
        const lo = resolve(from, list, what, base);
        const hi = resolve(to, list, what, base);
        if (lo === undefined || hi === undefined) return;
        if (lo > hi) problem(at, `range ${from}..${to} is empty (${lo} > ${hi})`);
        ranges.push([lo, hi]);
        parts.push(from === to ? `${label}${from} (${lo})` : `${label}${from} to ${label}${to} (${rangeText([lo, hi])})`);
      };
      if (part.tile !== undefined) span(part.tile, part.tile, tiles, 'tile', 0, '');
      else if (part.tiles) span(part.tiles[0], part.tiles[1], tiles, 'tile', 0, '');
      else if (part.entity !== undefined) span(part.entity, part.entity, entities, 'entity', offset, 'entity ');
      else if (part.entities) span(part.entities[0], part.entities[1], entities, 'entity', offset, 'entity ');
      else if (part.set !== undefined) {
        const set = sets.find((s) => s.name === part.set);
        if (!set) return problem(at, `unknown set '${part.set}' (sets must be defined under sets:)`);
        let from = 0;
        if (part.from_entity !== undefined) from = resolve(part.from_entity, entities, 'entity', offset) ?? 0;
        for (const [lo, hi] of set.ranges) if (hi >= from) ranges.push([Math.max(lo, from), hi]);
        parts.push(part.from_entity !== undefined ? `${part.set} ids from entity ${part.from_entity} (${from}) on` : `every ${part.set} id`);
      }
    });
    return { name: r.name, description: r.description, ranges: mergeRanges(ranges), parts };
  };
  (raw.sets ?? []).forEach((s, i) => {
    if (sets.some((x) => x.name === s.name)) problem(['sets', i, 'name'], `set '${s.name}' is defined twice`);
    sets.push(rule(s, ['sets', i]));
  });
  const layers: TileIdRuleDef[] = [];
  raw.layers.forEach((l, i) => {
    if (!layerNames.includes(l.name)) problem(['layers', i, 'name'], `'${l.name}' is not a physics layer (tilemap_flags has ${layerNames.join(', ')})`);
    if (layers.some((x) => x.name === l.name)) problem(['layers', i, 'name'], `layer '${l.name}' is defined twice`);
    layers.push(rule(l, ['layers', i]));
  });

  // Which layer each tile name belongs to; two names for one id must not both claim a layer.
  tiles.forEach((t, i) => {
    const accepting = layers.filter((l) => inRanges(l.ranges, t.id)).map((l) => l.name);
    if (t.layers.length) {
      t.layers.forEach((name, k) => {
        if (!layers.some((l) => l.name === name)) problem(['tiles', i, 'layers', k], `unknown layer '${name}'`);
        else if (!accepting.includes(name)) problem(['tiles', i, 'layers', k], `layer '${name}' does not accept id ${t.id}`);
      });
    } else t.layers = accepting;
  });
  tiles.forEach((t, i) => {
    const other = tiles.find((o, k) => k < i && o.id === t.id && o.layers.some((l) => t.layers.includes(l)));
    if (other) problem(['tiles', i], `id ${t.id} means both '${other.name}' and '${t.name}' in one layer: give them \`layers:\``);
  });
  entities.forEach((e) => {
    e.layers = layers.filter((l) => inRanges(l.ranges, e.id + offset)).map((l) => l.name);
  });

  if (problems.length) throw new SchemaError(problems);
  return {
    file: f.file,
    description: raw.description,
    entityOffset: offset,
    whatDdnetDoes: raw.what_ddnet_does,
    sets,
    layers,
    tiles: [...tiles].sort((a, b) => a.id - b.id),
    entities: [...entities].sort((a, b) => a.id - b.id),
    otherTileColour: rgb(raw.colours.other_tile),
    otherEntityColour: rgb(raw.colours.other_entity),
  };
}
