// Export throughput (tables, then Parquet and Arrow files) as a ratio to reading the same file, and the batch
// CLI's speedup on the corpus maps with 2 worker threads against 1.
// - teehistorian: a large file built from the corpus session (as bench/teehistorian.mjs does; TH_BENCH_MB,
//   default 32); floor: the allocation-free scan over it.
// - demo: the largest corpus demo (else the fixtures'); floor: decoding every snapshot (readDemo().snapshots()).
// - batch: `twcodec map validate` over every corpus map, --jobs 1 and --jobs 2 (wall time of the built CLI).
// Export times are CPU times of this process (see cpuMs); MB/s are of the input file.
// Needs hyparquet-writer and apache-arrow (devDependencies of @twcodec/export). Run: npm run bench:export
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { demoTables, teehistorianTables, toArrow, toParquet } from '@twcodec/export';
import { readDemo } from '@twcodec/demo';
import { scanTeehistorian, teehistorianColumns } from '@twcodec/teehistorian';
import { corpusDir, listFiles, mb, readBytes, report, repoRoot } from './common.mjs';
import { syntheticTeehistorian } from './synthetic-teehistorian.mjs';

const largest = (files) => files.sort((a, b) => readBytes(b).length - readBytes(a).length)[0];
const rate = (bytes, ms) => `${mb((bytes / ms) * 1000)} MB/s`;

async function encodeAll(tables, encode) {
  let size = 0;
  for (const t of tables) size += (await encode(t)).length;
  return size;
}

// CPU time (user + system, all threads of this process) rather than wall time: on a shared machine a busy
// neighbour stretches wall time, much less the CPU a run takes. Fastest of `rounds` after a warm-up.
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
async function timeAsync(fn, rounds = 3) {
  await fn();
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const t = cpuMs();
    await fn();
    best = Math.min(best, cpuMs() - t);
  }
  return best;
}
const fastest = (fn, rounds) => timeAsync(fn, rounds);

// --- teehistorian ---
{
  const TARGET = Number(process.env.TH_BENCH_MB ?? 32) * 1e6;
  const bytes = syntheticTeehistorian(TARGET);

  const floor = await fastest(() => {
    const s = scanTeehistorian(bytes);
    while (s.next());
  }, 3);
  const columnsMs = await fastest(() => teehistorianColumns(bytes), 3);
  const tablesMs = await fastest(() => teehistorianTables(bytes), 3);
  const tables = teehistorianTables(bytes);
  const parquetMs = await timeAsync(() => encodeAll(tables, toParquet));
  const arrowMs = await timeAsync(() => encodeAll(tables, toArrow));
  const parquetSize = await encodeAll(tables, toParquet);
  const arrowSize = await encodeAll(tables, toArrow);
  const rows = tables.map((t) => `${t.name} ${t.rows}`).join(', ');
  console.log(`teehistorian export of a ${mb(bytes.length)} MB file (${rows} rows)`);
  console.log(`  scan (floor):         ${floor.toFixed(0)} ms  ${rate(bytes.length, floor)}`);
  console.log(`  teehistorianColumns:  ${columnsMs.toFixed(0)} ms  ${rate(bytes.length, columnsMs)}  ${(columnsMs / floor).toFixed(2)}x floor (typed arrays of every int field, for comparison)`);
  console.log(`  tables:               ${tablesMs.toFixed(0)} ms  ${rate(bytes.length, tablesMs)}  ${(tablesMs / floor).toFixed(2)}x floor`);
  console.log(`  tables + Parquet:     ${(tablesMs + parquetMs).toFixed(0)} ms  ${rate(bytes.length, tablesMs + parquetMs)}  ${mb(parquetSize)} MB written`);
  console.log(`  tables + Arrow IPC:   ${(tablesMs + arrowMs).toFixed(0)} ms  ${rate(bytes.length, tablesMs + arrowMs)}  ${mb(arrowSize)} MB written`);
  report('export', 'teehistorian tables', tablesMs / floor, undefined, `${rate(bytes.length, tablesMs)}; floor: scan`);
  report('export', 'teehistorian to Parquet', (tablesMs + parquetMs) / floor, undefined, `${rate(bytes.length, tablesMs + parquetMs)}`);
  report('export', 'teehistorian to Arrow', (tablesMs + arrowMs) / floor, undefined, `${rate(bytes.length, tablesMs + arrowMs)}`);
}

