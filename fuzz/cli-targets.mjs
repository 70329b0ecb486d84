// Fuzz targets that run commands as a user does: `main` of @twcodec/cli with the input as IN/FILE on an in-memory
// file system (issue 25: fuzzing covers every command). The commands here are those no library-level target
// runs whole: the readers' JSON and NDJSON commands (datafile info, map info/validate/json, teehistorian
// stats/dump/chat, demo info/messages/chat/snapshots, net pcap, net demo) and the resaves the library targets do not
// (datafile resave, map resave --ddnet/--lenient, teehistorian resave). docs/fuzzing.md lists which target runs
// which command.
//
// On every input and every command line: exit 0, or exit 1 with one line `twcodec: ...` on stderr and no file
// written; an exit 1 is then replayed through the function the command calls, which must throw a CodecError (so
// that a TypeError printed as one line still is a finding). What a command writes reads back (its writer is a
// fixed point) and a lossless resave gives its input back.
import { CodecError } from '@twcodec/datafile';
import { CliError, main } from '@twcodec/cli';
import { readMap } from '@twcodec/map';
import { concatBytes } from '@twcodec/runtime';
// The functions the commands call (packages/cli/src/*.ts); not exports of the package, so taken from its build.
import { datafileInfo, resaveDatafile } from '../packages/cli/dist/datafile.js';
import { demoInfo, demoPlayerList, demoSnapshotObjects, demoSnapshots } from '../packages/cli/dist/demo.js';
import { mapInfo, mapValidate } from '../packages/cli/dist/map-info.js';
import { mapJson, mapResave } from '../packages/cli/dist/map-resave.js';
import { demoChatNdjson, demoMessagesNdjson, teehistorianChatNdjson } from '../packages/cli/dist/messages.js';
import { teehistorianDump, teehistorianResave, teehistorianStats } from '../packages/cli/dist/teehistorian.js';
import { datagramJson } from '../packages/cli/dist/net.js';
import { captureDemo, ConnectionTracker, decodeCapture, MAX_GROWTH } from '@twcodec/net';
import { readDemo, resaveDemo } from '@twcodec/demo';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, equalBytes } from './properties.mjs';

const IN = 'in.bin';
const OUT = 'out.bin';

/**
 * Runs `twcodec ...argv` on an in-memory file system holding `files`. Streamed reads (openRead) come in chunks
 * of `chunk` bytes, so that the same input is also read at other boundaries than the real 64 KiB.
 */
async function runCli(argv, files, chunk = 65536) {
  const written = new Map();
  const stdout = [];
  let stderr = '';
  const readFile = async (path) => {
    const bytes = files.get(path) ?? written.get(path);
    if (!bytes) throw new CliError('ENOENT', `cannot read ${path}: no such file or directory`);
    return bytes;
  };
  const io = {
    readFile,
    async writeFile(path, bytes) {
      written.set(path, bytes instanceof Uint8Array ? bytes.slice() : concatBytes([...bytes]));
    },
    async *openRead(path) {
      const bytes = await readFile(path);
      for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
    },
    // net pcap writes its lines as UTF-8 bytes.
    stdout: (text) => void stdout.push(typeof text === 'string' ? text : new TextDecoder().decode(text)),
    stderr: (text) => void (stderr += text),
    progress: () => {},
  };
  const code = await main(argv, io);
  return { code, stdout: stdout.join(''), stderr, written };
}

/**
 * The command line's contract: exit 0, or exit 1 with one error line and nothing written; a failure is replayed
 * through `direct` (the function the command calls), which must refuse with a CodecError. `reports` says which
 * exits 1 are a result, not a refusal (map validate of a map with errors prints its report first).
 */
async function command(argv, files, direct, { reports = () => false, chunk } = {}) {
  const run = await runCli(argv, files, chunk);
  const what = `twcodec ${argv.join(' ')}`;
  check(run.code === 0 || run.code === 1, `${what}: exit ${run.code}: ${run.stderr.trim()}`);
  if (run.code === 0) return run;
  check(/^twcodec: [^\n]+\n$/.test(run.stderr), `${what}: exit 1 with ${JSON.stringify(run.stderr.slice(0, 200))} on stderr, not one error line`);
  if (reports(run)) return run;
  check(run.written.size === 0, `${what}: exit 1 after writing ${[...run.written.keys()].join(', ')}`);
  try {
    await direct();
  } catch (e) {
    if (e instanceof CodecError) return run;
    throw e; // the error the command printed as a line: a TypeError, RangeError, ... is a finding
  }
  check(false, `${what}: exit 1 (${run.stderr.trim()}), but the function it calls returns`);
}

