// What the map commands say beyond their output (issue 26): convert of a map already in the target form,
// pack without original.map, every item type in map info.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAP_ITEM_TYPES, isCollectedItemType, readMap, type TilemapLayer, writeMap } from '@twcodec/map';
import { fixturesDir, readBytes } from '../../../test/corpus.js';
import { runCli } from '../../../test/cli-run.js';

const run = runCli;

const ctf1 = join(fixturesDir, 'maps', 'ctf1.map'); // Teeworlds 0.7: RGB images, skip-compressed tiles
const coverage = join(fixturesDir, 'maps', 'coverage.map'); // DDNet

describe('map convert says when there was nothing to convert', () => {
  it('--to ddnet of a DDNet map: written, with a note on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-notes-'));
    const r = await run(['map', 'convert', coverage, join(dir, 'a.map')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^note: the map has no Teeworlds 0\.7 images or skip-compressed layers: nothing to convert/);
    const converted = await run(['map', 'convert', ctf1, join(dir, 'b.map')]);
    expect([converted.code, converted.stderr]).toEqual([0, '']);
    const back = await run(['map', 'convert', join(dir, 'b.map'), join(dir, 'c.map')]);
    expect(back.stderr).toMatch(/nothing to convert/);
  });

  it('--to 0.7 of a 0.7 map: a note too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-notes-'));
    const r = await run(['map', 'convert', ctf1, join(dir, 'a.map'), '--to', '0.7']);
    expect(r.stderr).toMatch(/^note: the map already has Teeworlds 0\.7 images or skip-compressed layers/);
  });
});

describe('map pack without original.map', () => {
  it('notes that the map was written afresh', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-notes-'));
    expect((await run(['map', 'unpack', ctf1, join(dir, 'u')])).code).toBe(0);
    const { rmSync } = await import('node:fs');
    rmSync(join(dir, 'u', 'original.map'));
    const r = await run(['map', 'pack', join(dir, 'u'), join(dir, 'p.map')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^note: no original\.map in .*: the map was written afresh/);
  });
});

describe('map info', () => {
  it('lists the item types of the registry the map holds, with their counts, beside the structure', async () => {
    const info = JSON.parse((await run(['map', 'info', coverage])).stdout);
    const map = readMap(readBytes(coverage));
    const held = MAP_ITEM_TYPES.filter((t) => isCollectedItemType(t.name) && (map.items as Record<string, unknown[] | undefined>)[t.name]?.length);
    expect(Object.keys(info.items).sort()).toEqual(held.map((t) => t.name).sort());
    for (const [name, count] of Object.entries(info.items)) expect(count).toBe((map.items as Record<string, unknown[] | undefined>)[name]?.length ?? 0);
    expect(info.items.automapper).toBe(map.items.automapper!.length);
  });
});

describe('map diff says what changed (issue 39)', () => {
  it('in text and in --json: the fields of an image and of a layer, from and to', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-diff-'));
    const map = readMap(readBytes(coverage));
    const image = map.images[0]!;
    const oldName = image.name;
    image.name = 'renamed';
    const layer = map.groups.flatMap((g) => g.layers).filter((l): l is TilemapLayer => l.kind === 'tilemap').find((l) => l.tilemapKind === 'tiles')!;
    layer.item = { ...layer.item, colorEnvOffset: layer.item.colorEnvOffset + 250 };
    const b = join(dir, 'b.map');
    writeFileSync(b, writeMap(map));
    const text = await run(['map', 'diff', coverage, b]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`images[0]: changed image "renamed" (${image.item.external ? 'external' : 'embedded'}): name "${oldName}" -> "renamed"\n`);
    expect(text.stdout).toMatch(new RegExp(`properties: colorEnvOffset ${layer.item.colorEnvOffset - 250} -> ${layer.item.colorEnvOffset}\\n`));
    const json = await run(['map', 'diff', coverage, b, '--json']);
    expect(json.code).toBe(1);
    const { changes } = JSON.parse(json.stdout) as { changes: { path: string; fields?: { field: string; from: unknown; to: unknown }[] }[] };
    expect(changes.find((c) => c.path === 'images[0]')?.fields).toEqual([{ field: 'name', from: oldName, to: 'renamed' }]);
    expect(changes.flatMap((c) => c.fields ?? []).find((f) => f.field === 'colorEnvOffset')).toEqual({ field: 'colorEnvOffset', from: layer.item.colorEnvOffset - 250, to: layer.item.colorEnvOffset });
    expect(changes).toHaveLength(2);
  });
});

describe('map info names what the map holds (issue 39)', () => {
  it('image names and sizes, author and credits, and no count of 0 (no "settings":0 or "items":{"test":0})', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-info-'));
    const map = readMap(readBytes(coverage));
    map.info = { ...map.info!, author: 'nameless tee', credits: 'thanks to the testers', settings: ['sv_gametype ctf'] };
    const file = join(dir, 'info.map');
    writeFileSync(file, writeMap(map));
    const r = await run(['map', 'info', file]);
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info.info).toMatchObject({ author: 'nameless tee', credits: 'thanks to the testers', settings: ['sv_gametype ctf'] });
    expect(info.images.list.map((i: { name: string }) => i.name)).toEqual(map.images.map((i) => i.name));
    expect(info.images.list[0]).toEqual({ name: map.images[0]!.name, external: map.images[0]!.item.external, width: map.images[0]!.item.width, height: map.images[0]!.item.height });
    for (const count of Object.values(info.items)) expect(count).toBeGreaterThan(0);
    // An info item without strings shows them as null, not as 0; a map holding no other item type lists none.
    const plain = JSON.parse((await run(['map', 'info', ctf1])).stdout);
    expect(plain.info).toMatchObject({ author: null, credits: null, settings: [] });
    expect(plain.items).toEqual({});
  });
});
