// The fuzzer's entry point: runs each target in its own child process with a time limit, a memory limit and
// a per-input timeout, restarts a child that hangs or crashes (keeping the input that did it), and prints what
// it ran and found. Exit code 1 when anything was found.
//
// Workers are replaced every --recycle seconds (they pass on their pool and coverage), and a memory, hang or
// exit finding counts only when the input does it again alone, in a fresh process: a worker that has run for
// half an hour has grown by itself, and its peak RSS no longer measures the input it was on.
//
//   npm run fuzz -- [--minutes N | --seconds N | --runs N [--cli-runs N]] [--target map,teehistorian] [--seed S] [--max-rss MB] [--timeout MS] [--recycle S] [--jobs N]
//   npm run fuzz -- --replay fuzz/findings/map/crash-0123abcd.bin --target map
//
// Findings go to fuzz/findings/<target>/ (not committed): <kind>-<hash>.bin with a .txt beside it.
import { execFile, fork } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = fileURLToPath(new URL('.', import.meta.url));
const USAGE = `usage: npm run fuzz -- [--minutes N | --seconds N | --runs N [--cli-runs N]] [--target NAME,...] [--seed S]
         [--max-rss MB] [--timeout MS] [--recycle S] [--jobs N] [--findings DIR] [--list]
       npm run fuzz -- --replay FILE --target NAME`;
const usage = (problem) => {
  console.error(`${problem ? `fuzz: ${problem}\n` : ''}${USAGE}`);
  process.exit(problem ? 2 : 0);
};
let values;
try {
  ({ values } = parseArgs({
    options: {
      help: { type: 'boolean' },
      list: { type: 'boolean' },
      minutes: { type: 'string' },
      seconds: { type: 'string' },
      runs: { type: 'string' },
      'cli-runs': { type: 'string' },
      target: { type: 'string' },
      seed: { type: 'string', default: String(Date.now() % 1e9) },
      'max-rss': { type: 'string', default: '400' },
      timeout: { type: 'string', default: '10000' },
      recycle: { type: 'string', default: '240' },
      jobs: { type: 'string', default: '1' },
      replay: { type: 'string' },
      findings: { type: 'string', default: join(here, 'findings') },
    },
  }));
} catch (e) {
  usage(e.message);
}
if (values.help) usage();

// Without --target: every target fuzz/targets.mjs has.
const { TARGETS } = await import('./targets.mjs');
const targets = values.target ? values.target.split(',').filter(Boolean) : Object.keys(TARGETS);
if (values.list) {
  console.log(Object.keys(TARGETS).join('\n'));
  process.exit(0);
}
for (const target of targets) if (!TARGETS[target]) usage(`unknown target ${target} (the targets: ${Object.keys(TARGETS).join(', ')})`);

if (values.replay) {
  const buf = readFileSync(values.replay);
  const input = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  try {
    await TARGETS[targets[0]](input);
    console.log(`${values.replay}: no finding in target ${targets[0]}`);
  } catch (e) {
    console.log(e?.stack ?? e);
    process.exitCode = e?.constructor?.name === 'CodecError' || e?.code ? 0 : 1;
  }
  process.exit();
}

// --runs N: exactly N inputs per target (with a fixed --seed, the same inputs every time: what CI runs);
// otherwise as many as fit in the time.
const runs = values.runs ? Number(values.runs) : 0;
// --cli-runs N: the command-line targets (fuzz/cli-targets.mjs) run several whole commands per input, each
// many times slower than one decode, and so do targets marked `cliRuns` (net-client plays a whole session on
// a fake clock); CI gives them fewer inputs to keep its pass short.
const { CLI_TARGETS } = await import('./cli-targets.mjs');
const runsOf = (target) => (runs && values['cli-runs'] && (target in CLI_TARGETS || TARGETS[target].cliRuns) ? Number(values['cli-runs']) : runs);
const seconds = runs ? 3600 : values.seconds ? Number(values.seconds) : Number(values.minutes ?? 1) * 60;
const maxRssMb = Number(values['max-rss']);
const timeoutMs = Number(values.timeout);
const baseSeed = Number(values.seed);
// A fixed number of inputs (CI) keeps one worker, so that the same seed gives the same inputs.
const recycleSeconds = runs ? 0 : Number(values.recycle);
const execArgv = ['--expose-gc', `--max-old-space-size=${Math.round(maxRssMb * 0.6)}`];

/**
 * Replays a suspect input alone in a fresh process with the worker's heap limit and timeout. A memory finding
 * holds when the input raises the fresh process's peak RSS by more than a quarter of the limit or past it; a
 * hang when it times out again; an exit when the process dies or throws.
 */
async function confirm(target, file, kind) {
  // Not spawnSync: with --jobs, another target's watchdog must go on meanwhile.
  const result = await new Promise((done) =>
    execFile(process.execPath, [...execArgv, join(here, 'confirm.mjs'), target, file], { encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 26 }, (error, stdout) =>
      done({ stdout, status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, signal: error?.signal ?? null }),
    ),
  );
  if (result.signal === 'SIGKILL') return { holds: true, detail: `alone, no result in ${timeoutMs} ms` };
  if (result.signal || (result.status !== 0 && !result.stdout)) return { holds: true, detail: `alone, the process died (${result.signal ?? result.status})` };
  let measured;
  try {
    measured = JSON.parse(result.stdout.trim().split('\n').pop());
  } catch {
    return { holds: true, detail: `alone, unreadable result: ${result.stdout.slice(0, 200)}` };
  }
  if (measured.error) return { holds: true, detail: `alone, it throws: ${measured.error.split('\n')[0]}` };
  const rise = measured.afterMb - measured.beforeMb;
  const memory = rise > maxRssMb / 4 + (TARGETS[target]?.outputMb ?? 0) || measured.afterMb > maxRssMb;
  const detail = `alone, peak RSS ${measured.beforeMb} -> ${measured.afterMb} MB`;
  return { holds: kind === 'memory' ? memory : false, detail };
}

