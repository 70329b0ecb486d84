// A large realistic map for the directory form (issue 36 row 14: a 1.3 MB community map of 35 layers of
// 1702x2023 could not be unpacked, 708 MiB of tile text). Built from DDNet's Tutorial (its images, quads,
// envelopes, automapped tile layers, game, front, tele and switch layers): every tilemap layer made
// 1702x2023 with the Tutorial's content copied into a few bands and the rest empty, plus a speedup and a
// tune layer and copies of tile layers up to 35 tilemap layers. Mostly empty, with real structure.
//
//   import { largeMap } from './large-map.mjs'   (npm run build first: it uses packages/map/dist)
//   node bench/large-map.mjs OUT.map             writes it
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { readMap, TILEMAP_KINDS, writeMap } from '../packages/map/dist/index.js';
import { corpusDir, readBytes, repoRoot } from './common.mjs';

export const LARGE_WIDTH = 1702;
export const LARGE_HEIGHT = 2023;
export const LARGE_TILEMAP_LAYERS = 35;

/** DDNet's Tutorial, from the corpus (../shared/corpus/maps/ddnet). */
const tutorialBytes = (corpus) => readBytes(join(corpus, 'maps', 'ddnet', 'Tutorial.map'));

/** Where each band of the source layer goes: destination row, and the source column it starts from. */
const BANDS = [
  { y: 40, srcX: 0 },
  { y: 700, srcX: 508 },
  { y: 1500, srcX: 250 },
];

/** The layer's tiles of one kind made LARGE_WIDTH x LARGE_HEIGHT, the source copied into each band. */
function resized(view, srcWidth, srcHeight, tileBytes, bands = BANDS) {
  const src = view.bytes;
  const out = new Uint8Array(LARGE_WIDTH * LARGE_HEIGHT * tileBytes);
  for (const { y, srcX } of bands) {
    const x0 = Math.min(srcX, Math.max(0, srcWidth - LARGE_WIDTH));
    const w = Math.min(LARGE_WIDTH, srcWidth - x0);
    for (let r = 0; r < srcHeight && y + r < LARGE_HEIGHT; r++) {
      const from = (r * srcWidth + x0) * tileBytes;
      out.set(src.subarray(from, from + w * tileBytes), ((y + r) * LARGE_WIDTH) * tileBytes);
    }
  }
  return new view.constructor(out);
}

const kindInfo = (kind) => TILEMAP_KINDS.find((k) => k.kind === kind);

function resizeLayer(layer, bands) {
  const { width, height } = layer.item;
  const info = kindInfo(layer.tilemapKind);
  const out = { ...layer, item: { ...layer.item, width: LARGE_WIDTH, height: LARGE_HEIGHT } };
  out.tiles = resized(layer.tiles, width, height, 4, bands);
  if (info.property) out[info.property] = resized(layer[info.property], width, height, info.tileBytes, bands);
  return out;
}

/** A physics layer of `kind` (speedup, tune) made from the tele layer's item, with `count` tiles set along the bands. */
function physicsLayer(tele, kind, name, set) {
  const info = kindInfo(kind);
  const n = LARGE_WIDTH * LARGE_HEIGHT;
  const layer = {
    kind: 'tilemap',
    tilemapKind: kind,
    item: { ...tele.item, tilemapFlags: info.flag, name },
    tiles: new tele.tiles.constructor(new Uint8Array(n * 4)),
    [info.property]: new (kindInfo(kind).view(new Uint8Array(0)).constructor)(new Uint8Array(n * info.tileBytes)),
  };
  set(layer[info.property]);
  return layer;
}

/** The large map as bytes (node:zlib compresses: building the input is not what anything measures). */
export function largeMap(corpus = corpusDir) {
  const map = readMap(tutorialBytes(corpus));
  let tilemaps = 0;
  for (const group of map.groups) {
    group.layers = group.layers.map((layer) => {
      if (layer.kind !== 'tilemap') return layer;
      tilemaps++;
      return resizeLayer(layer);
    });
  }
  const gameGroup = map.groups.find((g) => g.layers.some((l) => l.kind === 'tilemap' && l.tilemapKind === 'game'));
  const tele = gameGroup.layers.find((l) => l.kind === 'tilemap' && l.tilemapKind === 'tele');
  // Speedup arrows and tune zones where the bands are: short strips, as mappers place them.
  gameGroup.layers.push(
    physicsLayer(tele, 'speedup', 'Speedup', (s) => {
      for (const { y } of BANDS) for (let x = 100; x < 1600; x += 150) for (let k = 0; k < 6; k++) {
        const i = (y + 60) * LARGE_WIDTH + x + k;
        s.setId(i, 28);
        s.setForce(i, 30 + (x % 7));
        s.setMaxSpeed(i, 0);
        s.setAngle(i, (x * 7) % 360);
      }
    }),
    physicsLayer(tele, 'tune', 'Tune', (t) => {
      for (const { y } of BANDS) for (let r = 0; r < 20; r++) for (let x = 300; x < 700; x++) {
        const i = (y + 30 + r) * LARGE_WIDTH + x;
        t.setId(i, 68);
        t.setNumber(i, 1 + (y % 3));
      }
    }),
  );
  tilemaps += 2;
  // More tile layers: copies of the Tutorial's tile layers, their content in other bands.
  const tileGroup = map.groups.find((g) => g.layers.filter((l) => l.kind === 'tilemap' && l.tilemapKind === 'tiles').length >= 5);
  const sources = tileGroup.layers.filter((l) => l.kind === 'tilemap' && l.tilemapKind === 'tiles');
  for (let k = 0; tilemaps < LARGE_TILEMAP_LAYERS; k++, tilemaps++) {
    const source = sources[k % sources.length];
    const copy = { ...source, item: { ...source.item, name: `Copy ${k}` } };
    // Shifted down by a row band (the same tiles elsewhere: another deco layer over the same structure).
    const bytes = new Uint8Array(source.tiles.bytes.length);
    bytes.set(source.tiles.bytes.subarray(0, bytes.length - (k + 1) * 37 * LARGE_WIDTH * 4), (k + 1) * 37 * LARGE_WIDTH * 4);
    copy.tiles = new source.tiles.constructor(bytes);
    tileGroup.layers.push(copy);
  }
  return writeMap(map, { deflate: (data, level) => deflateSync(data, { level }) });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bytes = largeMap(corpusDir);
  writeFileSync(process.argv[2] ?? join(repoRoot, 'large-map.map'), bytes);
  console.log(`${bytes.length} bytes`);
}
