// What the map item, record and tile emitters share: the TypeScript type, doc, read and write code of one field,
// and item layouts (runs of fields read with one bounds check, version and room groups).
import { StructureKind } from 'ts-morph';
import { doc, type Imports, str } from '../shared/emit.js';
import { type FieldDef, type FieldEntry, fieldInts, flatFields } from './model.js';
import { camel, pascal } from '../shared/names.js';

/** A schema name as a TypeScript constant name. */
export const constName = (name: string) => name.toUpperCase();

/** Where the generated map files import from (relative to src/generated/). */
export const RUNTIME = '@twcodec/runtime';
const TYPES = './types.gen.js';
export const RECORDS = './records.gen.js';
/** Fixed code the item decoders call, hand-written in the map package. */
const ITEM_CODEC = '../item-codec.js';

export function fieldTsType(field: FieldDef, imports: Imports): string {
  switch (field.type) {
    case 'bool':
      return 'boolean';
    case 'point':
      return imports.type(TYPES, 'Point');
    case 'color':
    case 'i32color':
      return imports.type(TYPES, 'Color');
    case 'i32string':
      return 'string';
    case 'i32array':
      return 'number[]';
    default:
      return 'number';
  }
}

export function fieldDoc(field: FieldDef, since?: string): string {
  const parts = [field.description];
  if (field.type === 'data_ref') parts.push(`Data item index (${field.data})${field.optional ? ', -1 for none' : ''}.`);
  if (field.type === 'item_ref') parts.push(`Index of a ${field.ref} item${field.optional ? ', -1 for none' : ''}.`);
  if (field.enum) parts.push(`Values: {@link ${pascal(field.enum)}}.`);
  if (field.flags) parts.push(`Flags: {@link ${pascal(field.flags)}}.`);
  if (since) parts.push(since);
  return parts.join(' ');
}

/** An int index expression: `base + off + k`. */
export type Index = (k: number) => string;
export const index = (base: string, off = 0): Index => (k) => (off + k ? `${base} + ${off + k}` : base);

/** Expression reading `field` from Int32Array `d` at the ints `idx(0)`, `idx(1)`, ... */
export function readExpr(field: FieldDef, idx: Index, imports: Imports): string {
  const d = (k: number) => `d[${idx(k)}]!`;
  switch (field.type) {
    case 'bool':
      return `${d(0)} !== 0`;
    case 'point':
      return `{ x: ${d(0)}, y: ${d(1)} }`;
    case 'color':
    case 'i32color':
      return `{ r: ${d(0)}, g: ${d(1)}, b: ${d(2)}, a: ${d(3)} }`;
    case 'i32string':
      return `${imports.value(RUNTIME, 'decodeI32String')}(d, ${idx(0)}, ${field.ints})`;
    case 'i32array':
      return `[${Array.from({ length: field.ints! }, (_, k) => d(k)).join(', ')}]`;
    default:
      return d(0);
  }
}

/** Statements writing `value` (an expression of the field's TS type) into Int32Array `out`. */
export function writeStmts(field: FieldDef, value: string, idx: Index, imports: Imports): string[] {
  const o = (k: number) => `out[${idx(k)}]`;
  switch (field.type) {
    case 'bool':
      return [`${o(0)} = ${value} ? 1 : 0;`];
    case 'point':
      return [`${o(0)} = ${value}.x;`, `${o(1)} = ${value}.y;`];
    case 'color':
    case 'i32color':
      return ['r', 'g', 'b', 'a'].map((c, k) => `${o(k)} = ${value}.${c};`);
    case 'i32string':
      return [`out.set(${imports.value(RUNTIME, 'encodeI32String')}(${value}, ${field.ints}), ${idx(0)});`];
    case 'i32array':
      return Array.from({ length: field.ints! }, (_, k) => `${o(k)} = ${value}[${k}] ?? 0;`);
    default:
      return [`${o(0)} = ${value};`];
  }
}

function defaultValue(field: FieldDef): string {
  switch (field.type) {
    case 'bool':
      return 'false';
    case 'point':
      return '{ x: 0, y: 0 }';
    case 'color':
    case 'i32color':
      return '{ r: 0, g: 0, b: 0, a: 0 }';
    case 'i32string':
      return "''";
    case 'i32array':
      return '[]';
    case 'data_ref':
    case 'item_ref':
      return field.optional ? '-1' : '0';
    default:
      return '0';
  }
}


// ---------------------------------------------------------------------------------------------
// Item layouts: a sequence of entries read with a cursor `p`.

export interface Layout {
  entries: FieldEntry[];
  /** The imports of the file being written. */
  imports: Imports;
  /** The name of the `version` field in scope. */
  version?: string;
}

export function layoutProperties(layout: Layout) {
  return layout.entries.flatMap((entry) => {
    const fields = entry.kind === 'field' ? [entry.field] : entry.fields;
    const since =
      entry.kind === 'since_version'
        ? `Present from version ${entry.version} on.`
        : entry.kind === 'if_room'
          ? 'Present only when the item is long enough.'
          : undefined;
    return fields.map((field) => ({
      kind: StructureKind.PropertySignature as const,
      name: camel(field.name),
      type: fieldTsType(field, layout.imports),
      hasQuestionToken: entry.kind !== 'field',
      docs: doc(fieldDoc(field, since)),
    }));
  });
}

