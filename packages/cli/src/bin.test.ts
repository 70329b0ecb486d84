// The `twcodec` command as a user runs it: the built binary (bin/twcodec.cjs -> the bundle of dist/) in a child
// process, its output through real pipes, its errors as printed. The CLI is built once before the tests
// (test/global-setup.ts), so these tests never skip and never run a stale build.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Datafile } from '@twcodec/datafile';
import { fixturesDir, readBytes, repoRoot } from '../../../test/corpus.js';

const bin = join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs');
const ctf1 = join(fixturesDir, 'maps', 'ctf1.map');
const demo = join(fixturesDir, 'demos', 'ctf2_server_Alpha_server_manual.demo');
const th = join(fixturesDir, 'teehistorian', 'ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian');

function twcodec(args: string[], input?: Uint8Array) {
  const r = spawnSync('node', [bin, ...args], { input, cwd: repoRoot });
  return { code: r.status, stdout: r.stdout.toString('utf8'), stdoutBytes: new Uint8Array(r.stdout), stderr: r.stderr.toString('utf8') };
}

/**
 * Runs a command whose reader goes away at once (as `| head -1` does after its line): the read end of
 * stdout is closed before the child writes anything, so every write meets a closed pipe.
 */
function closedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', [bin, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const tmp = () => mkdtempSync(join(tmpdir(), 'twcodec-bin-'));
const version = (JSON.parse(readFileSync(join(repoRoot, 'packages', 'cli', 'package.json'), 'utf8')) as { version: string }).version;

