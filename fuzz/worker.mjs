// One fuzzing process for one target: mutates inputs from its pool, runs them with V8 block coverage, keeps
// inputs that reach new code, reports findings. Started by fuzz/run.mjs, which enforces time and memory.
//
// A worker lives for a few minutes only (--recycle seconds): a long-lived process accumulates memory of its own
// (coverage bookkeeping, compiled code, a fragmented heap) until its RSS says nothing about the input it is
// running. It then saves its pool and the coverage reached in <findings>/<target>/.state and exits; the next
// worker goes on from there, with a fresh baseline.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { CodecError } from '@twcodec/datafile';
import { mutate, prng } from './mutate.mjs';
import { seedsFor } from './seeds.mjs';
import { TARGETS } from './targets.mjs';

const [target, seedText, deadlineText, findingsDir, maxRssText, runsText, recycleText] = process.argv.slice(2);
const runs = Number(runsText) || Infinity;
const run = TARGETS[target];
const rng = prng(Number(seedText));
const started = Date.now();
// The worker stops at the run's deadline or when its lifetime is over, whichever comes first.
const recycleAt = Number(recycleText) > 0 ? started + Number(recycleText) * 1000 : Infinity;
const deadline = Math.min(Number(deadlineText), recycleAt);
let retire = false;
const recycled = () => (retire || Date.now() >= recycleAt) && Date.now() < Number(deadlineText) - 500;
const maxRss = Number(maxRssText) * 1024 * 1024;
const dir = join(findingsDir, target);
mkdirSync(dir, { recursive: true });
const currentPath = join(dir, '.current');

