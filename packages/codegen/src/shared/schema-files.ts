// Reads the YAML schema files of one family, validates each with ajv against schemas/schema.json, and reports
// every problem as file:line:col. The family loaders (map/load.ts, snapshot/load.ts, ...) check the
// cross-references on top of this and build their models.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, type Document } from 'yaml';
import { camel } from './names.js';

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

// In the order a file's kind is looked for: a snapshot protocol file also has `enums`, a net message protocol
// file `messages`, a demo file `extensions`.
const KINDS = ['datafile', 'demo', 'item', 'record', 'tile', 'protocol', 'net_protocol', 'enums', 'tile_meanings', 'messages', 'extensions', 'packet_protocol', 'huffman'] as const;
const DEFINITION = {
  item: 'itemFile',
  record: 'recordFile',
  tile: 'tileFile',
  enums: 'enumsFile',
  tile_meanings: 'tileMeaningsFile',
  messages: 'thMessagesFile',
  extensions: 'thExtensionsFile',
  protocol: 'snapshotFile',
  net_protocol: 'netmsgFile',
  packet_protocol: 'packetFile',
  huffman: 'huffmanFile',
  datafile: 'datafileFile',
  demo: 'demoFile',
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


/**
 * Drops the noise ajv reports for `if`/`oneOf` wrappers when a more specific error exists, and keeps one enum
 * error per place: a field type is checked against the shared vocabulary and against the part of it its family
 * allows (schema.json `fieldType`, `<family>FieldType`), and the narrower list is the one to name.
 */
function simplifyErrors(errors: ErrorObject[]): ErrorObject[] {
  const specific = errors.filter((e) => !['if', 'oneOf', 'anyOf', 'allOf', 'not'].includes(e.keyword));
  const narrowest = new Map<string, ErrorObject>();
  for (const e of specific) {
    if (e.keyword !== 'enum') continue;
    const other = narrowest.get(e.instancePath);
    if (!other || (e.params.allowedValues as unknown[]).length < (other.params.allowedValues as unknown[]).length) narrowest.set(e.instancePath, e);
  }
  const kept = specific.filter((e) => e.keyword !== 'enum' || narrowest.get(e.instancePath) === e);
  return kept.length ? kept : errors;
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

export type Raw = Record<string, unknown>;

/**
 * Property names the generated code adds beside the schema's fields: map items keep surplus ints in
 * `extra` and variants their `kind`; array items hold `records`; teehistorian messages carry `kind`, and
 * the reader adds `tick` and `offset`.
 */
export const isReserved = (list: readonly string[], name: string) => list.includes(camel(name));

/** Where one definition sits, for problems that involve two. */
export interface Site {
  f: ParsedFile;
  path: (string | number)[];
  what: string;
}

/**
 * Reports a duplicate at both definitions, each naming the other: whichever file a maintainer is adding,
 * the problem shows up at it.
 */
export function duplicate(problems: SchemaProblem[], first: Site, second: Site, message: (other: Site) => string): void {
  for (const [here, other] of [[second, first], [first, second]] as const) {
    const pos = positionOf(here.f, here.path);
    const otherPos = positionOf(other.f, other.path);
    problems.push({ file: here.f.file, ...pos, message: `${message(other)} (${other.f.file}:${otherPos.line}:${otherPos.col})` });
  }
}

/** Finds duplicate keys among sites: `key` gives the key (or undefined to skip). */
export function findDuplicates(problems: SchemaProblem[], sites: Site[], key: (s: Site) => string | number | undefined, message: (k: string | number, other: Site) => string): void {
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

