// The fuzzer's entry point: runs each target in its own child process with a time limit, a memory limit and
// a per-input timeout, restarts a child that hangs or crashes (keeping the input that did it), and prints what
// it ran and found. Exit code 1 when anything was found.
//
//   npm run fuzz -- [--minutes N | --seconds N | --runs N] [--target map,teehistorian] [--seed S] [--max-rss MB] [--timeout MS]
//   npm run fuzz -- --replay fuzz/findings/map/crash-0123abcd.bin --target map
//
// Findings go to fuzz/findings/<target>/ (not committed): <kind>-<hash>.bin with a .txt beside it.
import { fork } from 'node:child_process';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = fileURLToPath(new URL('.', import.meta.url));
const { values } = parseArgs({
  options: {
    minutes: { type: 'string' },
    seconds: { type: 'string' },
    runs: { type: 'string' },
    target: { type: 'string', default: 'datafile,map,teehistorian,demo,snapshot,netmsg' },
    seed: { type: 'string', default: String(Date.now() % 1e9) },
    'max-rss': { type: 'string', default: '400' },
    timeout: { type: 'string', default: '10000' },
    replay: { type: 'string' },
    findings: { type: 'string', default: join(here, 'findings') },
  },
});

const targets = values.target.split(',').filter(Boolean);

if (values.replay) {
  const { TARGETS } = await import('./targets.mjs');
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
const seconds = runs ? 3600 : values.seconds ? Number(values.seconds) : Number(values.minutes ?? 1) * 60;
const maxRssMb = Number(values['max-rss']);
const timeoutMs = Number(values.timeout);
const baseSeed = Number(values.seed);

/** Runs one target for `seconds`, restarting its worker after a hang or crash. */
async function fuzzTarget(target) {
  const started = Date.now();
  const deadline = started + seconds * 1000;
  const stats = { target, inputs: 0, findings: [], pool: 0, seeds: 0, blocks: 0, peakRssMb: 0, restarts: 0 };
  for (let round = 0; Date.now() < deadline - 500; round++) {
    const result = await new Promise((done) => {
      // A JS heap well under the RSS limit keeps garbage from piling up between collections; an input that
      // needs more heap than that crashes the worker, which is caught below as its exit.
      const child = fork(join(here, 'worker.mjs'), [target, String(baseSeed + round * 7919), String(deadline), values.findings, String(maxRssMb), String(runs ? runs - stats.inputs : 0)], {
        execArgv: ['--expose-gc', `--max-old-space-size=${Math.round(maxRssMb * 0.6)}`],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      let last = Date.now();
      let finished;
      let beaten = 0;
      child.on('message', (m) => {
        last = Date.now();
        if (m.beat !== undefined) beaten = m.beat;
        if (m.finding) stats.findings.push(m.finding);
        if (m.done) finished = m.done;
      });
      const watchdog = setInterval(() => {
        if (Date.now() - last > timeoutMs) {
          clearInterval(watchdog);
          child.kill('SIGKILL');
          done({ hang: true, inputs: beaten });
        }
      }, 250);
      child.on('exit', (code, signal) => {
        clearInterval(watchdog);
        done({ finished, code, signal, inputs: beaten });
      });
    });
    if (result.finished) {
      stats.inputs += result.finished.inputs;
      if (runs && stats.inputs < runs) continue;
      stats.pool = Math.max(stats.pool, result.finished.pool);
      stats.seeds = result.finished.seeds;
      stats.blocks = Math.max(stats.blocks, result.finished.blocks);
      stats.peakRssMb = Math.max(stats.peakRssMb, result.finished.peakRssMb);
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
      stats.findings.push({ kind, file, message: result.hang ? `no progress for ${timeoutMs} ms` : `worker exited (${result.code ?? result.signal})` });
    }
  }
  stats.seconds = Math.max(0.001, (Date.now() - started) / 1000);
  return stats;
}

console.error(`fuzzing ${targets.join(', ')} for ${runs ? `${runs} inputs` : `${seconds} s`} each, seed ${baseSeed}, max RSS ${maxRssMb} MB, timeout ${timeoutMs} ms per input`);
const all = [];
for (const target of targets) {
  const stats = await fuzzTarget(target);
  all.push(stats);
  console.error(
    `${target}: ${stats.inputs} inputs (${Math.round(stats.inputs / stats.seconds)}/s), ${stats.seeds} seeds, pool ${stats.pool}, ` +
      `${stats.blocks} code blocks reached, peak RSS ${stats.peakRssMb} MB, ${stats.findings.length} findings`,
  );
  for (const f of stats.findings) console.error(`  ${f.kind}: ${f.message}\n    ${resolve(f.file)}`);
}
const found = all.reduce((n, s) => n + s.findings.length, 0);
console.log(`${found === 0 ? 'no findings' : `${found} findings`}: ${all.map((s) => `${s.target} ${s.inputs} inputs`).join(', ')}`);
process.exitCode = found ? 1 : 0;