/** Consecutive unconditional fields are read and written as one run with a single bounds check. */
export function runs(entries: FieldEntry[]): ({ kind: 'run'; fields: FieldDef[] } | Exclude<FieldEntry, { kind: 'field' }>)[] {
  const out: ({ kind: 'run'; fields: FieldDef[] } | Exclude<FieldEntry, { kind: 'field' }>)[] = [];
  for (const entry of entries) {
    const last = out[out.length - 1];
    if (entry.kind !== 'field') out.push(entry);
    else if (last?.kind === 'run') last.fields.push(entry.field);
    else out.push({ kind: 'run', fields: [entry.field] });
  }
  return out;
}

export const width = (fields: FieldDef[]) => fields.reduce((s, f) => s + fieldInts(f), 0);

function versionFieldOf(layout: Layout): FieldDef | undefined {
  return flatFields(layout.entries).find((f) => f.type === 'version');
}

/** Decode statements for the entries, reading into `item` with cursor `p`; `name` names errors. */
export function decodeEntries(layout: Layout, name: string): string[] {
  const lines: string[] = [];
  const versionField = versionFieldOf(layout);
  let roomIndex = 0;
  for (const entry of runs(layout.entries)) {
    if (entry.kind === 'run') {
      const w = width(entry.fields);
      lines.push(`${layout.imports.value(ITEM_CODEC, 'need')}(d, p + ${w}, ${str(`${name}.${camel(entry.fields[0]!.name)}`)}, offset);`);
      let k = 0;
      for (const field of entry.fields) {
        lines.push(`item.${camel(field.name)} = ${readExpr(field, index('p', k), layout.imports)};`);
        k += fieldInts(field);
      }
      lines.push(`p += ${w};`);
    } else if (entry.kind === 'since_version') {
      // An item too short for its version keeps these fields undefined (validateMap reports it): DDNet
      // loads some such items (it skips groups of versions it does not know), so they must read and
      // write back as they are.
      const w = width(entry.fields);
      lines.push(`if (item.${camel(versionField!.name)} >= ${entry.version} && p + ${w} <= d.length) {`);
      let k = 0;
      for (const field of entry.fields) {
        lines.push(`  item.${camel(field.name)} = ${readExpr(field, index('p', k), layout.imports)};`);
        k += fieldInts(field);
      }
      lines.push(`  p += ${w};`);
      lines.push('}');
    } else {
      const label = `room${roomIndex++ || ''}`;
      lines.push(`${label}: {`);
      for (const field of entry.fields) {
        const w = fieldInts(field);
        lines.push(`  if (p + ${w} > d.length) break ${label};`);
        lines.push(`  item.${camel(field.name)} = ${readExpr(field, index('p'), layout.imports)};`);
        lines.push(`  p += ${w};`);
      }
      lines.push('}');
    }
  }
  return lines;
}

/** Statements computing the encoded length `n` and writing the entries into `out`. */
export function encodeEntries(layout: Layout, startLength: string): { size: string[]; write: string[] } {
  const size: string[] = [`let n = ${startLength};`];
  const write: string[] = [];
  const versionField = versionFieldOf(layout);
  let roomIndex = 0;
  for (const entry of runs(layout.entries)) {
    if (entry.kind === 'run' || entry.kind === 'since_version') {
      const w = width(entry.fields);
      const indent = entry.kind === 'run' ? '' : '  ';
      const cond = entry.kind === 'since_version' ? `item.${camel(versionField!.name)} >= ${entry.version} && item.${camel(entry.fields[0]!.name)} !== undefined` : '';
      size.push(cond ? `if (${cond}) n += ${w};` : `n += ${w};`);
      if (cond) write.push(`if (${cond}) {`);
      let k = 0;
      for (const field of entry.fields) {
        const value = cond ? `(item.${camel(field.name)} ?? ${defaultValue(field)})` : `item.${camel(field.name)}`;
        write.push(...writeStmts(field, value, index('p', k), layout.imports).map((s) => `${indent}${s}`));
        k += fieldInts(field);
      }
      write.push(`${indent}p += ${w};`);
      if (cond) write.push('}');
    } else {
      const label = `room${roomIndex++ || ''}`;
      size.push(`${label}: {`);
      write.push(`${label}: {`);
      for (const field of entry.fields) {
        const w = fieldInts(field);
        const prop = `item.${camel(field.name)}`;
        size.push(`  if (${prop} === undefined) break ${label};`, `  n += ${w};`);
        write.push(`  if (${prop} === undefined) break ${label};`);
        write.push(...writeStmts(field, prop, index('p'), layout.imports).map((s) => `  ${s}`), `  p += ${w};`);
      }
      size.push('}');
      write.push('}');
    }
  }
  return { size, write };
}