describe('twcodec (built binary): help, version, usage errors', () => {
  it('without arguments prints usage to stderr and exits 2', () => {
    const r = twcodec([]);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/^Usage: twcodec <command>/);
  });

  it('--version prints the package version; help is --help', () => {
    expect(twcodec(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
    const help = twcodec(['--help']);
    expect(help.code).toBe(0);
    expect(twcodec(['help'])).toMatchObject({ code: 0, stdout: help.stdout });
    expect(twcodec(['help', 'map', 'json'])).toMatchObject({ code: 0, stdout: twcodec(['map', 'json', '--help']).stdout });
    expect(twcodec(['help', 'map', 'json']).stdout).toMatch(/^Usage: twcodec map json FILE \[--data-dir DIR\]\n/);
  });

  it('an unknown option is a usage error naming the option and the command', () => {
    const r = twcodec(['map', 'info', ctf1, '--frob']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("twcodec: unknown option --frob for 'map info' (its options: --jobs; see twcodec map info --help)\n");
    expect(twcodec(['teehistorian', 'resave', th, 'x', '--frob']).stderr).toBe("twcodec: unknown option --frob for 'teehistorian resave' (it takes no options; see twcodec teehistorian resave --help)\n");
    const flag = twcodec(['map', 'resave', ctf1, 'x.map', '--ddnet=yes']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^twcodec: option --ddnet takes no value \(usage: twcodec map resave IN OUT \[--ddnet\].*\)\n$/);
    const missing = twcodec(['map', 'json', ctf1, '--data-dir']);
    expect(missing).toMatchObject({ code: 2, stderr: 'twcodec: option --data-dir needs a value DIR (usage: twcodec map json FILE [--data-dir DIR])\n' });
  });

  it('an extra argument is "unexpected", a missing one "missing"', () => {
    expect(twcodec(['map', 'json', ctf1, 'extra'])).toMatchObject({ code: 2, stderr: "twcodec: unexpected argument 'extra' (usage: twcodec map json FILE [--data-dir DIR])\n" });
    expect(twcodec(['map', 'info'])).toMatchObject({ code: 2, stderr: 'twcodec: missing FILE (usage: twcodec map info FILE... [--jobs N])\n' });
    expect(twcodec(['datafile', 'resave', ctf1])).toMatchObject({ code: 2, stderr: 'twcodec: missing OUT (usage: twcodec datafile resave IN OUT [--ddnet])\n' });
  });

  it('unknown commands list what exists', () => {
    expect(twcodec(['map', 'frob'])).toMatchObject({ code: 2, stderr: "twcodec: unknown command 'map frob' (the map commands: info, validate, resave, json, extract, unpack, pack, diff, convert, fix, render, replace-image, replace-sound)\n" });
    expect(twcodec(['frob']).stderr).toMatch(/^twcodec: unknown command 'frob' \(the commands: datafile, map, /);
  });
});

describe('twcodec (built binary): files', () => {
  it('a missing file is named once, without Node error codes', () => {
    const r = twcodec(['map', 'info', 'no-such.map']);
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: 'twcodec: cannot read no-such.map: no such file or directory\n' });
  });

  it('a directory as input is named', () => {
    const dir = tmp();
    expect(twcodec(['map', 'info', dir])).toMatchObject({ code: 1, stderr: `twcodec: cannot read ${dir}: is a directory, not a file\n` });
    expect(twcodec(['teehistorian', 'dump', dir])).toMatchObject({ code: 1, stderr: `twcodec: cannot read ${dir}: is a directory, not a file\n` });
  });

  it('a directory as OUT is refused clearly and nothing is written', () => {
    const dir = tmp();
    const r = twcodec(['datafile', 'resave', ctf1, dir]);
    expect(r).toMatchObject({ code: 1, stderr: `twcodec: cannot write ${dir}: is a directory (give a file name, or - for standard output)\n` });
    expect(readdirSync(dir)).toEqual([]);
    // A missing parent directory names the user's path, not the temporary file beside it.
    const out = join(dir, 'missing', 'out.map');
    expect(twcodec(['datafile', 'resave', ctf1, out])).toMatchObject({ code: 1, stderr: `twcodec: cannot write ${out}: no such file or directory\n` });
  });

  it('- as OUT writes to standard output, - as FILE reads standard input', () => {
    const r = twcodec(['datafile', 'resave', ctf1, '-']);
    expect(r.code).toBe(0);
    expect(r.stdoutBytes).toEqual(readBytes(ctf1));
    const info = twcodec(['datafile', 'info', '-'], readBytes(ctf1));
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ file: '-', version: 4, fileSize: readBytes(ctf1).length });
  });

  it('datafile resave --ddnet of a version-3 file deflates its data (pako, required on first use from the bundle)', () => {
    const v3 = new Datafile();
    v3.version = 3;
    v3.addItem(0, 0, Int32Array.of(1));
    v3.addData(new TextEncoder().encode('grass_main '.repeat(20)));
    const r = twcodec(['datafile', 'resave', '--ddnet', '-', '-'], v3.write());
    expect(r.stderr).toBe('');
    const out = Datafile.read(r.stdoutBytes);
    expect(out.version).toBe(4);
    expect(out.data[0]!.bytes()).toEqual(v3.data[0]!.bytes());
    expect(r.stdoutBytes.length).toBeLessThan(150); // 220 bytes of data, deflated
  });

  it('a file of the wrong kind says what was expected and what the file looks like', () => {
    const dir = tmp();
    const files: Record<string, [Uint8Array, string]> = {
      'image.png': [Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(300)), 'a PNG image'],
      'map.gz': [Uint8Array.of(0x1f, 0x8b, 0x08, 0, ...new Uint8Array(300)), 'a gzip archive (decompress it first)'],
      'maps.zip': [Uint8Array.of(0x50, 0x4b, 0x03, 0x04, ...new Uint8Array(300)), 'a zip archive (extract it first)'],
      'notes.txt': [new TextEncoder().encode('hello, this is a text file and not a map at all\n'.repeat(8)), 'text'],
    };
    for (const [name, [bytes]] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
    for (const [name, [, looks]] of Object.entries(files)) {
      const r = twcodec(['map', 'info', join(dir, name)]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`expected a Teeworlds map (a datafile: starts with DATA or ATAD); ${join(dir, name)} looks like ${looks}\n`);
    }
    expect(twcodec(['teehistorian', 'stats', ctf1]).stderr).toMatch(/^twcodec: BAD_MAGIC: .*: expected a DDNet teehistorian file .*; .*ctf1\.map looks like a Teeworlds datafile \(map\)\n$/);
    expect(twcodec(['demo', 'info', th]).stderr).toMatch(/^twcodec: BAD_MAGIC: .*: expected a Teeworlds demo .*looks like a DDNet teehistorian file\n$/);
    expect(twcodec(['map', 'info', demo]).stderr).toMatch(/expected a Teeworlds map .*looks like a Teeworlds demo\n$/);
    expect(twcodec(['teehistorian', 'dump', '-'], new Uint8Array(0)).stderr).toMatch(/standard input looks like an empty file\n$/);
    // The net commands that read a capture name it too (they printed only "not a pcap or pcapng file (magic ...)").
    expect(twcodec(['net', 'pcap', ctf1]).stderr).toMatch(/^twcodec: BAD_MAGIC: .*: expected a pcap or pcapng capture .*; .*ctf1\.map looks like a Teeworlds datafile \(map\)\n$/);
    expect(twcodec(['net', 'demo', '-', join(dir, 'out.demo'), '--player', 'x'], new Uint8Array(0)).stderr).toMatch(/expected a pcap or pcapng capture .*; standard input looks like an empty file\n$/);
    expect(twcodec(['demo', 'info', join(fixturesDir, 'net', 'teeworlds-0.7-cut.pcap')]).stderr).toMatch(/looks like a network capture \(pcap\)\n$/);
    // An image argument that is not a PNG is named with what it looks like, as main inputs are.
    const replaced = twcodec(['map', 'replace-image', ctf1, '0', demo, join(dir, 'out.map')]);
    expect(replaced.code).toBe(1);
    expect(replaced.stderr).toMatch(/^twcodec: png\.invalid: not a PNG .*: expected a PNG image; .*\.demo looks like a Teeworlds demo\n$/);
  });
});

