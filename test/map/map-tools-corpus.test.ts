// Corpus suite for @twcodec/map-tools: unpack/pack round trip, PNG extraction against DDNet's map_extract,
// and a preview render of every map.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { readMap } from '@twcodec/map';
import { extractImages, listImages, packMap, pngToRgba, renderGameLayer, renderMap, unpackMap } from '@twcodec/map-tools';
import { decode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { corpusDir } from '../corpus.js';
import { ddnetTool } from '../ddnet-tools.js';

// ../shared/corpus/maps, or TWCODEC_CORPUS's maps (the no-corpus CI run points it at an empty directory).
const CORPUS = join(corpusDir, 'maps');
const haveCorpus = existsSync(CORPUS);
const mapFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? mapFiles(join(dir, n)) : n.endsWith('.map') ? [join(dir, n)] : []));
const maps = haveCorpus ? mapFiles(CORPUS) : [];
const read = (p: string) => new Uint8Array(readFileSync(p));

describe.skipIf(!haveCorpus)('map-tools on the corpus (../shared/corpus/maps)', () => {
  it('finds the corpus maps', () => expect(maps.length).toBeGreaterThanOrEqual(40));
  it.each(maps.map((p) => [p.slice(CORPUS.length + 1), p]))('%s unpacks into at most 64 MB and packs back to identical bytes', (_name, path) => {
    const bytes = read(path);
    const files = unpackMap(bytes);
    // Issue 36 row 14: runs of equal tiles are one token (Tutorial was 69 MB of tile text, now 3.4 MB).
    expect([...files.values()].reduce((sum, f) => sum + f.length, 0)).toBeLessThanOrEqual(64 * 1000 * 1000);
    expect(packMap(files)).toEqual(bytes);
  });

  const extract = ddnetTool('map_extract');
  it.skipIf(!extract).each(maps.map((p) => [p.slice(CORPUS.length + 1), p]))('%s: extracted PNGs equal map_extract pixels', (_name, path) => {
    const map = readMap(read(path), { strict: false });
    const ours = extractImages(map);
    const out = mkdtempSync(join(tmpdir(), 'twcodec-extract-'));
    try {
      execFileSync(extract!, [path, out], { stdio: 'pipe', timeout: 60_000 });
      let compared = 0;
      for (const entry of listImages(map)) {
        const png = ours.get(entry.fileName);
        if (!png) continue;
        const theirs = join(out, `${entry.name}.png`);
        if (!existsSync(theirs)) continue;
        const a = pngToRgba(png);
        const b = pngToRgba(read(theirs));
        expect([a.width, a.height]).toEqual([b.width, b.height]);
        expect(Buffer.from(a.pixels).equals(Buffer.from(b.pixels))).toBe(true);
        compared++;
      }
      expect(compared).toBe(ours.size);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it.each(maps.map((p) => [p.slice(CORPUS.length + 1), p]))('%s renders to PNG (game layer and tile layers)', (_name, path) => {
    const map = readMap(read(path), { strict: false });
    for (const png of [renderGameLayer(map, { maxSide: 1024 }), renderMap(map, { maxSide: 1024 })]) {
      // A valid PNG: signature, IHDR first, IEND last, every chunk's CRC right, pixels decodable and not all alike.
      expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
      expect(new TextDecoder().decode(png.subarray(12, 16))).toBe('IHDR');
      expect(new TextDecoder().decode(png.subarray(png.length - 8, png.length - 4))).toBe('IEND');
      const decoded = decode(png, { checkCrc: true });
      expect(decoded.width).toBeGreaterThan(0);
      expect(decoded.height).toBeGreaterThan(0);
      const pixels = pngToRgba(png).pixels;
      expect(pixels.some((v, i) => v !== pixels[i % 4])).toBe(true);
    }
  });
});
