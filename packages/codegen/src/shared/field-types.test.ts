// One field-type vocabulary for every schema family (schemas/README.md, "Field types"), checked by one JSON
// Schema: a type name a family does not allow is refused at its file:line:col, naming the types it allows.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../../test/corpus.js';
import { loadDatafileSchema } from '../datafile/load.js';
import { loadDemoSchema } from '../demo/load.js';
import { loadMapSchemas } from '../map/load.js';
import { loadPacketSchemas } from '../net/load.js';
import { loadNetSchemas } from '../netmsg/load.js';
import { loadSnapshotSchemas } from '../snapshot/load.js';
import { loadTeehistorianSchemas } from '../teehistorian/load.js';
import { SchemaError } from './schema-files.js';

const schemaJson = JSON.parse(readFileSync(join(repoRoot, 'schemas', 'schema.json'), 'utf8')) as { definitions: Record<string, { enum?: string[]; allOf?: { enum?: string[] }[] }> };
const allowed = (definition: string) => schemaJson.definitions[definition]!.allOf!.find((s) => s.enum)!.enum!;

// Per family: a schema file, a field type in it to replace, the definition listing what the family allows,
// the loader, and a name of the vocabulary the family does not allow.
const FAMILIES = [
  { family: 'map items', file: 'map/items/image.yaml', from: 'type: i32', definition: 'mapFieldType', wrong: 'int', load: loadMapSchemas },
  { family: 'map tiles', file: 'map/tiles/speedup.yaml', from: 'type: u8', definition: 'mapTileFieldType', wrong: 'i32', load: loadMapSchemas },
  { family: 'snapshot', file: 'snapshot/teeworlds-0.7.yaml', from: 'type: i32', definition: 'snapshotFieldType', wrong: 'int', load: loadSnapshotSchemas },
  { family: 'teehistorian', file: 'teehistorian/core.yaml', from: 'type: int', definition: 'teehistorianFieldType', wrong: 'i32', load: loadTeehistorianSchemas },
  { family: 'net messages', file: 'netmsg/ddnet-0.6.yaml', from: 'type: string', definition: 'netmsgFieldType', wrong: 'i32string', load: loadNetSchemas },
  { family: 'packets', file: 'net/ddnet-0.6.yaml', from: 'type: decimal_string', definition: 'netFieldType', wrong: 'int_string', load: loadPacketSchemas },
  { family: 'datafile', file: 'datafile/datafile.yaml', from: 'type: i32', definition: 'containerFieldType', wrong: 'int', load: loadDatafileSchema },
  { family: 'demo', file: 'demo/demo.yaml', from: 'type: u8', definition: 'containerFieldType', wrong: 'u16', load: loadDemoSchema },
] as const;

describe('the field-type vocabulary', () => {
  it('is one list in schema.json that every family allows a part of, and schemas/README.md names each type', () => {
    const vocabulary = schemaJson.definitions.fieldType!.enum!;
    const readme = readFileSync(join(repoRoot, 'schemas', 'README.md'), 'utf8');
    for (const type of vocabulary) expect(readme, type).toMatch(new RegExp(`^\\| \`${type}\` \\|`, 'm'));
    for (const { definition } of FAMILIES) for (const type of allowed(definition)) expect(vocabulary).toContain(type);
  });

  for (const { family, file, from, definition, wrong, load } of FAMILIES) {
    it(`refuses a type ${family} do not allow, at file:line:col, naming the allowed ones`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'twcodec-types-'));
      cpSync(join(repoRoot, 'schemas'), join(dir, 'schemas'), { recursive: true });
      const path = join(dir, 'schemas', file);
      const text = readFileSync(path, 'utf8');
      const at = text.indexOf(from);
      expect(at, `${file} has ${from}`).toBeGreaterThanOrEqual(0);
      writeFileSync(path, text.slice(0, at) + `type: ${wrong}` + text.slice(at + from.length));
      const line = text.slice(0, at).split('\n').length;
      const col = at - text.lastIndexOf('\n', at - 1) + 'type: '.length;
      let error: unknown;
      try {
        load(join(dir, 'schemas'), dir);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SchemaError);
      const message = (error as SchemaError).message;
      expect(message.split('\n')).toEqual([`schemas/${file}:${line}:${col}: ${message.split(': ')[1]}: must be one of ${allowed(definition).join(', ')}`]);
      expect(message).toMatch(/\/type: must be one of/);
    });
  }
});