describe('twcodec (built binary): output into a closed pipe', () => {
  it.each([
    ['demo snapshots', ['demo', 'snapshots', demo]],
    ['teehistorian dump', ['teehistorian', 'dump', th]],
    ['map json', ['map', 'json', ctf1]],
    ['datafile resave to -', ['datafile', 'resave', ctf1, '-']],
  ])('%s ends quietly with exit 0', async (_name, args) => {
    expect(await closedPipe(args)).toEqual({ code: 0, stderr: '' });
  });

  it('| head -1 gets the first line and the command ends quietly with exit 0', () => {
    const r = spawnSync('bash', ['-c', `node "$0" teehistorian dump "$1" | head -1; echo "exit=\${PIPESTATUS[0]}" >&2`, bin, th], { encoding: 'utf8' });
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'header' });
    expect(r.stderr).toBe('exit=0\n');
  });
});

describe('npm scripts', () => {
  it('npm run -s sample prints the JSON alone, and leaves a built dist/ as it is', () => {
    const built = join(repoRoot, 'packages', 'cli', 'dist', 'bin.js');
    const before = statSync(built).mtimeMs;
    const out = execFileSync('npm', ['run', '-s', 'sample'], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' } });
    expect(JSON.parse(out)).toMatchObject({ file: 'fixtures/maps/ctf1.map', version: 4, fileSize: readBytes(ctf1).length });
    // Its build step writes nothing when dist/ is current (nx restored dist/ from its cache on every run,
    // under the other tests reading it).
    expect(statSync(built).mtimeMs).toBe(before);
  });

  it('npx twcodec runs the linked binary', () => {
    expect(execFileSync('npx', ['--no-install', 'twcodec', '--version'], { cwd: repoRoot, encoding: 'utf8' })).toBe(`${version}\n`);
  });
});

describe('twcodec (built binary): consistent output', () => {
  it('demo info counts the lines demo snapshots prints, and labels the tick span', () => {
    for (const file of readdirSync(join(fixturesDir, 'demos')).map((f) => join(fixturesDir, 'demos', f))) {
      const info = JSON.parse(twcodec(['demo', 'info', file]).stdout);
      const lines = twcodec(['demo', 'snapshots', file]).stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { tick: number });
      expect(info.ticks.snapshots).toBe(lines.length);
      expect(info.ticks.first).toBe(lines[0]!.tick);
      expect(info.ticks.last).toBe(lines.at(-1)!.tick);
      expect(info.ticks.span).toBe(info.ticks.last - info.ticks.first + 1);
    }
  });

  it('every teehistorian dump line has a kind: header first, FINISH last', () => {
    const lines = twcodec(['teehistorian', 'dump', th]).stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { kind?: string });
    expect(lines[0]).toMatchObject({ kind: 'header', header: { game_uuid: '1eb21562-66cc-4574-ba49-d748a909b594' } });
    expect(lines.filter((l) => typeof l.kind !== 'string')).toEqual([]);
    expect(lines.at(-1)!.kind).toBe('FINISH');
  });

  it('a teehistorian file cut short ends with a kind "end" line', () => {
    const bytes = readBytes(th);
    const r = twcodec(['teehistorian', 'dump', '-'], bytes.subarray(0, bytes.length - 50));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.trimEnd().split('\n').at(-1)!)).toMatchObject({ kind: 'end' });
  });

  it('map json prints the ints of an unknown item as an array', () => {
    const df = Datafile.read(readBytes(ctf1));
    df.items.push({ type: 200, id: 0, data: Int32Array.of(1, -2, 0x7fffffff) });
    const dir = tmp();
    mkdirSync(join(dir, 'in'));
    writeFileSync(join(dir, 'in', 'unknown.map'), df.write());
    const model = JSON.parse(twcodec(['map', 'json', join(dir, 'in', 'unknown.map')]).stdout);
    expect(model.unknownItems).toEqual([{ type: 200, id: 0, data: [1, -2, 0x7fffffff], offset: expect.any(Number) }]);
  });
});