// --- demo ---
{
  let sources = listFiles(join(corpusDir, 'demos'), '.demo');
  if (!sources.length) sources = listFiles(join(repoRoot, 'fixtures', 'demos'), '.demo');
  const path = largest(sources);
  const bytes = readBytes(path);
  const floor = await fastest(() => {
    for (const _ of readDemo(bytes).snapshots());
  }, 3);
  const tablesMs = await fastest(() => demoTables(bytes), 3);
  const tables = demoTables(bytes);
  const parquetMs = await timeAsync(() => encodeAll(tables, toParquet));
  const arrowMs = await timeAsync(() => encodeAll(tables, toArrow));
  const rows = tables.reduce((n, t) => n + t.rows, 0);
  console.log(`demo export of ${path.split('/').at(-1)} (${mb(bytes.length)} MB, ${tables.length} tables, ${rows} rows)`);
  console.log(`  snapshots (floor):    ${floor.toFixed(0)} ms  ${rate(bytes.length, floor)}`);
  console.log(`  tables:               ${tablesMs.toFixed(0)} ms  ${rate(bytes.length, tablesMs)}  ${(tablesMs / floor).toFixed(2)}x floor`);
  console.log(`  tables + Parquet:     ${(tablesMs + parquetMs).toFixed(0)} ms  ${rate(bytes.length, tablesMs + parquetMs)}`);
  console.log(`  tables + Arrow IPC:   ${(tablesMs + arrowMs).toFixed(0)} ms  ${rate(bytes.length, tablesMs + arrowMs)}`);
  report('export', 'demo tables', tablesMs / floor, undefined, `${rate(bytes.length, tablesMs)}; floor: decoding the snapshots`);
  report('export', 'demo to Parquet', (tablesMs + parquetMs) / floor, undefined, `${rate(bytes.length, tablesMs + parquetMs)}`);
  report('export', 'demo to Arrow', (tablesMs + arrowMs) / floor, undefined, `${rate(bytes.length, tablesMs + arrowMs)}`);
}

// --- batch CLI ---
{
  const maps = join(listFiles(join(corpusDir, 'maps'), '.map').length ? corpusDir : repoRoot, listFiles(join(corpusDir, 'maps'), '.map').length ? 'maps' : 'fixtures/maps');
  const files = listFiles(maps, '.map');
  const bin = join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs');
  const run = (jobs) => {
    const t = performance.now();
    const r = spawnSync(process.execPath, [bin, 'map', 'validate', '--jobs', String(jobs), `${maps}/**/*.map`], { encoding: 'utf8' });
    if (r.stdout.trimEnd().split('\n').length !== files.length) throw new Error(`batch printed ${r.stdout.split('\n').length - 1} lines for ${files.length} files: ${r.stderr}`);
    return performance.now() - t;
  };
  const best = { 1: Infinity, 2: Infinity };
  for (let i = 0; i < 3; i++) for (const jobs of [1, 2]) best[jobs] = Math.min(best[jobs], run(jobs));
  console.log(`batch: map validate over ${files.length} maps (${mb(files.reduce((n, f) => n + readBytes(f).length, 0))} MB), wall time with process start`);
  console.log(`  --jobs 1: ${best[1].toFixed(0)} ms   --jobs 2: ${best[2].toFixed(0)} ms   speedup ${(best[1] / best[2]).toFixed(2)}x`);
  report('export', 'batch map validate, 2 workers vs 1', best[2] / best[1], undefined, `speedup ${(best[1] / best[2]).toFixed(2)}x on ${files.length} maps`);
}
