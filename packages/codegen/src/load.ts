// Loads the YAML schemas, validates each file with ajv against schemas/schema.json and checks the
// cross-references, reporting every problem as file:line:col.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, type Document } from 'yaml';
import { uuidFromName } from '@twcodec/runtime';
import {
  camel,
  type EnumDef,
  type SnapshotEnumDef,
  type SnapshotFieldDef,
  type SnapshotProtocolDef,
  type TeehistorianSchema,
  type ThExtensionDef,
  type ThMessageDef,
  type FieldDef,
  type FieldEntry,
  fieldInts,
  flatFields,
  type ItemDef,
  type KindsDef,
  type RecordDef,
  type SchemaSet,
  type TileDef,
  tileFieldBytes,
  type VersionRange,
} from './model.js';

export interface SchemaProblem {
  file: string;
  line: number;
  col: number;
  message: string;
}

export class SchemaError extends Error {
  constructor(readonly problems: SchemaProblem[]) {
    super(problems.map((p) => `${p.file}:${p.line}:${p.col}: ${p.message}`).join('\n'));
    this.name = 'SchemaError';
  }
}

export interface ParsedFile {
  file: string;
  doc: Document.Parsed;
  lines: LineCounter;
  data: Record<string, unknown>;
}

// In the order a file's kind is looked for: a snapshot protocol file also has `enums`.
const KINDS = ['item', 'record', 'tile', 'protocol', 'enums', 'tile_meanings', 'messages', 'extensions', 'packet_protocol'] as const;
const DEFINITION = {
  item: 'itemFile',
  record: 'recordFile',
  tile: 'tileFile',
  enums: 'enumsFile',
  tile_meanings: 'tileMeaningsFile',
  messages: 'thMessagesFile',
  extensions: 'thExtensionsFile',
  protocol: 'snapshotFile',
  packet_protocol: 'packetFile',
} as const;

function listYaml(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return listYaml(path);
      return /\.ya?ml$/.test(name) ? [path] : [];
    });
}

/** Parses and validates every YAML file under `schemasDir/<family>`. */
export function parseFamily(schemasDir: string, family: string, displayRoot: string): ParsedFile[] {
  const problems: SchemaProblem[] = [];
  const metaSchema = JSON.parse(readFileSync(join(schemasDir, 'schema.json'), 'utf8'));
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  ajv.addSchema(metaSchema, 'twcodec');
  const validators = Object.fromEntries(
    KINDS.map((kind) => [kind, ajv.getSchema(`twcodec#/definitions/${DEFINITION[kind]}`)!]),
  ) as Record<(typeof KINDS)[number], ValidateFunction>;

  const parsed: ParsedFile[] = [];
  for (const path of listYaml(join(schemasDir, family))) {
    const file = relative(displayRoot, path);
    const lines = new LineCounter();
    const doc = parseDocument(readFileSync(path, 'utf8'), { lineCounter: lines, prettyErrors: false });
    const at = (offset: number) => lines.linePos(offset);
    if (doc.errors.length) {
      for (const e of doc.errors) problems.push({ file, ...at(e.pos[0]), message: e.message.split('\n')[0]! });
      continue;
    }
    const data = doc.toJS() as Record<string, unknown>;
    const kind = KINDS.find((k) => data && typeof data === 'object' && k in data);
    if (!kind) {
      problems.push({ file, line: 1, col: 1, message: `a schema file needs one of the keys ${KINDS.join(', ')}` });
      continue;
    }
    const validate = validators[kind];
    if (!validate(data)) {
      for (const e of simplifyErrors(validate.errors ?? [])) problems.push({ file, ...locate(doc, lines, e), message: describe(e) });
      continue;
    }
    parsed.push({ file, doc, lines, data });
  }
  if (problems.length) throw new SchemaError(problems);
  return parsed;
}

/** Loads the map schemas (`schemasDir/map`). */
export function loadSchemas(schemasDir: string, family: string, displayRoot = schemasDir): SchemaSet {
  return buildModel(parseFamily(schemasDir, family, displayRoot));
}

