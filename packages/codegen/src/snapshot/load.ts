// Loads the snapshot item tables (schemas/snapshot, one file per protocol): layouts with offsets, enums and
// flags, checked for duplicate type ids, UUIDs and names.
import { uuidFromName } from '@twcodec/runtime';
import { loadPageTemplate, type PageTemplate } from '../shared/pages.js';
import { SNAPSHOT_PAGE_PLACEHOLDERS } from './docs.js';
import { findDuplicates, type ParsedFile, parseFamily, positionOf, SchemaError, type SchemaProblem } from '../shared/schema-files.js';
import type { SnapshotEnumDef, SnapshotFieldDef, SnapshotProtocolDef } from './model.js';

/** Names the snapshot views (item, layout, toObject) and decoded objects (extra, raw) use themselves. */
export const RESERVED_SNAPSHOT_FIELDS = ['item', 'layout', 'to_object', 'extra', 'raw'];

type RawSnapshotField = Omit<SnapshotFieldDef, 'offset' | 'ints'> & { ints?: number };
interface RawSnapshotItem {
  name: string;
  description: string;
  checked?: string;
  size?: number;
  event?: boolean;
  since?: string;
  extends?: string;
  fields?: RawSnapshotField[];
}

/**
 * Resolves the field layouts of one protocol's items (fields of `extends` first, offsets in i32) and checks
 * them: a known size must equal the fields' width, names are unique within an item.
 */
function snapshotLayouts(f: ParsedFile, raws: { raw: RawSnapshotItem; path: (string | number)[] }[], problems: SchemaProblem[]): Map<string, SnapshotFieldDef[]> {
  const byName = new Map(raws.map((r) => [r.raw.name, r]));
  const out = new Map<string, SnapshotFieldDef[]>();
  const report = (path: (string | number)[], message: string) => problems.push({ file: f.file, ...positionOf(f, path), message });
  const resolve = (name: string, chain: string[]): SnapshotFieldDef[] => {
    const done = out.get(name);
    if (done) return done;
    const { raw, path } = byName.get(name)!;
    let fields: SnapshotFieldDef[] = [];
    if (raw.extends !== undefined) {
      if (!byName.has(raw.extends)) report([...path, 'extends'], `extends ${raw.extends}, which this protocol does not define`);
      else if (chain.includes(raw.extends)) report([...path, 'extends'], `extends ${raw.extends}, which extends ${name}`);
      else fields = resolve(raw.extends, [...chain, name]).map((field) => ({ ...field }));
    }
    let offset = fields.reduce((n, field) => n + field.ints, 0);
    (raw.fields ?? []).forEach((field, i) => {
      const ints = field.type === 'i32string' || field.type === 'i32array' ? field.ints : 1;
      if (ints === undefined) report([...path, 'fields', i], `${field.type} field ${field.name} needs ints`);
      else if (ints !== 1 && field.type !== 'i32string' && field.type !== 'i32array') report([...path, 'fields', i], `ints is only for i32string and i32array fields`);
      if (field.type === 'fixed' && field.scale === undefined) report([...path, 'fields', i], `fixed field ${field.name} needs scale`);
      if (field.strings !== undefined && (field.type !== 'i32array' || (ints ?? 1) % field.strings !== 0)) report([...path, 'fields', i, 'strings'], `strings is for an i32array field whose ints it divides (${field.name}: ${field.type}, ${ints} ints)`);
      if (RESERVED_SNAPSHOT_FIELDS.includes(field.name)) report([...path, 'fields', i], `field name ${field.name} is reserved: the views and decoded objects use it themselves`);
      if (fields.some((other) => other.name === field.name)) report([...path, 'fields', i], `field name ${field.name} is used twice in ${name}`);
      if (field.min !== undefined && field.max !== undefined && field.min > field.max) report([...path, 'fields', i], `min ${field.min} is above max ${field.max}`);
      fields.push({ ...field, offset, ints: ints ?? 1 });
      offset += ints ?? 1;
    });
    if (raw.size !== undefined && raw.fields !== undefined && offset !== raw.size) report([...path, 'size'], `size ${raw.size} differs from the ${offset} ints of its fields`);
    out.set(name, fields);
    return fields;
  };
  for (const r of raws) resolve(r.raw.name, []);
  return out;
}

interface RawSnapshotEnum {
  name: string;
  kind: 'enum' | 'flags';
  ddnet?: string;
  start?: number;
  followed_by?: string;
  description?: string;
  checked?: string;
  values: string[];
}

/**
 * Resolves a protocol's enums and flag sets to values and checks that every `enum:` / `flags:` a field names
 * is a set of that kind in the same file, and that names are unique.
 */
