// @twcodec/map-tools against DDNet's tools: a scripted edit in the directory form (tile, quad, image) shows in
// map_diff as exactly that edit and map_resave accepts it; converted 0.7 maps load in map_resave; render.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { readMap, writeMap } from '@twcodec/map';
import { convert07ToDdnetFile, diffMaps, fixMap, MAP_JSON, packMap, pngToRgba, renderGameLayer, renderMap, textToTiles, tilesToText, unpackMap } from '@twcodec/map-tools';
import { encode } from 'fast-png';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusDir } from '../corpus.js';
import { ddnetTool, mapDiff, mapResave } from '../ddnet-tools.js';

// ../shared/corpus/maps, or TWCODEC_CORPUS's maps (the no-corpus CI run points it at an empty directory).
const CORPUS = join(corpusDir, 'maps');
const haveTools = !!ddnetTool('map_resave') && !!ddnetTool('map_diff');
const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'maps', 'ctf1.map');
const work = mkdtempSync(join(tmpdir(), 'twcodec-map-tools-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const read = (p: string) => new Uint8Array(readFileSync(p));

describe.skipIf(!haveTools)('map-tools with DDNet tools', () => {
  // A DDNet-written map: map_diff compares stored tiles as they are, so 0.7's skip-compressed tiles (as in the
  // ctf1 fixture) would show as differences everywhere.
  const EDIT_MAP = join(CORPUS, 'ddnet', 'dm8.map'); // has an embedded image and quads
  it.skipIf(!existsSync(EDIT_MAP))('a scripted edit (tile, quad, image) is exactly what map_diff reports, and map_resave accepts it', () => {
    const bytes = read(EDIT_MAP);
    const files = unpackMap(bytes);
    const model = JSON.parse(new TextDecoder().decode(files.get(MAP_JSON)));
    // Tile: the game layer's tile (3, 2) becomes 7 (or 8). map_diff compares the layers of the game group.
    const g = model.groups.findIndex((gr: { layers: { tilemapKind?: string }[] }) => gr.layers.some((l) => l.tilemapKind === 'game'));
    const l = model.groups[g].layers.findIndex((ly: { tilemapKind?: string }) => ly.tilemapKind === 'game');
    const layer = model.groups[g].layers[l];
    const tileFile = layer.tiles.tiles as string;
    const tiles = textToTiles(new TextDecoder().decode(files.get(tileFile)), 4);
    const width = layer.item.width as number;
    const at = (2 * width + 3) * 4;
    const before = tiles[at]!;
    tiles[at] = before === 7 ? 8 : 7;
    files.set(tileFile, new TextEncoder().encode(tilesToText(tiles, width, 4)));
    // Quad: move the first quad's pivot, if the map has one.
    const quads = model.groups.flatMap((gr: { layers: { kind: string; quads?: { pivot: { x: number } }[] }[] }) => gr.layers.filter((ly) => ly.kind === 'quads' && ly.quads!.length));
    if (quads.length) quads[0].quads[0].pivot.x += 1024;
    files.set(MAP_JSON, new TextEncoder().encode(JSON.stringify(model)));
    // Image: the first embedded image replaced by a 64x64 red PNG.
    const png = [...files.keys()].find((f) => f.startsWith('images/'));
    expect(png).toBeDefined();
    if (png) files.set(png, encode({ width: 64, height: 64, data: new Uint8Array(64 * 64 * 4).fill(200), channels: 4, depth: 8 }));
    const edited = packMap(files);
    const a = join(work, 'a.map');
    const b = join(work, 'b.map');
    writeFileSync(a, bytes);
    writeFileSync(b, edited);
    const reported = mapDiff(a, b);
    expect(reported).toEqual([{ layer: expect.any(String), x: 3, y: 2, from: before, to: before === 7 ? 8 : 7 }]);
    const ours = diffMaps(readMap(bytes), readMap(edited));
    expect(ours.tiles.map((t) => ({ x: t.x, y: t.y, from: t.fromIndex, to: t.toIndex }))).toEqual(reported.map(({ x, y, from, to }) => ({ x, y, from, to })));
    expect(quads.length).toBeGreaterThan(0);
    if (quads.length) expect(ours.changes.some((c) => c.path.endsWith('.quads[0]'))).toBe(true);
    if (png) expect(ours.changes.some((c) => c.path.startsWith('images['))).toBe(true);
    // map_resave accepts it and writes what our DDNet layout writes: DDNet reads the quad and the image as we wrote them.
    const resaved = mapResave(b, 'map-tools-edit');
    const editedMap = readMap(edited);
    expect(Buffer.from(resaved).equals(writeMap(editedMap, { mode: 'ddnet' }))).toBe(true);
    const resavedMap = readMap(resaved);
    if (quads.length) {
      const quadOf = (m: typeof editedMap) => m.groups.flatMap((gr) => gr.layers).find((ly) => ly.kind === 'quads' && ly.quads.length)!;
      const q = quadOf(resavedMap);
      expect(q.kind === 'quads' && q.quads[0]!.pivot.x).toBe((quadOf(readMap(bytes)) as { quads: { pivot: { x: number } }[] }).quads[0]!.pivot.x + 1024);
    }
    // map_extract writes the replaced image with the pixels of the PNG put in.
    const extract = ddnetTool('map_extract');
    if (png && extract) {
      const out = join(work, 'extract-edit');
      mkdirSync(out, { recursive: true });
      execFileSync(extract, [b, out], { stdio: 'pipe', timeout: 60_000 });
      const name = editedMap.images.find((im) => !im.item.external && im.item.width === 64)!.name!;
      const theirs = pngToRgba(read(join(out, `${name}.png`)));
      expect([theirs.width, theirs.height]).toEqual([64, 64]);
      expect(theirs.pixels.every((v) => v === 200)).toBe(true);
    }
  });

  const maps07 = ['tw07', 'ddnet07'].flatMap((dir) => (existsSync(join(CORPUS, dir)) ? readdirSync(join(CORPUS, dir)).filter((n) => n.endsWith('.map')).map((n) => `${dir}/${n}`) : []));
  it.each(maps07)('%s converted to DDNet is accepted by map_resave, which reads it as written', (name) => {
    const out = join(work, `conv-${name.replace('/', '-')}`);
    const converted = convert07ToDdnetFile(read(join(CORPUS, name)));
    writeFileSync(out, converted);
    const resaved = mapResave(out, `map-tools-conv-${name}`);
    expect(Buffer.from(resaved).equals(writeMap(readMap(converted), { mode: 'ddnet' }))).toBe(true);
  });

  it('fix writes a map map_resave accepts', () => {
    const out = join(work, 'fixed.map');
    writeFileSync(out, fixMap(read(FIXTURE)).bytes);
    expect(mapResave(out, 'map-tools-fix').length).toBeGreaterThan(0);
  });
});

describe('render', () => {
  it('renders the game layer and the tile layers as PNG', () => {
    const map = readMap(read(FIXTURE));
    for (const png of [renderGameLayer(map), renderMap(map)]) expect([...png.subarray(1, 4)]).toEqual([80, 78, 71]);
  });
});
