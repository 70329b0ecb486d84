// Hostile and edited directory forms (issue 25 rows 3, 4, 13; issue 26): map pack gives one typed error with
// the file and line:column, or a map that reads back as map.json says.
import { describe, expect, it } from 'vitest';
import { MapError, readMap, writeMap } from '@twcodec/map';
import { concatBytes } from '@twcodec/runtime';
import { diffMaps, MAP_JSON, type MapFiles, ORIGINAL_MAP, packMap, textToTiles, unpackMap, unpackMapEntries } from '@twcodec/map-tools';
import { Datafile } from '@twcodec/datafile';
import { fixturesDir, readBytes } from '../corpus.js';
import { join } from 'node:path';

const fixture = (name: string) => readBytes(join(fixturesDir, 'maps', name));
const text = (files: MapFiles, name: string) => new TextDecoder().decode(files.get(name));
const setText = (files: MapFiles, name: string, value: string) => files.set(name, new TextEncoder().encode(value));

function refusal(files: MapFiles): MapError {
  try {
    packMap(files);
  } catch (e) {
    expect(e).toBeInstanceOf(MapError);
    return e as MapError;
  }
  throw new Error('packMap accepted it');
}

/** ctf1 unpacked, map.json edited by `edit` (on the parsed model). */
function edited(edit: (model: Record<string, any>) => void): MapFiles {
  const files = unpackMap(fixture('ctf1.map'));
  const model = JSON.parse(text(files, MAP_JSON));
  edit(model);
  setText(files, MAP_JSON, JSON.stringify(model, null, 2));
  return files;
}

const LOCATION = /^map\.json:\d+:\d+$/;

