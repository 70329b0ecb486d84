// The directory form's size and cost (issue 36 row 14): every corpus map, the fixture maps and the large map
// of bench/large-map.mjs (35 layers of 1702x2023) through `twcodec map unpack` and `twcodec map pack`, each
// under /usr/bin/time -v: the directory's bytes, wall time and peak RSS of both commands, and whether the
// packed map is the input byte for byte. Prints a Markdown table.
//
//   node bench/map-dir.mjs [FILTER]     (npm run build first; FILTER keeps maps whose path contains it)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { largeMap } from './large-map.mjs';
import { corpusDir, listFiles, readBytes, repoRoot } from './common.mjs';

const cli = join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs');
const work = mkdtempSync(join(tmpdir(), 'twcodec-map-dir-'));
const filter = process.argv[2];

/** Runs the CLI under /usr/bin/time -v: exit code, wall seconds, peak RSS in MB, stderr's first line. */
function timed(args) {
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const field = (name) => new RegExp(`${name}: (.*)`).exec(r.stderr)?.[1] ?? '';
  const [m, s] = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)').split(':').map(Number);
  return { code: r.status, seconds: m * 60 + s, rssMb: Number(field('Maximum resident set size \\(kbytes\\)')) / 1024, error: r.stderr.split('\n')[0] };
}

/** The bytes of every file under dir. */
function dirBytes(dir) {
  let sum = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    sum += st.isDirectory() ? dirBytes(path) : st.size;
  }
  return sum;
}

const maps = [
  ...listFiles(join(repoRoot, 'fixtures', 'maps'), '.map'),
  ...listFiles(join(corpusDir, 'maps'), '.map'),
  ...listFiles(join(corpusDir, 'maps-resaved-ddnet-16.4'), '.map'),
].map((path) => ({ name: path.replace(`${corpusDir}/`, '').replace(`${repoRoot}/`, ''), path }));
const large = join(work, 'large-35x1702x2023.map');
writeFileSync(large, largeMap());
maps.push({ name: 'large: 35 layers of 1702x2023 (bench/large-map.mjs)', path: large });

const mb = (n) => (n / 1e6).toFixed(n < 1e6 ? 3 : 1);
console.log('| map | map bytes | dir bytes | unpack s | unpack MB RSS | pack s | pack MB RSS | identical |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
for (const { name, path } of maps.filter((m) => !filter || m.name.includes(filter))) {
  const dir = join(work, 'dir');
  const out = join(work, 'out.map');
  rmSync(dir, { recursive: true, force: true });
  rmSync(out, { force: true });
  const unpack = timed(['map', 'unpack', path, dir]);
  if (unpack.code !== 0) {
    console.log(`| ${name} | ${statSync(path).size} | refused: ${unpack.error} | ${unpack.seconds} | ${unpack.rssMb.toFixed(0)} | | | |`);
    continue;
  }
  const size = dirBytes(dir);
  const pack = timed(['map', 'pack', dir, out]);
  const same = pack.code === 0 && Buffer.compare(readBytes(out), readBytes(path)) === 0;
  console.log(`| ${name} | ${statSync(path).size} | ${size} (${mb(size)} MB) | ${unpack.seconds.toFixed(2)} | ${unpack.rssMb.toFixed(0)} | ${pack.seconds.toFixed(2)} | ${pack.rssMb.toFixed(0)} | ${same ? 'yes' : `NO ${pack.error}`} |`);
}
rmSync(work, { recursive: true, force: true });