/** Runs one target for `seconds`, restarting its worker after a hang or crash. */
async function fuzzTarget(target) {
  const runs = runsOf(target);
  const started = Date.now();
  const deadline = started + seconds * 1000;
  const stats = { target, inputs: 0, findings: [], dismissed: [], pool: 0, seeds: 0, blocks: 0, peakRssMb: 0, restarts: 0, workers: 0 };
  // Each run starts from the seeds, not from what an earlier run left.
  rmSync(join(values.findings, target, '.state'), { recursive: true, force: true });
  const suspect = async (finding) => {
    if (finding.kind !== 'memory' && finding.kind !== 'hang' && finding.kind !== 'exit') return stats.findings.push(finding);
    const verdict = await confirm(target, finding.file, finding.kind);
    const judged = { ...finding, message: `${finding.message}; ${verdict.detail}` };
    if (verdict.holds) stats.findings.push(judged);
    else {
      // Not the input's doing: say so beside the kept file, and in the summary.
      stats.dismissed.push(judged);
      appendFileSync(finding.file.replace(/\.bin$/, '.txt'), `not confirmed: ${verdict.detail}\n`);
    }
  };
  for (let round = 0; Date.now() < deadline - 500; round++) {
    stats.workers++;
    const result = await new Promise((done) => {
      // A JS heap well under the RSS limit keeps garbage from piling up between collections; an input that
      // needs more heap than that crashes the worker, which is caught below as its exit.
      const child = fork(join(here, 'worker.mjs'), [target, String(baseSeed + round * 7919), String(deadline), values.findings, String(maxRssMb), String(runs ? runs - stats.inputs : 0), String(recycleSeconds)], {
        execArgv,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      let last = Date.now();
      let finished;
      let beaten = 0;
      const suspects = [];
      child.on('message', (m) => {
        last = Date.now();
        if (m.beat !== undefined) beaten = m.beat;
        // Judged after the worker has ended, so that the replay does not compete with it for memory.
        if (m.finding) suspects.push(m.finding);
        if (m.done) finished = m.done;
      });
      const watchdog = setInterval(() => {
        if (Date.now() - last > timeoutMs) {
          clearInterval(watchdog);
          child.kill('SIGKILL');
          done({ hang: true, inputs: beaten, suspects });
        }
      }, 250);
      child.on('exit', (code, signal) => {
        clearInterval(watchdog);
        done({ finished, code, signal, inputs: beaten, suspects });
      });
    });
    for (const finding of result.suspects) await suspect(finding);
    if (result.finished) {
      stats.inputs += result.finished.inputs;
      stats.pool = Math.max(stats.pool, result.finished.pool);
      stats.seeds = result.finished.seeds;
      stats.blocks = Math.max(stats.blocks, result.finished.blocks);
      stats.peakRssMb = Math.max(stats.peakRssMb, result.finished.peakRssMb);
      if (result.finished.recycled || (runs && stats.inputs < runs)) continue;
      break;
    }
    // A hang or a crash: keep the input the worker was on.
    stats.restarts++;
    stats.inputs += result.inputs + 1;
    const kind = result.hang ? 'hang' : 'exit';
    const current = join(values.findings, target, '.current');
    if (existsSync(current)) {
      const file = join(values.findings, target, `${kind}-${baseSeed}-${round}.bin`);
      renameSync(current, file);
      await suspect({ kind, file, message: result.hang ? `no progress for ${timeoutMs} ms` : `worker exited (${result.code ?? result.signal})` });
    }
  }
  stats.seconds = Math.max(0.001, (Date.now() - started) / 1000);
  return stats;
}

console.error(`fuzzing ${targets.join(', ')} for ${runs ? `${runs} inputs${values['cli-runs'] ? ` (command-line targets ${values['cli-runs']})` : ''}` : `${seconds} s`} each, seed ${baseSeed}, max RSS ${maxRssMb} MB, timeout ${timeoutMs} ms per input`);
// --jobs targets at a time, each in its own worker as before: a target's inputs follow from the seed alone, so
// they are the same whatever runs beside it. Each target's lines are printed when it ends.
const jobs = Math.max(1, Math.min(Number(values.jobs) || 1, targets.length));
const all = new Array(targets.length);
let nextTarget = 0;
async function runTargets() {
  for (let i = nextTarget++; i < targets.length; i = nextTarget++) {
    const target = targets[i];
    const stats = await fuzzTarget(target);
    all[i] = stats;
    console.error(
      `${target}: ${stats.inputs} inputs (${Math.round(stats.inputs / stats.seconds)}/s), ${stats.seeds} seeds, pool ${stats.pool}, ` +
        `${stats.blocks} code blocks reached, ${stats.workers} workers, peak RSS of a worker ${stats.peakRssMb} MB, ${stats.findings.length} findings`,
    );
    for (const f of stats.findings) console.error(`  ${f.kind}: ${f.message}\n    ${resolve(f.file)}`);
    for (const f of stats.dismissed) console.error(`  not confirmed (${f.kind}): ${f.message}\n    ${resolve(f.file)}`);
  }
}
await Promise.all(Array.from({ length: jobs }, runTargets));
const found = all.reduce((n, s) => n + s.findings.length, 0);
console.log(`${found === 0 ? 'no findings' : `${found} findings`}: ${all.map((s) => `${s.target} ${s.inputs} inputs`).join(', ')}`);
process.exitCode = found ? 1 : 0;
