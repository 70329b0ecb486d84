// Teehistorian export at server scale (issue 41): DDNet servers that run for days write teehistorian files of
// gigabytes. A synthetic file of each size in TH_SCALE_MB (MB, comma-separated; default 64,256) is written to
// the temporary directory as a stream (the corpus's largest recording, shifted and written again and again by
// the project's writer, between copies a TICK_SKIP), then `twcodec teehistorian export FILE OUT` (Parquet) runs
// on it as a user runs it, one whole process per size, timed by GNU time (`%e %U %S %M`: wall, user, system
// CPU and peak RSS). Rows:
// - per size: MB/s of CPU time and the peak RSS against 400 MB (target at most 1.0);
// - linearity: CPU seconds per GB of the largest size against the smallest (target at most 1.25);
// - --jobs: four files of the smallest size exported with --jobs 1 and --jobs 2, wall time (the speed-up a
//   second core gives; 2.0 is perfect; target at least 1.5; without an idle core it shows less);
// - read back: each Parquet file's rows counted by DuckDB (`@duckdb/node-api`, when it can be imported; set
//   TWCODEC_DUCKDB to a node_modules directory that has it) against the rows the export printed.
// The long run of docs/performance.md: TH_SCALE_MB=256,512,1024,2048 npm run bench:scale (about 10 minutes
// and 4 GB of disk here). Files are removed at the end (TH_SCALE_KEEP=1 keeps them).
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, linkSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeehistorianWriter } from '@twcodec/teehistorian';
import { benchEnv, notePeakRss, report, repoRoot } from './common.mjs';
import { largestRecording } from './synthetic-teehistorian.mjs';

const sizes = (process.env.TH_SCALE_MB ?? '64,256').split(',').map(Number).sort((a, b) => a - b);
const bin = join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs');
if (!existsSync(bin)) throw new Error(`${bin} is not there: build first (npm run build)`);
const scratch = mkdtempSync(join(tmpdir(), 'twcodec-scale-'));

/** The bytes after the header of what a fresh writer wrote: messages only. */
function messageBytes(source, write) {
  const header = { header: source.header, headerText: source.headerText };
  const headerLength = new TeehistorianWriter(header).finish().length;
  const writer = new TeehistorianWriter(header);
  write(writer);
  return writer.finish().slice(headerLength);
}

/** A synthetic teehistorian file of about `mb` MB at `path`, written as it is made (memory stays at one copy). */
function writeSynthetic(path, mb) {
  const { source, messages, span } = largestRecording();
  // One copy: the session written again (ticks shifted) until it is about 16 MB.
  const copy = messageBytes(source, (w) => {
    for (let round = 0, size = 0; size < 16e6; round++) {
      for (const m of messages) w.writeAt(m.tick + round * span, m);
      if (round % 8 === 7) size = w.finish().length;
    }
  });
  const skip = messageBytes(source, (w) => w.write({ kind: 'TICK_SKIP', dt: 0 }));
  const finish = messageBytes(source, (w) => w.write({ kind: 'FINISH' }));
  const fd = openSync(path, 'w');
  let size = 0;
  const put = (bytes) => {
    writeSync(fd, bytes);
    size += bytes.length;
  };
  put(new TeehistorianWriter({ header: source.header, headerText: source.headerText }).finish());
  while (size < mb * 1e6) (put(copy), put(skip));
  put(finish);
  closeSync(fd);
  return size;
}

/** A whole process under GNU time: wall and CPU seconds, peak RSS in MB, and its stdout. */
function timed(args) {
  const run = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S %M', process.execPath, bin, ...args], { encoding: 'utf8', env: benchEnv, maxBuffer: 1 << 26 });
  const line = run.stderr.split('\n').find((l) => l.startsWith('TIME '));
  if (run.status !== 0 || !line) throw new Error(`twcodec ${args.join(' ')} failed (exit ${run.status}): ${run.stderr.slice(0, 2000)}`);
  const [wall, user, sys, rssKb] = line.split(' ').slice(1).map(Number);
  notePeakRss(rssKb / 1024);
  return { wall, cpu: user + sys, rssMb: rssKb / 1024, stdout: run.stdout };
}

