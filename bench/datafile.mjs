// Decode throughput of @twcodec/datafile (header + items + inflating every data item) on the corpus maps,
// as a ratio to inflating the same data items alone with node:zlib. Run: npm run bench:datafile
import { inflateSync } from 'node:zlib';
import { Datafile } from '@twcodec/datafile';
import { compare, report, corpusDir, listFiles, mb, readBytes, repoRoot } from './common.mjs';
import { join } from 'node:path';

let files = listFiles(join(corpusDir, 'maps'), '.map');
const source = files.length ? 'corpus' : 'fixtures';
if (!files.length) files = listFiles(join(repoRoot, 'fixtures', 'maps'), '.map');
const maps = files.map(readBytes);

// The floor: the compressed data items alone, inflated by node:zlib into one buffer of the known size each (size + 1, so zlib sees the end without another chunk).
const streams = maps.flatMap((bytes) => Datafile.read(bytes).data.map((d) => [d.stored, d.size]));
const fileBytes = maps.reduce((s, m) => s + m.length, 0);
const dataBytes = streams.reduce((s, [, size]) => s + size, 0);

const times = compare({
  inflateOnly() {
    for (const [stored, size] of streams) inflateSync(stored, { chunkSize: Math.max(64, size + 1) });
  },
  decode() {
    for (const bytes of maps) {
      const df = Datafile.read(bytes);
      for (const d of df.data) d.bytes();
    }
  },
  headerAndItems() {
    for (const bytes of maps) Datafile.read(bytes);
  },
});

console.log(`datafile decode on ${maps.length} ${source} maps: ${mb(fileBytes)} MB files, ${mb(dataBytes)} MB inflated data`);
console.log(`  inflate data alone (floor): ${times.inflateOnly.toFixed(1)} ms  ${mb(dataBytes / times.inflateOnly * 1000)} MB/s`);
console.log(`  full decode:                ${times.decode.toFixed(1)} ms  ratio ${(times.decode / times.inflateOnly).toFixed(2)}x floor`);
console.log(`  header + items only:        ${times.headerAndItems.toFixed(1)} ms  ratio ${(times.headerAndItems / times.inflateOnly).toFixed(3)}x floor`);
report('datafile', 'full decode', times.decode / times.inflateOnly, undefined, 'floor: inflate the data alone');
report('datafile', 'header + items only', times.headerAndItems / times.inflateOnly, undefined);
