// Facts of schemas/map that hand-written code depends on reach it from the YAML: the version gates of map items
// (`known_versions`), the detail flag, and the fields the writer derives (data indices, `derived: true`) that
// `map diff` leaves out. A YAML-only edit in a scratch copy of the schemas changes what the map package and the
// map tools do; the loader points at a bad entry with file:line:col.
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Datafile } from '@twcodec/datafile';
import * as RealMap from '@twcodec/map';
import * as RealTools from '@twcodec/map-tools';
import * as RealDiff from '../../../map-tools/src/diff.js';
import { fixturesDir, readBytes, repoRoot } from '../../../../test/corpus.js';
import { generate } from '../generate.js';
import { SchemaError } from '../shared/schema-files.js';
import { loadMapSchemas } from './load.js';

type MapModule = typeof RealMap;
type ToolsModule = typeof RealTools;

function edit(path: string, from: string, to: string): void {
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

/** A scratch copy of schemas/, the map package's and the map tools' sources, generated from the edited YAML. */
async function scratch(editSchemas: (schemas: string) => void): Promise<{ map: MapModule; tools: ToolsModule; diff: typeof RealDiff; docs: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'twcodec-versions-'));
  cpSync(join(repoRoot, 'schemas'), join(dir, 'schemas'), { recursive: true });
  editSchemas(join(dir, 'schemas'));
  const src = join(dir, 'map');
  cpSync(join(repoRoot, 'packages', 'map', 'src'), src, { recursive: true, filter: (p) => !p.endsWith('.test.ts') });
  generate({ root: dir, mapOut: join(src, 'generated'), docsOut: join(dir, 'docs'), teehistorianOut: join(dir, 'th'), snapshotOut: join(dir, 'snap') });
  const tools = join(dir, 'tools');
  cpSync(join(repoRoot, 'packages', 'map-tools', 'src'), tools, { recursive: true, filter: (p) => !p.endsWith('.test.ts') });
  for (const name of readdirSync(tools)) {
    if (!name.endsWith('.ts')) continue;
    const path = join(tools, name);
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll("from '@twcodec/map'", `from '${join(src, 'index.ts')}'`));
  }
  return {
    map: (await import(pathToFileURL(join(src, 'index.ts')).href)) as MapModule,
    tools: (await import(pathToFileURL(join(tools, 'index.ts')).href)) as ToolsModule,
    diff: (await import(pathToFileURL(join(tools, 'diff.ts')).href)) as typeof RealDiff,
    docs: readFileSync(join(dir, 'docs', 'map.md'), 'utf8'),
  };
}

/** Teeworlds 0.7's ctf1 (skip-compressed tiles, version-4 tilemaps) made a DDNet map by the real tools. */
const DDNET_CTF1 = RealTools.convert07ToDdnetFile(readBytes(join(fixturesDir, 'maps', 'ctf1.map')));

/** ctf1 with its first envelope at `envelopeVersion`, read by `M`. */
function withEnvelopeVersion(M: MapModule, envelopeVersion: number) {
  const df = Datafile.read(DDNET_CTF1);
  const envelope = df.items.find((i) => i.type === RealMap.MAP_ITEM_TYPE.envelope.typeId)!;
  envelope.data[0] = envelopeVersion;
  return M.readMap(df.write(), { strict: false });
}

/** ctf1 with its first tiles layer at version 4, as `M` reads it. */
function withTilemapVersion4(M: MapModule) {
  const map = M.readMap(DDNET_CTF1);
  const layer = map.groups.flatMap((g) => g.layers).find((l): l is RealMap.TilemapLayer => l.kind === 'tilemap' && l.tilemapKind === 'tiles')!;
  layer.item = { ...layer.item, version: 4 };
  return { map, layer };
}