describe('map.json with values of the wrong kind', () => {
  it('an object where a string belongs: typed error at the value', () => {
    const e = refusal(edited((m) => (m.groups[0].layers[0].item.name = { a: 1 })));
    expect(e.code).toBe('mapdir.value');
    expect(e.path).toMatch(LOCATION);
    expect(e.message).toMatch(/groups\[0\]\.layers\[0\]\.item\.name: expected a string, found an object/);
    const files = edited((m) => (m.groups[0].layers[0].item.name = { a: 1 }));
    const [, line, column] = e.path.split(':').map(Number);
    expect(text(files, MAP_JSON).split('\n')[line! - 1]!.slice(column! - 1)).toMatch(/^\{/);
  });

  it('groups that are not a list, a layer without item, a string for an int', () => {
    expect(refusal(edited((m) => (m.groups = 5))).message).toMatch(/groups: expected an array/);
    expect(refusal(edited((m) => delete m.groups[1].layers[0].item)).message).toMatch(/groups\[1\]\.layers\[0\]\.item: expected an object/);
    expect(refusal(edited((m) => (m.groups[0].item.offsetX = '7'))).message).toMatch(/groups\[0\]\.item\.offsetX: expected a number/);
  });

  it('very deep nesting', () => {
    const files = unpackMap(fixture('ctf1.map'));
    const json = text(files, MAP_JSON);
    const deep = `${'['.repeat(100000)}${']'.repeat(100000)}`;
    setText(files, MAP_JSON, json.replace('"groups": [', `"groups": [${deep},`));
    expect(refusal(files).code).toMatch(/^mapdir\./);
  });

  it('bad base64 and bad int32 lists', () => {
    for (const bad of ['%%%', 'a', 7]) {
      const e = refusal(edited((m) => (m.unknownItems = [{ type: 100, id: 0, data: { base64: bad } }])));
      expect([e.code, e.path, e.message]).toEqual(['mapdir.base64', expect.stringMatching(LOCATION), expect.stringContaining('unknownItems[0].data.base64')]);
    }
    const e = refusal(edited((m) => (m.unknownItems = [{ type: 100, id: 0, data: { int32: [1, 2 ** 31] } }])));
    expect(e.message).toMatch(/unknownItems\[0\]\.data\.int32\[1\]: 2147483648 is not a 32-bit int/);
  });

  it('a layer name over 11 bytes is refused with the limit (the item holds 3 ints, NUL included)', () => {
    const e = refusal(edited((m) => (m.groups[1].layers[0].item.name = 'twelve bytes')));
    expect(e.message).toMatch(/groups\[1\]\.layers\[0\]\.item\.name: 12 bytes is longer than the item holds: at most 11 bytes fit/);
    expect(e.path).toMatch(LOCATION);
  });
});

describe('tile text that does not fit the layer', () => {
  const gameFile = (files: MapFiles) => [...files.keys()].find((k) => k.startsWith('layers/') && k.includes('Game'))!;

  it('a row one tile short: refused with the file, line and column', () => {
    const files = unpackMap(fixture('ctf1.map'));
    const file = gameFile(files);
    const lines = text(files, file).split('\n');
    lines[3] = lines[3]!.slice(0, lines[3]!.lastIndexOf(' '));
    setText(files, file, lines.join('\n'));
    const e = refusal(files);
    expect(e.code).toBe('mapdir.tile_row');
    expect(e.path).toBe(`${file}:4:${lines[3]!.length + 1}`);
  });

  it('a width changed in map.json', () => {
    const e = refusal(edited((m) => m.groups.forEach((g: any) => g.layers.forEach((l: any) => l.item.kind === 'tilemap' && (l.item.tilemapFlags & 1) && (l.item.width -= 1)))));
    expect(e.code).toBe('mapdir.tile_row');
    expect(e.path).toMatch(/^layers\/.*:1:\d+$/);
  });

  it('a row missing at the end', () => {
    const files = unpackMap(fixture('ctf1.map'));
    const file = gameFile(files);
    const lines = text(files, file).trimEnd().split('\n');
    setText(files, file, `${lines.slice(0, -1).join('\n')}\n`);
    expect(refusal(files)).toMatchObject({ code: 'mapdir.tile_row', path: `${file}:${lines.length}:1` });
  });
});

describe('the rebuild path (no original.map)', () => {
  it.each(['dm7-legacy-size.map', 'ctf1.map', 'coverage.map'])('%s packs afresh into a map that reads back with no differences', (name) => {
    const bytes = fixture(name);
    const files = unpackMap(bytes);
    files.delete(ORIGINAL_MAP);
    const packed = packMap(files);
    const diff = diffMaps(readMap(bytes, { strict: false }), readMap(packed, { strict: false }));
    expect(diff).toEqual({ changes: [], tiles: [] });
  });
});

describe('unpacking a small map with a large layer (issue 25 row 11)', () => {
  // ctf1 with its game layer made side x side of skip-compressed tiles: a few KB of map. `noisy`: every tile
  // differs from its neighbours (ids 1 and 2 in turn), so that no run shortens the text: 9 bytes a tile.
  function skipLayerMap(side: number, noisy = false): Uint8Array {
    const df = Datafile.read(fixture('ctf1.map'));
    const game = df.items.find((i) => i.type === 5 && i.data[1] === 2 && (i.data[6]! & 1) === 1)!;
    const ints = game.data.slice();
    ints[4] = side;
    ints[5] = side;
    game.data = ints;
    const stored = new Uint8Array(noisy ? side * side * 4 : (side * side) / 256 * 4);
    for (let i = 0; i < stored.length; i += 4) [stored[i], stored[i + 2]] = noisy ? [1 + ((i / 4) % 2), 0] : [1, 255];
    df.data[ints[14]!]!.set(stored);
    return df.write();
  }

  it('the tile text is made in chunks on demand, its size known before', () => {
    const bytes = skipLayerMap(2048, true);
    expect(bytes.length).toBeLessThan(200_000);
    const entries = unpackMapEntries(bytes);
    const game = entries.find((e) => e.size === 2048 * 2048 * 9)!;
    expect(game.name).toMatch(/^layers\//);
    const first = game.chunks()[Symbol.iterator]().next().value as Uint8Array;
    expect(first.length).toBeLessThanOrEqual((1 << 20) + 32);
    expect(new TextDecoder().decode(first.subarray(0, 18))).toBe('01000000 02000000 ');
  });

  it('a layer of equal tiles is one run token a row (issue 36 row 14)', () => {
    const entries = unpackMapEntries(skipLayerMap(4096));
    const game = entries.find((e) => e.name.includes('Game'))!;
    expect(game.size).toBe(4096 * '01000000*4096\n'.length);
    const text = new TextDecoder().decode(concatBytes([...game.chunks()]));
    expect(text.split('\n', 2)).toEqual(['01000000*4096', '01000000*4096']);
  });

  it('a directory form over the limit is refused before anything is made', () => {
    expect(() => unpackMapEntries(skipLayerMap(256, true), { maxBytes: 100_000 })).toThrow(expect.objectContaining({ code: 'mapdir.too_large' }));
    expect(() => unpackMap(skipLayerMap(256, true), { maxBytes: 100_000 })).toThrow(MapError);
  });

  it('chunked text is the text tilesToText gives, and packs back to the same bytes', () => {
    for (const noisy of [false, true]) {
      const bytes = skipLayerMap(256, noisy);
      const files = unpackMap(bytes);
      expect(packMap(files)).toEqual(bytes);
      const entries = unpackMapEntries(bytes);
      for (const e of entries) expect(e.size).toBe(files.get(e.name)!.length);
    }
  });
});

describe('a physics layer without its Teeworlds tiles', () => {
  it('unpacks and packs back to the same bytes (the empty text is not a short layer)', () => {
    const df = Datafile.read(fixture('coverage.map'));
    // Layer item ints: 1 = layer type (2 tiles), 6 = tilemap flags (2 = tele), 14 = data index.
    const tele = df.items.find((i) => i.type === 5 && i.data[1] === 2 && (i.data[6]! & 2) === 2)!;
    const ints = tele.data.slice();
    ints[14] = -1;
    tele.data = ints;
    const bytes = df.write();
    const map = readMap(bytes);
    expect(map.readIssues.map((i) => i.code)).toContain('PHYSICS_COMPAT_DATA');
    expect(packMap(unpackMap(bytes))).toEqual(bytes);
    const files = unpackMap(bytes);
    files.delete(ORIGINAL_MAP);
    expect(diffMaps(map, readMap(packMap(files), { strict: false }))).toEqual({ changes: [], tiles: [] });
  });
});

describe('unknown items before the UUID index (issue 25 row 13; fuzzer finding of map-unpack)', () => {
  it('an unedited unpack then pack keeps them where they were: the map comes back byte for byte', () => {
    const df = Datafile.read(fixture('ctf1.map'));
    // Items of internal type 0xFFFE that no UUID index entry names (the model keeps them as unknown items),
    // then a UUID index item (type 0xFFFF) naming a type no item has.
    df.items.push({ type: 0xfffe, id: 0, data: Int32Array.of(1, 1, 4, -1, 0, 0) });
    df.items.push({ type: 0xfffe, id: 1, data: Int32Array.of(1, 1, 5, 1, 0, 0) });
    df.items.push({ type: 0xffff, id: 0xffbe, data: Int32Array.of(1041966870, 395065720, -1680232166, -532607528) });
    const bytes = df.write();
    const map = readMap(bytes);
    expect(map.unknownItems.map((i) => [i.type, i.id])).toEqual([[0xfffe, 0], [0xfffe, 1]]);
    expect(writeMap(map)).toEqual(bytes);
    expect(packMap(unpackMap(bytes))).toEqual(bytes);
  });
});

describe('a layer item whose id is not its index, beside a layer no group uses (fuzzer finding of map-unpack)', () => {
  it('an unedited unpack then pack keeps its id: the map comes back byte for byte', () => {
    const df = Datafile.read(fixture('ctf1.map'));
    const layers = df.items.filter((i) => i.type === 5);
    // The last layer gets id 1280 (DDNet finds layers by position and loads such a map), and a copy of the
    // first layer follows it with the next position as id: no group's range reaches it (an orphan layer,
    // which the model keeps as an unknown item and map.json holds as a copy).
    const last = layers.at(-1)!;
    last.id = 1280;
    df.items.splice(df.items.indexOf(last) + 1, 0, { type: 5, id: layers.length, data: layers[0]!.data.slice() });
    const bytes = df.write();
    const map = readMap(bytes, { strict: false });
    expect(map.readIssues.map((i) => i.code)).toEqual(expect.arrayContaining(['ITEM_ID_ORDER', 'LAYER_ORPHAN']));
    expect(writeMap(map)).toEqual(bytes);
    const packed = packMap(unpackMap(bytes));
    const ids = Datafile.read(packed).items.filter((i) => i.type === 5).map((i) => i.id);
    expect(ids).toEqual([...layers.slice(0, -1).map((_, i) => i), 1280, layers.length]);
    expect(packed).toEqual(bytes);
  });
});

describe('a tile layer whose data index is past the data items (fuzzer finding of map-unpack, issue 36)', () => {
  it('unpacks and packs back to what a resave gives', () => {
    // dm7: DDNet's tiles, stored as they are (ctf1's are skip-compressed).
    const df = Datafile.read(fixture('dm7-legacy-size.map'));
    const layer = df.items.find((i) => i.type === 5 && i.data[1] === 2 && (i.data[6]! & 1) === 0)!;
    const ints = layer.data.slice();
    ints[14] = df.data.length + 5;
    layer.data = ints;
    const bytes = df.write();
    expect(packMap(unpackMap(bytes))).toEqual(writeMap(readMap(bytes, { strict: false })));
  });
});

describe('runs of equal tiles in the tile text (issue 36 row 14)', () => {
  // The game layer's tile file, from map.json (dm7's layers have no names).
  const gameFile = (files: MapFiles): string =>
    JSON.parse(text(files, MAP_JSON)).groups.flatMap((g: any) => g.layers).find((l: any) => l.tilemapKind === 'game').tiles.tiles;
  /** dm7 (DDNet tiles, 50 wide) unpacked, its game layer's text replaced by `edit` of its lines. */
  function editedGame(edit: (lines: string[]) => string[]): MapFiles {
    const files = unpackMap(fixture('dm7-legacy-size.map'));
    const file = gameFile(files);
    setText(files, file, edit(text(files, file).split('\n')).join('\n'));
    return files;
  }
  const width = () => readMap(fixture('dm7-legacy-size.map')).groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap' && l.tilemapKind === 'game')!.item as { width: number; height: number };

  it('unpack writes runs, and text without runs (as unpack wrote it before) packs to the same map', () => {
    const bytes = fixture('dm7-legacy-size.map');
    const files = unpackMap(bytes);
    const game = text(files, gameFile(files));
    expect(game.split('\n')[0]).toMatch(/^[0-9a-f]{8}\*\d+( |$)/);
    // Every run written out tile by tile: the directory form before runs.
    for (const [name] of files) {
      if (!name.startsWith('layers/')) continue;
      setText(files, name, text(files, name).replace(/([0-9a-f]+)\*(\d+)/g, (_, tile: string, n: string) => Array(Number(n)).fill(tile).join(' ')));
    }
    expect(text(files, gameFile(files))).not.toContain('*');
    expect(packMap(files)).toEqual(bytes);
    files.delete(ORIGINAL_MAP);
    expect(diffMaps(readMap(bytes), readMap(packMap(files)))).toEqual({ changes: [], tiles: [] });
  });

  it('a run split or joined differently packs to the same tiles', () => {
    const bytes = fixture('dm7-legacy-size.map');
    const { width: w } = width();
    const files = editedGame((lines) => lines.map((line) => (line === `00000000*${w}` ? `00000000*${w - 10} 00000000*7 00000000 00000000*1 00000000` : line)));
    expect(text(files, gameFile(files))).toContain('00000000*7');
    expect(packMap(files)).toEqual(bytes);
  });

  it('a huge run count: one typed error at the token, nothing allocated for it', () => {
    const files = editedGame((lines) => ((lines[2] = `01000000*4294967295`), lines));
    const e = refusal(files);
    expect(e.code).toBe('mapdir.tile_row');
    expect(e.path).toBe(`${gameFile(files)}:3:1`);
    expect(e.message).toMatch(/a run of 4294967295 tiles after 0 tiles goes past the end of row 2/);
  });

  it('a run past the end of its row, and a row of runs one tile short', () => {
    const { width: w } = width();
    const past = editedGame((lines) => ((lines[5] = `00000000*${w - 1} 01000000*2`), lines));
    expect(refusal(past)).toMatchObject({ code: 'mapdir.tile_row', path: `${gameFile(past)}:6:${`00000000*${w - 1} `.length + 1}` });
    const short = editedGame((lines) => ((lines[5] = `00000000*${w - 1}`), lines));
    expect(refusal(short)).toMatchObject({ code: 'mapdir.tile_row', path: `${gameFile(short)}:6:${`00000000*${w - 1}`.length + 1}` });
  });

  it('runs past the layer end: extra lines of runs count against the limit of the tiles, refused before allocating', () => {
    const { width: w } = width();
    // Lines after the layer's height are tiles past its size (kept, as DDNet's resaves keep them), each at
    // most the row's width; 100 000 such lines would be 20 MB of tiles: under the limit, packed.
    const files = editedGame((lines) => [...lines.filter((l) => l), ...Array<string>(3).fill(`01000000*${w}`)]);
    expect(readMap(packMap(files), { strict: false }).readIssues.map((i) => i.code)).toContain('TILE_DATA_LONG');
    // Past the limit: refused at the token that passes it.
    const many = editedGame((lines) => [...lines.filter((l) => l), ...Array<string>(2_000_000).fill(`00000000*${w}`)]);
    const start = performance.now();
    const e = refusal(many);
    expect(performance.now() - start).toBeLessThan(10_000);
    expect(e.code).toBe('mapdir.too_large');
    expect(e.path).toMatch(new RegExp(`^${gameFile(many).replace(/[.*]/g, '\\$&')}:\\d+:1$`));
  });

  it('bad tokens: a run of none, no count, a count of 11 digits, a count that is not decimal, a star alone', () => {
    for (const token of ['01000000*0', '01000000*', '01000000*12345678901', '01000000*1x', '01000000*-3', '*5', '0100*4', '01000000**2']) {
      const files = editedGame((lines) => ((lines[1] = `${token} ${lines[1]}`), lines));
      const e = refusal(files);
      expect([token, e.code, e.path]).toEqual([token, 'mapdir.tile', `${gameFile(files)}:2:1`]);
      expect(e.message).toContain(`"${token}" is not a tile of 4 bytes in hex, nor a run of one (00000000*count)`);
    }
  });

  it('textToTiles without a size: a run bounded only by maxTiles', () => {
    expect(textToTiles('0100*3 0200', 2)).toEqual(Uint8Array.of(1, 0, 1, 0, 1, 0, 2, 0));
    expect(() => textToTiles('0100*3 0200', 2, 't.txt', undefined, 3)).toThrow(expect.objectContaining({ code: 'mapdir.too_large', path: 't.txt:1:8' }));
    expect(() => textToTiles('00000000*2000000000', 4)).toThrow(expect.objectContaining({ code: 'mapdir.too_large' }));
  });
});

describe('two info items, ids 1 and 0 (issue 36 row 15)', () => {
  it('unpack then pack gives the map back; packed afresh it reads back the same, with unique ids', () => {
    const df = Datafile.read(fixture('coverage.map'));
    const info = df.itemsOfType(1)[0]!;
    info.id = 1;
    df.items.splice(df.items.indexOf(info) + 1, 0, { type: 1, id: 0, data: Int32Array.of(1, -1, -1, -1, -1) });
    const bytes = df.write();
    const files = unpackMap(bytes);
    expect(packMap(files)).toEqual(bytes);
    files.delete(ORIGINAL_MAP);
    const fresh = packMap(files);
    expect(Datafile.read(fresh).itemsOfType(1).map((i) => i.id).sort()).toEqual([0, 1]);
    expect(diffMaps(readMap(bytes), readMap(fresh))).toEqual({ changes: [], tiles: [] });
  });
});

describe('a run on a line past the layer end (issue 36 row 14)', () => {
  it('holds at most a row of tiles, as unpack writes such lines', () => {
    const files = unpackMap(fixture('dm7-legacy-size.map'));
    const model = JSON.parse(text(files, MAP_JSON));
    const game = model.groups.flatMap((g: any) => g.layers).find((l: any) => l.tilemapKind === 'game');
    const file = game.tiles.tiles as string;
    setText(files, file, `${text(files, file)}01000000*${game.item.width + 1}\n`);
    const e = refusal(files);
    expect(e.code).toBe('mapdir.tile_row');
    expect(e.message).toMatch(/a run of \d+ tiles after 0 tiles goes past the end of line \d+ \(tiles past the layer's \d+ rows\)/);
    expect(e.path).toBe(`${file}:${game.item.height + 1}:1`);
  });
});

describe('a map whose layers declare more tiles than a directory may hold (issue 36 row 14)', () => {
  it('is refused by unpack before its layers are inflated', () => {
    const df = Datafile.read(fixture('dm7-legacy-size.map'));
    const game = df.items.find((i) => i.type === 5 && i.data[1] === 2 && (i.data[6]! & 1) === 1)!;
    const ints = game.data.slice();
    ints[4] = 14_500;
    ints[5] = 14_500;
    game.data = ints;
    // 841 MB of tiles declared for the game layer's data (the stored stream is the small layer's).
    df.data[ints[14]!]!.size = 14_500 * 14_500 * 4;
    const bytes = df.write();
    expect(() => unpackMapEntries(bytes)).toThrow(expect.objectContaining({ code: 'mapdir.too_large', message: expect.stringMatching(/802\.4 MiB together, over the 768\.0 MiB/) }));
  });
});
