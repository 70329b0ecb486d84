// Loads the map schemas (schemas/map: items, records, tiles, enums) into the model the map emitters use,
// checking the cross-references (type ids, UUIDs, record and enum names) as file:line:col problems.
import { join } from 'node:path';
import { uuidFromName } from '@twcodec/runtime';
import { loadPageTemplate, type PageTemplate } from '../shared/pages.js';
import { findDuplicates, isReserved, type ParsedFile, parseFamily, positionOf, type Raw, SchemaError, type SchemaProblem, type Site } from '../shared/schema-files.js';
import { type EnumDef, type FieldDef, type FieldEntry, fieldInts, flatFields, type ItemDef, type KindsDef, type KnownVersion, type RecordDef, type SchemaSet, type TileDef, tileFieldBytes, type VersionRange } from './model.js';

/**
 * Property names the generated code adds beside the schema's fields: map items keep surplus ints in
 * `extra` and variants their `kind`; array items hold `records`.
 */
export const RESERVED_MAP_FIELDS = ['extra', 'kind', 'records'] as const;

/** The placeholders of the page template schemas/map/map.md (docs/formats/map.md). */
export const MAP_PAGE_PLACEHOLDERS = ['item_types_table', 'items', 'records', 'tiles', 'enums'] as const;

/** The template of docs/formats/map.md, schemas/map/map.md (its placeholders checked with file:line:col). */
export function loadMapPageTemplate(schemasDir: string): PageTemplate {
  return loadPageTemplate(join(schemasDir, '..'), 'schemas/map/map.md', MAP_PAGE_PLACEHOLDERS);
}

/** Loads the map schemas (`schemasDir/map`). */
export function loadMapSchemas(schemasDir: string, displayRoot = schemasDir): SchemaSet {
  return buildModel(parseFamily(schemasDir, 'map', displayRoot));
}