const ok = (run) => run.code === 0;
const lines = (text) => text.split('\n').filter(Boolean);

/** Every NDJSON line parses. */
function ndjson(text, what) {
  return lines(text).map((line, i) => {
    try {
      return JSON.parse(line);
    } catch {
      check(false, `${what}: line ${i + 1} is not JSON: ${line.slice(0, 120)}`);
    }
  });
}

function json(text, what) {
  try {
    return JSON.parse(text);
  } catch {
    check(false, `${what}: the output is not JSON: ${text.slice(0, 120)}`);
  }
}

async function drain(iterable) {
  for await (const _ of iterable);
}

// --- datafile --------------------------------------------------------------------------------------------------

/**
 * `datafile info` and `datafile resave` (lossless, --ddnet): the lossless resave is the input itself; the
 * --ddnet output resaves (--ddnet) to itself and has the same items as the input.
 */
async function datafileResave(bytes) {
  const files = new Map([[IN, bytes]]);
  const info = await command(['datafile', 'info', IN], files, () => datafileInfo(bytes));
  const lossless = await command(['datafile', 'resave', IN, OUT], files, () => resaveDatafile(bytes, false));
  const ddnet = await command(['datafile', 'resave', IN, OUT, '--ddnet'], files, () => resaveDatafile(bytes, true));
  check(ok(info) || !ok(lossless), 'datafile: resave writes a file info refuses');
  if (ok(lossless)) check(equalBytes(lossless.written.get(OUT), bytes), 'datafile resave: the lossless resave of an unchanged datafile is not its input');
  if (!ok(ddnet)) return;
  const out = ddnet.written.get(OUT);
  const again = await runCli(['datafile', 'resave', OUT, 'again.bin', '--ddnet'], new Map([[OUT, out]]));
  check(again.code === 0, `datafile resave --ddnet: its output is refused when resaved: ${again.stderr.trim()}`);
  check(equalBytes(again.written.get('again.bin'), out), 'datafile resave --ddnet: its output does not resave (--ddnet) to itself');
  const before = json(info.stdout, 'datafile info');
  const after = json((await runCli(['datafile', 'info', OUT], new Map([[OUT, out]]))).stdout, 'datafile info of the --ddnet output');
  const types = (i) => JSON.stringify(i.itemTypes.map((t) => [t.type, t.uuid, t.count]));
  check(types(before) === types(after), 'datafile resave --ddnet: the output has other items than the input');
}

// --- map -------------------------------------------------------------------------------------------------------

/** `map info` and `map validate`: JSON whose counts agree; validate exits 1 exactly when it lists errors. */
async function mapValidateTarget(bytes) {
  const files = new Map([[IN, bytes]]);
  const info = await command(['map', 'info', IN], files, () => mapInfo(bytes));
  const validate = await command(['map', 'validate', IN], files, () => mapValidate(bytes), { reports: (run) => run.stdout !== '' });
  if (ok(info)) {
    const summary = json(info.stdout, 'map info');
    const byKind = Object.values(summary.layers.byKind).reduce((a, b) => a + b, 0);
    check(byKind === summary.layers.count, `map info: layers by kind add up to ${byKind}, not ${summary.layers.count}`);
  }
  if (validate.stdout) {
    const result = json(validate.stdout, 'map validate');
    const errors = result.issues.filter((i) => i.severity === 'error').length;
    check(errors === result.errors && result.ok === (errors === 0), 'map validate: the counts disagree with the issues');
    check(validate.code === (errors ? 1 : 0), `map validate: exit ${validate.code} with ${errors} errors`);
    // Validate reads everything info reads (info skips tile and pixel data): a map validate reads, info reads.
    check(ok(info), `map validate reads a map that map info refuses: ${info.stderr.trim()}`);
  }
}

/**
 * `map json` and `map json --data-dir DIR`: JSON; every byte array written to DIR (one plain, unique file name
 * each, inside DIR) holds as many bytes as the JSON says.
 */
