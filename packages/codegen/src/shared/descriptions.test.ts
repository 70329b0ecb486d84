// "Every schema field described": a reader of docs/formats needs to know what each field and each value set
// means, and the pages take that from the YAML. This walks every schema file of every family (each directory
// of schemas/, so a family added later is covered without touching this test) and reports, with file:line:col,
// each field (a mapping with `name` and `type`) and each enum or flag set (a mapping with `name` and `values`)
// whose `description` is missing or empty.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ParsedFile, parseFamily, positionOf } from './schema-files.js';

const root = new URL('../../../../', import.meta.url).pathname;
const schemas = join(root, 'schemas');
const families = readdirSync(schemas).filter((name) => statSync(join(schemas, name)).isDirectory());

type Path = (string | number)[];

/** Every field and value set of a parsed file without a description, as `file:line:col: what`. */
function undescribed(f: ParsedFile): string[] {
  const out: string[] = [];
  const walk = (value: unknown, path: Path) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (value && typeof value === 'object') {
      const node = value as Record<string, unknown>;
      const what = typeof node.name !== 'string' ? undefined : 'type' in node ? 'field' : 'values' in node ? 'set' : undefined;
      if (what && !(typeof node.description === 'string' && node.description.trim())) {
        const { line, col } = positionOf(f, path);
        out.push(`${f.file}:${line}:${col}: ${what} ${node.name as string} has no description`);
      }
      for (const [key, v] of Object.entries(node)) walk(v, [...path, key]);
    }
  };
  walk(f.data, []);
  return out;
}

describe('every schema field and value set has a description', () => {
  it('finds the schema families', () => {
    expect(families).toEqual(expect.arrayContaining(['map', 'snapshot', 'netmsg', 'net', 'teehistorian']));
  });
  for (const family of families) {
    it(`schemas/${family}`, () => {
      const files = parseFamily(schemas, family, root);
      expect(files.length).toBeGreaterThan(0);
      expect(files.flatMap(undescribed)).toEqual([]);
    });
  }

  it('reports a field without a description at its line', () => {
    const f = { file: 'x.yaml', data: { items: [{ name: 'a', fields: [{ name: 'b', type: 'i32' }, { name: 'c', type: 'i32', description: 'C.' }] }] } } as unknown as ParsedFile;
    // positionOf needs the parsed document; without one it says 1:1.
    expect(undescribed({ ...f, doc: { contents: null } } as unknown as ParsedFile)).toEqual(['x.yaml:1:1: field b has no description']);
  });
});
