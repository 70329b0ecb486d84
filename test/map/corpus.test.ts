// Every corpus map (or, without ../shared/corpus, every fixture) through the typed map model.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Datafile } from '@twcodec/datafile';
import * as M from '@twcodec/map';
import { hasCorpus, mapCases, readBytes } from '../corpus.js';
import { ddnetTool, mapDiff, mapResave } from '../ddnet-tools.js';

const cases = mapCases();

const CODECS: Record<string, [(d: Int32Array) => unknown, (item: never) => Int32Array]> = {
  version: [M.decodeVersionItem, M.encodeVersionItem],
  info: [M.decodeInfoItem, M.encodeInfoItem],
  image: [M.decodeImageItem, M.encodeImageItem],
  envelope: [M.decodeEnvelopeItem, M.encodeEnvelopeItem],
  group: [M.decodeGroupItem, M.encodeGroupItem],
  layer: [M.decodeLayerItem, M.encodeLayerItem],
  sound: [M.decodeSoundItem, M.encodeSoundItem],
  automapper: [M.decodeAutomapperItem, M.encodeAutomapperItem],
};

describe(`maps on ${hasCorpus ? 'the corpus' : 'the fixtures'} (${cases.length})`, () => {
  it.each(cases)('$name: reads strictly, validates without errors, writes back identical bytes', ({ path, resavedPath }) => {
    const bytes = readBytes(path);
    const map = M.readMap(bytes);
    expect(validateErrors(map)).toEqual([]);
    expect(Buffer.from(M.writeMap(map)).equals(bytes)).toBe(true);
    if (resavedPath) expect(Buffer.from(M.writeMap(map, { mode: 'ddnet' })).equals(readBytes(resavedPath))).toBe(true);
  });

  it.each(cases)('$name: every item re-encodes to its own ints, unless it holds invalid UTF-8', ({ path }) => {
    const df = Datafile.read(readBytes(path));
    let canonical = 0;
    for (const item of df.items) {
      const info = M.mapItemTypeOf(item);
      const codec = info && CODECS[info.name];
      if (!codec) continue;
      const [decode, encode] = codec;
      const value = decode(item.data);
      const again = encode(value as never);
      if (again.length === item.data.length && again.every((v, i) => v === item.data[i])) {
        canonical++;
        continue;
      }
      // Old Teeworlds maps leave unset names as zero ints (read as '') or uninitialized memory (not UTF-8):
      // neither is what encoding the string gives back. Only such names may differ; writeMap keeps them.
      const name = (value as { name?: string }).name;
      expect(name === '' || name?.includes('\ufffd')).toBe(true);
    }
    expect(canonical).toBeGreaterThan(0);
  });
});

function validateErrors(map: M.TwMap): string[] {
  return M.validateMap(map)
    .filter((i) => i.severity === 'error')
    .map((i) => `${i.code} ${i.path}`);
}

describe('an edited map', () => {
  const target = cases.find((c) => /(^|\/)ddnet\/Tutorial\.map$/.test(c.name)) ?? cases.find((c) => c.name.startsWith('dm7'))!;

  it.skipIf(!ddnetTool('map_diff'))(`${target.name}: map_diff reports exactly the one tile set in the game layer`, () => {
    const map = M.readMap(readBytes(target.path));
    const game = map.groups.flatMap((g) => g.layers).find((l): l is M.TilemapLayer => l.kind === 'tilemap' && (l.item.tilemapFlags & M.TilemapFlags.Game) !== 0)!;
    const [x, y] = [7, 5];
    const index = y * game.item.width + x;
    const from = game.tiles.getId(index);
    const to = from === 1 ? 3 : 1;
    game.tiles.setId(index, to);
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-edit-'));
    const edited = join(dir, 'edited.map');
    writeFileSync(edited, M.writeMap(map));
    expect(validateErrors(M.readMap(readBytes(edited)))).toEqual([]);
    // map_diff prints the layer's stored name; a legacy tilemap (version < 3) stores none, and DDNet then prints
    // whatever its name buffer held, so only a stored name is an expectation.
    const diff = mapDiff(target.path, edited);
    expect(diff.map(({ x, y, from, to }) => ({ x, y, from, to }))).toEqual([{ x, y, from, to }]);
    if (game.item.name !== undefined) expect(diff[0]!.layer).toBe(game.item.name);
    // DDNet loads and re-saves it, to what our ddnet mode writes.
    if (ddnetTool('map_resave')) expect(Buffer.from(mapResave(edited, 'edited')).equals(M.writeMap(map, { mode: 'ddnet' }))).toBe(true);
  });
});