// The writers are optional dependencies (devDependencies of @twcodec/export here): without them, skipped.
const haveWriters = await Promise.all(['hyparquet-writer', 'apache-arrow'].map((name) => import(/* @vite-ignore */ name).then(() => true, () => false)));

describe.skipIf(haveWriters.includes(false))('twcodec (built binary): export (needs hyparquet-writer and apache-arrow)', () => {
  const parquetRows = async (path: string) => {
    const { parquetReadObjects } = await import('hyparquet');
    const buf = readFileSync(path);
    return parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer });
  };

  it('teehistorian export writes OUT/<table>.parquet and says what it wrote', async () => {
    const dir = join(tmp(), 'out');
    const r = twcodec(['teehistorian', 'export', '--format', 'parquet', th, dir]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const summary = JSON.parse(r.stdout) as { tables: { table: string; rows: number; file: string }[] };
    expect(summary.tables.map((t) => t.table)).toEqual(['positions', 'inputs', 'events']);
    expect(readdirSync(dir).sort()).toEqual(['events.parquet', 'inputs.parquet', 'positions.parquet']);
    const positions = await parquetRows(join(dir, 'positions.parquet'));
    expect(positions.length).toBe(summary.tables[0]!.rows);
    expect(positions[0]).toEqual({ tick: expect.any(Number), cid: expect.any(Number), x: expect.any(Number), y: expect.any(Number) });
  });

  it('demo export --table writes one table to OUT, also to standard output; --format arrow', async () => {
    const r = twcodec(['demo', 'export', '--table', 'character', demo, '-']);
    expect(r.code).toBe(0);
    expect(new TextDecoder().decode(r.stdoutBytes.subarray(0, 4))).toBe('PAR1');
    const arrowFile = join(tmp(), 'chat.arrow');
    expect(twcodec(['demo', 'export', '--format', 'arrow', '--table', 'chat', demo, arrowFile]).code).toBe(0);
    const { tableFromIPC } = await import('apache-arrow');
    expect(tableFromIPC(readFileSync(arrowFile)).schema.fields.map((f) => f.name)).toEqual(['tick', 'client_id', 'name', 'team', 'text']);
  });

  it('many files: each into OUT/<name>/, a line per file, a bad file reported and the others written', async () => {
    const out = join(tmp(), 'out');
    const r = twcodec(['teehistorian', 'export', '--jobs', '2', join(fixturesDir, 'teehistorian', '*.teehistorian'), ctf1, out]);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { file: string; ok: boolean; out?: string; error?: { code: string } });
    expect(lines.map((l) => [l.ok, l.out ?? l.error?.code])).toEqual([
      [true, join(out, 'ctf2_1eb21562-66cc-4574-ba49-d748a909b594')],
      [true, join(out, 'idle-ctf1')],
      [false, 'BAD_MAGIC'],
    ]);
    expect(readdirSync(out).sort()).toEqual(['ctf2_1eb21562-66cc-4574-ba49-d748a909b594', 'idle-ctf1']);
    expect((await parquetRows(join(out, 'ctf2_1eb21562-66cc-4574-ba49-d748a909b594', 'positions.parquet'))).length).toBe(5195);
    expect(r.stderr).toMatch(/^twcodec: teehistorian export: 3 files, 2 ok, 1 failed/);
  });

  it('usage errors: a format, a table, several tables to standard output', () => {
    expect(twcodec(['demo', 'export', '--format', 'csv', demo, 'x'])).toMatchObject({ code: 2, stderr: 'twcodec: --format csv: the value is one of parquet, arrow (see twcodec demo export --help)\n' });
    expect(twcodec(['teehistorian', 'export', '--table', 'chat', th, 'x']).stderr).toBe('twcodec: --table chat: a teehistorian file has no table chat (its tables: positions, inputs, events) (see twcodec --help)\n');
    expect(twcodec(['teehistorian', 'export', th, '-'])).toMatchObject({ code: 2, stderr: 'twcodec: OUT - (standard output) takes one table: add --table NAME (see twcodec --help)\n' });
  });
});

