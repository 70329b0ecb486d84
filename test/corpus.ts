// Where the test files are: the small fixtures in the repo, and the full corpus beside the checkout
// (../shared/corpus) when it exists. TWCODEC_CORPUS overrides the corpus location.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const fixturesDir = join(repoRoot, 'fixtures');
export const corpusDir = resolve(process.env.TWCODEC_CORPUS ?? join(repoRoot, '..', 'shared', 'corpus'));
export const hasCorpus = existsSync(join(corpusDir, 'maps'));

export function readBytes(path: string): Uint8Array {
  const buf = readFileSync(path);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

function listFiles(dir: string, ext: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path, ext));
    else if (entry.name.endsWith(ext)) out.push(path);
  }
  return out.sort();
}

export interface MapCase {
  /** e.g. `tw07/ctf1.map` */
  name: string;
  path: string;
  /** DDNet 16.4 map_resave output for this map, when known. */
  resavedPath: string | undefined;
}

/** Every corpus map when the corpus exists, else the fixtures. */
export function mapCases(): MapCase[] {
  if (hasCorpus) {
    const root = join(corpusDir, 'maps');
    return listFiles(root, '.map').map((path) => {
      const name = relative(root, path);
      const resaved = join(corpusDir, 'maps-resaved-ddnet-16.4', name);
      return { name, path, resavedPath: existsSync(resaved) ? resaved : undefined };
    });
  }
  return fixtureMaps();
}

export function fixtureMaps(): MapCase[] {
  const root = join(fixturesDir, 'maps');
  return listFiles(root, '.map').map((path) => {
    const name = relative(root, path);
    const resaved = join(fixturesDir, 'maps-resaved', name);
    return { name, path, resavedPath: existsSync(resaved) ? resaved : undefined };
  });
}

export function corpusFiles(subdir: string, ext: string): string[] {
  return listFiles(join(corpusDir, subdir), ext);
}

/** A small deterministic PRNG (mulberry32) for reproducible corruption tests. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Teehistorian files of the corpus, or the fixtures without it. */
export function teehistorianFiles(): string[] {
  const corpus = corpusFiles('teehistorian', '.teehistorian');
  return corpus.length ? corpus : listFiles(join(fixturesDir, 'teehistorian'), '.teehistorian');
}

/** Demo files of the corpus, or the fixtures without it. */
export function demoFiles(): string[] {
  // demos/: DDNet 16.4 sessions; net/: the demos recorded beside the packet captures, DDNet 16.4 and the
  // genuine Teeworlds 0.7.5 client and server (RECORDING-NET.txt).
  const corpus = [...corpusFiles('demos', '.demo'), ...corpusFiles('net', '.demo')];
  return corpus.length ? corpus : listFiles(join(fixturesDir, 'demos'), '.demo');
}
