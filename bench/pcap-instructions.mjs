// Where `twcodec net pcap`'s work on a small capture goes, in instructions (issue 41): V8's optimising compiler
// (TurboFan) against everything else, for the command and for its floor (bench/pcap-hex.mjs), each above
// `node -e 0`. Instructions, unlike CPU time, do not move with the load of the machine: each process runs under
// valgrind's callgrind with V8 made deterministic (`--predictable`: one thread, so the compiles and collections
// run on it in the same order every run; `--random-seed`), which keeps the CLI's code cache usable (`--hash-seed`
// and `--single-threaded` change V8's flag hash, and the cache is then refused and every chunk compiled).
// A function counts as the compiler's when its name is in V8's `compiler::` or `turboshaft::` namespaces.
//
// Run: node bench/pcap-instructions.mjs [CAPTURE]   (default: the corpus DDNet session, else the fixture cut)
// Needs valgrind (callgrind_annotate comes with it); about a minute per capture.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { benchEnv, benchEnvNote, corpusDir, repoRoot } from './common.mjs';

const capture =
  process.argv[2] ??
  [join(corpusDir, 'net', 'ddnet-0.6-session.pcap'), join(repoRoot, 'fixtures', 'net', 'ddnet-0.6-cut.pcap')].find((p) => existsSync(p));
if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.log('pcap-instructions: valgrind is not installed (Debian: apt-get install valgrind); nothing measured');
  process.exit(0);
}

if (benchEnvNote) console.log(benchEnvNote);
const dir = mkdtempSync(join(tmpdir(), 'twcodec-callgrind-'));
const V8 = ['--predictable', '--random-seed=42'];
const sides = {
  node: ['-e', '0'],
  floor: [join(repoRoot, 'bench', 'pcap-hex.mjs'), capture],
  twcodec: [join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs'), 'net', 'pcap', capture],
};

/** Instructions of one process under callgrind: in all, and in the optimising compiler's functions. */
function instructions(name, args) {
  const out = join(dir, `${name}.out`);
  // setarch -R: no address randomisation, so that two runs take the same paths.
  const run = spawnSync('setarch', ['-R', 'valgrind', '--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, ...V8, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: benchEnv, maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`${name}: callgrind exited with ${run.status}\n${run.stderr.toString().slice(-2000)}`);
  const annotate = spawnSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', out], { maxBuffer: 1 << 28 });
  let total = 0;
  let compiler = 0;
  for (const line of annotate.stdout.toString().split('\n')) {
    const m = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
    if (!m) continue;
    const n = Number(m[1].replaceAll(',', ''));
    if (m[2].startsWith('PROGRAM TOTALS')) total = n;
    else if (/\b(compiler|turboshaft)::/.test(m[2])) compiler += n;
  }
  return { total, compiler };
}

const m = {};
for (const [name, args] of Object.entries(sides)) m[name] = instructions(name, args);
rmSync(dir, { recursive: true, force: true });

const M = (n) => `${(n / 1e6).toFixed(0)} M`;
const above = (side, key) => m[side][key] - m.node[key];
console.log(`net pcap against bench/pcap-hex.mjs on ${basename(capture)}, instructions (callgrind, ${V8.join(' ')}), ${process.version}`);
for (const side of ['node', 'floor', 'twcodec'])
  console.log(`  ${side.padEnd(7)} ${M(m[side].total).padStart(8)} in all, ${M(m[side].compiler).padStart(7)} in the optimising compiler`);
const all = above('twcodec', 'total') / above('floor', 'total');
const rest = (above('twcodec', 'total') - above('twcodec', 'compiler')) / (above('floor', 'total') - above('floor', 'compiler'));
console.log(`  above node -e 0: net pcap ${M(above('twcodec', 'total'))} (${M(above('twcodec', 'compiler'))} compiling, ${((100 * above('twcodec', 'compiler')) / above('twcodec', 'total')).toFixed(0)}%), floor ${M(above('floor', 'total'))} (${M(above('floor', 'compiler'))} compiling)`);
console.log(`  ratio ${all.toFixed(2)}x; without the optimising compiler's instructions on either side ${rest.toFixed(2)}x`);
console.log(`BENCH ${JSON.stringify({ bench: 'pcap-instructions', measure: `net pcap / hex-dump floor, ${basename(capture)}, instructions`, ratio: Number(all.toFixed(2)), withoutCompiler: Number(rest.toFixed(2)) })}`);