let duckdb;
try {
  const require = createRequire(join(process.env.TWCODEC_DUCKDB ?? join(repoRoot, 'node_modules'), 'x.js'));
  duckdb = await import(require.resolve('@duckdb/node-api'));
} catch {
  duckdb = undefined;
}
async function duckdbRows(file) {
  const instance = await duckdb.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const reader = await connection.runAndReadAll(`SELECT count(*) FROM read_parquet('${file.replaceAll("'", "''")}')`);
  const rows = Number(reader.getRows()[0][0]);
  connection.closeSync?.();
  return rows;
}

const results = [];
try {
  for (const mb of sizes) {
    const file = join(scratch, `synthetic-${mb}.teehistorian`);
    const bytes = writeSynthetic(file, mb);
    const out = join(scratch, `out-${mb}`);
    const run = timed(['teehistorian', 'export', file, out]);
    const summary = JSON.parse(run.stdout);
    const rows = summary.tables.reduce((n, t) => n + t.rows, 0);
    let readBack = '';
    if (duckdb) {
      let same = 0;
      for (const t of summary.tables) if ((await duckdbRows(t.file)) === t.rows) same++;
      readBack = `; DuckDB reads ${same} of ${summary.tables.length} tables with the rows written`;
    }
    results.push({ mb, bytes, ...run, rows, tables: summary.tables });
    const gb = bytes / 1e9;
    report('scale', `teehistorian export ${(bytes / 1e6).toFixed(0)} MB: peak RSS / 400 MB`, run.rssMb / 400, '<=1', `${(bytes / 1e6 / run.cpu).toFixed(1)} MB/s CPU (${run.cpu.toFixed(1)} s CPU, ${run.wall.toFixed(1)} s wall, ${(run.cpu / gb).toFixed(1)} s CPU per GB), peak RSS ${run.rssMb.toFixed(0)} MB, ${rows} rows${readBack}`);
    rmSync(out, { recursive: true, force: true });
    if (mb !== sizes[0] && !process.env.TH_SCALE_KEEP) rmSync(file);
  }
  if (results.length > 1) {
    const perGb = (r) => r.cpu / (r.bytes / 1e9);
    const [small, large] = [results[0], results.at(-1)];
    report('scale', `CPU per GB: ${(large.bytes / 1e6).toFixed(0)} MB against ${(small.bytes / 1e6).toFixed(0)} MB`, perGb(large) / perGb(small), '<=1.25', `${perGb(small).toFixed(1)} and ${perGb(large).toFixed(1)} s CPU per GB (linear: 1.0)`);
  }
  // --jobs: four links to the smallest file, each exported into OUT/<name>.
  const small = join(scratch, `synthetic-${sizes[0]}.teehistorian`);
  const many = join(scratch, 'many');
  mkdirSync(many);
  for (let i = 0; i < 4; i++) linkSync(small, join(many, `copy-${i}.teehistorian`));
  const files = readdirSync(many).map((f) => join(many, f));
  const walls = { 1: [], 2: [] };
  for (let round = 0; round < 3; round++) {
    for (const jobs of round % 2 ? [2, 1] : [1, 2]) {
      const out = join(scratch, `jobs-${jobs}`);
      walls[jobs].push(timed(['teehistorian', 'export', '--jobs', String(jobs), ...files, out]).wall);
      rmSync(out, { recursive: true, force: true });
    }
  }
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const speedUp = median(walls[1]) / median(walls[2]);
  report('scale', `--jobs 2 against --jobs 1 (4 files of ${sizes[0]} MB), wall-time speed-up`, speedUp, '>=1.5', `wall ${median(walls[1]).toFixed(1)} s and ${median(walls[2]).toFixed(1)} s, medians of 3 alternating rounds; 2.0 is perfect on 2 cores`);
} finally {
  if (!process.env.TH_SCALE_KEEP) rmSync(scratch, { recursive: true, force: true });
  else console.log(`kept ${scratch}`);
}
