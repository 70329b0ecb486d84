import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../../test/corpus.js';
import { loadMapSchemas } from '../map/load.js';
import { SchemaError } from './schema-files.js';
import { loadSnapshotSchemas } from '../snapshot/load.js';
import { loadTeehistorianSchemas } from '../teehistorian/load.js';

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

function problems(files: Record<string, string>, family: 'map' | 'teehistorian' | 'snapshot' = 'map'): string[] {
  const dir = schemaCopy(files);
  try {
    if (family === 'map') loadMapSchemas(join(dir, 'schemas'), dir);
    else if (family === 'teehistorian') loadTeehistorianSchemas(join(dir, 'schemas'), dir);
    else loadSnapshotSchemas(join(dir, 'schemas'), dir);
  } catch (e) {
    expect(e).toBeInstanceOf(SchemaError);
    return (e as SchemaError).message.split('\n');
  }
  throw new Error('schemas loaded without problems');
}

describe('schema loading', () => {
  it('loads the repository schemas', () => {
    const set = loadMapSchemas(join(repoRoot, 'schemas'), repoRoot);
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
    // Reported at both files, so that the one being added is always named.
    expect(out).toContain("schemas/map/items/extra.yaml:2:10: type_id 4 is already used by 'group' (schemas/map/items/group.yaml:2:10)");
    expect(out).toContain("schemas/map/items/group.yaml:2:10: type_id 4 is already used by 'extra' (schemas/map/items/extra.yaml:2:10)");
    expect(out).toContain("schemas/map/items/extra.yaml:5:34: unknown enum 'nope'");
  });

  it('refuses a map item that reuses another item\'s UUID', () => {
    const out = problems({
      'map/items/zoom.yaml': 'item: zoom\nuuid_name: mapitemtype-automapper-config@ddnet.tw\ndescription: A copy.\nfields:\n  - { name: version, type: version, description: "1." }\n',
    });
    expect(out).toContain(
      "schemas/map/items/zoom.yaml:2:12: UUID 3e1b2716-178c-3978-9bd9-b11ae0410dd8 (mapitemtype-automapper-config@ddnet.tw) is already used by 'automapper' (schemas/map/items/automapper.yaml:2:12)",
    );
  });

  it('refuses field names the generated code reserves', () => {
    const out = problems({ 'map/items/extra.yaml': 'item: extra\ntype_id: 20\ndescription: An extra item.\nfields:\n  - { name: extra, type: i32, description: A. }\n' });
    expect(out).toEqual([expect.stringMatching(/^schemas\/map\/items\/extra\.yaml:\d+:\d+: field name 'extra' is reserved by the generated code/)]);
    const th = problems({ 'teehistorian/more.yaml': 'extensions:\n  - name: x\n    uuid_name: teehistorian-x@example.org\n    since: "1.0"\n    description: X.\n    fields:\n      - { name: tick, type: int, description: T. }\n' }, 'teehistorian');
    expect(th).toEqual([expect.stringMatching(/^schemas\/teehistorian\/more\.yaml:7:17: field name 'tick' is reserved/)]);
  });

  it('refuses duplicate UUIDs and ids in the teehistorian and snapshot schemas', () => {
    const th = problems({ 'teehistorian/more.yaml': 'extensions:\n  - name: other-finish\n    uuid_name: teehistorian-player-finish@ddnet.org\n    since: "1.0"\n    description: A copy.\n    fields: []\n' }, 'teehistorian');
    expect(th.some((l) => /^schemas\/teehistorian\/more\.yaml:2:5: UUID [0-9a-f-]+ \(teehistorian-player-finish@ddnet\.org\) is already used by extension player-finish/.test(l))).toBe(true);
    const snap = problems({ 'snapshot/more.yaml': 'protocol: more\ndescription: More.\nitems:\n  - { type_id: 1, name: a, description: A. }\n  - { type_id: 1, name: b, description: B. }\nuuid_items:\n  - { name: c, uuid_name: c@example.org, size: 1, description: C. }\n  - { name: d, uuid_name: c@example.org, size: 1, description: D. }\n' }, 'snapshot');
    expect(snap).toContain('schemas/snapshot/more.yaml:5:5: type_id 1 is already used by a (schemas/snapshot/more.yaml:4:5)');
    expect(snap.some((l) => l.startsWith('schemas/snapshot/more.yaml:8:5: UUID '))).toBe(true);
  });

  it('refuses a UUID snapshot item whose later fields make it shorter from older servers without variable_size', () => {
    const snap = problems({ 'snapshot/more.yaml': 'protocol: more\ndescription: More.\nitems:\n  - { type_id: 1, name: a, description: A. }\nuuid_items:\n  - name: c\n    uuid_name: c@example.org\n    size: 2\n    since: "1.0"\n    description: C.\n    fields:\n      - { name: x, type: i32 }\n      - { name: y, type: i32, default: 0, since: "1.1" }\n' }, 'snapshot');
    expect(snap).toEqual(['schemas/snapshot/more.yaml:6:5: c: field y came later (1.1), so older servers send fewer ints: add variable_size: true']);
  });

  it('refuses size_in_delta on an item without a size (its delta always carries one)', () => {
    const snap = problems({ 'snapshot/more.yaml': 'protocol: more\ndescription: More.\nitems:\n  - { type_id: 1, name: a, size_in_delta: true, description: A. }\n' }, 'snapshot');
    expect(snap).toEqual([expect.stringMatching(/^schemas\/snapshot\/more\.yaml:4:\d+: a: size_in_delta is for an item with a size/)]);
  });

  it('resolves snapshot enums and flags and refuses a name the file does not define, at file:line:col', () => {
    const set = loadSnapshotSchemas(join(repoRoot, 'schemas'), repoRoot).find((p) => p.protocol === 'ddnet-0.6')!;
    expect(set.enums.find((e) => e.name === 'team')!.values.slice(0, 2)).toEqual([{ name: 'all', value: -2 }, { name: 'spectators', value: -1 }]);
    expect(set.enums.find((e) => e.name === 'character_flags')!.values[2]).toEqual({ name: 'collision_disabled', value: 4 });
    const snap = problems({ 'snapshot/more.yaml': 'protocol: more\ndescription: More.\nenums:\n  - { name: mood, kind: enum, values: [calm, angry] }\nitems:\n  - type_id: 1\n    name: a\n    description: A.\n    fields:\n      - { name: m, type: enum, enum: moood }\n      - { name: f, type: flags, flags: mood }\n' }, 'snapshot');
    expect(snap).toEqual([
      'schemas/snapshot/more.yaml:10:38: enum moood is not among this file\'s enums (mood)',
      'schemas/snapshot/more.yaml:11:40: mood is a set of kind enum, not flags',
    ]);
  });
});
