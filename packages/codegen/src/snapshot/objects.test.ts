// A maintainer adds a snapshot object by editing YAML only: a new UUID object appended to the DDNet 0.6
// schema. The generator runs on the edited schemas; the output compiles, and the object decodes by name from
// a snapshot that declares its UUID.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeI32String, uuidFromName, uuidToInts } from '@twcodec/runtime';
import { fixturesDir, repoRoot } from '../../../../test/corpus.js';
import { generate } from '../generate.js';
import { SchemaError } from '../shared/schema-files.js';
import { loadSnapshotSchemas } from './load.js';

const NEW_OBJECT = readFileSync(join(fixturesDir, 'schema-extension', 'snapshot', 'race_timer.yaml'), 'utf8');

describe('a snapshot object added in YAML', () => {
  it('is generated, typed and decoded from a snapshot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-snapobj-'));
    cpSync(join(repoRoot, 'schemas'), join(dir, 'schemas'), { recursive: true });
    const schema = join(dir, 'schemas', 'snapshot', 'ddnet-0.6.yaml');
    writeFileSync(schema, `${readFileSync(schema, 'utf8')}${NEW_OBJECT}`);

    // The runtime of @twcodec/snapshot beside the freshly generated tables.
    const src = join(dir, 'src');
    mkdirSync(src, { recursive: true });
    for (const f of ['index.ts', 'objects.ts', 'snapshot.ts', 'delta.ts', 'error-codes.ts']) cpSync(join(repoRoot, 'packages', 'snapshot', 'src', f), join(src, f));
    generate({ root: dir, snapshotOut: join(src, 'generated'), docsOut: join(dir, 'docs'), mapOut: join(dir, 'map'), teehistorianOut: join(dir, 'th') });
    expect(readFileSync(join(src, 'generated', 'objects.gen.ts'), 'utf8')).toContain('export interface Ddnet06RaceTimer');
    expect(readFileSync(join(dir, 'docs', 'snapshot.md'), 'utf8')).toContain('### ddnet-0.6 race_timer');

    const lib = await import(pathToFileURL(join(src, 'index.ts')).href);
    const uuid = uuidFromName('race-timer@netobj.example.org');
    const label = encodeI32String('go', 1)[0]!;
    const snapshot = new lib.Snapshot([
      { type: 0, id: 0x7fff, data: uuidToInts(uuid) },
      { type: 0x7fff, id: 3, data: Int32Array.of(500, 1, label, 7) },
      // An older server's shorter item: `laps` reads its default.
      { type: 0x7fff, id: 4, data: Int32Array.of(600, 0, label) },
    ]);
    const objects = lib.snapshotObjects(snapshot, lib.DDNET_0_6);
    const [a, b] = objects.items('race_timer');
    expect([a.item.id, a.startTick, a.paused, a.label, a.laps]).toEqual([3, 500, true, 'go', 7]);
    expect([b.item.id, b.laps]).toEqual([4, 0]);
    expect(b.toObject()).toEqual({ startTick: 600, paused: false, label: 'go' });
    expect(Array.from(lib.encodeObject(b.layout, b.toObject()))).toEqual([600, 0, label]);
    expect(objects.validate()).toEqual([]);
  });

  it('refuses a layout whose fields do not fill its size, and reserved field names', () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-snapobj-'));
    cpSync(join(repoRoot, 'schemas'), join(dir, 'schemas'), { recursive: true });
    const schema = join(dir, 'schemas', 'snapshot', 'ddnet-0.6.yaml');
    writeFileSync(schema, `${readFileSync(schema, 'utf8')}${NEW_OBJECT.replace('size: 4', 'size: 5').replace('name: laps', 'name: item')}`);
    expect(() => loadSnapshotSchemas(join(dir, 'schemas'), dir)).toThrow(SchemaError);
    try {
      loadSnapshotSchemas(join(dir, 'schemas'), dir);
    } catch (e) {
      expect((e as SchemaError).message).toMatch(/ddnet-0\.6\.yaml:\d+:\d+: size 5 differs from the 4 ints of its fields/);
      expect((e as SchemaError).message).toMatch(/field name item is reserved/);
    }
  });

  it('refuses an enum followed by one that does not number on from it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-snapenum-'));
    cpSync(join(repoRoot, 'schemas'), join(dir, 'schemas'), { recursive: true });
    const schema = join(dir, 'schemas', 'snapshot', 'ddnet-0.6.yaml');
    const text = readFileSync(schema, 'utf8');
    expect(text).toContain('start: -3, values: [game, self, world], followed_by: weapon }');
    writeFileSync(schema, text.replace('start: -3, values: [game, self, world], followed_by: weapon }', 'start: -4, values: [game, self, world], followed_by: weapon }'));
    expect(() => loadSnapshotSchemas(join(dir, 'schemas'), dir)).toThrow(/ddnet-0\.6\.yaml:\d+:\d+: weapon starts at 0; after kill_weapon's last value it must start at -1/);
  });
});
