// Time to read every corpus map fully with @twcodec/map (all items decoded, all data inflated, all layers
// decoded: tiles viewed in place, 0.7 tiles expanded, quads and sources decoded), as a ratio to inflating
// the same maps' data items with node:zlib. Run: npm run bench:map
//
// Two floors. The target's floor inflates every data item and keeps a map's inflated data until the map is
// done, as any fully decoded map must (a model owns its images and tiles: Tutorial.map holds 130 MB). The
// other drops each inflated item at once: its buffers die young and the allocator hands the same warm memory
// back, which no reader that keeps the data can do; it is printed for comparison (about 1.3x to 1.6x faster
// than the keeping floor here).
import { inflateSync } from 'node:zlib';
import { join } from 'node:path';
import { Datafile } from '@twcodec/datafile';
import { readMap } from '@twcodec/map';
import { compareWithCpu, report, corpusDir, listFiles, mb, readBytes, repoRoot } from './common.mjs';

let files = listFiles(join(corpusDir, 'maps'), '.map');
const source = files.length ? 'corpus' : 'fixtures';
if (!files.length) files = listFiles(join(repoRoot, 'fixtures', 'maps'), '.map');
const maps = files.map(readBytes);
const streamsPerMap = maps.map((bytes) => Datafile.read(bytes).data.map((d) => [d.stored, d.size]));
const streams = streamsPerMap.flat();
const dataBytes = streams.reduce((s, [, size]) => s + size, 0);

let layers = 0;
const { wall: times, cpu } = compareWithCpu({
  inflateOnly() {
    for (const [stored, size] of streams) inflateSync(stored, { chunkSize: Math.max(64, size + 1) });
  },
  inflateKept() {
    for (const perMap of streamsPerMap) {
      const kept = [];
      for (const [stored, size] of perMap) kept.push(inflateSync(stored, { chunkSize: Math.max(64, size + 1) }));
      if (kept.length !== perMap.length) throw new Error('unreachable: keeps the buffers alive until here');
    }
  },
  readMap() {
    layers = 0;
    for (const bytes of maps) {
      const map = readMap(bytes);
      for (const g of map.groups) layers += g.layers.length;
    }
  },
}, 15);

console.log(`map read on ${maps.length} ${source} maps (${layers} layers, ${mb(dataBytes)} MB inflated data)`);
console.log(`  inflate, keeping each map's data (floor): ${times.inflateKept.toFixed(1)} ms`);
console.log(`  inflate, dropping each item at once:      ${times.inflateOnly.toFixed(1)} ms  ${(times.inflateKept / times.inflateOnly).toFixed(2)}x faster than the floor`);
console.log(`  readMap, fully decoded:                   ${times.readMap.toFixed(1)} ms  ratio ${(times.readMap / times.inflateKept).toFixed(2)}x floor, ${(times.readMap / times.inflateOnly).toFixed(2)}x inflate-and-drop`);
console.log(`  CPU time (all threads):                   floor ${cpu.inflateKept.toFixed(1)} ms, readMap ${cpu.readMap.toFixed(1)} ms  ratio ${(cpu.readMap / cpu.inflateKept).toFixed(2)}x floor`);
report('map', 'readMap, fully decoded', times.readMap / times.inflateKept, '<=1.15', `floor: inflate, keeping each map's data; ${(times.readMap / times.inflateOnly).toFixed(2)}x inflate-and-drop`);
report('map', 'readMap, fully decoded, CPU time', cpu.readMap / cpu.inflateKept, '<=1.15', 'CPU time of all threads (GC helpers too), steadier under load');
