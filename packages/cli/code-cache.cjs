// Makes the V8 code cache of the CLI's bundle: dist/bundle/code-cache/<chunk>.bin and manifest.json, which
// bin/twcodec.cjs gives to V8 when a run loads a chunk (start-up, issue 41; docs/performance.md). Run by
// bundle.mjs after it wrote the chunks, as a child process of its own: `node code-cache.cjs DIR`, with no Node
// options, because V8 takes a cache only from a process with the same V8 flags, and a run of `twcodec` has none.
//
// The cache holds the code V8 compiled for a chunk by the time it is made. Made right after compiling, that is
// the chunk's top level only, and every function a command calls is compiled again in each run; so the chunks
// are first trained: the commands whose start-up issue 41 measures run here, in this process, on the
// repository's fixture maps (their output thrown away, files written to a temporary directory), and the cache of
// each chunk is made after them. Chunks the training did not load are compiled and cached without running (their
// top level). Without the fixtures (the package outside its repository) every chunk is cached that way.
//
// Per command: a cache trained on every command holds the functions of all of them, and a run deserialises all of
// it (a map command's chunks: about 290 KB of cache, where `map extract` uses 230 KB of it). So each command of
// PROFILE_COMMANDS also gets caches of its own, made in a process of its own that runs only that command's
// training runs (code-cache/<command>/<chunk>.bin, listed under the manifest's `profiles`); bin/twcodec.cjs
// names the command of a run, and the loader takes that command's cache of a chunk where there is one, else the
// shared one. Start-up, issue 41: docs/performance.md.
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const vm = require('node:vm');
const { loadBundle, wrap, runtimeKey, crc32Function, profileDir, cachedScriptName, MANIFEST } = require('./bin/twcodec.cjs');

/** The commands with caches of their own (a profile each): the map commands whose start-up issue 41 measures, and net pcap. */
const PROFILE_COMMANDS = ['map info', 'map validate', 'map resave', 'map extract', 'map convert', 'map fix', 'map diff', 'net pcap'];

/** The commands run to train the cache: the map commands of issue 41 on fixture maps, net pcap on fixture captures, and the CLI's help. */
function trainingRuns(fixtures, out) {
  const maps = ['coverage.map', 'ctf1.map', 'dm7-legacy-size.map'].map((m) => join(fixtures, 'maps', m)).filter((m) => existsSync(m));
  const resaved = join(fixtures, 'maps-resaved', 'dm7-legacy-size.map');
  const runs = [['--version'], ['--help'], ['map', '--help']];
  for (const map of maps) {
    runs.push(
      ['map', 'info', map],
      ['map', 'validate', map],
      ['map', 'resave', map, join(out, 'resaved.map')],
      ['map', 'resave', '--ddnet', map, join(out, 'resaved.map')],
      ['map', 'extract', map, join(out, 'extract')],
      ['map', 'convert', '--to', '0.7', map, join(out, 'converted.map')],
      ['map', 'fix', map, join(out, 'fixed.map')],
      ['map', 'diff', map, existsSync(resaved) ? resaved : map],
    );
  }
  // net pcap on the fixture captures (a DDNet session, a 0.7 session, a 0.7 client on DDNet's server): a small
  // capture's run is mostly start-up and the compiling of the decoder and the line writers (issue 41).
  for (const capture of ['ddnet-0.6-cut.pcap', 'teeworlds-0.7-cut.pcap', 'teeworlds-0.7-on-ddnet-cut.pcap']) {
    const path = join(fixtures, 'net', capture);
    if (existsSync(path)) runs.push(['net', 'pcap', path]);
  }
  return maps.length ? runs : [];
}

/**
 * Runs the training runs whose command is `command` (all of them without one) in this process, through the
 * bundle's chunks compiled without a cache; returns the scripts of the chunks they loaded, by file.
 */
async function train(dir, fixtures, command) {
  const scripts = new Map();
  const out = mkdtempSync(join(tmpdir(), 'twcodec-code-cache-'));
  try {
    const { main: run, nodeIo } = loadBundle(dir, 'main.js', (file, script) => scripts.set(file, script));
    const io = { ...nodeIo(), stdout: () => {}, stderr: () => {}, progress: () => {} };
    for (const argv of trainingRuns(fixtures, out)) if (command === undefined || argv.slice(0, 2).join(' ') === command) await run(argv, io);
  } finally {
    rmSync(out, { recursive: true, force: true });
    process.exitCode = 0;
    // net pcap lowers V8's inlining budget for the rest of its process (src/net.ts, lessInlining); V8 marks a
    // cache with a hash of its flags and rejects one made under other flags, and a run loads its chunks before
    // that flag is set: the default again before the caches are made (V8's default, `node --v8-options`).
    require('node:v8').setFlagsFromString('--max-inlined-bytecode-size-cumulative=920');
  }
  return scripts;
}

/**
 * The child process of one command (`code-cache.cjs DIR --profile COMMAND`): writes the caches of the chunks
 * that command's training loaded into code-cache/<command>/ and prints their manifest records as JSON.
 */
async function profile(dir, fixtures, command, crc32) {
  const scripts = await train(dir, fixtures, command);
  const profileCache = join(dir, 'code-cache', profileDir(command));
  mkdirSync(profileCache, { recursive: true });
  const records = {};
  for (const [file, script] of [...scripts].sort(([a], [b]) => a.localeCompare(b))) {
    const data = script.createCachedData();
    writeFileSync(join(profileCache, `${file}.bin`), data);
    records[file] = { cache: crc32(data), cacheBytes: data.length };
  }
  process.stdout.write(`${JSON.stringify(records)}\n`);
}

async function main() {
  const dir = resolve(process.argv[2] ?? join(__dirname, 'dist', 'bundle'));
  const fixtures = resolve(__dirname, '..', '..', 'fixtures');
  const crc32 = crc32Function();
  const cacheDir = join(dir, 'code-cache');
  const profileAt = process.argv.indexOf('--profile');
  if (profileAt > 0) return profile(dir, fixtures, process.argv[profileAt + 1], crc32);
  rmSync(cacheDir, { recursive: true, force: true });
  if (!crc32) {
    console.log(`code-cache: Node ${process.version} has no zlib.crc32: no code cache (the bundle is require()d)`);
    return;
  }
  const scripts = await train(dir, fixtures, undefined);
  mkdirSync(cacheDir, { recursive: true });
  // Each command in a process of its own (with no manifest there yet, its chunks compile without a cache: its
  // caches hold what that command compiled and nothing more). Without the fixtures there is nothing to train.
  const profiles = {};
  if (trainingRuns(fixtures, cacheDir).length) {
    for (const command of PROFILE_COMMANDS) {
      // With this process's Node options (none when bundle.mjs runs it): V8 takes a cache only under the flags it was made with.
      const child = [...process.execArgv, __filename, dir, '--profile', command];
      profiles[command] = JSON.parse(execFileSync(process.execPath, child, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
    }
  }
  const chunks = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js')).sort()) {
    const bytes = readFileSync(join(dir, file));
    const script = scripts.get(file) ?? new vm.Script(wrap(bytes.toString('utf8')), { filename: cachedScriptName(file) });
    const data = script.createCachedData();
    writeFileSync(join(cacheDir, `${file}.bin`), data);
    chunks[file] = { source: crc32(bytes), sourceBytes: bytes.length, cache: crc32(data), cacheBytes: data.length };
  }
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify({ made: runtimeKey(), chunks, profiles }, null, 1)}\n`);
}

main().catch((e) => {
  console.error(`code-cache: ${e?.stack ?? e}`);
  process.exitCode = 1;
});