describe('twcodec (built binary): many files', () => {
  const lines = (stdout: string) => stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { file: string; ok: boolean; error?: { code: string; looksLike?: string } } & Record<string, unknown>);

  it('map validate over a glob (expanded by twcodec) and a bad file: a line per file in order, a summary, exit 1', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'broken.map'), readBytes(ctf1).subarray(0, 300));
    for (const jobs of ['1', '2']) {
      const r = twcodec(['map', 'validate', '--jobs', jobs, join(fixturesDir, 'maps', '*.map'), join(dir, 'broken.map'), demo, join(dir, 'none-*.map')]);
      expect(r.code).toBe(1);
      const out = lines(r.stdout);
      expect(out.map((l) => l.file)).toEqual([...readdirSync(join(fixturesDir, 'maps')).sort().map((f) => join(fixturesDir, 'maps', f)), join(dir, 'broken.map'), demo, join(dir, 'none-*.map')]);
      expect(out.slice(0, 3).every((l) => l.ok && l.errors === 0)).toBe(true);
      expect(out[3]).toMatchObject({ ok: false, error: { code: expect.any(String) } });
      expect(out[4]).toMatchObject({ ok: false, error: { code: 'BAD_MAGIC', looksLike: 'a Teeworlds demo' } });
      expect(out[5]).toMatchObject({ ok: false, error: { code: 'ENOENT', message: `no file matches ${join(dir, 'none-*.map')}` } });
      expect(r.stderr).toMatch(new RegExp(`^twcodec: map validate: 6 files, 3 ok, 3 failed \\([0-9.]+ s, ${jobs === '1' ? '1 thread' : '2 worker threads'}\\)\n$`));
    }
  });

  it('map info, teehistorian stats, demo info over many files: the single-file result in each line, exit 0', () => {
    const maps = twcodec(['map', 'info', join(fixturesDir, 'maps', '**', '*.map')]);
    expect(maps.code).toBe(0);
    expect(lines(maps.stdout).find((l) => l.file === ctf1)).toEqual({ ok: true, ...JSON.parse(twcodec(['map', 'info', ctf1]).stdout) });
    const stats = twcodec(['teehistorian', 'stats', join(fixturesDir, 'teehistorian', '*.teehistorian')]);
    expect(stats.code).toBe(0);
    expect(lines(stats.stdout).map((l) => [l.ok, typeof l.messageCount])).toEqual([[true, 'number'], [true, 'number']]);
    const demoFiles = readdirSync(join(fixturesDir, 'demos')).map((f) => join(fixturesDir, 'demos', f));
    expect(demoFiles.length).toBe(3);
    const demos = twcodec(['demo', 'info', '--jobs', '2', ...demoFiles]);
    expect(demos.code).toBe(0);
    expect(lines(demos.stdout).every((l) => l.ok && typeof l.ticks === 'object')).toBe(true);
    expect(demos.stderr).toMatch(/^twcodec: demo info: 3 files, 3 ok, 0 failed/);
  });

  it('--jobs must be a count; - is not one of many files', () => {
    expect(twcodec(['map', 'info', '--jobs', 'x', ctf1])).toMatchObject({ code: 2, stderr: 'twcodec: --jobs needs a number of threads 1..256, got "x" (see twcodec --help)\n' });
    expect(twcodec(['map', 'info', ctf1, '-']).code).toBe(2);
  });
});
