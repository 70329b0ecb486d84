// Runs every bench, one process each (so that each one's peak memory is its own), and prints one table:
// each measure as a ratio to the floor measured in the same run, beside the target the project set for it.
// Run: npm run bench   (tools: the CLI against DDNet's tools, whole processes; BENCH_ONLY=teehistorian,map to pick some; TH_BENCH_MB sizes the teehistorian file)
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Not from common.mjs: importing it would add this process's own memory line to the summary.
const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

const benches = ['datafile', 'map', 'snapshot', 'teehistorian', 'demo', 'demo-chunks', 'browser-inflate', 'net', 'pcap', 'scale', 'tools'].filter((b) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(',').includes(b));
const rows = [];
for (const bench of benches) {
  console.log(`\n== ${bench}`);
  const run = spawnSync(process.execPath, ['--expose-gc', join(repoRoot, 'bench', `${bench}.mjs`)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  let peak = '';
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('BENCH ')) {
      if (line) console.log(line);
      continue;
    }
    const row = JSON.parse(line.slice(6));
    if (row.peakRssMb !== undefined) peak = `${row.peakRssMb} MB`;
    else rows.push(row);
  }
  for (const row of rows) if (row.bench === bench) row.peak = peak;
  if (run.status !== 0) rows.push({ bench, measure: `FAILED (exit ${run.status})`, ratio: NaN, peak });
}

const table = [['bench', 'measure', 'x floor', 'target', 'met', 'peak RSS', 'note']];
for (const r of rows) {
  const met = r.target === undefined ? '' : r.target.startsWith('>=') ? (r.ratio >= Number(r.target.slice(2)) ? 'yes' : 'NO') : r.ratio <= Number(r.target.replace('<=', '')) ? 'yes' : 'NO';
  table.push([r.bench, r.measure, r.ratio == null || Number.isNaN(r.ratio) ? '-' : `${r.ratio}`, r.target ?? '', met, r.peak ?? '', r.note ?? '']);
}
const widths = table[0].map((_, i) => Math.max(...table.map((row) => String(row[i]).length)));
console.log('\nSummary (ratios: lower is better, except where the target says >=)');
for (const [i, row] of table.entries()) {
  console.log(row.map((cell, k) => String(cell).padEnd(widths[k])).join('  ').trimEnd());
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