/** Loads the teehistorian message schemas (`schemasDir/teehistorian`). */
export function loadTeehistorianSchemas(schemasDir: string, displayRoot = schemasDir): TeehistorianSchema {
  const files = parseFamily(schemasDir, 'teehistorian', displayRoot);
  const problems: SchemaProblem[] = [];
  const schema: TeehistorianSchema = { messages: [], extensions: [] };
  const messageSites: (Site & { m: ThMessageDef })[] = [];
  const extensionSites: (Site & { e: ThExtensionDef })[] = [];
  for (const f of files) {
    const at = (path: (string | number)[]) => positionOf(f, path);
    const reserved = (fields: { name: string }[], base: (string | number)[]) =>
      fields.forEach((x, k) => {
        if (isReserved(RESERVED_TEEHISTORIAN_FIELDS, x.name)) problems.push({ file: f.file, ...at([...base, 'fields', k, 'name']), message: `field name '${x.name}' is reserved by the generated code (${RESERVED_TEEHISTORIAN_FIELDS.join(', ')})` });
      });
    if ('messages' in f.data) {
      (f.data.messages as ThMessageDef[]).forEach((m, i) => {
        if (m.fields.some((x) => x.type === 'rest')) problems.push({ file: f.file, ...at(['messages', i]), message: 'rest fields are only for extension payloads' });
        reserved(m.fields, ['messages', i]);
        messageSites.push({ f, path: ['messages', i], what: m.name, m });
        schema.messages.push(m);
      });
    } else if ('extensions' in f.data) {
      (f.data.extensions as Omit<ThExtensionDef, 'uuid'>[]).forEach((e, i) => {
        const rest = e.fields.findIndex((x) => x.type === 'rest');
        if (rest >= 0 && rest !== e.fields.length - 1) problems.push({ file: f.file, ...at(['extensions', i, 'fields', rest]), message: 'a rest field must be the last one' });
        reserved(e.fields, ['extensions', i]);
        const ext = { ...e, uuidName: e.uuid_name, uuid: uuidFromName(e.uuid_name) };
        extensionSites.push({ f, path: ['extensions', i], what: e.name, e: ext });
        schema.extensions.push(ext);
      });
    } else {
      problems.push({ file: f.file, line: 1, col: 1, message: 'teehistorian schemas hold messages or extensions' });
    }
  }
  const msgOf = (s: Site) => (s as Site & { m: ThMessageDef }).m;
  const extOf = (s: Site) => (s as Site & { e: ThExtensionDef }).e;
  findDuplicates(problems, messageSites, (s) => msgOf(s).id, (id, o) => `message id ${id} is already used by ${o.what}`);
  findDuplicates(problems, messageSites, (s) => msgOf(s).name, (name) => `message name ${name} is defined twice`);
  findDuplicates(problems, extensionSites, (s) => extOf(s).name, (name) => `extension ${name} is defined twice`);
  findDuplicates(problems, extensionSites, (s) => extOf(s).uuid, (uuid, o) => `UUID ${uuid} (${extOf(o).uuidName}) is already used by extension ${o.what}`);
  if (problems.length) throw new SchemaError(problems);
  schema.messages.sort((a, b) => a.id - b.id);
  schema.extensions.sort((a, b) => a.name.localeCompare(b.name));
  return schema;
}

/** Drops the noise ajv reports for `if`/`oneOf` wrappers when a more specific error exists. */
function simplifyErrors(errors: ErrorObject[]): ErrorObject[] {
  const specific = errors.filter((e) => !['if', 'oneOf', 'anyOf', 'not'].includes(e.keyword));
  return specific.length ? specific : errors;
}

