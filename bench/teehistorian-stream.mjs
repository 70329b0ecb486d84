// Reads one teehistorian file from disk in 64 KiB chunks with the stream reader (`reader`: one object per
// message) or the stream scan (`scan`: scanTeehistorianStream, nothing allocated per message), in a process
// of its own so that its peak memory is the reader's alone. The peak is sampled (RSS every 16 chunks), not
// taken from getrusage: Linux carries a parent's max RSS over into a spawned child. bench/teehistorian.mjs runs it on its
// generated file; it also runs on any file: node bench/teehistorian-stream.mjs FILE reader|scan
import { createReadStream, statSync } from 'node:fs';
import { readTeehistorianStream, scanTeehistorianStream } from '@twcodec/teehistorian';

const [path, mode] = process.argv.slice(2);
if (!path || !['reader', 'scan'].includes(mode)) {
  console.error('usage: node bench/teehistorian-stream.mjs FILE reader|scan');
  process.exit(2);
}
const size = statSync(path).size;
// With --expose-gc, live memory (heap + array buffers right after a collection) is sampled too, every 16 MiB:
// RSS also holds garbage not collected yet, which V8 lets grow with the allocation rate.
const live = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
globalThis.gc?.();
globalThis.gc?.();
const baseLive = live();
let peakLive = baseLive;
let peakRss = process.memoryUsage.rss();
async function* sampled(chunks) {
  let n = 0;
  for await (const chunk of chunks) {
    if (++n % 16 === 0) peakRss = Math.max(peakRss, process.memoryUsage.rss());
    if (globalThis.gc && n % 256 === 0) {
      globalThis.gc();
      // Twice: array buffers found dead are freed by a sweeper that the next collection waits for.
      globalThis.gc();
      peakLive = Math.max(peakLive, live());
    }
    yield chunk;
  }
}
const source = sampled(createReadStream(path, { highWaterMark: 1 << 16 }));
const start = performance.now();
let messages = 0;
let sum = 0;
if (mode === 'reader') {
  for await (const m of readTeehistorianStream(source)) {
    messages++;
    sum = (sum + m.tick) | 0;
  }
} else {
  const s = await scanTeehistorianStream(source, (s) => {
    sum = (sum + s.ints[1] + s.tick) | 0;
  });
  messages = s.count;
}
const ms = performance.now() - start;
if (sum === 0.5) console.log(sum);
console.log(JSON.stringify({ mode, bytes: size, messages, ms, peakRssMb: Math.max(peakRss, process.memoryUsage.rss()) / 2 ** 20, liveGrowthMb: globalThis.gc ? (peakLive - baseLive) / 2 ** 20 : undefined }));
