import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../test/corpus.js';
import { loadSchemas, SchemaError } from './load.js';

/** A copy of the repository's schemas with `files` added or replaced. */
function schemaCopy(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'twcodec-schemas-'));
  cpSync(join(repoRoot, 'schemas'), join(dir, 'schemas'), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, 'schemas', path, '..'), { recursive: true });
    writeFileSync(join(dir, 'schemas', path), text);
  }
  return dir;
}

function problems(files: Record<string, string>): string[] {
  const dir = schemaCopy(files);
  try {
    loadSchemas(join(dir, 'schemas'), 'map', dir);
  } catch (e) {
    expect(e).toBeInstanceOf(SchemaError);
    return (e as SchemaError).message.split('\n');
  }
  throw new Error('schemas loaded without problems');
}

describe('schema loading', () => {
  it('loads the repository schemas', () => {
    const set = loadSchemas(join(repoRoot, 'schemas'), 'map', repoRoot);
    expect(set.items.map((i) => i.name)).toContain('layer');
    expect(set.items.find((i) => i.name === 'automapper')?.uuid).toBe('3e1b2716-178c-3978-9bd9-b11ae0410dd8');
    expect(set.records.find((r) => r.name === 'quad')?.ints).toBe(38);
    expect(set.records.find((r) => r.name === 'envelope_point_bezier_07')?.ints).toBe(22);
    expect(set.tiles.find((t) => t.name === 'speedup')?.bytes).toBe(6);
  });

  it('names file, line and column of an unknown key', () => {
    const out = problems({
      'map/items/extra.yaml': 'item: extra\ntype_id: 20\ndescription: An extra item.\nfields:\n  - { name: a, type: i32, description: A., colour: red }\n',
    });
    expect(out).toEqual([expect.stringMatching(/^schemas\/map\/items\/extra\.yaml:5:44: fields\/0: unknown key 'colour'$/)]);
  });

  it('names the offending value of a bad field type', () => {
    const out = problems({ 'map/items/extra.yaml': 'item: extra\ntype_id: 20\ndescription: An extra item.\nfields:\n  - name: a\n    type: i64\n    description: A.\n' });
    expect(out[0]).toMatch(/^schemas\/map\/items\/extra\.yaml:6:11: fields\/0\/type: must be one of i32, bool/);
  });

  it('reports YAML syntax errors and bad references with positions', () => {
    expect(problems({ 'map/items/extra.yaml': 'item: extra\n  type_id: [\n' })[0]).toMatch(/^schemas\/map\/items\/extra\.yaml:\d+:\d+: /);
    const out = problems({
      'map/items/extra.yaml': 'item: extra\ntype_id: 4\ndescription: An extra item.\nfields:\n  - { name: a, type: enum, enum: nope, description: A. }\n',
    });
    expect(out).toContain("schemas/map/items/group.yaml:2:10: type_id 4 is already used by 'extra'");
    expect(out).toContain("schemas/map/items/extra.yaml:5:34: unknown enum 'nope'");
  });
});