// Block coverage of the twcodec packages only; takePreciseCoverage also resets the counters.
const session = new Session();
session.connect();
const post = (method, params) => {
  let out;
  session.post(method, params, (err, res) => {
    if (err) throw err;
    out = res;
  });
  return out;
};
post('Profiler.enable');
post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
// Blocks are keyed by file URL and offsets, so that coverage carries over from one worker to the next.
const covered = new Set();
const ours = new Map(); // scriptId -> the file's URL when it is a twcodec package file, or null
function newCoverage() {
  let fresh = 0;
  for (const script of post('Profiler.takePreciseCoverage').result) {
    let mine = ours.get(script.scriptId);
    if (mine === undefined) ours.set(script.scriptId, (mine = /\/packages\/[^/]+\/dist\//.test(script.url) ? script.url : null));
    if (mine === null) continue;
    for (const fn of script.functions) {
      for (const range of fn.ranges) {
        if (range.count === 0) continue;
        const key = `${mine}:${range.startOffset}:${range.endOffset}`;
        if (!covered.has(key)) {
          covered.add(key);
          fresh++;
        }
      }
    }
  }
  return fresh;
}

const seeds = seedsFor(target);
const pool = [...seeds];
// Targets that take maps (a `structured` property) get the container-aware mutations too.
// What a target's output costs by design on any input (a render's canvas), allowed on top of the memory rise.
const outputAllowance = (run.outputMb ?? 0) * 1048576;
const structured = target === 'datafile' || target === 'map' || run.structured === true;
let inputs = 0;
let findings = 0;
let poolBytes = 0;

// State left by the previous worker of this run: its pool beyond the seeds, and the coverage it reached.
const stateDir = join(dir, '.state');
const statePool = join(stateDir, 'pool.bin');
const stateCovered = join(stateDir, 'covered.json');
let resumed = false;
if (existsSync(stateCovered) && existsSync(statePool)) {
  for (const key of JSON.parse(readFileSync(stateCovered, 'utf8'))) covered.add(key);
  const packed = new Uint8Array(readFileSync(statePool));
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  for (let at = 0; at + 4 <= packed.length; ) {
    const length = view.getUint32(at, true);
    const input = packed.slice(at + 4, at + 4 + length);
    pool.push(input);
    poolBytes += input.length;
    at += 4 + length;
  }
  resumed = true;
}

function saveState() {
  mkdirSync(stateDir, { recursive: true });
  const extra = pool.slice(seeds.length);
  const packed = new Uint8Array(extra.reduce((n, input) => n + 4 + input.length, 0));
  const view = new DataView(packed.buffer);
  let at = 0;
  for (const input of extra) {
    view.setUint32(at, input.length, true);
    packed.set(input, at + 4);
    at += 4 + input.length;
  }
  writeFileSync(statePool, packed);
  writeFileSync(stateCovered, JSON.stringify([...covered]));
}
let peakBefore = process.resourceUsage().maxRSS * 1024;
const seen = new Set();

function save(kind, input, error) {
  const hash = createHash('sha1').update(input).digest('hex').slice(0, 12);
  const key = kind === 'memory' ? kind : `${kind}:${error?.constructor?.name}:${String(error?.message).slice(0, 80)}`;
  if (seen.has(key)) return; // one saved input per distinct finding
  seen.add(key);
  findings++;
  const base = join(dir, `${kind}-${hash}`);
  writeFileSync(`${base}.bin`, input);
  writeFileSync(`${base}.txt`, `${kind} in target ${target}\n${error?.stack ?? error}\n`);
  process.send?.({ finding: { kind, file: `${base}.bin`, message: String(error?.message ?? error).slice(0, 200) } });
}

let lastBeat = 0;
function beat() {
  const now = Date.now();
  if (now - lastBeat < 200) return;
  lastBeat = now;
  process.send?.({ beat: inputs });
}

// The first worker of a run runs the seeds first, as they are; then (and in later workers) mutations of the pool.
const firstMutation = resumed ? 0 : seeds.length;
for (let i = 0; i < runs && Date.now() < deadline && !retire; i++) {
  let input = i < firstMutation ? seeds[i] : mutate(rng, rng.pick(pool), rng.pick(pool), structured);
  // A target's own mutation (the tile text's run tokens for map-pack), for half of the mutated inputs.
  if (i >= firstMutation && run.mutate && rng() < 0.5) input = run.mutate(rng, input);
  writeFileSync(currentPath, input);
  beat();
  try {
    await run(input);
  } catch (e) {
    if (!(e instanceof CodecError)) save(e?.constructor?.name === 'PropertyViolation' ? 'property' : 'crash', input, e);
  }
  inputs++;
  if (newCoverage() > 0 && i >= firstMutation) {
    // The pool is bounded in bytes too, so that the worker's own memory stays small beside what inputs cost.
    if (pool.length < 400 && poolBytes + input.length < 48 * 1024 * 1024) {
      pool.push(input);
      poolBytes += input.length;
    } else {
      const at = seeds.length + rng.int(Math.max(1, pool.length - seeds.length));
      if (at < pool.length && poolBytes - pool[at].length + input.length < 48 * 1024 * 1024) {
        poolBytes += input.length - pool[at].length;
        pool[at] = input;
      }
    }
  }
  // Inflated images and tiles live outside the JS heap and are freed late: a full collection now and then
  // keeps the RSS a measure of what inputs need, not of garbage.
  if (inputs % 64 === 0) {
    globalThis.gc?.();
    // Memory the allocator keeps after collections counts in the RSS too: a worker that holds half the limit
    // after a full collection hands over to a fresh one rather than judge inputs against its own growth.
    if (recycleAt !== Infinity && process.memoryUsage.rss() > maxRss / 2) retire = true;
  }
  // The process's peak RSS only grows: an input that raises it by more than a quarter of the limit allocated
  // far beyond what any input here needs; a peak over the limit is reported once. run.mjs replays such an
  // input in a fresh process before it counts as a finding.
  const peak = process.resourceUsage().maxRSS * 1024;
  if (peak - peakBefore > maxRss / 4 + outputAllowance || (peak > maxRss && peakBefore <= maxRss)) {
    save('memory', input, new Error(`peak RSS rose from ${Math.round(peakBefore / 1048576)} to ${Math.round(peak / 1048576)} MB on this input`));
  }
  peakBefore = peak;
}
session.disconnect();
saveState();
process.send?.({
  done: {
    inputs,
    findings,
    pool: pool.length,
    seeds: seeds.length,
    blocks: covered.size,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    recycled: recycled(),
  },
}, () => process.exit(0));
