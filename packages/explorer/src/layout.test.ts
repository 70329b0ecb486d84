import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Datafile } from '@twcodec/datafile';
import { DemoWriter } from '@twcodec/demo';
import { decodeEnvelopeItem, ENTITY_OFFSET, EntityId, LayerType, MAP_ITEM_TYPE, readMap, tileColour, TileId, type TilemapLayer, TilemapLayerVersion, Tiles, writeMap } from '@twcodec/map';
import { Ddnet06Weapon, encodeDdnet06Message } from '@twcodec/netmsg';
import { Snapshot } from '@twcodec/snapshot';
import { mapItemSchemas, streamDocs, teehistorianMessageDocs } from '../vite.config.mjs';
import { placeFindings } from './findings.js';
import { attachPreviews, renderLayer, tileInfo } from './previews.js';
import { corpusDir } from '../../../test/corpus.js';
import { existsSync, readdirSync } from 'node:fs';
import { captureSession } from './capture.js';
import { demoSession } from './demo-view.js';
import { teehistorianSession } from './teehistorian-view.js';
import { damagedLayout, detectKind, type LayoutNode, leafAt, leaves, mapLayout } from './layout.js';

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

describe('item fields as the codec reads them', () => {
  const itemNodes = (bytes: Uint8Array) => mapLayout(bytes, mapItemSchemas()).children!.find((c) => c.label === 'items')!.children!;
  const labels = (node: LayoutNode) => node.children!.slice(2).map((c) => c.label);

  it('shows the fields the generated decoder reads: a 5-int envelope has no name, an int after it (kept as extra)', () => {
    // The explorer's own walk of the schema took the fifth int for the first of the name's 8 ints.
    const envelope = itemNodes(read('maps/dm7-legacy-size.map')).find((c) => c.label.startsWith('envelope #'))!;
    expect(labels(envelope)).toEqual(['version', 'channels', 'start_point', 'num_points', 'int[4]']);
    expect(decodeEnvelopeItem(Int32Array.of(1, 4, 0, 2, -1)).extra).toEqual([-1]);
  });

  it('follows the version gates: a version-2 tilemap has no name, its DDNet indices follow data', () => {
    const df = Datafile.read(read('maps/ctf1.map'));
    const layer = df.items.find((i) => i.type === MAP_ITEM_TYPE.layer.typeId && i.data[1] === LayerType.Tilemap)!;
    const before = labels(itemNodes(df.write()).find((c) => c.label === `layer #${layer.id}`)!);
    expect(before).toContain('name');
    layer.data[3] = TilemapLayerVersion.Unnamed;
    const after = labels(itemNodes(df.write()).find((c) => c.label === `layer #${layer.id}`)!);
    expect(after).not.toContain('name');
    expect(after.slice(after.indexOf('data'), after.indexOf('data') + 2)).toEqual(['data', 'data_tele']);
  });

  it('shows an item the decoder refuses (too short) as ints, with the reason', () => {
    const df = Datafile.read(read('maps/ctf1.map'));
    const group = df.items.find((i) => i.type === MAP_ITEM_TYPE.group.typeId)!;
    group.data = group.data.slice(0, 3);
    const node = itemNodes(df.write()).find((c) => c.label === `group #${group.id}`)!;
    expect(labels(node)).toEqual(['int[0]', 'int[1]', 'int[2]']);
    expect(node.children![2]!.description).toMatch(/does not read: .*group/);
  });
});

