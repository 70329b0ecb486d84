import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTITY_OFFSET, EntityId, readMap, tileColour, TileId } from '@twcodec/map';
import { mapItemSchemas, streamDocs, teehistorianMessageDocs } from '../vite.config.mjs';
import { placeFindings } from './findings.js';
import { attachPreviews, renderLayer } from './previews.js';
import { demoSession, teehistorianSession } from './streams.js';
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
    // Colours from schemas/map/tile-meanings.yaml, the same `map render` draws (issue 26).
    const colour = (id: number) => tileColour('game', id)!.join(',');
    expect(colours).toContain(colour(TileId.Solid));
    for (const e of [EntityId.SpawnRed, EntityId.SpawnBlue, EntityId.FlagstandRed, EntityId.FlagstandBlue]) expect(colours).toContain(colour(ENTITY_OFFSET + e));
    const map = readMap(bytes);
    const layer = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap' && l.tilemapKind === 'game')!;
    const tiles = layer.kind === 'tilemap' ? layer.tiles.bytes : new Uint8Array();
    for (let i = 0; i < tiles.length / 4; i++) {
      const id = tiles[i * 4]!;
      if (id !== 0) expect(Array.from(game.preview!.rgba.subarray(i * 4, i * 4 + 3)).join(',')).toBe(colour(id));
    }
  });
});

describe('envelopes and tilesets', () => {
  it('plots every envelope of a map with its channels', () => {
    const bytes = read('maps/ctf1.map');
    const root = mapLayout(bytes, mapItemSchemas());
    attachPreviews(bytes, root);
    const envelopes = root.children!.find((c) => c.label === 'items')!.children!.filter((c) => c.label.startsWith('envelope #'));
    expect(envelopes.length).toBeGreaterThan(0);
    for (const e of envelopes) {
      expect(e.plot!.points.length).toBeGreaterThan(0);
      for (const p of e.plot!.points) expect(p.values).toHaveLength(e.plot!.channels.length);
    }
  });

  it('gives quads layers their quads as polygons in world units', () => {
    const bytes = read('maps/ctf1.map');
    const root = mapLayout(bytes, mapItemSchemas());
    attachPreviews(bytes, root);
    const quads = root.children!.find((c) => c.label === 'items')!.children!.filter((c) => c.quads);
    expect(quads.length).toBeGreaterThan(0);
    for (const l of quads) {
      expect(l.quads!.length).toBe(Number(l.children!.find((c) => c.label === 'num_quads')!.value));
      for (const q of l.quads!) expect(q.corners).toHaveLength(4);
    }
  });

  it('draws a tiles layer with an embedded tileset, honouring the tile flags', () => {
    // A 16 x 16-tile tileset of 2 x 2-pixel tiles: tile 1 is red on its left column, blue on its right.
    const tileset = new Uint8Array(32 * 32 * 4);
    const paint = (x: number, y: number, rgb: number[]) => tileset.set([...rgb, 255], (y * 32 + x) * 4);
    for (const y of [0, 1]) paint(2, y, [255, 0, 0]), paint(3, y, [0, 0, 255]);
    const layer = (flags: number) => ({ kind: 'tilemap', tilemapKind: 'tiles', item: { width: 2, height: 2, image: 0, color: { r: 255, g: 255, b: 255, a: 255 } }, tiles: { length: 4, bytes: Uint8Array.from([1, flags, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) } });
    const map = (flags: number) => ({ images: [{ name: 't', item: { width: 32, height: 32 }, pixels: tileset }], groups: [{ layers: [layer(flags)] }] }) as never;
    const pixel = (flags: number, x: number, y: number) => {
      const p = renderLayer(map(flags), 'layer:0:0')!;
      const o = (y * p.width + x) * 4;
      return Array.from(p.rgba.subarray(o, o + 3)).join(',');
    };
    const tile = renderLayer(map(0), 'layer:0:0')!;
    expect(tile.width % 2).toBe(0);
    const last = tile.width / 2 - 1; // the last pixel of the first tile
    expect([pixel(0, 0, 0), pixel(0, last, 0)]).toEqual(['255,0,0', '0,0,255']);
    expect([pixel(1, 0, 0), pixel(1, last, 0)]).toEqual(['0,0,255', '255,0,0']); // x flip
    expect([pixel(8, 0, 0), pixel(8, 0, last)]).toEqual(['255,0,0', '0,0,255']); // rotated clockwise: left column on top
  });
});

describe('demo and teehistorian sessions', () => {
  it('decodes snapshot items with named fields, net messages and the players of a demo', () => {
    const session = demoSession(read('demos/ctf2_server_Alpha_server_manual.demo'), streamDocs());
    const chunks = session.root.children!.find((c) => c.label === 'chunks')!.children!;
    const all = chunks.flatMap((t) => t.children ?? []);
    const snapshot = all.find((c) => c.label === 'snapshot')!;
    const items = session.children(snapshot.lazy!);
    const character = items.find((i) => i.label.startsWith('character '));
    expect(character, items.map((i) => i.label).join(' ')).toBeDefined();
    expect(character!.children!.map((f) => f.label)).toEqual(expect.arrayContaining(['x', 'y', 'health', 'weapon']));
    expect(character!.children!.every((f) => f.decoded && f.start === snapshot.start && f.end === snapshot.end)).toBe(true);
    // Enum values by their schema names beside the number (issue 26).
    const weapon = character!.children!.find((f) => f.label === 'weapon')!;
    expect(weapon.value).toMatch(/^-1$|^\d \((hammer|gun|shotgun|grenade|laser|ninja)\)$/);
    const info = items.find((i) => i.label.startsWith('client_info '))!;
    expect(info.children!.find((f) => f.label === 'name')!.value).toMatch(/^".*"$/);
    const message = all.find((c) => c.label.startsWith('message ') && c.label !== 'message (unknown')!;
    expect(message.description).not.toBe('');
    expect(session.children(message.lazy!).length).toBeGreaterThanOrEqual(0);
    const overview = session.overview();
    expect(overview.players.length).toBeGreaterThan(0);
    expect(overview.tracks.length).toBeGreaterThan(0);
    expect(overview.lastTick).toBeGreaterThan(overview.firstTick);
    expect(overview.tracks[0]!.x.length).toBe(overview.tracks[0]!.ticks.length);
  });

  it('gives a teehistorian file its players, positions and decoded records', () => {
    const session = teehistorianSession(read('teehistorian/ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian'), teehistorianMessageDocs(), streamDocs());
    const messages = session.root.children!.find((c) => c.label === 'messages')!.children!;
    const playerNew = messages.find((m) => m.label.endsWith(': PLAYER_NEW'))!;
    const fields = session.children(playerNew.lazy!);
    expect(fields.map((f) => f.label)).toEqual(['cid', 'x', 'y']);
    expect(fields[1]!.description).toBe('Position x.');
    const message = messages.find((m) => m.label.endsWith(': MESSAGE'));
    if (message) expect(session.children(message.lazy!).some((f) => f.label.startsWith('net message '))).toBe(true);
    const overview = session.overview();
    expect(overview.players.length).toBeGreaterThan(0);
    expect(overview.tracks.length).toBeGreaterThan(0);
  });
});
