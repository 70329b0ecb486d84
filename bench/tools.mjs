// The twcodec CLI against DDNet's own tools (issue 28): whole processes, Node's start-up included, as a user
// runs them. For the median-size map of the corpus, the one nearest 0.5 MB (the issue's community median) and
// the largest (else the fixtures'):
//   twcodec map resave --ddnet   vs  map_resave
//   twcodec map extract          vs  map_extract
//   twcodec map convert --to 0.7 vs  map_convert_07
//   twcodec map diff             vs  map_diff (the map against DDNet 16.4's resave of it, else our resave)
// and `twcodec map info` of every corpus map --jobs 2 against a loop of map_find_env (the DDNet tool that only
// opens a map and reads its items), as maps per CPU second and peak memory (max RSS over the processes).
// Floors: `node -e 0` (bare Node start-up) against map_resave's whole run, and `twcodec --version` against
// loading the `teeworlds` npm library (another Node package for Teeworlds; a dev dependency of the bench only).
//
// Start-up rows (issue 41), for the median map and the one nearest 0.5 MB: every map command's CPU time above
// bare Node's start-up against the DDNet tool's whole run, `(twcodec - node -e 0) / DDNet`, target <= 2.0,
// with `node -e 0` as a third side of the same alternating rounds. The pairs: map resave --ddnet / map_resave,
// map extract / map_extract, map convert --to 0.7 / map_convert_07, map diff / map_diff; map info, map validate
// and map fix, which DDNet has no tool for, against map_resave (the DDNet tool that loads the whole map: every
// item, every data item inflated, and writes it). The resave, extract, convert and diff rows of these maps come
// from the same rounds as their `twcodec / DDNet` rows (issue 28, target <= 1.0). TOOLS_BENCH_ONLY=start-up runs
// only these two maps' rows.
//
// Each measure is the CPU time (user + system) of the child processes, taken by bash's `times` (getrusage of
// the waited-for children, microseconds), the median of TOOLS_BENCH_ROUNDS (default 9) alternating rounds: on a
// machine shared with other jobs wall time mostly measures waiting for a core. Ratios: twcodec / DDNet, target
// <= 1.0. Without Debian's ddnet-tools (/usr/lib/x86_64-linux-gnu/ddnet, or TWCODEC_DDNET_TOOLS) the DDNet
// column is skipped and the rows say so.
// Run: npm run bench:tools
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { benchEnv, benchEnvNote, childCpuMs, corpusDir, listFiles, notePeakRss, report, repoRoot } from './common.mjs';

const ROUNDS = Number(process.env.TOOLS_BENCH_ROUNDS ?? 9);
// TOOLS_BENCH_ONLY=start-up: only the rows of the median and the 0.5 MB map (with the start-up rows of issue 41).
const onlyStartUp = process.env.TOOLS_BENCH_ONLY === 'start-up';
const toolsDir = process.env.TWCODEC_DDNET_TOOLS ?? '/usr/lib/x86_64-linux-gnu/ddnet';
const ddnet = (name) => join(toolsDir, name);
const haveDdnet = existsSync(ddnet('map_resave'));
const twcodecBin = join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs');
const haveBash = spawnSync('bash', ['-c', 'true']).status === 0;
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
if (!haveBash) {
  console.log('tools bench: needs bash (its `times` gives the CPU time of child processes); skipped');
  process.exit(0);
}

// Maps: the corpus's, else the fixtures'. The resaved copies for map diff sit at the same relative path.
let mapsDir = join(corpusDir, 'maps');
let resavedDir = join(corpusDir, 'maps-resaved-ddnet-16.4');
let maps = listFiles(mapsDir, '.map');
if (!maps.length) {
  mapsDir = join(repoRoot, 'fixtures', 'maps');
  resavedDir = join(repoRoot, 'fixtures', 'maps-resaved');
  maps = listFiles(mapsDir, '.map');
}
const bySize = [...maps].sort((a, b) => statSync(a).size - statSync(b).size || a.localeCompare(b));
const median = bySize[Math.floor((bySize.length - 1) / 2)];
const largest = bySize.at(-1);
// The issue's own table measured community maps whose median was 0.5 MB; the corpus map nearest that size is
// measured too (a third set of rows), beside the corpus's median (12 KB, where Node's start-up dominates).
const HALF_MB = 512 * 1024;
const nearHalfMb = [...bySize].sort((a, b) => Math.abs(statSync(a).size - HALF_MB) - Math.abs(statSync(b).size - HALF_MB))[0];

// DDNet's tools write their output (map_resave, map_convert_07's default) under $HOME/.local/share/ddnet and
// some write beside the working directory (map_diff): a temporary HOME and working directory, removed at the end.
const work = mkdtempSync(join(tmpdir(), 'twcodec-tools-bench-'));
const home = join(work, 'home');
const saveDir = join(home, '.local', 'share', 'ddnet');
mkdirSync(saveDir, { recursive: true });
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const env = { ...benchEnv, HOME: home, XDG_DATA_HOME: join(home, '.local', 'share') };