describe('named items', () => {
  it('shows the names of images (kept in a data item) beside those of layers, groups and envelopes', () => {
    const bytes = read('maps/ctf1.map');
    const root = mapLayout(bytes, mapItemSchemas());
    attachPreviews(bytes, root);
    const items = root.children!.find((c) => c.label === 'items')!.children!;
    expect(items.filter((c) => c.label.startsWith('image #')).map((c) => c.value)).toEqual(['"grass_doodads"', '"grass_main"', '"mountains"', '"sun"']);
    expect(items.filter((c) => c.label.startsWith('group #')).map((c) => c.value)).toEqual(['""', '""', '""', '""', '"Game"']);
  });
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

describe('groups and layers for mappers', () => {
  // Every fixture map, and every corpus map when the corpus is there.
  const corpusMaps = ['maps', 'maps-resaved-ddnet-16.4'].flatMap((top) =>
    ['ddnet', 'ddnet07', 'tw07'].flatMap((sub) => {
      const dir = join(corpusDir, top, sub);
      return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.map')).map((f) => join(dir, f)) : [];
    }),
  );
  const maps = [...['ctf1.map', 'coverage.map', 'dm7-legacy-size.map'].map((n) => join(fixtures, 'maps', n)), ...corpusMaps];
  it(`nests the layers under their groups, named by kind, on ${maps.length} maps`, () => {
    for (const path of maps) {
      const bytes = new Uint8Array(readFileSync(path));
      const root = mapLayout(bytes, mapItemSchemas());
      const map = attachPreviews(bytes, root);
      const view = root.children![0]!;
      expect(view.label, path).toBe('groups and layers');
      expect(view.children!.map((g) => g.children!.length - 1), path).toEqual(map.groups.map((g) => g.layers.length));
      for (const group of view.children!) {
        expect(group.label).toMatch(/^group \d+/);
        for (const layer of group.children!.slice(0, -1)) expect(layer.label, path).toMatch(/^(tiles|game|front|tele|speedup|switch|tune|quads|sounds|sounds \(old\)|unknown layer)( "|$)/);
      }
      // The view does not count as bytes: every byte is still under one leaf.
      let at = 0;
      for (const leaf of leaves(root)) {
        expect(leaf.start).toBe(at);
        at = leaf.end;
      }
      expect(at).toBe(bytes.length);
      // The game layer's tiles can be asked about.
      const game = view.children!.flatMap((g) => g.children!).find((l) => l.label.startsWith('game'));
      expect(game?.tiles, path).toBeDefined();
    }
  });

  it('says what a clicked tile holds and means', () => {
    const bytes = read('maps/ctf1.map');
    const root = mapLayout(bytes, mapItemSchemas());
    const map = attachPreviews(bytes, root);
    const game = root.children![0]!.children!.flatMap((g) => g.children!).find((l) => l.label.startsWith('game'))!;
    const layer = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap' && l.tilemapKind === 'game')!;
    if (layer.kind !== 'tilemap') throw new Error('not a tilemap');
    const solid = Array.from({ length: layer.item.width * layer.item.height }, (_, i) => i).find((i) => layer.tiles.get(i).id === TileId.Solid)!;
    const info = tileInfo(map, game.tiles!.key, solid % layer.item.width, Math.floor(solid / layer.item.width))!;
    expect(info.title).toMatch(/^tile \d+, \d+ of the game layer$/);
    expect(info.lines[0]).toBe('id 1: solid');
    const spawn = Array.from({ length: layer.item.width * layer.item.height }, (_, i) => i).find((i) => layer.tiles.get(i).id === ENTITY_OFFSET + EntityId.SpawnRed)!;
    expect(tileInfo(map, game.tiles!.key, spawn % layer.item.width, Math.floor(spawn / layer.item.width))!.lines[0]).toBe(`id ${ENTITY_OFFSET + EntityId.SpawnRed}: entity spawn red`);
  });
});

describe('the recorder’s view', () => {
  it('follows the recording player of a Teeworlds 0.7 client demo (its de_client_info says which)', () => {
    const made = demoSession(new Uint8Array(readFileSync(join(fixtures, 'demos', 'tw07_client_Charlie_chat.demo'))), streamDocs()).playback!();
    const withTees = made.playback!.frames.filter((f) => f.tees.length > 0);
    expect(withTees.length).toBeGreaterThan(0);
    // Charlie, the recording client, is client 0.
    expect(new Set(withTees.map((f) => f.local))).toEqual(new Set([0]));
  });
});

describe('every corpus recording plays', () => {
  const files = (dir: string, ext: string) => (existsSync(join(corpusDir, dir)) ? readdirSync(join(corpusDir, dir)).filter((f) => f.endsWith(ext)).map((f) => join(corpusDir, dir, f)) : []);
  const demos = [...files('demos', '.demo'), ...files('net', '.demo'), join(fixtures, 'demos', 'tw07_client_Charlie_chat.demo')];
  it(`gives frames with tees for ${demos.length} demos`, () => {
    for (const path of demos) {
      const made = demoSession(new Uint8Array(readFileSync(path)), streamDocs()).playback!();
      expect(made.playback!.frames.length, path).toBeGreaterThan(10);
      expect(made.playback!.frames.some((f) => f.tees.length > 0), path).toBe(true);
      expect(made.map, path).toBeDefined();
    }
  });
  const th = [...files('teehistorian', '.teehistorian'), ...files('net', '.teehistorian')];
  it(`gives frames for ${th.length} teehistorian files, and the map they need`, () => {
    for (const path of th) {
      const made = teehistorianSession(new Uint8Array(readFileSync(path)), teehistorianMessageDocs(), streamDocs()).playback!();
      expect(made.needsMap?.sha256, path).toMatch(/^[0-9a-f]{64}$/);
      if (!path.includes('idle')) expect(made.playback!.frames.some((f) => f.tees.length > 0), path).toBe(true);
    }
  });
  const captures = [...files('net', '.pcap'), join(fixtures, 'net', 'teeworlds-0.7-cut.pcap')];
  it(`plays what a client of ${captures.length} captures received, or says why not`, () => {
    for (const path of captures) {
      const made = captureSession(new Uint8Array(readFileSync(path)), streamDocs()).playback!();
      // A capture of server queries only has no player; one cut before the map download asks for the map.
      if (made.playback) expect(made.playback.frames.some((f) => f.tees.length > 0), path).toBe(true);
      else expect(made.error, path).toMatch(/^(No client in this capture sent its name|The capture does not hold the map)/);
    }
  });
});

describe('previews', () => {
  it('draws a large layer when it is asked for, not with the layout (a Yo7-sized map would send 500 MB of pictures)', () => {
    const map = readMap(read('maps/ctf1.map'));
    const game = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap' && l.tilemapKind === 'game') as TilemapLayer;
    const [W, H] = [800, 800];
    game.item = { ...game.item, width: W, height: H };
    game.tiles = new Tiles(new Uint8Array(W * H * 4));
    game.tiles.setId(W + 1, TileId.Solid);
    const bytes = writeMap(map);
    const root = mapLayout(bytes, mapItemSchemas());
    const model = attachPreviews(bytes, root);
    const node = root.children!.find((c) => c.label === 'items')!.children!.find((c) => c.tiles?.width === W)!;
    expect(node.preview).toBeUndefined();
    expect(node.lazy).toMatch(/^layer:/);
    const drawn = renderLayer(model, node.lazy!)!;
    expect([drawn.width, drawn.height]).toEqual([W, H]);
    // The solid tile at (1, 1), in the colour of its meaning.
    expect(Array.from(drawn.rgba.subarray((W + 1) * 4, (W + 1) * 4 + 3))).toEqual([...tileColour('game', TileId.Solid)!]);
  });

  it('draws the game layer one pixel per tile, coloured by tile meaning', () => {
    const bytes = read('maps/ctf1.map');
    const root = mapLayout(bytes, mapItemSchemas());
    attachPreviews(bytes, root);
    const layers = root.children!.find((c) => c.label === 'items')!.children!.filter((c) => c.label.startsWith('layer') && c.preview);
    // ctf1's five tilemap layers (layers 4 to 8; 0 to 3 are quads).
    expect(layers.map((l) => l.label)).toEqual(['layer #4', 'layer #5', 'layer #6', 'layer #7', 'layer #8']);
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
    // ctf1: six envelopes, 14 points in all (map info says so too).
    expect(envelopes).toHaveLength(6);
    expect(envelopes.reduce((n, e) => n + e.plot!.points.length, 0)).toBe(14);
    for (const e of envelopes) {
      expect(e.plot!.points.length).toBe(Number(e.children!.find((c) => c.label === 'num_points')!.value));
      for (const p of e.plot!.points) expect(p.values).toHaveLength(e.plot!.channels.length);
    }
  });

  it('gives quads layers their quads as polygons in world units', () => {
    const bytes = read('maps/ctf1.map');
    const root = mapLayout(bytes, mapItemSchemas());
    attachPreviews(bytes, root);
    const quads = root.children!.find((c) => c.label === 'items')!.children!.filter((c) => c.quads);
    expect(quads.map((l) => l.label)).toEqual(['layer #0', 'layer #1', 'layer #2', 'layer #3']);
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
    // Chunks before the first tick marker (the server's first messages) stand on their own.
    const all = chunks.flatMap((t) => t.children ?? [t]);
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
    // The first message (before the first tick) is input_timing: its fields with their values.
    const message = all.find((c) => c.label.startsWith('message '))!;
    expect(message.label).toBe('message input_timing');
    expect(message.description).not.toBe('');
    expect(session.children(message.lazy!).map((f) => [f.label, f.value])).toEqual([
      ['intended_tick', '616'],
      ['time_left', '21'],
    ]);
    const overview = session.overview();
    // One player (Alpha, clan corpus) from the first tick to the last; one position per recorded snapshot.
    expect(overview).toMatchObject({ firstTick: 616, lastTick: 686 });
    expect(overview.players).toEqual([{ clientId: 0, name: 'Alpha', clan: 'corpus', skin: expect.any(String), fromTick: 616, toTick: 686 }]);
    expect(overview.tracks.map((t) => [t.clientId, t.ticks.length])).toEqual([[0, 36]]);
    expect(overview.tracks[0]!.x.length).toBe(overview.tracks[0]!.ticks.length);
  });

  it('names the values of net message fields that hold an enum (issue 37)', () => {
    const w = new DemoWriter({ netVersion: '0.6 626fce9a778df4d4', mapName: 'x', mapCrc: '00000000', type: 'server', timestamp: '2026-11-22_10-00-00', mapSha256: '0'.repeat(64) }, undefined);
    w.snapshot(100, new Snapshot([]));
    w.message(encodeDdnet06Message({ kind: 'sv_kill_msg', killer: 1, victim: 2, weapon: Ddnet06Weapon.Laser, modeSpecial: 0 }));
    const session = demoSession(w.finish(), streamDocs());
    const all = session.root.children!.find((c) => c.label === 'chunks')!.children!.flatMap((t) => t.children ?? [t]);
    const message = all.find((c) => c.label === 'message sv_kill_msg')!;
    const weapon = session.children(message.lazy!).find((f) => f.label === 'weapon')!;
    expect([weapon.type, weapon.value]).toEqual(['int (enum kill_weapon)', '4 (laser)']);
    expect(session.summary(message.lazy!)).toContain('weapon=4 (laser)');
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
    // Four players, named and with the clan their start info carries.
    expect(overview.players.map((p) => [p.clientId, p.name, p.clan])).toEqual([
      [0, 'Alpha', 'corpus'],
      [1, 'AlphaDmy', 'corpus'],
      [2, 'Bravo', 'corpus'],
      [3, 'BravoDmy', 'corpus'],
    ]);
    expect(overview.tracks.map((t) => t.clientId)).toEqual([0, 1, 2, 3]);
  });

  it("opens a teehistorian file's JSON header key by key, each with its bytes", () => {
    const bytes = read('teehistorian/ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian');
    const session = teehistorianSession(bytes, teehistorianMessageDocs(), streamDocs());
    const header = session.root.children!.find((c) => c.label === 'header')!;
    const keys = header.children!.map((c) => c.label);
    expect(keys.slice(0, 3)).toEqual(['comment', 'version', 'version_minor']);
    expect(keys).toEqual(expect.arrayContaining(['game_uuid', 'map_name', 'config', 'tuning', 'uuids']));
    expect(keys.at(-1)).toBe('NUL');
    const text = (n: LayoutNode) => new TextDecoder().decode(bytes.subarray(n.start, n.end));
    const mapName = header.children!.find((c) => c.label === 'map_name')!;
    expect([text(mapName), mapName.value]).toEqual(['"map_name":"ctf2"', '"ctf2"']);
    // Nested objects open too; every key's bytes are its own.
    const config = header.children!.find((c) => c.label === 'config')!;
    expect(config.children!.length).toBe(Number(config.value!.split(' ')[0]));
    for (const c of config.children!) expect(text(c).startsWith(`${JSON.stringify(c.label)}:`)).toBe(true);
    expect(header.children!.at(-1)).toMatchObject({ start: header.end - 1, end: header.end });
  });
});

describe('damaged files', () => {
  const cut = (path: string, fraction: number) => {
    const bytes = read(path);
    return bytes.slice(0, Math.floor(bytes.length * fraction));
  };

  it('a demo cut short shows the chunks read before the error, then the rest as not read', () => {
    const bytes = cut('demos/ctf2_server_Alpha_server_manual.demo', 0.8);
    const session = demoSession(bytes, streamDocs());
    expect(session.damaged).toMatch(/^TRUNCATED: /);
    const [chunks, unread] = session.root.children!.slice(-2);
    expect(chunks!.label).toBe('chunks');
    expect(chunks!.children!.filter((c) => c.label.startsWith('tick ')).length).toBe(13);
    expect(unread).toMatchObject({ label: 'not read', end: bytes.length, value: session.damaged });
    expect(unread!.start).toBe(chunks!.end);
    expect(session.overview().players.map((p) => p.name)).toEqual(['Alpha']);
  });

  it('a teehistorian file cut short shows the records read before the error', () => {
    const bytes = cut('teehistorian/ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian', 0.6);
    const session = teehistorianSession(bytes, teehistorianMessageDocs(), streamDocs());
    expect(session.damaged).toMatch(/^TRUNCATED: the file ends inside a message/);
    const messages = session.root.children!.find((c) => c.label === 'messages')!;
    expect(messages.children!).toHaveLength(3209);
    expect(session.root.children!.at(-1)).toMatchObject({ label: 'not read', start: messages.end, end: bytes.length });
  });

  it('a map whose tables are damaged shows its header, then the rest as not read', () => {
    const bytes = read('maps/ctf1.map');
    new DataView(bytes.buffer).setInt32(16, 100_000, true); // num_item_types: far more than the file holds
    expect(() => mapLayout(bytes, mapItemSchemas())).toThrow();
    const root = damagedLayout(bytes, 'map', new Error('BAD: the tables do not fit'));
    expect(root.children!.map((c) => [c.label, c.start, c.end])).toEqual([
      ['header', 0, 36],
      ['not read', 36, bytes.length],
    ]);
    expect(root.children![0]!.children!.find((c) => c.label === 'num_item_types')!.value).toBe('100000');
  });
});

describe('capture layout', () => {
  it('shows every UDP datagram of a capture, opened into its headers and packet over its bytes', () => {
    const bytes = read('net/teeworlds-0.7-cut.pcap');
    expect(detectKind(bytes)).toBe('capture');
    const session = captureSession(bytes, streamDocs());
    expect(session.damaged).toBeUndefined();
    const datagrams = session.root.children!.find((c) => c.label === 'datagrams')!;
    expect(datagrams.children).toHaveLength(257);
    const first = session.children(datagrams.children![0]!.lazy!);
    expect(first.map((n) => [n.label, n.start, n.end])).toEqual([
      ['record header', 24, 40],
      ['link, IP and UDP headers', 40, 82],
      ['header', 82, 89],
      ['control token', 89, expect.any(Number)],
    ]);
    // A compressed packet: its chunks are decoded from the compressed data, not bytes of their own.
    const compressed = datagrams.children!.find((n) => n.value?.includes('compression'))!;
    const nodes = session.children(compressed.lazy!);
    const data = nodes.find((n) => n.label === 'data (Huffman-compressed)')!;
    const chunks = nodes.filter((n) => n.label.startsWith('chunk '));
    expect(chunks.length).toBeGreaterThan(0);
    for (const c of chunks) expect(c).toMatchObject({ decoded: true, start: data.start, end: data.end });
  });

  it('gives an overview of what a capture holds: its connections, players, snapshots and messages', () => {
    const session = captureSession(read('net/teeworlds-0.7-on-ddnet-cut.pcap'), streamDocs());
    const overview = session.root.children!.find((c) => c.label === 'overview')!;
    expect(overview.view).toBe(true);
    const connection = overview.children![0]!;
    expect(connection.label).toMatch(/^connection 1: 127\.0\.0\.1:\d+ → 127\.0\.0\.1:\d+$/);
    const line = (label: string) => connection.children!.find((c) => c.label === label)?.value;
    expect(line('protocol')).toBe('0.7');
    expect(line('players')).toBe('"Echo"');
    expect(line('snapshots')).toMatch(/^\d+, ticks \d+–\d+/);
    expect(connection.children!.find((c) => c.label === 'messages')!.children!.map((c) => c.label)).toContain('cl_start_info');
    // The view does not count as bytes of the file.
    expect(leaves(session.root).some((l) => l.view)).toBe(false);
  });

  it("describes the packet's parts with schemas/net's descriptions: header fields, flags, control and connless messages", () => {
    const yaml = readFileSync(join(fixtures, '..', 'schemas', 'net', 'teeworlds-0.7.yaml'), 'utf8');
    const session = captureSession(read('net/teeworlds-0.7-cut.pcap'), streamDocs());
    const datagrams = session.root.children!.find((c) => c.label === 'datagrams')!;
    const first = session.children(datagrams.children![0]!.lazy!);
    const header = first.find((n) => n.label === 'header')!;
    expect(header.children!.map((n) => n.label)).toEqual(['flags', 'ack', 'num_chunks', 'token']);
    for (const field of header.children!) expect(yaml).toContain(field.description!.split(' control: ')[0]);
    expect(header.children![0]!.description).toContain('control: The data is one control message.');
    const token = first.find((n) => n.label === 'control token')!;
    expect(yaml).toContain(token.description);
    expect(token.children!.map((n) => n.label)).toEqual(['id', 'response_token', 'padding']);
    expect(yaml).toContain(token.children![1]!.description);
    const connless = datagrams.children!.find((n) => n.label.includes('connless'));
    if (connless) for (const n of session.children(connless.lazy!)) expect(n.description).toBeTruthy();
  });
});
