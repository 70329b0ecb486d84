// What the container families (schemas/datafile, schemas/demo) share: fixed-size field lists laid out one after
// the other, magic values, versions, named constants and the `checked:` sources, loaded into models with byte
// offsets, and the Markdown tables their pages are made of (headers and cell words only: every sentence is a
// YAML description or in the page template).
import { parseFamily, positionOf, type ParsedFile, SchemaError, type SchemaProblem } from './schema-files.js';
import { cell, tableHead } from './pages.js';

/** A fixed-size field with its place: `offset` from the start of its list. */
export interface ContainerField {
  name: string;
  type: string;
  offset: number;
  /** Bytes of one value (`count` of them follow). */
  bytes: number;
  count: number;
  unit: string;
  range: string;
  description: string;
  errors: string[];
  checked: string[];
}

export interface ContainerConstant {
  name: string;
  value: number | string;
  description: string;
  checked: string[];
}

export interface ContainerMagic {
  value: string;
  description: string;
  checked: string[];
}

interface RawField {
  name: string;
  type: string;
  bytes?: number;
  count?: number;
  unit: string;
  range: string;
  description: string;
  errors?: string[];
  checked: string[];
}

/** The size of one value of a type that has one (the others need `bytes:`). */
const TYPE_BYTES: Record<string, number | undefined> = { i32: 4, u8: 1, uuid: 16 };

/**
 * The one file of a container family (`schemas/<family>/*.yaml` with a top-level `<family>` key), or undefined
 * when the family has none; a second such file is a SchemaError naming both.
 */
export function singleContainerFile(schemasDir: string, family: string, displayRoot: string): ParsedFile | undefined {
  const files = parseFamily(schemasDir, family, displayRoot).filter((f) => family in f.data);
  if (!files.length) return undefined;
  if (files.length > 1) throw new SchemaError(files.slice(1).map((f) => ({ file: f.file, line: 1, col: 1, message: `the ${family} container is already defined in ${files[0]!.file}` })));
  return files[0]!;
}

/** Lays out `raw` (at `path` in `f`) from offset 0, reporting sizes the type and `bytes:` disagree on. */
export function layoutFields(f: ParsedFile, path: (string | number)[], raw: RawField[], problems: SchemaProblem[]): ContainerField[] {
  let offset = 0;
  const names = new Set<string>();
  return raw.map((r, i) => {
    const at = positionOf(f, [...path, i]);
    const fixed = TYPE_BYTES[r.type];
    if (fixed !== undefined && r.bytes !== undefined && r.bytes !== fixed) problems.push({ file: f.file, ...at, message: `${r.name}: a ${r.type} has ${fixed} bytes, not ${r.bytes}` });
    if (fixed === undefined && r.bytes === undefined) problems.push({ file: f.file, ...at, message: `${r.name}: a ${r.type} field needs bytes:` });
    if (names.has(r.name)) problems.push({ file: f.file, ...at, message: `${r.name} is defined twice` });
    names.add(r.name);
    const bytes = fixed ?? r.bytes ?? 0;
    const field: ContainerField = { name: r.name, type: r.type, offset, bytes, count: r.count ?? 1, unit: r.unit, range: r.range, description: r.description, errors: r.errors ?? [], checked: r.checked };
    offset += bytes * field.count;
    return field;
  });
}

/** The bytes a field list takes. */
export const fieldsSize = (fields: readonly ContainerField[]) => fields.reduce((sum, f) => sum + f.bytes * f.count, 0);

/** The versions as listed, checked ascending and unique. */
export function checkVersions(f: ParsedFile, versions: { version: number }[], problems: SchemaProblem[]): void {
  versions.forEach((v, i) => {
    if (i > 0 && v.version <= versions[i - 1]!.version) problems.push({ file: f.file, ...positionOf(f, ['versions', i, 'version']), message: `versions must be ascending: ${v.version} after ${versions[i - 1]!.version}` });
  });
}

/**
 * The first version with `flag`, checked to stay set in every later version (each flag is a feature a version
 * added); undefined when no version has it.
 */
export function versionFrom<T extends { version: number }>(f: ParsedFile, versions: T[], flag: keyof T & string, problems: SchemaProblem[]): number | undefined {
  const first = versions.findIndex((v) => v[flag] === true);
  if (first < 0) return undefined;
  versions.forEach((v, i) => {
    if (i > first && v[flag] !== true) problems.push({ file: f.file, ...positionOf(f, ['versions', i, flag]), message: `${flag} is set from version ${versions[first]!.version} on, so version ${v.version} has it too` });
  });
  return versions[first]!.version;
}