async function mapJsonTarget(bytes) {
  const files = new Map([[IN, bytes]]);
  const plain = await command(['map', 'json', IN], files, () => mapJson(bytes));
  const withData = await command(['map', 'json', IN, '--data-dir', 'data'], files, () => mapJson(bytes, () => 'x'));
  check(ok(plain) === ok(withData), 'map json: --data-dir changes whether the map is read');
  if (!ok(plain)) return;
  json(plain.stdout, 'map json');
  const model = json(withData.stdout, 'map json --data-dir');
  const referenced = [];
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      if (typeof v.file === 'string' && typeof v.bytes === 'number') referenced.push(v);
      else Object.values(v).forEach(walk);
    }
  };
  walk(model);
  check(new Set(referenced.map((r) => r.file)).size === referenced.length, 'map json --data-dir: two byte arrays share a file');
  check(withData.written.size === referenced.length, `map json --data-dir: ${withData.written.size} files written for ${referenced.length} byte arrays`);
  for (const { file, bytes: size } of referenced) {
    check(/^[A-Za-z0-9_.[\]-]+$/.test(file) && !file.startsWith('.'), `map json --data-dir: file name ${JSON.stringify(file)} is not plain`);
    const data = withData.written.get(`data/${file}`);
    check(data?.length === size, `map json --data-dir: data/${file} holds ${data?.length} bytes, the JSON says ${size}`);
  }
}

/**
 * `map resave` (strict, --lenient, --ddnet): a map read strictly without errors comes back byte for byte; what
 * each writes reads back and resaves (the same way) to itself.
 */
async function mapResaveTarget(bytes) {
  const files = new Map([[IN, bytes]]);
  for (const flags of [[], ['--lenient'], ['--ddnet', '--lenient']]) {
    const ddnet = flags.includes('--ddnet');
    const lenient = flags.includes('--lenient');
    const run = await command(['map', 'resave', IN, OUT, ...flags], files, () => mapResave(bytes, ddnet, lenient));
    if (!ok(run)) continue;
    const out = run.written.get(OUT);
    const what = `map resave ${flags.join(' ')}`.trim();
    // The promise of `map resave`: identical bytes when nothing changed, for a map read without errors.
    if (!ddnet && !lenient && !readMap(bytes).readIssues.some((i) => i.severity === 'error')) check(equalBytes(out, bytes), `${what}: a map read without errors does not come back byte for byte`);
    const again = await runCli(['map', 'resave', OUT, 'again.map', ...flags], new Map([[OUT, out]]));
    check(again.code === 0, `${what}: its output is refused when resaved: ${again.stderr.trim()}`);
    check(equalBytes(again.written.get('again.map'), out), `${what}: its output does not resave to itself`);
  }
}

// --- teehistorian ----------------------------------------------------------------------------------------------

/**
 * `teehistorian stats`, `dump`, `chat` and `resave`: dump (streamed, in chunks drawn from the input) prints the
 * header and as many messages as stats counts; chat lines are JSON; a resave is the input itself.
 */
async function teehistorianCli(bytes) {
  const files = new Map([[IN, bytes]]);
  const chunk = 1 + ((bytes[bytes.length - 1] ?? 0) * 257 + (bytes[bytes.length - 2] ?? 0)) % 4096;
  const source = async function* () {
    for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
  };
  const stats = await command(['teehistorian', 'stats', IN], files, () => teehistorianStats(bytes));
  const dump = await command(['teehistorian', 'dump', IN], files, () => drain(teehistorianDump(source())), { chunk });
  const chat = await command(['teehistorian', 'chat', IN], files, () => drain(teehistorianChatNdjson(source())), { chunk });
  const resave = await command(['teehistorian', 'resave', IN, OUT], files, () => teehistorianResave(bytes));
  check(ok(stats) === ok(dump), `teehistorian: stats ${ok(stats) ? 'reads' : 'refuses'} the file, dump ${ok(dump) ? 'reads' : 'refuses'} it`);
  check(ok(dump) || !ok(chat), 'teehistorian: chat reads a file dump refuses');
  check(ok(stats) || !ok(resave), 'teehistorian: resave writes a file stats refuses');
  if (ok(resave)) check(equalBytes(resave.written.get(OUT), bytes), 'teehistorian resave: the output is not the input');
  if (ok(chat)) ndjson(chat.stdout, 'teehistorian chat');
  if (!ok(stats) || !ok(dump)) return;
  const counted = json(stats.stdout, 'teehistorian stats');
  const dumped = ndjson(dump.stdout, 'teehistorian dump');
  check(dumped[0]?.kind === 'header', 'teehistorian dump: the first line is not the header');
  const messages = dumped.filter((l, i) => i > 0 && l.kind !== 'end').length;
  check(messages === counted.messageCount, `teehistorian: dump prints ${messages} messages, stats counts ${counted.messageCount}`);
}

// --- demo ------------------------------------------------------------------------------------------------------

/**
 * `demo info`, `players`, `messages`, `chat`, `snapshots` and `snapshots --summary`: NDJSON lines; snapshots and its
 * summary give the same ticks and checksums, as many as info's ticks.snapshots; players reads what snapshots reads,
 * and each player's ticks lie in the recorded ones.
 */