function describe(e: ErrorObject): string {
  const where = e.instancePath ? `${e.instancePath.slice(1)}: ` : '';
  if (e.keyword === 'additionalProperties') return `${where}unknown key '${e.params.additionalProperty}'`;
  if (e.keyword === 'enum') return `${where}must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
  if (e.keyword === 'required') return `${where}missing key '${e.params.missingProperty}'`;
  return `${where}${e.message}`;
}

function locate(doc: Document.Parsed, lines: LineCounter, e: ErrorObject): { line: number; col: number } {
  const segments = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~')));
  let node: unknown = doc.contents;
  for (const seg of segments) {
    if (isMap(node) || isSeq(node)) node = node.get(seg, true);
    else break;
  }
  // Point at the offending key itself where there is one.
  const key = e.params.additionalProperty ?? (e.keyword === 'enum' || e.keyword === 'type' ? undefined : undefined);
  if (key !== undefined && isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && p.key.value === key);
    if (pair && isScalar(pair.key) && pair.key.range) return lines.linePos(pair.key.range[0]);
  }
  const range = (node as Node | undefined)?.range;
  return range ? lines.linePos(range[0]) : { line: 1, col: 1 };
}

type Raw = Record<string, unknown>;

/**
 * Property names the generated code adds beside the schema's fields: map items keep surplus ints in
 * `extra` and variants their `kind`; array items hold `records`; teehistorian messages carry `kind`, and
 * the reader adds `tick` and `offset`.
 */
export const RESERVED_MAP_FIELDS = ['extra', 'kind', 'records'] as const;
export const RESERVED_TEEHISTORIAN_FIELDS = ['kind', 'tick', 'offset'] as const;
const isReserved = (list: readonly string[], name: string) => list.includes(camel(name));

/** Where one definition sits, for problems that involve two. */
interface Site {
  f: ParsedFile;
  path: (string | number)[];
  what: string;
}

/**
 * Reports a duplicate at both definitions, each naming the other: whichever file a maintainer is adding,
 * the problem shows up at it.
 */
function duplicate(problems: SchemaProblem[], first: Site, second: Site, message: (other: Site) => string): void {
  for (const [here, other] of [[second, first], [first, second]] as const) {
    const pos = positionOf(here.f, here.path);
    const otherPos = positionOf(other.f, other.path);
    problems.push({ file: here.f.file, ...pos, message: `${message(other)} (${other.f.file}:${otherPos.line}:${otherPos.col})` });
  }
}

/** Finds duplicate keys among sites: `key` gives the key (or undefined to skip). */
function findDuplicates(problems: SchemaProblem[], sites: Site[], key: (s: Site) => string | number | undefined, message: (k: string | number, other: Site) => string): void {
  const seen = new Map<string | number, Site>();
  for (const site of sites) {
    const k = key(site);
    if (k === undefined) continue;
    const first = seen.get(k);
    if (first) duplicate(problems, first, site, (other) => message(k, other));
    else seen.set(k, site);
  }
}

/** Line and column of the YAML node at `path` (or of the nearest node above it). */
export function positionOf(f: ParsedFile, path: (string | number)[]): { line: number; col: number } {
  let node: unknown = f.doc.contents;
  for (const seg of path) if (isMap(node) || isSeq(node)) node = node.get(seg, true);
  const range = (node as Node | undefined)?.range;
  return range ? f.lines.linePos(range[0]) : { line: 1, col: 1 };
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
            ...(c.kinds ? { kinds: c.kinds as KindsDef } : {}),
          })),
        };
      }
      if (d.array) item.array = d.array as ItemDef['array'];
      if (d.versions) item.versions = d.versions as ItemDef['versions'];
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
        if (c.kinds) checkKinds(f, ['variants', 'cases', i, 'kinds'], c.kinds, all);
      });
    }
    if (item.versions && !flatFields(item.fields).some((x) => x.type === 'version')) problem(f, ['versions'], 'versions needs a field of type version');
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

/** Names the snapshot views (item, layout, toObject) and decoded objects (extra, raw) use themselves. */
export const RESERVED_SNAPSHOT_FIELDS = ['item', 'layout', 'to_object', 'extra', 'raw'];

type RawSnapshotField = Omit<SnapshotFieldDef, 'offset' | 'ints'> & { ints?: number };
interface RawSnapshotItem {
  name: string;
  description: string;
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
      const ints = field.kind === 'string' || field.kind === 'array' ? field.ints : 1;
      if (ints === undefined) report([...path, 'fields', i], `${field.kind} field ${field.name} needs ints`);
      else if (ints !== 1 && field.kind !== 'string' && field.kind !== 'array') report([...path, 'fields', i], `ints is only for string and array fields`);
      if (field.kind === 'fixed' && field.scale === undefined) report([...path, 'fields', i], `fixed field ${field.name} needs scale`);
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
  description?: string;
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
        if (field.kind !== kind) report([...path, 'fields', i, kind], `${kind}: is for ${kind} fields, ${field.name} is ${field.kind}`);
        else if (!set) report([...path, 'fields', i, kind], `${kind} ${name} is not among this file's enums (${[...byName.keys()].join(', ')})`);
        else if (set.kind !== kind) report([...path, 'fields', i, kind], `${name} is a set of kind ${set.kind}, not ${kind}`);
      }
    });
  }
  return raw.map((e) => ({
    name: e.name,
    kind: e.kind,
    ...(e.ddnet !== undefined ? { ddnet: e.ddnet } : {}),
    ...(e.description !== undefined ? { description: e.description } : {}),
    values: e.values.map((name, i) => ({ name, value: e.kind === 'flags' ? 2 ** i : (e.start ?? 0) + i })),
  }));
}

/** Loads the snapshot item tables (`schemasDir/snapshot`), one per protocol. */
export function loadSnapshotSchemas(schemasDir: string, displayRoot = schemasDir): SnapshotProtocolDef[] {
  const files = parseFamily(schemasDir, 'snapshot', displayRoot);
  const problems: SchemaProblem[] = [];
  const out: SnapshotProtocolDef[] = [];
  for (const f of files) {
    const d = f.data as { protocol: string; description: string; enums?: RawSnapshotEnum[]; items: (RawSnapshotItem & { type_id: number; size_in_delta?: boolean })[]; uuid_items?: (RawSnapshotItem & { size: number; uuid_name: string; variable_size?: boolean })[] };
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
      ...(raw.extends !== undefined ? { extends: raw.extends } : {}),
      fields: layouts.get(raw.name) ?? [],
    });
    out.push({
      protocol: d.protocol,
      description: d.description,
      enums,
      items: [...d.items].sort((a, b) => a.type_id - b.type_id).map((item) => ({ type_id: item.type_id, name: item.name, ...(item.size !== undefined ? { size: item.size } : {}), sizeInDelta: item.size === undefined || item.size_in_delta === true, description: item.description, ...layoutOf(item as unknown as RawSnapshotItem) })),
      uuidItems: (d.uuid_items ?? []).map((u) => ({ name: u.name, uuidName: u.uuid_name, uuid: uuidFromName(u.uuid_name), size: u.size, variableSize: u.variable_size === true, description: u.description, ...layoutOf(u as unknown as RawSnapshotItem) })),
    });
  }
  if (problems.length) throw new SchemaError(problems);
  return out.sort((a, b) => a.protocol.localeCompare(b.protocol));
}
