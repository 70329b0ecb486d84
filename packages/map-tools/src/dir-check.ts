// Checks of an edited directory form (map.json and its tile text) before and after packing, so that what
// `map pack` writes reads back as the map.json says, or it refuses with the file and line:column of what is
// wrong (issue 25 rows 3, 4 and 13, issue 26).
import { MapError } from '@twcodec/map';
import { isDerivedField, itemTypeAtPath } from './diff.js';

export type JsonPath = (string | number)[];

/** `groups[0].layers[1].item.name`, as paths are written elsewhere (validateMap, diffMaps). */
export function pathText(path: JsonPath): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
}

/** Line and column (1-based) of character `offset` of `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/**
 * Where the value at `path` starts in a JSON text (which JSON.parse accepted), as `file:line:column`; just
 * `file` when the path is not in the text (a value the model added). Walks the text without building it.
 */
export function jsonLocation(file: string, text: string, path: JsonPath): string {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const skipString = () => {
    for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    i++;
  };
  // Skips one value: brackets counted, strings skipped whole (iterative, so that nesting costs no stack).
  const skipValue = () => {
    let depth = 0;
    do {
      ws();
      const c = text[i];
      if (c === '"') skipString();
      else if (c === '{' || c === '[') {
        depth++;
        i++;
      } else if (c === '}' || c === ']') {
        depth--;
        i++;
      } else if (c === ',' || c === ':') i++;
      else while (i < text.length && !' \t\r\n,:]}'.includes(text[i]!)) i++;
    } while (depth > 0 && i < text.length);
  };
  for (const key of path) {
    ws();
    const open = text[i];
    if (open === '{' && typeof key === 'string') {
      i++;
      for (;;) {
        ws();
        if (text[i] !== '"') return file;
        const start = i;
        skipString();
        const name = JSON.parse(text.slice(start, i)) as string;
        ws();
        i++; // ':'
        ws();
        if (name === key) break;
        skipValue();
        ws();
        if (text[i] !== ',') return file;
        i++;
      }
    } else if (open === '[' && typeof key === 'number') {
      i++;
      for (let n = 0; n < key; n++) {
        skipValue();
        ws();
        if (text[i] !== ',') return file;
        i++;
      }
      ws();
      if (text[i] === ']') return file;
    } else return file;
  }
  ws();
  return jsonTextLocation(file, text, i);
}

/** `file:line:column` of character `index` of `text` (1-based line and column). */
export function jsonTextLocation(file: string, text: string, index: number): string {
  const { line, column } = lineColumn(text, index);
  return `${file}:${line}:${column}`;
}

const isTileView = (v: unknown): v is { bytes: Uint8Array } => !!v && typeof v === 'object' && 'bytes' in v && (v as { bytes: unknown }).bytes instanceof Uint8Array;

/**
 * The first place where `read` (the map as packed and read back) differs from `wanted` (the model map.json
 * described), leaving out what the writer derives (isDerivedField) and what reading adds (read issues,
 * byte offsets). Undefined when they agree.
 */
export function firstDifference(wanted: unknown, read: unknown, path: JsonPath = []): { path: JsonPath; wanted: unknown; read: unknown } | undefined {
  if (wanted === read) return undefined;
  if (ArrayBuffer.isView(wanted) || ArrayBuffer.isView(read) || isTileView(wanted) || isTileView(read)) {
    const a = isTileView(wanted) ? wanted.bytes : wanted;
    const b = isTileView(read) ? read.bytes : read;
    if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b) && a.constructor === b.constructor && a.byteLength === b.byteLength) {
      const x = a as unknown as ArrayLike<number>;
      const y = b as unknown as ArrayLike<number>;
      let same = true;
      for (let k = 0; k < x.length && same; k++) same = x[k] === y[k];
      if (same) return undefined;
    }
    return { path, wanted, read };
  }
  if (Array.isArray(wanted) && Array.isArray(read)) {
    if (wanted.length !== read.length) return { path, wanted, read };
    for (let k = 0; k < wanted.length; k++) {
      const d = firstDifference(wanted[k], read[k], [...path, k]);
      if (d) return d;
    }
    return undefined;
  }
  if (wanted && read && typeof wanted === 'object' && typeof read === 'object' && !Array.isArray(wanted) && !Array.isArray(read)) {
    const a = wanted as Record<string, unknown>;
    const b = read as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (path.length === 0 && IGNORED_TOP.has(key)) continue;
      if (key === 'offset' && path[0] === 'unknownItems') continue;
      const itemType = path.at(-1) === 'item' ? itemTypeAtPath(path) : undefined;
      if (itemType && isDerivedField(itemType, a, key)) continue;
      const d = firstDifference(a[key], b[key], [...path, key]);
      if (d) return d;
    }
    return undefined;
  }
  return { path, wanted, read };
}

/** What a read adds to the model that map.json does not decide. */
const IGNORED_TOP = new Set(['readIssues', 'datafile', 'unreadData']);

/** A short text of a value for a message. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (isTileView(v)) return `${v.bytes.length} tile bytes`;
  if (ArrayBuffer.isView(v)) return `${v.byteLength} bytes`;
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    return 'a value nested too deeply to show';
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `an object`, `an array`, `a string`, `null`. */
export function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return /^[aeiou]/.test(typeof v) ? `an ${typeof v}` : `a ${typeof v}`;
}

/** A string's size in UTF-8 bytes (the names' limits are in bytes). */
const utf8Length = (s: string) => new TextEncoder().encode(s).length;

/** The error for a packed map that does not read back as map.json says. */
export function readBackError(file: string, text: string, d: { path: JsonPath; wanted: unknown; read: unknown }): MapError {
  const where = jsonLocation(file, text, d.path);
  let why = `${describeValue(d.wanted)} is written as ${describeValue(d.read)}`;
  if (typeof d.wanted === 'string' && d.wanted.includes('\uFFFD')) {
    // The model holds names as text: bytes that are not UTF-8 were read as U+FFFD and cannot be given back.
    why = `the name read holds bytes that are not UTF-8 (shown as U+FFFD), which map.json cannot give back: keep original.map beside map.json (it keeps them while the name is unchanged), or rename it`;
  } else if (typeof d.wanted === 'string' && typeof d.read === 'string' && d.wanted.startsWith(d.read)) {
    // Names are fixed-size I32Strings in the item (schemas/map/items: a layer's 3 ints, 11 bytes and the NUL;
    // DDNet's editor cuts them the same way).
    why = `${utf8Length(d.wanted)} bytes is longer than the item holds: at most ${utf8Length(d.read)} bytes fit ("${d.read}")`;
  } else if (typeof d.wanted !== typeof d.read && d.read !== undefined && d.wanted !== undefined) {
    why = `expected a ${typeof d.read}, found ${kindOf(d.wanted)} (${describeValue(d.wanted)})`;
  }
  return new MapError('mapdir.value', `${pathText(d.path)}: ${why}`, -1, where);
}