/** ctf1 with an embedded Teeworlds 0.7 RGB image (version 2), as `M` reads it. */
function withRgbImage(M: MapModule) {
  const map = M.readMap(DDNET_CTF1);
  const image = map.images[0]!;
  image.item = { ...image.item, external: false, version: 2, format: RealMap.ImageFormat.Rgb };
  image.pixels = new Uint8Array(image.item.width * image.item.height * 3);
  return map;
}

describe('facts of schemas/map in hand-written code', () => {
  it('a YAML edit moves the gates of images, envelopes and tilemaps in the reader, validator and tools', async () => {
    // Each named version one later; the tilemap range grows to hold it.
    const { map: M, tools: T, docs } = await scratch((schemas) => {
      const items = join(schemas, 'map', 'items');
      edit(join(items, 'image.yaml'), '{ name: teeworlds07, value: 2,', '{ name: teeworlds07, value: 3,');
      edit(join(items, 'envelope.yaml'), '{ name: bezier_points, value: 3,', '{ name: bezier_points, value: 4,');
      edit(join(items, 'layer.yaml'), 'versions: { min: 2, max: 4, outside: refused', 'versions: { min: 2, max: 5, outside: refused');
      edit(join(items, 'layer.yaml'), '{ name: skip_compressed, value: 4,', '{ name: skip_compressed, value: 5,');
      // And the detail flag of layers another bit.
      edit(join(schemas, 'map', 'enums.yaml'), '{ name: detail, value: 1,', '{ name: detail, value: 2,');
      // And a tile type larger than any so far: the overflow bound of a layer's size follows it.
      writeFileSync(
        join(schemas, 'map', 'tiles', 'wide.yaml'),
        'tile: wide\nbytes: 8\ndescription: A made-up tile.\nfields:\n  - { name: id, type: u8, description: Id. }\n  - { name: rest, type: u8, description: Rest. }\n  - { name: a, type: u16, description: A. }\n  - { name: b, type: u16, description: B. }\n  - { name: c, type: u16, description: C. }\n',
      );
    });
    expect(M.ImageVersion.Teeworlds07).toBe(3);
    expect(docs).toContain('- 5 `skip_compressed`');

    // Tilemaps: Teeworlds 0.7's version-4 layers are skip-compressed for the real reader, plain for the edited one.
    const ctf1 = readBytes(join(fixturesDir, 'maps', 'ctf1.map'));
    expect(RealMap.readMap(ctf1, { strict: false }).readIssues.map((i) => i.code)).not.toContain('TILE_DATA_SIZE');
    expect(M.readMap(ctf1, { strict: false }).readIssues.map((i) => i.code)).toContain('TILE_DATA_SIZE');

    // A layer of 17515 x 17516 tiles: within an i32 byte count for 6-byte tiles, not for 8-byte ones.
    expect(M.LARGEST_TILE_BYTES).toBe(8);
    const huge = (mod: MapModule) => {
      const df = Datafile.read(DDNET_CTF1);
      const layer = df.items.find((i) => i.type === RealMap.MAP_ITEM_TYPE.layer.typeId && i.data[1] === RealMap.LayerType.Tilemap)!;
      layer.data[4] = 17515;
      layer.data[5] = 17516;
      return mod.readMap(df.write(), { strict: false }).readIssues.map((i) => i.code);
    };
    expect(huge(RealMap)).not.toContain('TILEMAP_SIZE');
    expect(huge(M)).toContain('TILEMAP_SIZE');

    // Envelopes: version 3 selects 22-int points in the real reader, no longer in the edited one.
    expect(withEnvelopeVersion(RealMap, 3).envelopePointLayout).toBe('teeworlds07');
    expect(withEnvelopeVersion(M, 3).envelopePointLayout).toBe('ddnet');
    expect(withEnvelopeVersion(M, 4).envelopePointLayout).toBe('teeworlds07');

    // Images and tilemaps: the 0.7 forms of the real schema are DDNet's in the edited one.
    const codes = (issues: { code: string }[]) => issues.map((i) => i.code);
    expect(codes(RealMap.validateMap(withRgbImage(RealMap)))).toContain('IMAGE_FORMAT');
    expect(codes(M.validateMap(withRgbImage(M)))).not.toContain('IMAGE_FORMAT');
    expect(RealTools.hasTeeworlds07Form(withRgbImage(RealMap))).toBe(true);
    expect(T.hasTeeworlds07Form(withRgbImage(M))).toBe(false);
    expect(RealTools.hasTeeworlds07Form(withTilemapVersion4(RealMap).map)).toBe(true);
    expect(T.hasTeeworlds07Form(withTilemapVersion4(M).map)).toBe(false);
    // fix: the real tool makes the RGB image RGBA (version 1), the edited one leaves a "DDNet" image alone.
    const fixedVersion = (tools: ToolsModule, mod: MapModule) => {
      const map = withRgbImage(mod);
      tools.fixMapModel(map);
      return map.images[0]!.item.version;
    };
    expect(fixedVersion(RealTools, RealMap)).toBe(1);
    expect(fixedVersion(T, M)).toBe(2);

    // The renderer hides detail layers: flag 1 hides a layer in the real tools, not in the edited ones.
    const rendered = (tools: ToolsModule, mod: MapModule, flags: number) => {
      const { map, layer } = withTilemapVersion4(mod);
      layer.item = { ...layer.item, version: 3, flags };
      return Buffer.from(tools.renderMap(map));
    };
    expect(rendered(RealTools, RealMap, 1).equals(rendered(RealTools, RealMap, 0))).toBe(false);
    expect(rendered(T, M, 1).equals(rendered(T, M, 0))).toBe(true);
    expect(rendered(T, M, 2).equals(rendered(T, M, 0))).toBe(false);

    // The writer: a version-4 tiles layer is skip-compressed by the real writer, stored plain by the edited one.
    const tilesBytes = (mod: MapModule) => {
      const { map, layer } = withTilemapVersion4(mod);
      // Changed tiles, so that the writer encodes them rather than keeping the data item it read.
      const tiles = layer.tiles.bytes.slice();
      tiles[0]! ^= 1;
      layer.tiles = new mod.Tiles(tiles);
      const df = Datafile.read(mod.writeMap(map));
      return { stored: df.data[layer.item.data]!.bytes().length, plain: layer.tiles.bytes.length };
    };
    const real = tilesBytes(RealMap);
    expect(real.stored).toBeLessThan(real.plain);
    const edited = tilesBytes(M);
    expect(edited.stored).toBe(edited.plain);
  });

  it('refuses a known version outside the range DDNet reads, or listed twice, at its line and column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-versions-bad-'));
    cpSync(join(repoRoot, 'schemas'), join(dir, 'schemas'), { recursive: true });
    const layer = join(dir, 'schemas', 'map', 'items', 'layer.yaml');
    edit(layer, '{ name: skip_compressed, value: 4,', '{ name: skip_compressed, value: 7,');
    const image = join(dir, 'schemas', 'map', 'items', 'image.yaml');
    edit(image, '{ name: teeworlds07, value: 2,', '{ name: ddnet, value: 2,');
    let error: unknown;
    try {
      loadMapSchemas(join(dir, 'schemas'), 'schemas');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SchemaError);
    const message = (error as Error).message;
    expect(message).toMatch(/schemas\/map\/items\/layer\.yaml:\d+:\d+: version 7 is outside the versions DDNet reads \(2 to 4\)/);
    expect(message).toMatch(/schemas\/map\/items\/image\.yaml:\d+:\d+: version name 'ddnet' is listed twice/);
  });

  it('map diff leaves out a data index and a derived count added in YAML only (no hand list of fields); pixel sizes and the least tilemap size come from the YAML', async () => {
    const { map: M, tools: T, diff: D } = await scratch((schemas) => {
      const items = join(schemas, 'map', 'items');
      // A new physics layer's data index beside the others, and a count on groups.
      edit(join(items, 'layer.yaml'), '            - { name: data_tune,', '            - { name: data_wind, type: data_ref, data: "tiles:tune", optional: true, description: Wind tiles. }\n            - { name: data_tune,');
      const group = join(items, 'group.yaml');
      writeFileSync(group, `${readFileSync(group, 'utf8')}  - if_room: true\n    fields:\n      - { name: num_wind_zones, type: i32, derived: true, description: Counted by the writer. }\n      - { name: wind, type: i32, description: Wind strength. }\n`);
      // And RGB pixels of 2 bytes, and tilemaps at least 3 tiles wide.
      edit(join(schemas, 'map', 'enums.yaml'), '{ name: rgb, value: 0, bytes: 3,', '{ name: rgb, value: 0, bytes: 2,');
      edit(join(items, 'layer.yaml'), '{ name: width, type: i32, min: 2,', '{ name: width, type: i32, min: 3,');
    });
    // The least tilemap size: validateMap reports a layer 2 tiles wide by the edited minimum only.
    const narrow = (mod: MapModule) => {
      const map = mod.readMap(DDNET_CTF1);
      const layer = map.groups.flatMap((g) => g.layers).find((l): l is RealMap.TilemapLayer => l.kind === 'tilemap' && l.tilemapKind === 'tiles')!;
      layer.item = { ...layer.item, width: 2, height: 2 };
      layer.tiles = new mod.Tiles(new Uint8Array(2 * 2 * 4));
      return mod.validateMap(map).filter((i) => i.code === 'TILEMAP_SIZE').map((i) => i.message);
    };
    expect(narrow(RealMap)).toEqual([]);
    expect(narrow(M)).toEqual(['size 2x2: DDNet needs at least 3x2']);
    // The pixel size of an image format: validateMap checks the pixels' length by it.
    const pixelIssues = (mod: MapModule) => {
      const map = mod.readMap(DDNET_CTF1);
      const image = map.images[0]!;
      image.item = { ...image.item, external: false, version: 2, format: RealMap.ImageFormat.Rgb };
      image.pixels = new Uint8Array(image.item.width * image.item.height * 2);
      return mod.validateMap(map).map((i) => i.code);
    };
    expect(M.imagePixelBytes({ version: 2, format: 0 })).toBe(2);
    expect(pixelIssues(RealMap)).toContain('IMAGE_DATA_SIZE');
    expect(pixelIssues(M)).not.toContain('IMAGE_DATA_SIZE');
    expect(D.isDerivedField('layer', { kind: 'tilemap' }, 'dataWind')).toBe(true);
    expect(RealDiff.isDerivedField('layer', { kind: 'tilemap' }, 'dataTune')).toBe(true);
    const a = M.readMap(DDNET_CTF1);
    const b = M.readMap(DDNET_CTF1);
    const layer = b.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap')!;
    (layer.item as unknown as Record<string, unknown>).dataWind = 12;
    (b.groups[0]!.item as unknown as Record<string, unknown>).numWindZones = 3;
    expect(T.diffMaps(a, b).changes).toEqual([]);
    (b.groups[0]!.item as unknown as Record<string, unknown>).wind = 5;
    expect(T.diffMaps(a, b).changes).toEqual([{ path: 'groups[0]', what: expect.stringContaining('properties'), fields: [{ field: 'wind', from: null, to: 5 }] }]);
  });

  it('refuses derived on a field that is not an i32, at its line and column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-derived-bad-'));
    cpSync(join(repoRoot, 'schemas'), join(dir, 'schemas'), { recursive: true });
    edit(join(dir, 'schemas', 'map', 'items', 'group.yaml'), '{ name: start_layer, type: i32, derived: true,', '{ name: start_layer, type: bool, derived: true,');
    expect(() => loadMapSchemas(join(dir, 'schemas'), 'schemas')).toThrow(/schemas\/map\/items\/group\.yaml:\d+:\d+: derived applies to i32 fields/);
  });
});
