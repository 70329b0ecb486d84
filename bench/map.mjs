// Time to read every corpus map fully with @twcodec/map (all items decoded, all data inflated, all layers
// decoded: tiles viewed in place, 0.7 tiles expanded, quads and sources decoded), as a ratio to inflating
// the same maps' data items alone with node:zlib. Run: npm run bench:map
import { inflateSync } from 'node:zlib';
import { join } from 'node:path';
import { Datafile } from '@twcodec/datafile';
import { readMap } from '@twcodec/map';
import { compareWithCpu, report, corpusDir, listFiles, mb, readBytes, repoRoot } from './common.mjs';

let files = listFiles(join(corpusDir, 'maps'), '.map');
const source = files.length ? 'corpus' : 'fixtures';
if (!files.length) files = listFiles(join(repoRoot, 'fixtures', 'maps'), '.map');
const maps = files.map(readBytes);
const streams = maps.flatMap((bytes) => Datafile.read(bytes).data.map((d) => [d.stored, d.size]));
const dataBytes = streams.reduce((s, [, size]) => s + size, 0);

let layers = 0;
const { wall: times, cpu } = compareWithCpu({
  inflateOnly() {
    for (const [stored, size] of streams) inflateSync(stored, { chunkSize: Math.max(64, size + 1) });
  },
  readMap() {
    layers = 0;
    for (const bytes of maps) {
      const map = readMap(bytes);
      for (const g of map.groups) layers += g.layers.length;
    }
  },
}, 9);

console.log(`map read on ${maps.length} ${source} maps (${layers} layers, ${mb(dataBytes)} MB inflated data)`);
console.log(`  inflate data alone (floor): ${times.inflateOnly.toFixed(1)} ms`);
console.log(`  readMap, fully decoded:     ${times.readMap.toFixed(1)} ms  ratio ${(times.readMap / times.inflateOnly).toFixed(2)}x floor`);
console.log(`  CPU time (all threads):     floor ${cpu.inflateOnly.toFixed(1)} ms, readMap ${cpu.readMap.toFixed(1)} ms  ratio ${(cpu.readMap / cpu.inflateOnly).toFixed(2)}x floor`);
report('map', 'readMap, fully decoded', times.readMap / times.inflateOnly, '<=1.15', 'floor: inflate the data alone');
report('map', 'readMap, fully decoded, CPU time', cpu.readMap / cpu.inflateOnly, '<=1.15', 'CPU time of all threads (GC helpers too), steadier under load');
