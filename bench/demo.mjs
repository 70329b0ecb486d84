// Demo read and write throughput as ratios to Huffman decoding / encoding the same chunks alone (the floor:
// every chunk has to pass through the Huffman code once). Run: npm run bench:demo
import { join } from 'node:path';
import { demoEvents, readDemo, resaveDemo, teeworldsHuffman } from '@twcodec/demo';
import { compare, corpusDir, listFiles, mb, readBytes, report, repoRoot } from './common.mjs';

let files = listFiles(join(corpusDir, 'demos'), '.demo');
const source = files.length ? 'corpus' : 'fixtures';
if (!files.length) files = listFiles(join(repoRoot, 'fixtures', 'demos'), '.demo');
// The largest demos: enough work to time, little enough for a quick run.
const demos = files
  .map(readBytes)
  .sort((a, b) => b.length - a.length)
  .slice(0, 4);
const bytes = demos.reduce((s, d) => s + d.length, 0);

// The stored chunk payloads (compressed) and their packed contents (what the Huffman code encodes).
const huffman = teeworldsHuffman();
const stored = [];
const packed = [];
for (const demo of demos) {
  const view = demo;
  for (const c of readDemo(demo).chunks()) {
    if (c.kind === 'tick') continue;
    const at = c.offset + (c.storedSize < 30 ? 1 : c.storedSize < 256 ? 2 : 3);
    const s = view.subarray(at, at + c.storedSize);
    stored.push(s);
    packed.push(huffman.decompress(s, 69 * 1024));
  }
}

const times = compare(
  {
    huffmanDecode() {
      for (const s of stored) huffman.decompress(s, 69 * 1024);
    },
    read() {
      for (const d of demos) for (const _ of demoEvents(readDemo(d)));
    },
    huffmanEncode() {
      for (const p of packed) huffman.compress(p);
    },
    write() {
      for (const d of demos) resaveDemo(d);
    },
  },
  3,
);
const rate = (ms) => `${((bytes / 1e6 / ms) * 1000).toFixed(1)} MB/s`;
console.log(`${demos.length} ${source} demos, ${mb(bytes)} MB, ${stored.length} chunks`);
console.log(`  Huffman decode alone (floor): ${times.huffmanDecode.toFixed(0)} ms`);
console.log(`  read (every snapshot, message): ${times.read.toFixed(0)} ms  ${rate(times.read)}  ratio ${(times.read / times.huffmanDecode).toFixed(1)}x floor`);
console.log(`  Huffman encode alone (floor): ${times.huffmanEncode.toFixed(0)} ms`);
console.log(`  write (read + write again):   ${times.write.toFixed(0)} ms  ${rate(times.write)}  ratio ${(times.write / times.huffmanEncode).toFixed(1)}x floor (includes the read)`);
report('demo', 'read (every snapshot and message)', times.read / times.huffmanDecode, undefined, 'floor: Huffman decode of every chunk');
report('demo', 'write (read + write again)', times.write / times.huffmanEncode, undefined, 'floor: Huffman encode of every chunk');
