// The container families (schemas/datafile, schemas/demo): what the generated constants and pages say comes from
// the YAML (a field moved there moves in both), and mistakes in the files are reported with file:line:col.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../../test/corpus.js';
import { emitDatafileDocs } from '../datafile/docs.js';
import { emitDatafileTs } from '../datafile/emit.js';
import { loadDatafileSchema } from '../datafile/load.js';
import { emitDemoDocs } from '../demo/docs.js';
import { emitDemoTs } from '../demo/emit.js';
import { loadDemoSchema } from '../demo/load.js';
import { SchemaError } from './schema-files.js';

/** A copy of schemas/ with `file` edited: `from` replaced by `to`; returns the copy's root and where `from` was. */
function edited(file: string, from: string, to: string): { root: string; line: number; col: number } {
  const root = mkdtempSync(join(tmpdir(), 'twcodec-containers-'));
  cpSync(join(repoRoot, 'schemas'), join(root, 'schemas'), { recursive: true });
  const path = join(root, 'schemas', file);
  const text = readFileSync(path, 'utf8');
  const at = text.indexOf(from);
  expect(at, `${file} has ${from}`).toBeGreaterThanOrEqual(0);
  writeFileSync(path, text.slice(0, at) + to + text.slice(at + from.length));
  return { root, line: text.slice(0, at).split('\n').length, col: at - text.lastIndexOf('\n', at - 1) };
}

const problems = (load: () => unknown) => {
  try {
    load();
  } catch (e) {
    expect(e).toBeInstanceOf(SchemaError);
    return (e as SchemaError).message.split('\n');
  }
  throw new Error('no SchemaError');
};

