import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapItemSchemas } from '../vite.config.mjs';
import { detectKind, leafAt, leaves, mapLayout } from './layout.js';

const fixtures = join(import.meta.dirname, '..', '..', '..', 'fixtures');
const read = (path: string) => new Uint8Array(readFileSync(join(fixtures, path)));

describe('map layout', () => {
  for (const name of ['ctf1.map', 'coverage.map', 'dm7-legacy-size.map']) {
    it(`covers every byte of ${name} once, with schema fields for known items`, () => {
      const bytes = read(`maps/${name}`);
      expect(detectKind(bytes)).toBe('map');
      const root = mapLayout(bytes, mapItemSchemas());
      const sorted = leaves(root);
      let at = 0;
      for (const leaf of sorted) {
        expect(leaf.start, leaf.label).toBe(at);
        at = leaf.end;
      }
      expect(at).toBe(bytes.length);
      const layers = root.children!.find((c) => c.label === 'items')!.children!.filter((c) => c.label.startsWith('layer'));
      const fields = layers.map((l) => l.children!.map((c) => c.label).join(' '));
      expect(fields.some((f) => f.includes('version width height tilemap_flags color color_env'))).toBe(true);
      expect(fields.some((f) => f.includes('version num_quads data image'))).toBe(true);
      const layer = layers[0]!;
      expect(leafAt(sorted, layer.start + 9)?.label).toBe('layer_version');
    });
  }
});
