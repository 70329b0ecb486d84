// Teehistorian decode throughput on a large file (built by writing the corpus session's messages again and
// again with the writer's DDNet tick rules), as a ratio to a plain scan of the same file's variable-width
// ints; and the peak memory of the stream reader and the stream scan reading that file from disk in 64 KiB
// chunks, each in a process of its own (bench/teehistorian-stream.mjs).
// Run: npm run bench:teehistorian   TH_BENCH_MB=500 for the long run (the columns are left out above
// TH_COLUMNS_MAX_MB, default 128: they hold 24 bytes per message in memory).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTeehistorian, scanTeehistorian, teehistorianColumns } from '@twcodec/teehistorian';
import { compareWithCpu, mb, report, repoRoot } from './common.mjs';
import { syntheticTeehistorian } from './synthetic-teehistorian.mjs';

const TARGET = Number(process.env.TH_BENCH_MB ?? 64) * 1e6;
const withColumns = TARGET <= Number(process.env.TH_COLUMNS_MAX_MB ?? 128) * 1e6;
const bytes = syntheticTeehistorian(TARGET);
const headerEnd = bytes.indexOf(0, 16) + 1;

let count = 0;
// Wall time and CPU time (all threads): on a loaded machine the short floor waits for a core far more than
// its CPU time says, which flatters every wall-time ratio to it; the CPU ratios vary much less.
const { wall: times, cpu } = compareWithCpu(
  {
    varintScan() {
      // The floor: decode every byte run as a variable-width int, nothing else.
      let sum = 0;
      for (let p = headerEnd; p < bytes.length; ) {
        let b = bytes[p++];
        let v = b & 0x3f;
        for (let shift = 6; b & 0x80 && p < bytes.length; shift += 7) {
          b = bytes[p++];
          v |= (b & 0x7f) << shift;
        }
        sum = (sum + v) | 0;
      }
      if (sum === 0.5) console.log(sum);
    },
    decode() {
      count = 0;
      for (const _ of readTeehistorian(bytes)) count++;
    },
    scan() {
      // The allocation-free fast path, touching each message's ints as an analysis would.
      const s = scanTeehistorian(bytes);
      let sum = 0;
      while (s.next()) sum = (sum + s.ints[1] + s.tick) | 0;
      if (s.count !== count && count) throw new Error(`scan read ${s.count} messages, decode ${count}`);
      if (sum === 0.5) console.log(sum);
    },
    ...(withColumns && {
      columns() {
        teehistorianColumns(bytes);
      },
    }),
  },
  TARGET > 128e6 ? 3 : 5,
);

console.log(`teehistorian decode of a ${mb(bytes.length)} MB file (${count} messages)`);
console.log(`  plain varint scan (floor): ${times.varintScan.toFixed(1)} ms  ${mb(bytes.length / times.varintScan * 1000)} MB/s`);
const line = (name, ms) => `${ms.toFixed(1)} ms  ${mb(bytes.length / ms * 1000)} MB/s  ratio ${(ms / times.varintScan).toFixed(2)}x floor`;
console.log(`  scan (allocation-free):    ${line('scan', times.scan)}`);
if (withColumns) console.log(`  columns (typed arrays):    ${line('columns', times.columns)}`);
console.log(
  `  object iterator:           ${times.decode.toFixed(1)} ms  ${mb(bytes.length / times.decode * 1000)} MB/s  ${((count / times.decode) * 1000 / 1e6).toFixed(2)} M messages/s  ratio ${(times.decode / times.varintScan).toFixed(2)}x floor`,
);
console.log(`  CPU time: floor ${cpu.varintScan.toFixed(1)} ms, scan ${(cpu.scan / cpu.varintScan).toFixed(2)}x, object iterator ${(cpu.decode / cpu.varintScan).toFixed(2)}x`);

const mbps = (ms) => mb(bytes.length / ms * 1000);
report('teehistorian', 'scan (allocation-free)', times.scan / times.varintScan, '<=3', `${mbps(times.scan)} MB/s (target >= 300); floor: varint scan`);
if (withColumns) report('teehistorian', 'columns (typed arrays)', times.columns / times.varintScan, undefined, `${mbps(times.columns)} MB/s`);
report('teehistorian', 'object iterator', times.decode / times.varintScan, '<=5', `${mbps(times.decode)} MB/s (target >= 100)`);
report('teehistorian', 'object iterator, CPU time', cpu.decode / cpu.varintScan, '<=5', `CPU time of all threads (GC helpers too); floor ${cpu.varintScan.toFixed(1)} ms CPU`);

// The streaming paths from disk, each in its own process: its peak RSS is what reading the file costs.
const dir = mkdtempSync(join(tmpdir(), 'twcodec-bench-'));
const path = join(dir, 'large.teehistorian');
writeFileSync(path, bytes);
try {
  for (const [mode, name] of [['reader', 'stream reader from disk'], ['scan', 'stream scan from disk']]) {
    const run = spawnSync(process.execPath, ['--expose-gc', join(repoRoot, 'bench', 'teehistorian-stream.mjs'), path, mode], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (run.status !== 0) throw new Error(`teehistorian-stream.mjs ${mode} failed (exit ${run.status})`);
    const r = JSON.parse(run.stdout.trim().split('\n').at(-1));
    if (r.messages !== count) throw new Error(`${name} read ${r.messages} messages, the object iterator ${count}`);
    const note = `peak RSS ${r.peakRssMb.toFixed(0)} MB (own process), live memory +${r.liveGrowthMb.toFixed(1)} MB, for a ${mb(r.bytes)} MB file; ${mb(r.bytes / r.ms * 1000)} MB/s incl. disk`;
    console.log(`  ${(name + ':').padEnd(26)} ${note}`);
    report('teehistorian', name, NaN, undefined, note);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