describe('datafile family', () => {
  const d = loadDatafileSchema(join(repoRoot, 'schemas'), repoRoot)!;

  it('lays the header out from its fields: 36 bytes, data_size at 32; the item type entry 12 bytes, the item header 8', () => {
    expect(d.headerSize).toBe(36);
    expect(d.header.map((f) => [f.name, f.offset])).toEqual([
      ['magic', 0], ['version', 4], ['size', 8], ['swaplen', 12], ['num_item_types', 16], ['num_items', 20], ['num_data', 24], ['item_size', 28], ['data_size', 32],
    ]);
    const ts = emitDatafileTs(d).text;
    expect(ts).toContain('export const DATAFILE_HEADER_SIZE = 36;');
    expect(ts).toContain('export const DATAFILE_ITEM_TYPE_SIZE = 12;');
    expect(ts).toContain('export const DATAFILE_ITEM_HEADER_SIZE = 8;');
    expect(ts).toContain("export const DATAFILE_MAGIC = ['DATA', 'ATAD'] as const;");
    expect([d.compressedFrom, d.dataSizesFrom]).toEqual([4, 4]);
  });

  it('every field, table and constant has a description, a unit and range where it has a value, and where it was checked', () => {
    for (const f of [...d.header, ...d.itemType, ...d.itemHeader]) {
      expect(f.description, f.name).not.toBe('');
      expect(f.unit, f.name).not.toBe('');
      expect(f.range, f.name).not.toBe('');
      expect(f.checked.length, f.name).toBeGreaterThan(0);
    }
    for (const t of d.tables) expect(t.checked.length, t.name).toBeGreaterThan(0);
    const docs = emitDatafileDocs(d);
    for (const f of d.header) expect(docs).toContain(`| ${f.offset} | ${f.bytes} | \`${f.name}\` |`);
    expect(docs).not.toMatch(/\{\{/);
  });

  it('a header field added in YAML moves the fields after it and the header size, in the code and the page', () => {
    const { root } = edited('datafile/datafile.yaml', '  - name: size\n', '  - name: extra\n    type: i32\n    unit: bytes\n    range: any\n    description: An example field.\n    checked: ["an example"]\n  - name: size\n');
    const moved = loadDatafileSchema(join(root, 'schemas'), root)!;
    expect(moved.headerSize).toBe(40);
    expect(emitDatafileTs(moved).text).toContain('dataSize: 36 }');
    expect(emitDatafileDocs(moved)).toContain('| 8 | 4 | `extra` |');
  });

  it('reports a table counted by a field the header does not have at file:line:col', () => {
    const { root, line, col } = edited('datafile/datafile.yaml', 'count: num_items', 'count: num_itemz');
    expect(problems(() => loadDatafileSchema(join(root, 'schemas'), root))).toEqual([`schemas/datafile/datafile.yaml:${line}:${col + 'count: '.length}: count: 'num_itemz' is not a header field (magic, version, size, swaplen, num_item_types, num_items, num_data, item_size, data_size)`]);
  });

  it('reports a field without checked: at its line', () => {
    const { root, line } = edited('datafile/datafile.yaml', '    checked: ["DDNet 16.4 datafile.cpp CDataFileReader::MapSize"]\n', '');
    const [problem] = problems(() => loadDatafileSchema(join(root, 'schemas'), root));
    expect(problem).toMatch(new RegExp(`^schemas/datafile/datafile.yaml:${line - 3}:\\d+: constants/0: missing key 'checked'$`));
  });
});

describe('demo family', () => {
  const d = loadDemoSchema(join(repoRoot, 'schemas'), repoRoot)!;

  it("lays the header out as DDNet's CDemoHeader: 176 bytes, the map size at 136; the extensions 260 and 48 bytes", () => {
    expect(d.headerSize).toBe(176);
    expect(d.header.find((f) => f.name === 'map_size')!.offset).toBe(136);
    expect(d.extensions.map((e) => [e.name, e.from, e.size])).toEqual([['timeline_markers', 4, 260], ['map_sha256', 6, 48]]);
    const ts = emitDemoTs(d).text;
    expect(ts).toContain("export const DEMO_MARKER = 'TWDEMO\\0';");
    for (const line of ['DEMO_TICK_MARKER_MASK = 0x80;', 'DEMO_KEYFRAME_MASK = 0x40;', 'DEMO_TICK_COMPRESSED_MASK = 0x20;', 'DEMO_TICK_DELTA_MASK = 0x1f;', 'DEMO_TICK_DELTA_LEGACY_MASK = 0x3f;', 'DEMO_CHUNK_TYPE_MASK = 0x60;', 'DEMO_CHUNK_TYPE_SHIFT = 5;', 'DEMO_VERSION_TICK_COMPRESSION = 5;']) {
      expect(ts).toContain(`export const ${line}`);
    }
    const docs = emitDemoDocs(d);
    expect(docs).not.toMatch(/\{\{/);
    for (const f of d.header) expect(docs).toContain(`| ${f.offset} | ${f.bytes} | \`${f.name}\` |`);
  });

  it('reports chunk bits that overlap in a version they share at file:line:col', () => {
    const { root, line, col } = edited('demo/demo.yaml', 'bits: [0, 4]\n    versions: [5, 6]', 'bits: [0, 5]\n    versions: [5, 6]');
    expect(problems(() => loadDemoSchema(join(root, 'schemas'), root))).toEqual([`schemas/demo/demo.yaml:${line}:${col + 'bits: '.length}: tick_delta overlaps tick_compressed`]);
  });

  it('reports a version that drops a feature an earlier one added', () => {
    const { root } = edited('demo/demo.yaml', '  - version: 6\n    timeline_markers: true', '  - version: 6\n    timeline_markers: false');
    const [problem] = problems(() => loadDemoSchema(join(root, 'schemas'), root));
    expect(problem).toMatch(/^schemas\/demo\/demo.yaml:\d+:\d+: timeline_markers is set from version 4 on, so version 6 has it too$/);
  });

  it('reports an unknown placeholder in the template at file:line:col', () => {
    const { root, line, col } = edited('demo/demo.md', '{{chunk_types_table}}', '{{chunk_types}}');
    expect(problems(() => loadDemoSchema(join(root, 'schemas'), root))[0]).toBe(`schemas/demo/demo.md:${line}:${col}: unknown placeholder {{chunk_types}} (known: description, checked, magic_table, versions_table, header_size, header_table, extensions, chunk_bits_table, chunk_types_table, constants_table)`);
  });
});