function buildModel(files: ParsedFile[]): SchemaSet {
  const problems: SchemaProblem[] = [];
  const problem = (f: ParsedFile, path: (string | number)[], message: string) => problems.push({ file: f.file, ...positionOf(f, path), message });

  const set: SchemaSet = { items: [], records: [], tiles: [], enums: [] };
  const owner = new Map<object, ParsedFile>();
  const rawRecords = new Map<string, { f: ParsedFile; raw: Raw }>();
  for (const f of files) {
    const d = f.data;
    if ('enums' in d) {
      for (const e of d.enums as EnumDef[]) {
        set.enums.push(e);
        owner.set(e, f);
      }
    } else if ('item' in d) {
      const item: ItemDef = {
        kind: 'item',
        name: d.item as string,
        file: f.file,
        description: d.description as string,
        checked: (d.checked as string[]) ?? [],
        notes: (d.notes as string[]) ?? [],
        ddnetOnly: d.ddnet_only === true,
        oneItem: d.one_item === true,
        fields: normalizeFields((d.fields as Raw[]) ?? []),
      };
      if (d.type_id !== undefined) item.typeId = d.type_id as number;
      if (d.uuid_name !== undefined) {
        item.uuidName = d.uuid_name as string;
        item.uuid = uuidFromName(item.uuidName);
      }
      if (d.variants) {
        const v = d.variants as { on: string; cases: Raw[] };
        item.variants = {
          on: v.on,
          cases: v.cases.map((c) => ({
            name: c.name as string,
            value: c.value as number,
            description: c.description as string,
            notes: (c.notes as string[]) ?? [],
            fields: normalizeFields(c.fields as Raw[]),
            ...(c.versions ? { versions: c.versions as VersionRange } : {}),
            ...(c.known_versions ? { knownVersions: c.known_versions as KnownVersion[] } : {}),
            ...(c.kinds ? { kinds: c.kinds as KindsDef } : {}),
          })),
        };
      }
      if (d.array) item.array = d.array as ItemDef['array'];
      if (d.versions) item.versions = d.versions as ItemDef['versions'];
      if (d.known_versions) item.knownVersions = d.known_versions as KnownVersion[];
      set.items.push(item);
      owner.set(item, f);
    } else if ('record' in d) {
      rawRecords.set(d.record as string, { f, raw: d });
    } else if ('tile' in d) {
      const tile: TileDef = {
        kind: 'tile',
        name: d.tile as string,
        file: f.file,
        description: d.description as string,
        checked: (d.checked as string[]) ?? [],
        notes: (d.notes as string[]) ?? [],
        bytes: d.bytes as number,
        fields: d.fields as TileDef['fields'],
      };
      const total = tile.fields.reduce((s, field) => s + tileFieldBytes(field), 0);
      if (total !== tile.bytes) problem(f, ['bytes'], `fields take ${total} bytes, bytes says ${tile.bytes}`);
      set.tiles.push(tile);
    }
  }

  // Records, with `extends` resolved.
  const resolving = new Set<string>();
  const resolveRecord = (name: string): RecordDef | undefined => {
    const done = set.records.find((r) => r.name === name);
    if (done) return done;
    const entry = rawRecords.get(name);
    if (!entry || resolving.has(name)) return undefined;
    resolving.add(name);
    const { f, raw } = entry;
    let fields = raw.fields as FieldDef[];
    if (raw.extends) {
      const base = resolveRecord(raw.extends as string);
      if (!base) problem(f, ['extends'], `unknown or circular record '${raw.extends}'`);
      else fields = [...base.fields, ...fields];
    }
    const record: RecordDef = {
      kind: 'record',
      name,
      file: f.file,
      description: raw.description as string,
      checked: (raw.checked as string[]) ?? [],
      notes: (raw.notes as string[]) ?? [],
      fields,
      ints: fields.reduce((s, field) => s + fieldInts(field), 0),
    };
    if (raw.extends) record.extends = raw.extends as string;
    set.records.push(record);
    owner.set(record, f);
    return record;
  };
  for (const name of rawRecords.keys()) resolveRecord(name);

  // Cross-references and uniqueness.
  const enums = new Map(set.enums.map((e) => [e.name, e]));
  const unique = (kind: string, list: { name: string }[]) => {
    const seen = new Set<string>();
    for (const x of list) {
      if (seen.has(x.name)) problem(owner.get(x) ?? files[0]!, [], `${kind} '${x.name}' is defined twice`);
      seen.add(x.name);
    }
  };
  unique('item', set.items);
  unique('record', set.records);
  unique('enum', set.enums);
  for (const e of set.enums) {
    const sized = e.values.filter((v) => v.bytes !== undefined).length;
    if (sized && sized < e.values.length) problem(owner.get(e) ?? files[0]!, [], `enum '${e.name}': bytes is given for ${sized} of its ${e.values.length} values; give it for every value or none`);
  }
  const itemSites = set.items.map((item) => ({ f: owner.get(item)!, path: [] as (string | number)[], what: item.name, item }));
  const itemOf = (s: Site) => (s as (typeof itemSites)[number]).item;
  findDuplicates(problems, itemSites.map((s) => ({ ...s, path: ['type_id'] })), (s) => itemOf(s).typeId, (id, o) => `type_id ${id} is already used by '${o.what}'`);
  findDuplicates(problems, itemSites.map((s) => ({ ...s, path: ['uuid_name'] })), (s) => itemOf(s).uuid, (uuid, o) => `UUID ${uuid} (${itemOf(o).uuidName}) is already used by '${o.what}'`);
  for (const item of set.items) {
    const f = owner.get(item)!;
    if (!item.array && !item.fields.length) problem(f, [], 'an item needs fields or an array');
    item.array?.records.forEach((r, i) => {
      if (!set.records.some((x) => x.name === r)) problem(f, ['array', 'records', i], `unknown record '${r}'`);
    });
    checkFields(f, ['fields'], item.fields);
    if (item.variants) {
      const on = flatFields(item.fields).find((x) => x.name === item.variants!.on);
      if (!on) problem(f, ['variants', 'on'], `'${item.variants.on}' is not a field of '${item.name}'`);
      item.variants.cases.forEach((c, i) => {
        checkFields(f, ['variants', 'cases', i, 'fields'], c.fields);
        const base = flatFields(item.fields);
        const all = [...base, ...flatFields(c.fields)];
        for (const field of flatFields(c.fields)) {
          if (base.some((x) => x.name === field.name)) problem(f, ['variants', 'cases', i, 'fields'], `field '${field.name}' is also a field every ${item.name} starts with`);
        }
        if (c.versions && !all.some((x) => x.type === 'version')) problem(f, ['variants', 'cases', i, 'versions'], 'versions needs a field of type version');
        checkKnownVersions(f, ['variants', 'cases', i], c.knownVersions, c.versions, all);
        if (c.kinds) checkKinds(f, ['variants', 'cases', i, 'kinds'], c.kinds, all);
      });
    }
    if (item.versions && !flatFields(item.fields).some((x) => x.type === 'version')) problem(f, ['versions'], 'versions needs a field of type version');
    checkKnownVersions(f, [], item.knownVersions, item.versions, flatFields(item.fields));
    for (const field of [...flatFields(item.fields), ...(item.variants?.cases.flatMap((c) => flatFields(c.fields)) ?? [])]) {
      if (isReserved(RESERVED_MAP_FIELDS, field.name)) problem(f, ['fields'], `field name '${field.name}' is reserved by the generated code (${RESERVED_MAP_FIELDS.join(', ')})`);
    }
  }
  for (const record of set.records) {
    const f = owner.get(record)!;
    record.fields.forEach((field, i) => checkField(f, ['fields', i], field));
  }
  for (const tile of set.tiles) {
    tile.fields.forEach((field, i) => {
      if (field.flags && !enums.has(field.flags)) problem(owner.get(tile) ?? files[0]!, ['fields', i, 'flags'], `unknown flag set '${field.flags}'`);
    });
  }
  function checkKnownVersions(f: ParsedFile, path: (string | number)[], known: KnownVersion[] | undefined, range: VersionRange | undefined, fields: FieldDef[]) {
    if (!known) return;
    if (!fields.some((x) => x.type === 'version')) problem(f, [...path, 'known_versions'], 'known_versions needs a field of type version');
    known.forEach((v, i) => {
      const at = [...path, 'known_versions', i];
      if (known.findIndex((o) => o.name === v.name) !== i) problem(f, [...at, 'name'], `version name '${v.name}' is listed twice`);
      if (known.findIndex((o) => o.value === v.value) !== i) problem(f, [...at, 'value'], `version ${v.value} is listed twice`);
      if (range && (v.value < range.min || v.value > range.max)) problem(f, [...at, 'value'], `version ${v.value} is outside the versions DDNet reads (${range.min} to ${range.max})`);
    });
  }
  function checkKinds(f: ParsedFile, path: (string | number)[], kinds: KindsDef, fields: FieldDef[]) {
    const on = fields.find((x) => x.name === kinds.on);
    const flagSet = on?.flags ? enums.get(on.flags) : undefined;
    if (!on || on.type !== 'flags' || !flagSet) {
      problem(f, [...path, 'on'], `'${kinds.on}' is not a flags field of this layout`);
      return;
    }
    const tilesField = (name: string, at: (string | number)[]) => {
      const field = fields.find((x) => x.name === name);
      if (!field || field.type !== 'data_ref' || !field.data?.startsWith('tiles:')) problem(f, at, `'${name}' is not a data_ref field with data: tiles:<tile>`);
    };
    tilesField(kinds.none.tiles, [...path, 'none', 'tiles']);
    const names = new Set([kinds.none.name]);
    kinds.flags.forEach((k, i) => {
      if (!flagSet.values.some((v) => v.name === k.flag)) problem(f, [...path, 'flags', i, 'flag'], `'${k.flag}' is not a flag of '${flagSet.name}'`);
      if (names.has(k.flag)) problem(f, [...path, 'flags', i, 'flag'], `kind '${k.flag}' is listed twice`);
      names.add(k.flag);
      tilesField(k.tiles, [...path, 'flags', i, 'tiles']);
    });
  }
  function checkFields(f: ParsedFile, path: (string | number)[], entries: FieldEntry[]) {
    let hasVersion = false;
    const names = new Set<string>();
    entries.forEach((entry, i) => {
      const fields = entry.kind === 'field' ? [entry.field] : entry.fields;
      if (entry.kind === 'since_version' && !hasVersion) {
        problem(f, [...path, i], 'since_version needs a field of type version before it');
      }
      fields.forEach((field, k) => {
        const fieldPath = entry.kind === 'field' ? [...path, i] : [...path, i, 'fields', k];
        if (names.has(field.name)) problem(f, [...fieldPath, 'name'], `field '${field.name}' is defined twice`);
        names.add(field.name);
        if (field.type === 'version') hasVersion = true;
        checkField(f, fieldPath, field);
      });
    });
  }
  function checkField(f: ParsedFile, path: (string | number)[], field: FieldDef) {
    if (field.min !== undefined && field.type !== 'i32') problem(f, [...path, 'min'], `min applies to i32 fields, not ${field.type}`);
    if (field.derived && field.type !== 'i32') problem(f, [...path, 'derived'], `derived applies to i32 fields (a range, a count or a size), not ${field.type}`);
    if (field.enum && enums.get(field.enum)?.kind !== 'enum') problem(f, [...path, 'enum'], `unknown enum '${field.enum}'`);
    if (field.flags && enums.get(field.flags)?.kind !== 'flags') problem(f, [...path, 'flags'], `unknown flag set '${field.flags}'`);
    const [kind, target] = (field.data ?? '').split(':');
    if (kind === 'records' && !set.records.some((r) => r.name === target)) problem(f, [...path, 'data'], `unknown record '${target}'`);
    if (kind === 'tiles' && !set.tiles.some((t) => t.name === target)) problem(f, [...path, 'data'], `unknown tile type '${target}'`);
    if (field.ref && !set.items.some((it) => it.name === field.ref)) problem(f, [...path, 'ref'], `unknown item '${field.ref}'`);
  }

  if (problems.length) throw new SchemaError(problems);
  // Deterministic order: numbered types first, then UUID types by name.
  set.items.sort((a, b) => (a.typeId ?? 1e9) - (b.typeId ?? 1e9) || a.name.localeCompare(b.name));
  set.records.sort((a, b) => a.name.localeCompare(b.name));
  set.tiles.sort((a, b) => a.name.localeCompare(b.name));
  set.enums.sort((a, b) => a.name.localeCompare(b.name));
  return set;
}

function normalizeFields(raw: Raw[]): FieldEntry[] {
  return raw.map((entry) => {
    if (!('fields' in entry)) return { kind: 'field', field: entry as unknown as FieldDef };
    const fields = entry.fields as FieldDef[];
    const description = entry.description as string | undefined;
    if ('since_version' in entry) {
      return { kind: 'since_version', version: entry.since_version as number, fields, ...(description ? { description } : {}) };
    }
    return { kind: 'if_room', fields, ...(description ? { description } : {}) };
  });
}