async function demoCli(bytes) {
  const files = new Map([[IN, bytes]]);
  const info = await command(['demo', 'info', IN], files, () => demoInfo(bytes));
  const messages = await command(['demo', 'messages', IN], files, () => drain(demoMessagesNdjson(bytes)));
  const chat = await command(['demo', 'chat', IN], files, () => drain(demoChatNdjson(bytes)));
  const objects = await command(['demo', 'snapshots', IN], files, () => drain(demoSnapshotObjects(bytes)));
  const summary = await command(['demo', 'snapshots', IN, '--summary'], files, () => drain(demoSnapshots(bytes)));
  const players = await command(['demo', 'players', IN], files, () => demoPlayerList(bytes));
  if (ok(messages)) ndjson(messages.stdout, 'demo messages');
  if (ok(chat)) ndjson(chat.stdout, 'demo chat');
  check(ok(objects) === ok(summary), `demo snapshots: ${ok(objects) ? 'reads' : 'refuses'} the demo, --summary ${ok(summary) ? 'reads' : 'refuses'} it`);
  check(ok(info) || !ok(summary), 'demo: snapshots reads a demo info refuses');
  if (!ok(objects) || !ok(summary)) return;
  const full = ndjson(objects.stdout, 'demo snapshots').filter((l) => l.end === undefined);
  const short = ndjson(summary.stdout, 'demo snapshots --summary').filter((l) => l.end === undefined);
  const ticks = (list) => list.map((l) => `${l.tick}:${l.checksum}:${Array.isArray(l.items) ? l.items.length : l.items}`).join(',');
  check(ticks(full) === ticks(short), 'demo snapshots: the full and the --summary form give other ticks, checksums or item counts');
  const told = json(info.stdout, 'demo info').ticks.snapshots;
  check(short.length === told, `demo: snapshots prints ${short.length} ticks, info says ${told}`);
  check(ok(players), 'demo players refuses a demo snapshots reads');
  const recorded = new Set(short.map((l) => l.tick));
  for (const p of json(players.stdout, 'demo players').players) {
    check(recorded.has(p.fromTick) && recorded.has(p.toTick) && p.fromTick <= p.toTick, `demo players: ticks ${p.fromTick}-${p.toTick} are not recorded ticks`);
  }
}

// --- net -------------------------------------------------------------------------------------------------------

/**
 * `net pcap` (and --protocol 0.7): one JSON line per datagram, each frame index at most once, in order but
 * for IP fragments given up on (IP_FRAGMENT, at their first fragment's index), which are only known to be
 * incomplete when the capture moves past them or ends. The command reads its input as a stream, in chunks
 * drawn from the input here: its lines are those decodeCapture gives on the whole file (up to its error).
 */
async function netPcap(bytes) {
  const files = new Map([[IN, bytes]]);
  const chunk = 1 + ((bytes[bytes.length - 1] ?? 0) * 257 + (bytes[bytes.length - 3] ?? 0)) % 2048;
  const direct = (options) => () => {
    const tracker = new ConnectionTracker();
    for (const d of decodeCapture(bytes, options)) datagramJson(d, tracker.feed(d));
  };
  /** The lines of the whole file, and its error line if it has one. */
  const whole = (options) => {
    const tracker = new ConnectionTracker();
    let lines = '';
    try {
      for (const d of decodeCapture(bytes, options)) lines += `${datagramJson(d, tracker.feed(d))}\n`;
    } catch (e) {
      if (!(e instanceof CodecError)) throw e;
      return { lines, error: e };
    }
    return { lines };
  };
  for (const flags of [[], ['--protocol', '0.7']]) {
    const options = flags.length ? { protocol: '0.7' } : {};
    const run = await command(['net', 'pcap', IN, ...flags], files, direct(options), { chunk });
    const expected = whole(options);
    check(run.stdout === expected.lines, `net pcap ${flags.join(' ')} in chunks of ${chunk}: the lines differ from the whole file's`);
    check(ok(run) === !expected.error, `net pcap ${flags.join(' ')} in chunks of ${chunk}: ${ok(run) ? 'reads' : 'refuses'} what decodeCapture ${expected.error ? 'refuses' : 'reads'}`);
    if (expected.error) check(run.stderr.includes(`offset ${expected.error.offset}`) || expected.error.offset < 0, `net pcap in chunks of ${chunk}: the error ${run.stderr.trim()} is not at the whole file's offset ${expected.error.offset}`);
    if (!ok(run)) continue;
    const datagrams = ndjson(run.stdout, `net pcap ${flags.join(' ')}`);
    const seen = new Set();
    let last = -1;
    datagrams.forEach((d, i) => {
      check(!seen.has(d.index), `net pcap: frame ${d.index} has two lines`);
      seen.add(d.index);
      if (String(d.error ?? '').startsWith('IP_FRAGMENT')) return;
      check(d.index > last, `net pcap: datagram ${i} has index ${d.index} after ${last}`);
      last = d.index;
    });
  }
}

