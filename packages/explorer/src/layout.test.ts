import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapItemSchemas } from '../vite.config.mjs';
import { placeFindings } from './findings.js';
import { attachPreviews } from './previews.js';
import { detectKind, type LayoutNode, leafAt, leaves, mapLayout } from './layout.js';

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

describe('validation findings in place', () => {
  it('places every finding of a map at the node its path names', () => {
    for (const name of ['ctf1.map', 'coverage.map', 'dm7-legacy-size.map']) {
      const bytes = read(`maps/${name}`);
      const root = mapLayout(bytes, mapItemSchemas());
      const findings = placeFindings(bytes, root);
      expect(root.findingCount ?? 0).toBe(findings.length);
      const placed: { label: string; path: string }[] = [];
      const visit = (n: LayoutNode) => {
        for (const f of n.findings ?? []) placed.push({ label: n.label, path: f.path });
        n.children?.forEach(visit);
      };
      visit(root);
      expect(placed).toHaveLength(findings.length);
      for (const p of placed) {
        const field = /\.([A-Za-z]+)$/.exec(p.path)?.[1]?.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
        if (field && !/\[\d+\]$/.test(p.path)) expect([field, p.label]).toContain(p.label);
      }
      if (name === 'ctf1.map') expect(placed.some((p) => p.label === 'layer_version')).toBe(true);
    }
  });
});

describe('previews', () => {
  it('draws the game layer one pixel per tile, coloured by tile meaning', () => {
    const bytes = read('maps/ctf1.map');
    const root = mapLayout(bytes, mapItemSchemas());
    attachPreviews(bytes, root);
    const layers = root.children!.find((c) => c.label === 'items')!.children!.filter((c) => c.label.startsWith('layer') && c.preview);
    expect(layers.length).toBeGreaterThan(0);
    for (const l of layers) {
      const width = Number(l.children!.find((c) => c.label === 'width')!.value);
      const height = Number(l.children!.find((c) => c.label === 'height')!.value);
      expect(l.preview).toMatchObject({ width, height });
      expect(l.preview!.rgba.length).toBe(width * height * 4);
    }
    // The game layer has solid tiles (grey), red and blue spawns and flag stands (a CTF map).
    const game = layers.find((l) => l.children!.find((c) => c.label === 'tilemap_flags')!.value === '0x1')!;
    const colours = new Set<string>();
    for (let i = 0; i < game.preview!.rgba.length; i += 4) colours.add(Array.from(game.preview!.rgba.subarray(i, i + 3)).join(','));
    expect(colours).toContain('120,120,120');
    for (const c of ['255,90,90', '90,120,255', '180,0,0', '0,0,180']) expect(colours).toContain(c);
  });
});
