// `twcodec net pcap` against its floor (issue 41): bench/pcap-hex.mjs, a plain script that reads the same
// capture and prints one JSON line per UDP datagram with its payload as hex. Both are whole processes, their
// output to /dev/null, measured above Node's own start-up (`node -e 0`): the ratio is
//   (CPU of twcodec net pcap - CPU of node -e 0) / (CPU of pcap-hex.mjs - CPU of node -e 0), target <= 3,
// the median of PCAP_BENCH_ROUNDS (default 5) alternating rounds, in CPU time (user + system, bash's `times`: all
// threads, V8's compiler threads too) and, a row of its own, in wall time (what a user waits for; V8 compiles
// beside the main thread on a machine with a core to spare, as this 2-core one has).
// Captures: each corpus capture (else the fixtures'), and a large one built here (PCAP_BENCH_MB, default 50):
// the corpus DDNet session repeated, each copy on addresses of its own (127.a.b.x) and later in time, so the
// large capture holds many flows one after another, as a server's capture does.
// Memory against the number of flows: captures of the same number of datagrams (PCAP_BENCH_FLOW_DATAGRAMS,
// default 100,000) over 1, 100 and 10,000 flows that are all open at once (each flow the start of the session's
// first connection, their datagrams taken in turn), and the peak RSS of `net pcap` on each (GNU time's %M):
// the ratio is the peak with 10,000 flows over the peak with 1, target <= 1.5 (flat: the decoder's per-flow
// state is bounded and expires).
// Beside that ratio, the cost of one open flow: (peak with 10,000 - peak with 1) / 9,999, in KB, a figure that
// does not hang on the 1-flow base alone (a leaner base raises the ratio with the per-flow state unchanged).
// PCAP_BENCH_BASE=path/to/other/twcodec.cjs adds a column for another build (a checkout of main) to compare.
// PCAP_BENCH_ONLY=flows runs only the memory rows (PCAP_BENCH_ONLY=time only the CPU rows and the stages).
// Run: npm run bench:pcap   (TWCODEC_CORPUS=/work/shared/corpus in a worktree)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { benchEnv, benchEnvNote, childTimesMs, corpusDir, listFiles, notePeakRss, report, repoRoot } from './common.mjs';