function snapshotEnums(f: ParsedFile, raw: RawSnapshotEnum[], items: { raw: RawSnapshotItem; path: (string | number)[] }[], problems: SchemaProblem[]): SnapshotEnumDef[] {
  const report = (path: (string | number)[], message: string) => problems.push({ file: f.file, ...positionOf(f, path), message });
  const byName = new Map<string, RawSnapshotEnum>();
  raw.forEach((e, i) => {
    if (byName.has(e.name)) report(['enums', i, 'name'], `enum ${e.name} is defined twice`);
    byName.set(e.name, e);
    const seen = new Set<string>();
    e.values.forEach((v, j) => {
      if (seen.has(v)) report(['enums', i, 'values', j], `${e.name} names ${v} twice`);
      seen.add(v);
    });
    if (e.kind === 'flags' && e.start !== undefined) report(['enums', i, 'start'], 'start is for enums; flags are bits 0, 1, 2, ...');
    if (e.kind === 'flags' && e.values.length > 32) report(['enums', i, 'values'], `${e.name} has ${e.values.length} flags; an int holds 32`);
  });
  for (const { raw: item, path } of items) {
    (item.fields ?? []).forEach((field, i) => {
      for (const kind of ['enum', 'flags'] as const) {
        const name = field[kind];
        if (name === undefined) continue;
        const set = byName.get(name);
        if (field.type !== kind) report([...path, 'fields', i, kind], `${kind}: is for ${kind} fields, ${field.name} is ${field.type}`);
        else if (!set) report([...path, 'fields', i, kind], `${kind} ${name} is not among this file's enums (${[...byName.keys()].join(', ')})`);
        else if (set.kind !== kind) report([...path, 'fields', i, kind], `${name} is a set of kind ${set.kind}, not ${kind}`);
      }
    });
  }
  const ownValues = (e: RawSnapshotEnum) => e.values.map((name, i) => ({ name, value: e.kind === 'flags' ? 2 ** i : (e.start ?? 0) + i }));
  // `followed_by` appends another enum's values (kill messages' weapons: -3 game, -2 self, -1 world, then the
  // weapons), so that a value added to that enum reaches this one too, from the one list.
  const valuesOf = (e: RawSnapshotEnum, i: number, seen: string[]): { name: string; value: number }[] => {
    const own = ownValues(e);
    if (e.followed_by === undefined) return own;
    const path = ['enums', i, 'followed_by'];
    const j = raw.findIndex((o) => o.name === e.followed_by);
    const next = raw[j];
    if (e.kind !== 'enum') report(path, 'followed_by is for enums');
    else if (!next) report(path, `enum ${e.followed_by} is not among this file's enums`);
    else if (next.kind !== 'enum') report(path, `${e.followed_by} is a set of kind ${next.kind}, not enum`);
    else if (seen.includes(next.name)) report(path, `${[...seen, next.name].join(' -> ')} goes round`);
    else {
      const rest = valuesOf(next, j, [...seen, next.name]);
      const expected = own[own.length - 1]!.value + 1;
      if (rest[0] && rest[0].value !== expected) report(path, `${next.name} starts at ${rest[0].value}; after ${e.name}'s last value it must start at ${expected}`);
      const clash = rest.find((v) => e.values.includes(v.name));
      if (clash) report(path, `${e.name} and ${next.name} both name ${clash.name}`);
      return [...own, ...rest];
    }
    return own;
  };
  return raw.map((e, i) => ({
    name: e.name,
    kind: e.kind,
    ...(e.ddnet !== undefined ? { ddnet: e.ddnet } : {}),
    ...(e.description !== undefined ? { description: e.description } : {}),
    ...(e.checked !== undefined ? { checked: e.checked } : {}),
    values: valuesOf(e, i, [e.name]),
  }));
}

/**
 * An enum field's range, where the schema gives none: its enum's lowest to highest value, so that a value
 * added to the enum widens every field of it (DDNet's validation checks such fields as 0..NUM_X-1). A field
 * DDNet checks otherwise says so with min / max; one it does not check (NetIntAny) with `checked: false`.
 */
export function deriveEnumRange(field: { enum?: string; min?: number; max?: number; checked?: boolean }, enums: readonly SnapshotEnumDef[]): void {
  if (field.enum === undefined || field.checked === false) return;
  const values = enums.find((e) => e.name === field.enum && e.kind === 'enum')?.values.map((v) => v.value);
  if (!values?.length) return;
  field.min ??= Math.min(...values);
  field.max ??= Math.max(...values);
}