/** Constants: unique names. */
export function checkConstants(f: ParsedFile, constants: ContainerConstant[], problems: SchemaProblem[]): void {
  const seen = new Set<string>();
  constants.forEach((c, i) => {
    if (seen.has(c.name)) problems.push({ file: f.file, ...positionOf(f, ['constants', i, 'name']), message: `constant ${c.name} is defined twice` });
    seen.add(c.name);
  });
}

// ---- Markdown ----


/** `checked:` sources as one cell. */
export const checkedCell = (checked: readonly string[]) => cell(checked.join('; '));

/** Error codes as one cell. */
const errorsCell = (errors: readonly string[]) => (errors.length ? errors.map((e) => `\`${e}\``).join(', ') : '');

/** The `bytes` column of a field: its size, `count × size` for arrays. */
const sizeCell = (f: ContainerField) => (f.count > 1 ? `${f.count} × ${f.bytes}` : `${f.bytes}`);

/** The offset column: from `base`, or relative (`+n`) when `relative`. */
const offsetCell = (f: ContainerField, base: number, relative: boolean) => (relative ? `+${f.offset}` : `${base + f.offset}`);

/** A table of fields with offsets, sizes, types, units, ranges, meanings, error codes and sources. */
export function fieldTable(fields: readonly ContainerField[], options: { base?: number; relative?: boolean; byteOrder?: 'little' | 'big' } = {}): string[] {
  const base = options.base ?? 0;
  const order = options.byteOrder === 'big' ? ' BE' : options.byteOrder === 'little' ? ' LE' : '';
  const typeCell = (f: ContainerField) => (f.type === 'i32' ? `${f.type}${order}` : f.type);
  return [
    ...tableHead(['offset', 'bytes', 'field', 'type', 'unit', 'range', 'meaning', 'error', 'checked']),
    ...fields.map((f) => `| ${offsetCell(f, base, options.relative === true)} | ${sizeCell(f)} | \`${f.name}\` | ${typeCell(f)} | ${cell(f.unit)} | ${cell(f.range)} | ${cell(f.description)} | ${errorsCell(f.errors)} | ${checkedCell(f.checked)} |`),
  ];
}

/** The magic values' table. */
export function magicTable(magic: readonly ContainerMagic[]): string[] {
  const shown = (v: string) => `\`${v.replace(/\0/g, '\\0')}\``;
  return [...tableHead(['value', 'bytes', 'meaning', 'checked']), ...magic.map((m) => `| ${shown(m.value)} | ${hexBytes(m.value)} | ${cell(m.description)} | ${checkedCell(m.checked)} |`)];
}

/** A string's bytes in hex (the magic values are ASCII). */
const hexBytes = (text: string) => Array.from(text, (c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join(' ');

/** The constants' table, with the names the generated code exports them under. */
export function constantsTable(constants: readonly ContainerConstant[], exportName: (c: ContainerConstant) => string): string[] {
  const value = (v: number | string) => (typeof v === 'number' && v >= 0x8000 ? `0x${v.toString(16)} (${v})` : `${v}`);
  return [...tableHead(['name', 'value', 'meaning', 'checked']), ...constants.map((c) => `| \`${exportName(c)}\` | ${value(c.value)} | ${cell(c.description)} | ${checkedCell(c.checked)} |`)];
}

/** The page-wide sources as a list. */
export const checkedList = (checked: readonly string[]) => checked.map((c) => `- ${c}`);

// ---- TypeScript ----

/** A constant's name as exported: `<PREFIX>_<NAME>`. */
export const constName = (prefix: string, name: string) => `${prefix}_${name.toUpperCase()}`;

/** A number as TypeScript: hex from 0x8000 up (type ids, masks), else decimal. */
export const numberLiteral = (v: number) => (v >= 0x8000 ? `0x${v.toString(16)}` : `${v}`);

/** A string as a TypeScript literal, control characters escaped (the demo marker ends in a NUL). */
export const stringLiteral = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\0/g, '\\0')}'`;

/** The doc comment of a generated constant: its description, then where it was checked. */
export const constDoc = (description: string, checked: readonly string[], source: string) => `${description}\n\nChecked: ${[...new Set(checked)].join('; ')}. From ${source}.`;

/** `{ name: offset, ... } as const` of a field list, the names in camelCase. */
export const offsetsInitializer = (fields: readonly ContainerField[], camel: (s: string) => string) => `{ ${fields.map((f) => `${camel(f.name)}: ${f.offset}`).join(', ')} } as const`;

