// docs/formats/map.md: the page is the template schemas/map/map.md with the schema's tables set in; a
// record's or tile's size is stated once, by the generator, never repeated by its description.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../../test/corpus.js';
import { emitMapDocs } from './docs.js';
import { loadMapPageTemplate, loadMapSchemas } from './load.js';

const schemas = join(repoRoot, 'schemas');

describe('map.md', () => {
  const set = loadMapSchemas(schemas, repoRoot);
  const page = emitMapDocs(set, loadMapPageTemplate(schemas));

  it('states each record and tile size once (descriptions do not repeat it)', () => {
    for (const record of set.records) {
      expect(record.description).not.toMatch(/\b\d+ (i32|ints?|bytes)\b/);
      const section = page.slice(page.indexOf(`### record: ${record.name}\n`)).split('\n### ')[0]!;
      expect(section.match(new RegExp(`\\b${record.ints} i32\\b`, 'g'))).toHaveLength(1);
    }
    for (const tile of set.tiles) expect(tile.description).not.toMatch(/\b\d+ bytes\b/);
    expect(page).not.toMatch(/(\d+ i32\.) \1/);
  });

  it('gives a version-2 tilemap its data indices at ints 15 to 19', () => {
    expect(page).toContain('| 18; 15 if version < 3 | `data_tele` |');
    expect(page).toContain('| 22; 19 if version < 3 | `data_tune` |');
    // A field that is itself newer than a version has no older position (a group's name is version 3+).
    expect(page).toContain('| 12-14 | `name` | I32String[3] |  | version >= 3 |');
  });

  it('renders where each item was checked', () => {
    expect(page).toContain('Checked: DDNet 16.4 src/game/mapitems.h (CMapItemLayer,');
  });

  it('a template naming an unknown placeholder is an error at its file:line:col', () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-mapdocs-'));
    cpSync(schemas, join(dir, 'schemas'), { recursive: true });
    const template = join(dir, 'schemas', 'map', 'map.md');
    writeFileSync(template, `${readFileSync(template, 'utf8')}\nSee {{item_table}}.\n`);
    expect(() => loadMapPageTemplate(join(dir, 'schemas'))).toThrow(/schemas\/map\/map\.md:\d+:5: unknown placeholder \{\{item_table\}\}/);
  });
});
