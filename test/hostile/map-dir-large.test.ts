// Issue 36 row 14: a 1.3 MB community map of 35 layers of 1702x2023 could not be unpacked (`mapdir.too_large`,
// 708 MiB of tile text). bench/large-map.mjs builds such a map from DDNet's Tutorial (corpus): every tilemap
// layer 1702x2023, mostly empty, the Tutorial's structure in three bands, a speedup and a tune layer. The CLI
// (dist: `npm run build` first, as for every test) unpacks it into at most 64 MB and packs it back byte for
// byte, each command within 1 GB peak RSS (measured with /usr/bin/time -v; its time is printed, not asserted).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDir, repoRoot } from '../corpus.js';

const tutorial = join(corpusDir, 'maps', 'ddnet', 'Tutorial.map');
const cli = join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs');
const haveTime = existsSync('/usr/bin/time');

/** Runs the CLI under /usr/bin/time -v: exit code, stderr, wall seconds and peak RSS in bytes. */
function timed(args: string[]): { status: number | null; stderr: string; seconds: number; rss: number } {
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, cli, ...args], { encoding: 'utf8', timeout: 60_000 });
  const field = (name: string) => new RegExp(`${name}: (.*)`).exec(r.stderr)?.[1] ?? '';
  const [m, s] = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)').split(':').map(Number);
  return { status: r.status, stderr: r.stderr, seconds: m! * 60 + s!, rss: Number(field('Maximum resident set size \\(kbytes\\)')) * 1024 };
}

const dirBytes = (dir: string): number =>
  readdirSync(dir).reduce((sum, name) => {
    const st = statSync(join(dir, name));
    return sum + (st.isDirectory() ? dirBytes(join(dir, name)) : st.size);
  }, 0);

describe.skipIf(!existsSync(tutorial) || !haveTime || !existsSync(cli))('a map of 35 layers of 1702x2023 (issue 36 row 14)', () => {
  it('unpacks into at most 64 MB and packs back byte for byte, each within 1 GB', () => {
    const work = mkdtempSync(join(tmpdir(), 'twcodec-large-dir-'));
    try {
      const map = join(work, 'large.map');
      const built = spawnSync(process.execPath, [join(repoRoot, 'bench', 'large-map.mjs'), map], { encoding: 'utf8', env: { ...process.env, TWCODEC_CORPUS: corpusDir } });
      expect(built.status, built.stderr).toBe(0);
      const unpack = timed(['map', 'unpack', map, join(work, 'dir')]);
      expect(unpack.status, unpack.stderr).toBe(0);
      expect(dirBytes(join(work, 'dir'))).toBeLessThanOrEqual(64 * 1000 * 1000);
      const pack = timed(['map', 'pack', join(work, 'dir'), join(work, 'out.map')]);
      expect(pack.status, pack.stderr).toBe(0);
      expect(Buffer.compare(readFileSync(join(work, 'out.map')), readFileSync(map))).toBe(0);
      // Memory is asserted; time is not (a timed assertion fails on a loaded machine): the seconds are printed
      // for the record, and bench/map-dir.mjs measures them (3.2 to 4 s each on the 2-core machine of issue 36).
      for (const run of [unpack, pack]) expect(run.rss).toBeLessThan(1000 * 1000 * 1000);
      console.log(`large map: unpack ${unpack.seconds} s, ${Math.round(unpack.rss / 1e6)} MB; pack ${pack.seconds} s, ${Math.round(pack.rss / 1e6)} MB`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});
