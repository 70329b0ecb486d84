// Demo chunk decoding against the `teeworlds` npm library (issue 28): every data chunk (snapshot, delta and
// message chunks; tick markers carry no payload) of every demo, Huffman-decompressed and its varints unpacked
// to ints. The chunk bytes are taken out of the files beforehand by our reader, so both sides decode the same
// bytes and nothing else. The library's share: its Huffman class's decompress, then its MsgUnpacker's
// unpackInt until nothing is left (what its client does with a received chunk). Ours: unpackChunk, the path
// DemoReader.chunks() takes for every chunk. The project's target: at most 0.25x the library's CPU time.
// Run: npm run bench:demo-chunks
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readDemo, unpackChunk } from '@twcodec/demo';
import { compareWithCpu, corpusDir, listFiles, mb, readBytes, report, repoRoot } from './common.mjs';

const require = createRequire(import.meta.url);
const { Huffman: LibraryHuffman } = require('teeworlds/lib/huffman.js');
const { MsgUnpacker } = require('teeworlds/lib/MsgUnpacker.js');

let files = listFiles(join(corpusDir, 'demos'), '.demo');
const source = files.length ? 'corpus' : 'fixtures';
if (!files.length) files = listFiles(join(repoRoot, 'fixtures', 'demos'), '.demo');

// The stored payload of every data chunk, with the file offset of its chunk (for our errors) and its ints
// as our reader gives them (to check that both sides decode the same values).
const chunks = [];
const offsets = [];
const buffers = [];
let ints = 0;
let storedBytes = 0;
for (const file of files) {
  const demo = readBytes(file);
  for (const c of readDemo(demo).chunks()) {
    if (c.kind === 'tick') continue;
    // The chunk header: one byte, then one more for sizes 30-255 or two for larger ones (DDNet's writer).
    const at = c.offset + (c.storedSize < 30 ? 1 : c.storedSize < 256 ? 2 : 3);
    const stored = demo.subarray(at, at + c.storedSize);
    chunks.push(stored);
    offsets.push(c.offset);
    buffers.push(Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength));
    ints += c.kind === 'message' ? c.data.length / 4 : c.ints.length;
    storedBytes += c.storedSize;
  }
}

const library = new LibraryHuffman();
// Both sides give the same ints for every chunk (a check before timing, not timed).
for (let i = 0; i < chunks.length; i++) {
  const ours = unpackChunk(chunks[i], offsets[i]);
  const unpacker = new MsgUnpacker(library.decompress(buffers[i]));
  for (let k = 0; k < ours.length; k++) {
    if (unpacker.unpackInt() !== ours[k]) throw new Error(`chunk ${i} (offset ${offsets[i]}): int ${k} differs from the library's`);
  }
  if (unpacker.remaining.length !== 0) throw new Error(`chunk ${i}: the library unpacks more ints`);
}

let sink = 0;
function libraryDecode() {
  for (const buffer of buffers) {
    const unpacker = new MsgUnpacker(library.decompress(buffer));
    while (unpacker.remaining.length > 0) sink += unpacker.unpackInt();
  }
}
function ourDecode() {
  for (let i = 0; i < chunks.length; i++) sink += unpackChunk(chunks[i], offsets[i]).length;
}

const { wall, cpu } = compareWithCpu({ library: libraryDecode, ours: ourDecode }, 15);
const rate = (ms) => `${((storedBytes / 1e6 / ms) * 1000).toFixed(1)} MB/s stored`;
console.log(`${files.length} ${source} demos: ${chunks.length} data chunks, ${mb(storedBytes)} MB stored, ${(ints / 1e6).toFixed(2)} M ints`);
console.log(`  teeworlds npm library (decompress + unpackInt): ${wall.library.toFixed(1)} ms wall, ${cpu.library.toFixed(1)} ms CPU  ${rate(cpu.library)}`);
console.log(`  unpackChunk:                                    ${wall.ours.toFixed(1)} ms wall, ${cpu.ours.toFixed(1)} ms CPU  ${rate(cpu.ours)}  ${(cpu.ours / cpu.library).toFixed(3)}x its time`);
if (sink === 0.5) console.log(sink);
report('demo-chunks', 'demo chunk decoding (Huffman + ints) / teeworlds npm', cpu.ours / cpu.library, '<=0.25', 'CPU time, the same chunk bytes of every demo');
