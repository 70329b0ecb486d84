// One fuzzing process for one target: mutates inputs from its pool, runs them with V8 block coverage, keeps
// inputs that reach new code, reports findings. Started by fuzz/run.mjs, which enforces time and memory.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { CodecError } from '@twcodec/datafile';
import { mutate, prng } from './mutate.mjs';
import { seedsFor } from './seeds.mjs';
import { TARGETS } from './targets.mjs';

const [target, seedText, deadlineText, findingsDir, maxRssText, runsText] = process.argv.slice(2);
const runs = Number(runsText) || Infinity;
const run = TARGETS[target];
const rng = prng(Number(seedText));
const deadline = Number(deadlineText);
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
const covered = new Set();
const ours = new Map(); // scriptId -> whether it is a twcodec package file
function newCoverage() {
  let fresh = 0;
  for (const script of post('Profiler.takePreciseCoverage').result) {
    let mine = ours.get(script.scriptId);
    if (mine === undefined) ours.set(script.scriptId, (mine = /\/packages\/[^/]+\/dist\//.test(script.url)));
    if (!mine) continue;
    for (const fn of script.functions) {
      for (const range of fn.ranges) {
        if (range.count === 0) continue;
        const key = `${script.scriptId}:${range.startOffset}:${range.endOffset}`;
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
const structured = target === 'datafile' || target === 'map';
let inputs = 0;
let findings = 0;
let poolBytes = 0;
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

// The seeds run first, as they are, then mutations of the pool.
for (let i = 0; i < runs && Date.now() < deadline; i++) {
  const input = i < seeds.length ? seeds[i] : mutate(rng, rng.pick(pool), rng.pick(pool), structured);
  writeFileSync(currentPath, input);
  beat();
  try {
    await run(input);
  } catch (e) {
    if (!(e instanceof CodecError)) save(e?.constructor?.name === 'PropertyViolation' ? 'property' : 'crash', input, e);
  }
  inputs++;
  if (newCoverage() > 0 && i >= seeds.length) {
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
  if (inputs % 64 === 0) globalThis.gc?.();
  // The process's peak RSS only grows: an input that raises it by more than a quarter of the limit allocated
  // far beyond what any input here needs; a peak over the limit is reported once.
  const peak = process.resourceUsage().maxRSS * 1024;
  if (peak - peakBefore > maxRss / 4 || (peak > maxRss && peakBefore <= maxRss)) {
    save('memory', input, new Error(`peak RSS rose from ${Math.round(peakBefore / 1048576)} to ${Math.round(peak / 1048576)} MB on this input`));
  }
  peakBefore = peak;
}
session.disconnect();
process.send?.({
  done: { inputs, findings, pool: pool.length, seeds: seeds.length, blocks: covered.size, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) },
}, () => process.exit(0));
