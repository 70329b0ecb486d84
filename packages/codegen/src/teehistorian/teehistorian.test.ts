// The numbers and the file UUID the teehistorian reader and writer use come from schemas/teehistorian/core.yaml:
// an edit there reaches the generated constants (and so the reader, the writer, the explorer and the CLI).
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { uuidFromName } from '@twcodec/runtime';
import { corpusDir, hasCorpus, repoRoot } from '../../../../test/corpus.js';
import { SchemaError } from '../shared/schema-files.js';
import { emitTeehistorianTs } from './emit.js';
import { emitTeehistorianDocs, loadTeehistorianDocsTemplate } from './docs.js';
import { loadTeehistorianSchemas } from './load.js';

function scratch(edit: (core: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'twcodec-th-'));
  cpSync(join(repoRoot, 'schemas'), join(dir, 'schemas'), { recursive: true });
  const core = join(dir, 'schemas', 'teehistorian', 'core.yaml');
  writeFileSync(core, edit(readFileSync(core, 'utf8')));
  return dir;
}

describe('teehistorian schema constants', () => {
  it("generate the file UUID and DDNet's MAX_CLIENTS from core.yaml", () => {
    const dir = scratch((text) => text.replace('file_uuid_name: teehistorian@ddnet.tw', 'file_uuid_name: teehistorian-next@example.org').replace('name: max_clients, value: 64', 'name: max_clients, value: 128'));
    const schema = loadTeehistorianSchemas(join(dir, 'schemas'), dir);
    const ts = emitTeehistorianTs(schema).map((f) => f.text).join('\n');
    expect(ts).toContain(`export const TEEHISTORIAN_UUID: Uuid = '${uuidFromName('teehistorian-next@example.org')}' as Uuid;`);
    expect(ts).toContain('export const MAX_CLIENTS = 128;');
    expect(emitTeehistorianDocs(schema, loadTeehistorianDocsTemplate(dir, schema))).toContain(uuidFromName('teehistorian-next@example.org'));
  });

  it('render the header keys from core.yaml into the page, with where they were checked', () => {
    const dir = scratch((text) => text.replace('  - { key: comment,', '  - { key: next_key, type: string, since: "99.0", example: "x", description: "A key added in YAML." }\n  - { key: comment,'));
    const schema = loadTeehistorianSchemas(join(dir, 'schemas'), dir);
    const docs = emitTeehistorianDocs(schema, loadTeehistorianDocsTemplate(dir, schema));
    expect(docs).toContain('| `next_key` | string | 99.0 | `x` | A key added in YAML. |');
    expect(docs).toMatch(/- DDNet 16\.4 src\/game\/server\/teehistorian\.cpp: WriteHeader/);
  });

  it('refuse a header key without its version, at its line:col', () => {
    const dir = scratch((text) => text.replace('{ key: comment, type: string, since: "11.0",', '{ key: comment, type: string,'));
    expect(() => loadTeehistorianSchemas(join(dir, 'schemas'), dir)).toThrow(/core\.yaml:\d+:\d+: .*since/);
  });

  it('refuse a schema without the file UUID name, with the file', () => {
    const dir = scratch((text) => text.replace(/^file_uuid_name: .*\n/m, ''));
    expect(() => loadTeehistorianSchemas(join(dir, 'schemas'), dir)).toThrow(SchemaError);
    expect(() => loadTeehistorianSchemas(join(dir, 'schemas'), dir)).toThrow(/schemas\/teehistorian\/\S+\.yaml:1:1: file_uuid_name/);
  });
});

// The header table says what the corpus files hold: every file's keys are the table's, in its order, and every
// example that is a whole value occurs in one of the files.
describe.runIf(hasCorpus)('teehistorian header keys (core.yaml) against the corpus files', () => {
  const schema = loadTeehistorianSchemas(join(repoRoot, 'schemas'), repoRoot);
  // The describe body runs without the corpus too (only its tests are skipped): read nothing then.
  const files = ['teehistorian', 'net'].filter(() => hasCorpus).flatMap((d) => readdirSync(join(corpusDir, d)).filter((f) => f.endsWith('.teehistorian')).map((f) => join(corpusDir, d, f)));
  const headers = files.map((path) => {
    const bytes = readFileSync(path);
    return JSON.parse(bytes.subarray(16, bytes.indexOf(0, 16)).toString('utf8')) as Record<string, unknown>;
  });
  it('every file has exactly the keys of the table, in its order', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const h of headers) expect(Object.keys(h)).toEqual(schema.headerKeys.map((k) => k.key));
  });
  it('every whole example occurs in a file', () => {
    for (const k of schema.headerKeys.filter((k) => !k.example.includes('...'))) expect(headers.map((h) => h[k.key]), k.key).toContain(k.example);
  });
});
