// Teehistorian decode throughput on a large file (built by writing the corpus session's messages again and
// again with the writer's DDNet tick rules), as a ratio to a plain scan of the same file's variable-width
// ints; and the stream reader's peak memory reading that file from disk in 64 KiB chunks.
// Run: npm run bench:teehistorian  (node --expose-gc gives steadier memory figures)
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTeehistorian, readTeehistorianStream, scanTeehistorian, teehistorianColumns, TeehistorianWriter } from '@twcodec/teehistorian';
import { compare, report, corpusDir, listFiles, mb, readBytes, repoRoot } from './common.mjs';

const TARGET = Number(process.env.TH_BENCH_MB ?? 64) * 1e6;
let sources = listFiles(join(corpusDir, 'teehistorian'), '.teehistorian');
if (!sources.length) sources = listFiles(join(repoRoot, 'fixtures', 'teehistorian'), '.teehistorian');
const source = readTeehistorian(readBytes(sources.sort((a, b) => readBytes(b).length - readBytes(a).length)[0]));
const messages = [...source].filter((m) => m.kind !== 'FINISH');
const span = messages.at(-1).tick + 1;

const writer = new TeehistorianWriter({ header: source.header, headerText: source.headerText });
let size = 0;
for (let round = 0; size < TARGET; round++) {
  for (const m of messages) writer.writeAt(m.tick + round * span, m);
  if (round % 16 === 15) size = writer.finish().length;
}
writer.write({ kind: 'FINISH' });
const bytes = writer.finish();
const headerEnd = bytes.indexOf(0, 16) + 1;

let count = 0;
const times = compare(
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
    columns() {
      teehistorianColumns(bytes);
    },
  },
  5,
);

console.log(`teehistorian decode of a ${mb(bytes.length)} MB file (${count} messages)`);
console.log(`  plain varint scan (floor): ${times.varintScan.toFixed(1)} ms  ${mb(bytes.length / times.varintScan * 1000)} MB/s`);
const line = (name, ms) => `${ms.toFixed(1)} ms  ${mb(bytes.length / ms * 1000)} MB/s  ratio ${(ms / times.varintScan).toFixed(2)}x floor`;
console.log(`  scan (allocation-free):    ${line('scan', times.scan)}`);
console.log(`  columns (typed arrays):    ${line('columns', times.columns)}`);
console.log(
  `  object iterator:           ${times.decode.toFixed(1)} ms  ${mb(bytes.length / times.decode * 1000)} MB/s  ${((count / times.decode) * 1000 / 1e6).toFixed(2)} M messages/s  ratio ${(times.decode / times.varintScan).toFixed(2)}x floor`,
);

const mbps = (ms) => mb(bytes.length / ms * 1000);
report('teehistorian', 'scan (allocation-free)', times.scan / times.varintScan, '<=3', `${mbps(times.scan)} MB/s (target >= 300); floor: varint scan`);
report('teehistorian', 'columns (typed arrays)', times.columns / times.varintScan, undefined, `${mbps(times.columns)} MB/s`);
report('teehistorian', 'object iterator', times.decode / times.varintScan, undefined, `${mbps(times.decode)} MB/s (target >= 100)`);

// Stream reader memory: read the file from disk, sampling memory as messages arrive.
const dir = mkdtempSync(join(tmpdir(), 'twcodec-bench-'));
const path = join(dir, 'large.teehistorian');
writeFileSync(path, bytes);
globalThis.gc?.();
const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const base = used();
let peak = base;
let n = 0;
for await (const _ of readTeehistorianStream(createReadStream(path, { highWaterMark: 1 << 16 }))) {
  // Sample after a collection now and then, so that the figure is live memory, not garbage not yet collected.
  if (++n % 500000 === 0) {
    globalThis.gc?.();
    peak = Math.max(peak, used());
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(`  stream reader from disk:   peak +${mb(peak - base)} MB over the baseline for a ${mb(bytes.length)} MB file (${n} messages)`);
report('teehistorian', 'stream reader from disk', NaN, undefined, `live memory +${mb(peak - base)} MB for a ${mb(bytes.length)} MB file`);