const cpuOf = (argv, okStatus = [0]) => childCpuMs(argv, { cwd: work, env, okStatus });

/** Peak RSS in MB of running `argv` (GNU time's %M, the largest resident set of the process), or undefined without /usr/bin/time. */
function peakRssOf(argv, okStatus = [0]) {
  if (!gnuTime) return undefined;
  const out = join(work, 'time.txt');
  const run = spawnSync(gnuTime, ['-f', '%M', '-o', out, ...argv], { cwd: work, env, stdio: 'ignore' });
  if (!okStatus.includes(run.status)) throw new Error(`${argv.join(' ')}: exit ${run.status}`);
  return Number(spawnSync('cat', [out], { encoding: 'utf8' }).stdout.trim().split('\n').at(-1)) / 1024;
}

const medianOf = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * The median CPU ms of each side over ROUNDS alternating rounds (the order swaps each round, so that neither
 * always runs right after the other). A side is a function that runs its processes and returns their CPU ms.
 */
function alternate(sides) {
  const names = Object.keys(sides).filter((n) => sides[n]);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) sides[n](); // warm the page cache and the tools' first start
  for (let i = 0; i < ROUNDS; i++) {
    const order = i % 2 ? [...names].reverse() : names;
    for (const n of order) times[n].push(sides[n]());
  }
  return Object.fromEntries(names.map((n) => [n, medianOf(times[n])]));
}

const ms = (v) => `${v.toFixed(0)} ms`;
const twcodec = (...args) => [process.execPath, twcodecBin, ...args];
const label = (path) => `${relative(mapsDir, path)} (${(statSync(path).size / 1e6).toFixed(2)} MB)`;

const bareNode = () => cpuOf([process.execPath, '-e', '0']);

/**
 * One row: twcodec's side against DDNet's, as a ratio of CPU times (target <= 1.0, but for a floor). With
 * `startUp` (the row's name), bare Node's start-up runs as a third side of the same rounds and a second row
 * gives twcodec's CPU time above it against DDNet's (issue 41, target <= 2.0); `startUpOnly`: only that row.
 */
function row(measure, ours, theirs, { floor = false, startUp, startUpOnly = false } = {}) {
  const target = floor ? undefined : '<=1.0';
  const t = alternate({ ours, theirs: haveDdnet ? theirs : undefined, bare: startUp ? bareNode : undefined });
  if (t.theirs === undefined) {
    // No ratio (the summary prints -): the DDNet column is skipped, twcodec's own figure is in the note.
    report('tools', startUpOnly ? startUp : measure, NaN, undefined, `DDNet tools absent (${toolsDir}): twcodec ${ms(t.ours)} CPU, no ratio`);
    return;
  }
  if (!startUpOnly) report('tools', measure, t.ours / t.theirs, target, `twcodec ${ms(t.ours)}, DDNet ${ms(t.theirs)} CPU`);
  if (startUp) report('tools', startUp, (t.ours - t.bare) / t.theirs, '<=2.0', `twcodec ${ms(t.ours)} - node -e 0 ${ms(t.bare)} = ${ms(t.ours - t.bare)}, DDNet ${ms(t.theirs)} CPU`);
}