/**
 * Maps `net demo` can be given with --map when a capture holds no download of its map: DDNet's ctf2 from the
 * corpus, when there, Teeworlds 0.7's ctf2 (the map of the 0.7 fixture capture), embedded in a fixture demo, and
 * DDNet's 0.7 Gold Mine from ddnet-data's maps7/, when installed (the map of the 0.7-on-DDNet fixture capture).
 */
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const corpusDir = process.env.TWCODEC_CORPUS ?? join(repoRoot, '..', 'shared', 'corpus');
const NET_DEMO_MAPS = [
  ...[join(corpusDir, 'maps', 'ddnet', 'ctf2.map')].filter(existsSync).map((path) => new Uint8Array(readFileSync(path))),
  readDemo(new Uint8Array(readFileSync(join(repoRoot, 'fixtures', 'demos', 'tw07_client_Charlie_chat.demo')))).map,
  ...['/usr/share/games/ddnet/data/maps7/Gold Mine.map'].filter(existsSync).map((path) => new Uint8Array(readFileSync(path))),
].filter(Boolean);

/** The names the capture's clients sent in their start info (the players `net demo` can be asked for). */
function playersOf(bytes) {
  const names = new Set();
  try {
    for (const d of decodeCapture(bytes)) for (const c of d.packet?.chunks ?? []) if (c.message.kind === 'cl_start_info' && typeof c.message.name === 'string') names.add(c.message.name);
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
  }
  return [...names];
}

/**
 * `net demo` for the capture's first player (or a name nobody played), without --map and, when the capture holds
 * no download of its map, with each map there is: exit 0 or one typed refusal; what it writes reads back as a
 * demo with as many snapshots as it printed, at rising ticks, at most MAX_GROWTH times the capture's size (and
 * the map's, and 1 MiB), and resaves to its own bytes.
 */
async function netDemo(bytes) {
  const player = playersOf(bytes)[0] ?? 'Nobody';
  const files = new Map([[IN, bytes]]);
  for (const map of [undefined, ...NET_DEMO_MAPS]) {
    if (map) files.set('map.map', map);
    const argv = ['net', 'demo', IN, OUT, '--player', player, ...(map ? ['--map', 'map.map'] : [])];
    const run = await command(argv, files, () => captureDemo(bytes, { player, ...(map ? { map } : {}) }));
    if (!ok(run)) {
      if (/MAP_MISSING|MAP_MISMATCH/.test(run.stderr)) continue;
      return;
    }
    const what = `twcodec ${argv.join(' ')}`;
    const line = json(run.stdout, what);
    const demo = run.written.get(OUT);
    check(demo?.length === line.bytes, `${what}: wrote ${demo?.length} bytes, printed ${line.bytes}`);
    let snapshots = 0;
    let last = -Infinity;
    for (const { tick } of readDemo(demo).snapshots()) {
      check(tick > last, `${what}: the demo's snapshot at tick ${tick} comes after tick ${last}`);
      last = tick;
      snapshots++;
    }
    check(snapshots === line.snapshots, `${what}: the demo holds ${snapshots} snapshots, the command printed ${line.snapshots}`);
    // Proportional to the capture: a capture of a few bytes per snapshot never makes whole snapshots per tick.
    const bound = MAX_GROWTH * bytes.length + (map?.length ?? 0) + 1024 * 1024;
    check(demo.length <= bound, `${what}: a demo of ${demo.length} bytes from a capture of ${bytes.length} (at most ${bound})`);
    check(equalBytes(resaveDemo(demo), demo), `${what}: the demo does not resave to its bytes`);
    return;
  }
}

// Map inputs get the structure-aware mutations (item ints, inflated data) too.
for (const target of [datafileResave, mapValidateTarget, mapJsonTarget, mapResaveTarget]) target.structured = true;

export const CLI_TARGETS = {
  'datafile-resave': datafileResave,
  'map-validate': mapValidateTarget,
  'map-json': mapJsonTarget,
  'map-resave': mapResaveTarget,
  'teehistorian-cli': teehistorianCli,
  'demo-cli': demoCli,
  'net-pcap': netPcap,
  'net-demo': netDemo,
};
