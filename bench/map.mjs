// Time to read every corpus map fully with @twcodec/map (all items decoded, all data inflated, all layers
// decoded: tiles viewed in place, 0.7 tiles expanded, quads and sources decoded), as a ratio to inflating
// the same maps' data items with node:zlib. Run: npm run bench:map
//
// Two floors. The target's floor inflates every data item and keeps a map's inflated data until the map is
// done, as any fully decoded map must (a model owns its images and tiles: Tutorial.map holds 130 MB). The
// other drops each inflated item at once: its buffers die young and the allocator hands the same warm memory
// back, which no reader that keeps the data can do; it is printed for comparison. readMap's measure likewise
// holds one map (its model) at a time: see readOne.
//
// Each of the three is timed in processes of its own (four each, taken in turn; the least time counts), not
// side by side in one process: there each paid for the garbage the one before it left (up to 130 MB of dead
// buffers collected during the next one's run), which moved readMap's ratio between 1.02x and 1.17x with
// the order and the company of the other functions (measured on the corpus, Node 20, 2026-11-23). In a
// process of its own, each pays for its own memory only. MAP_BENCH_PROCESSES (4) and MAP_BENCH_ROUNDS (8,
// after one warm-up) change how many.
import { spawnSync } from 'node:child_process';
import { inflateSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Datafile } from '@twcodec/datafile';
import { readMap } from '@twcodec/map';
import { compareWithCpu, report, corpusDir, listFiles, mb, notePeakRss, readBytes, repoRoot } from './common.mjs';

// Every corpus map: maps/ (ddnet, ddnet07, tw07) and the same maps resaved by DDNet 16.4's map_resave.
const corpusSets = ['maps', 'maps-resaved-ddnet-16.4'];
let files = corpusSets.flatMap((set) => listFiles(join(corpusDir, set), '.map'));
const source = files.length ? `corpus (${corpusSets.map((set) => `${listFiles(join(corpusDir, set), '.map').length} in ${set}`).join(', ')})` : 'fixtures';
if (!files.length) files = listFiles(join(repoRoot, 'fixtures', 'maps'), '.map');

const measures = ['inflateOnly', 'inflateKept', 'readMap'];
const only = process.argv[2];

if (only) {
  // A child: time one function, print its least wall and CPU time and this process's peak RSS.
  const maps = files.map(readBytes);
  const streamsPerMap = maps.map((bytes) => Datafile.read(bytes).data.map((d) => [d.stored, d.size]));
  let layers = 0;
  // One map read in a frame of its own. The floor lets go of a map's data before it inflates the next (its
  // `kept` is a new array first); so does this. The loop held the previous model before: `const map =
  // readMap(bytes)` and the iterator of `for (const g of map.groups)` stayed in the loop's interpreter
  // registers until the next readMap returned (until V8 optimised the loop, sooner or later by the run), so
  // two maps' models and data were alive at once, and every collection the next map's buffers forced copied
  // or marked the previous model (issue 41, sixth pass).
  const readOne = (bytes) => {
    const map = readMap(bytes);
    let count = 0;
    for (const g of map.groups) count += g.layers.length;
    return count;
  };
  const fns = {
    inflateOnly() {
      for (const perMap of streamsPerMap) for (const [stored, size] of perMap) inflateSync(stored, { chunkSize: Math.max(64, size + 1) });
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
      for (const bytes of maps) layers += readOne(bytes);
    },
  };
  if (!fns[only]) throw new Error(`unknown measure ${only}`);
  const { wall, cpu } = compareWithCpu({ [only]: fns[only] }, Number(process.env.MAP_BENCH_ROUNDS ?? 8));
  console.log(JSON.stringify({ wall: wall[only], cpu: cpu[only], layers, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

const dataBytes = files.reduce((sum, path) => sum + Datafile.read(readBytes(path)).data.reduce((s, d) => s + d.size, 0), 0);
const best = Object.fromEntries(measures.map((m) => [m, { wall: Infinity, cpu: Infinity, peakRssMb: 0 }]));
let layers = 0;
for (let round = 0; round < Number(process.env.MAP_BENCH_PROCESSES ?? 4); round++) {
  for (const measure of measures) {
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), measure], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TWCODEC_CORPUS: corpusDir } });
    if (run.status !== 0) throw new Error(`bench/map.mjs ${measure} failed (exit ${run.status})`);
    const r = JSON.parse(run.stdout.split('\n').find((line) => line.startsWith('{')));
    const b = best[measure];
    b.wall = Math.min(b.wall, r.wall);
    b.cpu = Math.min(b.cpu, r.cpu);
    b.peakRssMb = Math.max(b.peakRssMb, r.peakRssMb);
    if (measure === 'readMap') layers = r.layers;
  }
}
notePeakRss(best.readMap.peakRssMb);

const { inflateOnly, inflateKept, readMap: read } = best;
console.log(`map read on ${files.length} maps, ${source} (${layers} layers, ${mb(dataBytes)} MB inflated data), each measure in processes of its own`);
console.log(`  inflate, keeping each map's data (floor): ${inflateKept.wall.toFixed(1)} ms`);
console.log(`  inflate, dropping each item at once:      ${inflateOnly.wall.toFixed(1)} ms  ${(inflateKept.wall / inflateOnly.wall).toFixed(2)}x faster than the floor`);
console.log(`  readMap, fully decoded:                   ${read.wall.toFixed(1)} ms  ratio ${(read.wall / inflateKept.wall).toFixed(2)}x floor, ${(read.wall / inflateOnly.wall).toFixed(2)}x inflate-and-drop`);
console.log(`  CPU time (all threads):                   floor ${inflateKept.cpu.toFixed(1)} ms, readMap ${read.cpu.toFixed(1)} ms  ratio ${(read.cpu / inflateKept.cpu).toFixed(2)}x floor`);
console.log(`  peak RSS: floor's process ${inflateKept.peakRssMb.toFixed(0)} MB, readMap's ${read.peakRssMb.toFixed(0)} MB`);
report('map', 'readMap, fully decoded', read.wall / inflateKept.wall, '<=1.10', `floor: inflate, keeping each map's data; ${(read.wall / inflateOnly.wall).toFixed(2)}x inflate-and-drop`);
report('map', 'readMap, fully decoded, CPU time', read.cpu / inflateKept.cpu, '<=1.10', `CPU time of all threads (GC helpers too), steadier under load; ${files.length} maps`);
