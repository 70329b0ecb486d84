// The numbers and the file UUID the teehistorian reader and writer use come from schemas/teehistorian/core.yaml:
// an edit there reaches the generated constants (and so the reader, the writer, the explorer and the CLI).
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { uuidFromName } from '@twcodec/runtime';
import { repoRoot } from '../../../../test/corpus.js';
import { SchemaError } from '../shared/schema-files.js';
import { emitTeehistorianDocs, emitTeehistorianTs } from './emit.js';
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
    expect(emitTeehistorianDocs(schema)).toContain(uuidFromName('teehistorian-next@example.org'));
  });

  it('refuse a schema without the file UUID name, with the file', () => {
    const dir = scratch((text) => text.replace(/^file_uuid_name: .*\n/m, ''));
    expect(() => loadTeehistorianSchemas(join(dir, 'schemas'), dir)).toThrow(SchemaError);
    expect(() => loadTeehistorianSchemas(join(dir, 'schemas'), dir)).toThrow(/schemas\/teehistorian\/\S+\.yaml:1:1: file_uuid_name/);
  });
});