/** Loads the snapshot item tables (`schemasDir/snapshot`), one per protocol. */
export function loadSnapshotSchemas(schemasDir: string, displayRoot = schemasDir): SnapshotProtocolDef[] {
  const files = parseFamily(schemasDir, 'snapshot', displayRoot);
  const problems: SchemaProblem[] = [];
  const out: SnapshotProtocolDef[] = [];
  for (const f of files) {
    const d = f.data as { protocol: string; description: string; checked?: string; enums_checked?: string; enums?: RawSnapshotEnum[]; items: (RawSnapshotItem & { type_id: number; size_in_delta?: boolean })[]; uuid_items?: (RawSnapshotItem & { size: number; uuid_name: string; variable_size?: boolean })[] };
    const sites = d.items.map((item, i) => ({ f, path: ['items', i], what: item.name, typeId: item.type_id }));
    findDuplicates(problems, sites, (s) => (s as (typeof sites)[number]).typeId, (id, o) => `type_id ${id} is already used by ${o.what}`);
    const uuidSites = (d.uuid_items ?? []).map((u, i) => ({ f, path: ['uuid_items', i], what: u.name, uuid: uuidFromName(u.uuid_name) }));
    findDuplicates(problems, uuidSites, (s) => (s as (typeof uuidSites)[number]).uuid, (uuid, o) => `UUID ${uuid} is already used by ${o.what}`);
    findDuplicates(problems, [...sites, ...uuidSites], (s) => s.what, (name) => `item name ${name} is used twice`);
    const raws = [
      ...d.items.map((raw, i) => ({ raw: raw as unknown as RawSnapshotItem, path: ['items', i] })),
      ...(d.uuid_items ?? []).map((raw, i) => ({ raw: raw as unknown as RawSnapshotItem, path: ['uuid_items', i] })),
    ];
    const layouts = snapshotLayouts(f, raws, problems);
    const enums = snapshotEnums(f, d.enums ?? [], raws, problems);
    for (const fields of layouts.values()) for (const field of fields) deriveEnumRange(field, enums);
    // A field added after its item means older servers send the item shorter: DDNet reads such items with
    // defaults (validate_size=False or a default on the new field), so the schema must say the size varies.
    d.items.forEach((item, i) => {
      if (item.size_in_delta !== undefined && item.size === undefined) problems.push({ file: f.file, ...positionOf(f, ['items', i, 'size_in_delta']), message: `${item.name}: size_in_delta is for an item with a size; without one the delta always carries it` });
    });
    (d.uuid_items ?? []).forEach((u, i) => {
      const later = (u.fields ?? []).find((field) => field.since !== undefined && field.since !== u.since);
      if (later && u.variable_size !== true) problems.push({ file: f.file, ...positionOf(f, ['uuid_items', i]), message: `${u.name}: field ${later.name} came later (${later.since}), so older servers send fewer ints: add variable_size: true` });
    });
    const layoutOf = (raw: RawSnapshotItem) => ({
      event: raw.event === true,
      ...(raw.since !== undefined ? { since: raw.since } : {}),
      ...(raw.checked !== undefined ? { checked: raw.checked } : {}),
      ...(raw.extends !== undefined ? { extends: raw.extends } : {}),
      fields: layouts.get(raw.name) ?? [],
    });
    out.push({
      protocol: d.protocol,
      description: d.description,
      ...(d.checked !== undefined ? { checked: d.checked } : {}),
      ...(d.enums_checked !== undefined ? { enumsChecked: d.enums_checked } : {}),
      enums,
      items: [...d.items].sort((a, b) => a.type_id - b.type_id).map((item) => ({ type_id: item.type_id, name: item.name, ...(item.size !== undefined ? { size: item.size } : {}), sizeInDelta: item.size === undefined || item.size_in_delta === true, description: item.description, ...layoutOf(item as unknown as RawSnapshotItem) })),
      uuidItems: (d.uuid_items ?? []).map((u) => ({ name: u.name, uuidName: u.uuid_name, uuid: uuidFromName(u.uuid_name), size: u.size, variableSize: u.variable_size === true, description: u.description, ...layoutOf(u as unknown as RawSnapshotItem) })),
    });
  }
  if (problems.length) throw new SchemaError(problems);
  return out.sort((a, b) => a.protocol.localeCompare(b.protocol));
}

/** The template of docs/formats/snapshot.md (schemas/snapshot/snapshot.md), which holds the page's prose. */
export function loadSnapshotPage(displayRoot: string): PageTemplate {
  return loadPageTemplate(displayRoot, 'schemas/snapshot/snapshot.md', SNAPSHOT_PAGE_PLACEHOLDERS);
}