const ROUNDS = Number(process.env.PCAP_BENCH_ROUNDS ?? 5);
const LARGE_MB = Number(process.env.PCAP_BENCH_MB ?? 50);
const FLOW_DATAGRAMS = Number(process.env.PCAP_BENCH_FLOW_DATAGRAMS ?? 100_000);
const twcodecBin = join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs');
const floorScript = join(repoRoot, 'bench', 'pcap-hex.mjs');
const baseBin = process.env.PCAP_BENCH_BASE;
const only = process.env.PCAP_BENCH_ONLY;
if (only !== undefined && only !== 'flows' && only !== 'time' && only !== 'split') throw new Error(`PCAP_BENCH_ONLY=${only}: flows, time or split`);
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
if (spawnSync('bash', ['-c', 'true']).status !== 0) {
  console.log('pcap bench: needs bash (its `times` gives the CPU time of child processes); skipped');
  process.exit(0);
}
if (benchEnvNote) console.log(benchEnvNote);
const work = mkdtempSync(join(tmpdir(), 'twcodec-pcap-bench-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/** Peak RSS in MB of running `argv` (its output dropped), or undefined without GNU time. */
function peakRssOf(argv) {
  if (!gnuTime) return undefined;
  const out = join(work, 'time.txt');
  const run = spawnSync(gnuTime, ['-f', '%M', '-o', out, ...argv], { stdio: 'ignore', env: benchEnv });
  if (run.status !== 0) throw new Error(`${argv.join(' ')}: exit ${run.status}`);
  return Number(readFileSync(out, 'utf8').trim().split('\n').at(-1)) / 1024;
}

const medianOf = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The median CPU ms and wall ms of each side over `rounds` rounds, each round in another order (a rotation). */
function alternate(sides, rounds) {
  const names = Object.keys(sides);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) childTimesMs(sides[n]); // the page cache and Node's compile cache warm
  for (let i = 0; i < rounds; i++) {
    const order = [...names.slice(i % names.length), ...names.slice(0, i % names.length)];
    for (const n of order) times[n].push(childTimesMs(sides[n]));
  }
  const median = (n, k) => medianOf(times[n].map((t) => t[k]));
  return { cpu: Object.fromEntries(names.map((n) => [n, median(n, 'cpu')])), wall: Object.fromEntries(names.map((n) => [n, median(n, 'wall')])) };
}

// --- captures built from the corpus session ----------------------------------------------------------------

/** The records of a classic little-endian pcap file: [seconds, microseconds, frame bytes]. */
function pcapRecords(bytes) {
  const out = [];
  for (let at = 24; at + 16 <= bytes.length; ) {
    const captured = bytes.readUInt32LE(at + 8);
    out.push([bytes.readUInt32LE(at), bytes.readUInt32LE(at + 4), bytes.subarray(at + 16, at + 16 + captured)]);
    at += 16 + captured;
  }
  return out;
}

/**
 * Writes a pcap file of `header` (the source's 24 bytes) and the records `next()` gives ([seconds, microseconds,
 * frame], undefined at the end), each frame's IPv4 addresses (Ethernet: bytes 26-33) moved to 127.a.b.x for the
 * copy `copy` it names: every copy's endpoints are its own, so each copy's flows are new flows.
 */
function writeCapture(path, header, next) {
  let total = header.length;
  const chunks = [];
  let chunkSize = 0;
  writeFileSync(path, header);
  for (let r = next(); r; r = next()) {
    const [seconds, micros, frame, copy] = r;
    const record = Buffer.alloc(16 + frame.length);
    record.writeUInt32LE(seconds, 0);
    record.writeUInt32LE(micros, 4);
    record.writeUInt32LE(frame.length, 8);
    record.writeUInt32LE(frame.length, 12);
    frame.copy(record, 16);
    if (frame.length >= 34 && frame[12] === 0x08 && frame[13] === 0x00) {
      record[16 + 27] = (copy >> 8) & 255;
      record[16 + 28] = copy & 255;
      record[16 + 31] = (copy >> 8) & 255;
      record[16 + 32] = copy & 255;
    }
    chunks.push(record);
    chunkSize += record.length;
    total += record.length;
    if (chunkSize > 1 << 22) {
      writeFileSync(path, Buffer.concat(chunks, chunkSize), { flag: 'a' });
      chunks.length = 0;
      chunkSize = 0;
    }
  }
  writeFileSync(path, Buffer.concat(chunks, chunkSize), { flag: 'a' });
  return total;
}

let sessionPath = listFiles(join(corpusDir, 'net'), '.pcap').find((p) => basename(p).startsWith('ddnet-0.6-session'));
const source = sessionPath ? 'corpus' : 'fixtures';
sessionPath ??= join(repoRoot, 'fixtures', 'net', 'ddnet-0.6-cut.pcap');
const session = readFileSync(sessionPath);
const sessionRecords = pcapRecords(session);
const header = session.subarray(0, 24);
const span = sessionRecords.at(-1)[0] - sessionRecords[0][0] + 1;

/** The session `copies` times over, each copy on its own addresses and `span` seconds after the one before. */
function buildLarge(path, megabytes) {
  const copies = Math.max(1, Math.ceil((megabytes * 1e6) / session.length));
  let copy = 0;
  let i = 0;
  return writeCapture(path, header, () => {
    if (i === sessionRecords.length) {
      i = 0;
      if (++copy === copies) return undefined;
    }
    const [seconds, micros, frame] = sessionRecords[i++];
    return [seconds + copy * span, micros, frame, copy + 1];
  });
}

/** `datagrams` datagrams over `flows` flows open at once: each flow the start of the session's first connection, the flows taking turns. */
function buildFlows(path, flows, datagrams) {
  // The first connection: the frames between the endpoints of the session's first datagram.
  const key = (f) => [f.subarray(26, 30).toString('hex'), f.readUInt16BE(34), f.subarray(30, 34).toString('hex'), f.readUInt16BE(36)];
  const [a, pa, b, pb] = key(sessionRecords[0][2]);
  const connection = sessionRecords.filter(([, , f]) => {
    const [x, px, y, py] = key(f);
    return (x === a && px === pa && y === b && py === pb) || (x === b && px === pb && y === a && py === pa);
  });
  const perFlow = Math.max(1, Math.floor(datagrams / flows));
  const start = connection[0][0];
  let n = 0;
  return writeCapture(path, header, () => {
    if (n === perFlow * flows) return undefined;
    const step = Math.floor(n / flows);
    const flow = n % flows;
    n++;
    // 10 microseconds apart: the flows are all open over the capture (the session's own pace plays no part).
    const micros = n * 10;
    return [start + Math.floor(micros / 1e6), micros % 1e6, connection[step % connection.length][2], flow + 1];
  });
}

// --- the rows ------------------------------------------------------------------------------------------------

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const captures = listFiles(join(corpusDir, 'net'), '.pcap');
if (!captures.length) captures.push(...listFiles(join(repoRoot, 'fixtures', 'net'), '.pcap'));

// Where a small capture's CPU goes (issue 41, eleventh pass): the session's run above node -e 0 in three parts,
// from the CPU time of each thread of the process (Linux: /proc/self/task/*/schedstat, read at exit by a
// preloaded script, which is not a V8 flag: the code cache is still taken). Fixed: a capture of no datagrams
// (its 24-byte header) above node -e 0, all threads: loading the bundle's chunks, their tables, Node's own
// modules. Processing: the session's main thread less the empty capture's. Compiling: the session's other
// threads less the empty capture's, V8's TurboFan jobs (and GC helpers) beside the main thread.
if ((only === undefined || only === 'split') && existsSync('/proc/self/task')) {
  const preload = join(work, 'threads.cjs');
  writeFileSync(
    preload,
    `const fs = require('node:fs');\nprocess.on('exit', () => {\n  let main = 0, other = 0;\n  for (const t of fs.readdirSync('/proc/self/task')) {\n    const ns = Number(fs.readFileSync('/proc/self/task/' + t + '/schedstat', 'utf8').split(' ')[0]);\n    if (Number(t) === process.pid) main += ns; else other += ns;\n  }\n  fs.writeFileSync(process.env.TWCODEC_THREADS_OUT, main / 1e6 + ' ' + other / 1e6);\n});\n`,
  );
  const empty = join(work, 'empty.pcap');
  writeFileSync(empty, header);
  const threadsOf = (argv) => {
    const out = join(work, 'threads.txt');
    const run = spawnSync(argv[0], ['-r', preload, ...argv.slice(1)], { stdio: 'ignore', env: { ...benchEnv, TWCODEC_THREADS_OUT: out } });
    if (run.status !== 0) throw new Error(`${argv.join(' ')}: exit ${run.status}`);
    const [main, other] = readFileSync(out, 'utf8').split(' ').map(Number);
    return { main, other };
  };
  const sides = {
    node: [process.execPath, '-e', '0'],
    floor: [process.execPath, floorScript, sessionPath],
    empty: [process.execPath, twcodecBin, 'net', 'pcap', empty],
    session: [process.execPath, twcodecBin, 'net', 'pcap', sessionPath],
  };
  const rounds = Math.max(ROUNDS, 7);
  const got = Object.fromEntries(Object.keys(sides).map((n) => [n, { main: [], other: [] }]));
  for (let i = 0; i < rounds; i++) {
    for (const [n, argv] of Object.entries(sides)) {
      const t = threadsOf(argv);
      got[n].main.push(t.main);
      got[n].other.push(t.other);
    }
  }
  const m = (n, k) => medianOf(got[n][k]);
  const all = (n) => m(n, 'main') + m(n, 'other');
  const fixed = all('empty') - all('node');
  const processing = m('session', 'main') - m('empty', 'main');
  const compiling = m('session', 'other') - m('empty', 'other');
  const floor = all('floor') - all('node');
  console.log(`the ${basename(sessionPath)} run's CPU above node -e 0 by thread, median of ${rounds} rounds; load ${load()}`);
  console.log(`  node -e 0: main ${m('node', 'main').toFixed(1)} ms, other threads ${m('node', 'other').toFixed(1)} ms; floor (pcap-hex.mjs) above it: ${floor.toFixed(1)} ms`);
  console.log(
    `  net pcap above it: ${(fixed + processing + compiling).toFixed(1)} ms = fixed ${fixed.toFixed(1)} (an empty capture) + main-thread processing ${processing.toFixed(1)} + other threads (TurboFan, GC helpers) ${compiling.toFixed(1)};` +
      ` against the floor: ${(fixed / floor).toFixed(2)}x + ${(processing / floor).toFixed(2)}x + ${(compiling / floor).toFixed(2)}x`,
  );
}

if (only !== 'flows' && only !== 'split') {
  const large = join(work, `large-${LARGE_MB}mb.pcap`);
  buildLarge(large, LARGE_MB);
  captures.push(large);

  console.log(`net pcap against bench/pcap-hex.mjs (${source} captures), CPU and wall ms above node -e 0, median of ${ROUNDS} rounds; load ${load()}`);
  for (const path of captures) {
    const mbs = statSync(path).size / 1e6;
    const rounds = mbs > 20 ? Math.max(1, Math.ceil(ROUNDS / 2)) : ROUNDS;
    const sides = { node: [process.execPath, '-e', '0'], floor: [process.execPath, floorScript, path], twcodec: [process.execPath, twcodecBin, 'net', 'pcap', path] };
    if (baseBin) sides.base = [process.execPath, baseBin, 'net', 'pcap', path];
    const { cpu, wall } = alternate(sides, rounds);
    const name = path === large ? `built ${LARGE_MB} MB (the session x${Math.ceil((LARGE_MB * 1e6) / session.length)})` : basename(path);
    const measure = `net pcap / hex-dump floor, ${path === large ? `built ${LARGE_MB} MB capture` : basename(path)}`;
    for (const [kind, t] of [['CPU', cpu], ['wall', wall]]) {
      const above = (n) => Math.max(0.1, t[n] - t.node);
      const ratio = above('twcodec') / above('floor');
      console.log(
        `  ${name} (${mbs.toFixed(2)} MB), ${kind}: node ${t.node.toFixed(0)} ms, floor +${above('floor').toFixed(0)} ms, net pcap +${above('twcodec').toFixed(0)} ms (${(mbs / (above('twcodec') / 1000)).toFixed(1)} MB/s)  ${ratio.toFixed(2)}x` +
          (baseBin ? `; base build +${above('base').toFixed(0)} ms (${(above('base') / above('floor')).toFixed(2)}x)` : '') +
          `; load ${load()}`,
      );
      report('pcap', kind === 'CPU' ? measure : `${measure}, wall`, ratio, '<=3', `${kind === 'CPU' ? 'CPU' : 'wall time'} above node -e 0, whole processes`);
    }
  }

  // Where the time goes: the same work in stages, in this process (warm: no start-up, the code compiled), on the
  // large capture, each the least CPU time of 3 alternating rounds: the frames and their UDP payloads; decoding
  // (decodeCapture); with the connection tracker (sequences, snapshots rebuilt and their CRC checked, map
  // downloads); and the JSON lines made (net pcap's own writer). The last less the one before is the JSON's share.
  {
    const { ConnectionTracker, decodeCapture, readCapture, udpOf } = await import('@twcodec/net');
    const { datagramJson } = await import('../packages/cli/dist/net.js');
    const file = readFileSync(large);
    const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
    let sink = 0;
    const stages = {
      frames: () => {
        for (const f of readCapture(bytes)) sink += udpOf(f)?.payload.length ?? 0;
      },
      decode: () => {
        for (const d of decodeCapture(bytes)) sink += d.index;
      },
      track: () => {
        const tracker = new ConnectionTracker();
        for (const d of decodeCapture(bytes)) sink += tracker.feed(d).delivery.length;
      },
      json: () => {
        const tracker = new ConnectionTracker();
        for (const d of decodeCapture(bytes)) sink += datagramJson(d, tracker.feed(d)).length;
      },
    };
    const best = Object.fromEntries(Object.keys(stages).map((k) => [k, Infinity]));
    for (let round = 0; round < 3; round++) {
      for (const [name, fn] of Object.entries(stages)) {
        const c = process.cpuUsage();
        fn();
        const used = process.cpuUsage(c);
        best[name] = Math.min(best[name], (used.user + used.system) / 1000);
      }
    }
    const perMb = (ms) => `${(ms / (bytes.length / 1e6)).toFixed(1)} ms/MB`;
    console.log(`stages on the built ${LARGE_MB} MB capture, in this process (warm), least CPU of 3 rounds; load ${load()}`);
    console.log(`  frames + UDP ${perMb(best.frames)}, decodeCapture ${perMb(best.decode)}, + tracker ${perMb(best.track)}, + JSON lines ${perMb(best.json)}`);
    console.log(`  shares: decoding ${perMb(best.decode)}, tracking ${perMb(best.track - best.decode)}, JSON ${perMb(best.json - best.track)}`);
    if (sink === 0.5) console.log(sink);
  }
}

if (only !== 'time' && only !== 'split' && gnuTime) {
  console.log(`peak RSS of net pcap against the number of flows open at once (${FLOW_DATAGRAMS} datagrams each capture); load ${load()}`);
  const peaks = {};
  const basePeaks = {};
  for (const flows of [1, 100, 10_000]) {
    const path = join(work, `flows-${flows}.pcap`);
    const bytes = buildFlows(path, flows, FLOW_DATAGRAMS);
    const peak = peakRssOf([process.execPath, twcodecBin, 'net', 'pcap', path]);
    const basePeak = baseBin ? peakRssOf([process.execPath, baseBin, 'net', 'pcap', path]) : undefined;
    peaks[flows] = peak;
    basePeaks[flows] = basePeak;
    notePeakRss(peak);
    console.log(`  ${String(flows).padStart(6)} flows (${(bytes / 1e6).toFixed(1)} MB): peak RSS ${peak.toFixed(0)} MB${basePeak ? `; base build ${basePeak.toFixed(0)} MB` : ''}`);
    rmSync(path);
  }
  const perFlowKb = ((peaks[10_000] - peaks[1]) * 1024) / 9_999;
  const basePerFlow = baseBin ? `; base build ${(((basePeaks[10_000] - basePeaks[1]) * 1024) / 9_999).toFixed(2)} KB, ${(basePeaks[10_000] / basePeaks[1]).toFixed(2)}x` : '';
  console.log(`  per open flow: ${perFlowKb.toFixed(2)} KB ((peak at 10,000 - peak at 1) / 9,999); 10,000 / 1: ${(peaks[10_000] / peaks[1]).toFixed(2)}x${basePerFlow}`);
  report('pcap', 'net pcap peak RSS, 10,000 flows / 1 flow', peaks[10_000] / peaks[1], '<=1.5', `same datagram count, all flows open at once; ${perFlowKb.toFixed(2)} KB per open flow`);
}
