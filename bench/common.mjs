// Shared helpers for the bench scripts: corpus discovery and a noise-tolerant timer. Benchmarks print
// ratios against a floor measured in the same run, never absolute thresholds (machines here are noisy).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const corpusDir = resolve(process.env.TWCODEC_CORPUS ?? join(repoRoot, '..', 'shared', 'corpus'));

export function listFiles(dir, ext) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? listFiles(path, ext) : name.endsWith(ext) ? [path] : [];
    })
    .sort();
}

export function readBytes(path) {
  const buf = readFileSync(path);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** Runs fn `rounds` times after a warm-up and returns the fastest time in ms (the least disturbed run). */
export function fastest(fn, rounds = 7) {
  fn();
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

/**
 * The measured functions in the order of round `round`: each round starts one further along, so that no
 * function always runs right after the same neighbour (one that leaves much garbage or cold memory behind
 * slows whatever runs next: measured on the maps bench, up to 15% for the same work).
 */
function roundOrder(entries, round) {
  const start = round % entries.length;
  return [...entries.slice(start), ...entries.slice(0, start)];
}

/** Alternates the measured functions so that drift on a shared machine hits them all alike. */
export function compare(fns, rounds = 7) {
  const best = Object.fromEntries(Object.keys(fns).map((k) => [k, Infinity]));
  for (const fn of Object.values(fns)) fn();
  for (let i = 0; i < rounds; i++) {
    for (const [name, fn] of roundOrder(Object.entries(fns), i)) {
      const t = performance.now();
      fn();
      best[name] = Math.min(best[name], performance.now() - t);
    }
  }
  return best;
}

/**
 * compare() that also keeps each function's least CPU time (user + system of the whole process, so the
 * garbage collector's helper threads count). On a machine shared with other jobs, wall time mostly measures
 * waiting for a core; CPU time measures the work, and its ratios vary much less between runs.
 */
export function compareWithCpu(fns, rounds = 7) {
  const wall = Object.fromEntries(Object.keys(fns).map((k) => [k, Infinity]));
  const cpu = { ...wall };
  for (const fn of Object.values(fns)) fn();
  for (let i = 0; i < rounds; i++) {
    for (const [name, fn] of roundOrder(Object.entries(fns), i)) {
      const c = process.cpuUsage();
      const t = performance.now();
      fn();
      wall[name] = Math.min(wall[name], performance.now() - t);
      const used = process.cpuUsage(c);
      cpu[name] = Math.min(cpu[name], (used.user + used.system) / 1000);
    }
  }
  return { wall, cpu };
}

export const mb = (bytes) => (bytes / 1e6).toFixed(1);

/**
 * Records one bench row for `npm run bench`'s summary: a measure, its ratio to the floor of the same run and
 * the target ratio (if the project has one). The row goes to stdout as a `BENCH {json}` line; the process's
 * peak memory (max RSS) is added when the bench exits.
 */
export function report(bench, measure, ratio, target, note = '') {
  console.log(`BENCH ${JSON.stringify({ bench, measure, ratio: Number(ratio.toFixed(ratio < 0.1 ? 3 : 2)), target, note })}`);
}
let childPeakRssMb = 0;
/** A bench that measures in processes of its own gives their peak here; its summary shows the larger one. */
export function notePeakRss(mb) {
  childPeakRssMb = Math.max(childPeakRssMb, mb);
}
process.on('exit', () => {
  const own = process.resourceUsage().maxRSS / 1024;
  console.log(`BENCH ${JSON.stringify({ peakRssMb: Number(Math.max(own, childPeakRssMb).toFixed(0)) })}`);
});

/**
 * The environment of the processes a bench times: this one's, less NODE_EXTRA_CA_CERTS. With it set, every Node
 * process parses that CA bundle before it runs any code (about 40 ms of CPU for Debian's ca-certificates.crt,
 * measured with perf: node::crypto::UseExtraCaCerts; under callgrind `node -e 0` ran 520 M instructions with it,
 * 104 M without, on the machine of issue 41), a cost of the machine's set-up that no twcodec command needs (none makes a TLS connection) and a user
 * rarely has set. It is the same on both sides of a ratio above `node -e 0`, but adds its noise to each side.
 * BENCH_KEEP_ENV=1 keeps it; `benchEnvNote` says which, for a bench's first lines.
 */
export const benchEnv = { ...process.env };
const keepEnv = process.env.BENCH_KEEP_ENV === '1';
if (!keepEnv) delete benchEnv.NODE_EXTRA_CA_CERTS;
export const benchEnvNote = process.env.NODE_EXTRA_CA_CERTS
  ? `NODE_EXTRA_CA_CERTS is set here: the timed processes run ${keepEnv ? 'with it (BENCH_KEEP_ENV=1)' : 'without it (BENCH_KEEP_ENV=1 keeps it)'}`
  : undefined;

/**
 * CPU ms (user + system) of running `argv` as a child process, its output dropped, read from bash's `times`
 * (getrusage of the waited-for children: the whole process, all its threads). Throws unless it exits with one
 * of `okStatus`.
 */
export function childCpuMs(argv, options = {}) {
  return childTimesMs(argv, options).cpu;
}

/** Whether childTimesMs has said in this run that the CPU accounting is off (it says so once). */
let accountingOffSaid = false;

/**
 * childCpuMs's CPU ms and the run's wall ms (bash's $EPOCHREALTIME around it): CPU counts V8's compiler and GC
 * threads too, wall only what they hold the run up (on a machine with a core to spare for them). The child runs
 * in `env`, by default benchEnv.
 */
export function childTimesMs(argv, { cwd, env = benchEnv, okStatus = [0] } = {}) {
  const script = 'a=$EPOCHREALTIME; "$@" >/dev/null 2>&1; s=$?; b=$EPOCHREALTIME; echo "$a $b"; times; exit $s';
  const run = spawnSync('bash', ['-c', script, 'bash', ...argv], { cwd, env, encoding: 'utf8' });
  if (!okStatus.includes(run.status)) throw new Error(`${argv.join(' ')}: exit ${run.status}`);
  const lines = run.stdout.trim().split('\n');
  // `times` prints the shell's own times, then its children's: "0m0.052s 0m0.012s".
  const children = lines.at(-1);
  const [user, sys] = children.split(' ').map((t) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t);
    if (!m) throw new Error(`cannot read times output: ${children}`);
    return (Number(m[1]) * 60 + Number(m[2])) * 1000;
  });
  const [start, end] = lines.at(-3).split(' ').map(Number);
  const times = { cpu: user + sys, wall: (end - start) * 1000 };
  // More CPU time than the cores give in the wall time is the accounting gone wrong, not time spent: on a 2-core VM
  // some runs gave `node -e 0` 176 to 248 ms of CPU in 77 to 92 ms of wall time, and every process about as much
  // more (issue 41, 2026-11-27). Said once a run: its CPU figures are void, its wall figures stand.
  if (!accountingOffSaid && times.cpu > availableParallelism() * times.wall + 10) {
    accountingOffSaid = true;
    console.log(`  (CPU accounting off in this run: ${argv.map((a) => basename(a)).join(' ')} took ${times.cpu.toFixed(0)} ms of CPU in ${times.wall.toFixed(0)} ms of wall time, more than ${availableParallelism()} cores give; this run's CPU figures are void, its wall figures stand)`);
  }
  return times;
}