console.log(`maps: ${maps.length} in ${mapsDir}; median ${label(median)}, nearest 0.5 MB ${label(nearHalfMb)}, largest ${label(largest)}; ${ROUNDS} rounds, medians of CPU time`);
console.log(`DDNet tools: ${haveDdnet ? toolsDir : 'absent, DDNet columns skipped'}; Node ${process.versions.node}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
if (benchEnvNote) console.log(benchEnvNote);

// The floors.
if (!onlyStartUp) row('floor: node -e 0 vs map_resave (median map)', () => cpuOf([process.execPath, '-e', '0']), () => cpuOf([ddnet('map_resave'), median, 'floor.map']), { floor: true });
if (!onlyStartUp) {
  const teeworldsLibrary = createRequire(import.meta.url).resolve('teeworlds');
  const t = alternate({ ours: () => cpuOf(twcodec('--version')), library: () => cpuOf([process.execPath, '-e', `require(${JSON.stringify(teeworldsLibrary)})`]) });
  report('tools', "twcodec --version vs loading the teeworlds npm library", t.ours / t.library, undefined, `twcodec ${ms(t.ours)}, node -e "require('teeworlds')" ${ms(t.library)} CPU`);
}

for (const [which, map] of [
  ['median', median],
  ['0.5 MB', nearHalfMb],
  ['largest', largest],
].filter(([which, map], i, all) => all.findIndex(([, m]) => m === map) === i && !(onlyStartUp && which === 'largest'))) {
  const out = join(work, 'out.map');
  const extractDir = join(work, 'extract');
  // map_extract wants an existing directory; ours makes it.
  const fresh = (dir) => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
  };
  // DDNet 16.4's resave of the map, else ours (map diff then compares two maps that differ in layout only).
  let resaved = join(resavedDir, relative(mapsDir, map));
  if (!existsSync(resaved)) {
    resaved = join(work, 'resaved.map');
    cpuOf(twcodec('map', 'resave', '--ddnet', map, resaved));
  }
  // Start-up rows (issue 41) on the median map and the 0.5 MB one; the largest map is about the work, not start-up.
  const startUp = (command, tool) => (which === 'largest' ? undefined : `start-up ${which}: (${command} - node -e 0) / ${tool}`);
  const mapResave = () => cpuOf([ddnet('map_resave'), map, 'out.map']);
  row(`${which}: map resave --ddnet vs map_resave`, () => cpuOf(twcodec('map', 'resave', '--ddnet', map, out)), mapResave, { startUp: startUp('map resave --ddnet', 'map_resave') });
  row(
    `${which}: map extract vs map_extract`,
    () => (fresh(extractDir), cpuOf(twcodec('map', 'extract', map, extractDir))),
    () => (fresh(extractDir), cpuOf([ddnet('map_extract'), map, extractDir])),
    { startUp: startUp('map extract', 'map_extract') },
  );
  // Exit 1: a tile layer 0.7 cannot draw (both tools write the map and say so).
  row(`${which}: map convert --to 0.7 vs map_convert_07`, () => cpuOf(twcodec('map', 'convert', '--to', '0.7', map, out), [0, 1]), () => cpuOf([ddnet('map_convert_07'), map, out], [0, 1]), { startUp: startUp('map convert --to 0.7', 'map_convert_07') });
  // Exit 1: the maps differ.
  row(`${which}: map diff vs map_diff`, () => cpuOf(twcodec('map', 'diff', map, resaved), [0, 1]), () => cpuOf([ddnet('map_diff'), map, resaved], [0, 1]), { startUp: startUp('map diff', 'map_diff') });
  if (which !== 'largest') {
    // DDNet has no tool for these: against map_resave. Exit 1: validate found errors, fix left some.
    row('', () => cpuOf(twcodec('map', 'info', map)), mapResave, { startUp: startUp('map info', 'map_resave'), startUpOnly: true });
    row('', () => cpuOf(twcodec('map', 'validate', map), [0, 1]), mapResave, { startUp: startUp('map validate', 'map_resave'), startUpOnly: true });
    row('', () => cpuOf(twcodec('map', 'fix', map, out), [0, 1]), mapResave, { startUp: startUp('map fix', 'map_resave'), startUpOnly: true });
  }
}

// Batch: every corpus map. DDNet has no batch tool; map_find_env opens a map and reads every item (it looks for
// the quads and sounds that use an envelope), the least a DDNet tool does per map.
if (!onlyStartUp) {
  const ours = () => cpuOf(twcodec('map', 'info', '--jobs', '2', ...maps), [0, 1]);
  const theirs = () => maps.reduce((sum, map) => sum + cpuOf([ddnet('map_find_env'), map, '0'], [0, 1]), 0);
  const t = alternate({ ours, theirs: haveDdnet ? theirs : undefined });
  const rate = (cpu) => `${(maps.length / (cpu / 1000)).toFixed(1)} maps/s`;
  if (t.theirs === undefined) report('tools', `batch map info --jobs 2 (${maps.length} maps)`, NaN, undefined, `DDNet tools absent: twcodec ${rate(t.ours)} of CPU`);
  else report('tools', `batch map info --jobs 2 (${maps.length} maps) vs map_find_env loop`, t.ours / t.theirs, '<=1.0', `CPU time; twcodec ${rate(t.ours)}, DDNet ${rate(t.theirs)}`);
  const ourPeak = peakRssOf(twcodec('map', 'info', '--jobs', '2', ...maps), [0, 1]);
  const theirPeak = haveDdnet && gnuTime ? Math.max(...maps.map((map) => peakRssOf([ddnet('map_find_env'), map, '0'], [0, 1]))) : undefined;
  if (ourPeak === undefined) console.log('no /usr/bin/time: peak memory not measured');
  else {
    notePeakRss(ourPeak); // the summary's peak column: the largest twcodec process this bench ran
    report('tools', 'batch map info --jobs 2: peak RSS / 150 MB', ourPeak / 150, '<=1.0', `twcodec ${ourPeak.toFixed(0)} MB${theirPeak === undefined ? '' : `, DDNet ${theirPeak.toFixed(1)} MB (max over its processes)`}`);
  }
}
