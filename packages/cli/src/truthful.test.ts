// Issue 26, "tools that lie or stay silent": the built `twcodec` binary (as bin.test.ts runs it, after the
// build) on inputs made here. Each case failed before its fix: a demo slice outside the demo written empty, a
// demo cut short refused by demo info, a name looked up without limit, bad option values accepted, errors that
// blamed the wrong file, inconsistent output, help wider than a terminal.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DemoWriter } from '@twcodec/demo';
import { encode as encodePng } from 'fast-png';
import { encodeDdnet06Message } from '@twcodec/netmsg';
import { encodeI32String } from '@twcodec/runtime';
import { Snapshot, type SnapshotItem } from '@twcodec/snapshot';
import { fixturesDir, readBytes, repoRoot } from '../../../test/corpus.js';
import { REPOSITORY } from './index.js';

const bin = join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs');
const ctf1 = join(fixturesDir, 'maps', 'ctf1.map');
const demo = join(fixturesDir, 'demos', 'ctf2_server_Alpha_server_manual.demo');

function twcodec(args: string[], input?: Uint8Array) {
  const r = spawnSync('node', [bin, ...args], { input, cwd: repoRoot });
  return { code: r.status, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
}
const tmp = () => mkdtempSync(join(tmpdir(), 'twcodec-truth-'));
const ndjson = (text: string) => text.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

/** A client-info item (type 11, 0.6) for client `id` called `name`. */
function clientInfo(id: number, name: string): SnapshotItem {
  const data = new Int32Array(17);
  data.set(encodeI32String(name, 4), 0);
  data.set(encodeI32String('', 3), 4);
  data.set(encodeI32String('default', 6), 8);
  return { type: 11, id, data };
}

const chat = (clientId: number, message: string) => encodeDdnet06Message({ kind: 'sv_chat', team: 0, clientId, message });

/**
 * A demo of ticks 100..400: player "Early" (client 1) from tick 100 to 200, nobody on client 1 from 201 to
 * 299, "Later" on client 1 from 300. Chat from client 1 at ticks 250 (nobody there), 299 (the tick before
 * Later's first snapshot: a joining line) and 350; a message before the first tick marker.
 */
function chatDemo(): Uint8Array {
  const w = new DemoWriter({ netVersion: '0.6 626fce9a778df4d4', mapName: 'x', mapCrc: '00000000', type: 'client', timestamp: '2026-11-22_10-00-00', mapSha256: '0'.repeat(64) }, undefined);
  w.message(chat(-1, 'before the first tick'));
  for (let tick = 100; tick <= 400; tick++) {
    const items = tick <= 200 ? [clientInfo(1, 'Early')] : tick >= 300 ? [clientInfo(1, 'Later')] : [clientInfo(0, 'Other')];
    w.snapshot(tick, new Snapshot(items));
    if (tick === 250) w.message(chat(1, 'nobody is client 1 now'));
    if (tick === 299) w.message(chat(1, 'joining'));
    if (tick === 350) w.message(chat(1, 'hello'));
  }
  return w.finish();
}

describe('demo commands tell the truth', () => {
  it('demo slice of a range outside the demo refuses with its tick range and writes nothing', () => {
    const dir = tmp();
    const r = twcodec(['demo', 'slice', '--from', '999999', demo, join(dir, 's.demo')]);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe('twcodec: BAD_RANGE: the demo has no recorded tick in 999999.. (its ticks are 616..686) (at slice)\n');
    expect(readdirSync(dir)).toEqual([]);
    expect(twcodec(['demo', 'slice', '--to', '10', demo, join(dir, 's.demo')]).stderr).toMatch(/no recorded tick in \.\.10 \(its ticks are 616\.\.686\)/);
  });

  it('demo resave refuses a demo it would not give back byte for byte, says why and writes nothing', () => {
    const dir = tmp();
    const mutated = readBytes(demo).slice();
    new DataView(mutated.buffer).setInt32(176, 65, false); // 65 timeline markers: read as at most 64
    writeFileSync(join(dir, 'in.demo'), mutated);
    const r = twcodec(['demo', 'resave', join(dir, 'in.demo'), join(dir, 'out.demo')]);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe("twcodec: NOT_LOSSLESS: the demo would not be written back as it is: the header's count of timeline markers changes (it is read as 0 to 64) (at header, offset 179)\n");
    expect(readdirSync(dir)).toEqual(['in.demo']);
    expect(twcodec(['demo', 'resave', demo, '-']).code).toBe(0);
  });

  it('demo info and demo snapshots of a demo cut short report what was read, with end.truncated', () => {
    const bytes = readBytes(demo);
    const whole = JSON.parse(twcodec(['demo', 'info', demo]).stdout);
    expect(whole.end).toEqual({ truncated: false, offset: bytes.length });
    const r = twcodec(['demo', 'info', '-'], bytes.subarray(0, 30000));
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info.end).toEqual({ truncated: true, offset: 29881, reason: 'chunk of 149 bytes, 117 left' });
    expect(info.ticks).toMatchObject({ first: 616, last: 630 });
    // demo snapshots prints the same snapshots, then where it ended.
    const snapshots = twcodec(['demo', 'snapshots', '--summary', '-'], bytes.subarray(0, 30000));
    expect(snapshots.code).toBe(0);
    const lines = ndjson(snapshots.stdout);
    expect(lines.length - 1).toBe(info.ticks.snapshots);
    expect(lines.at(-1)).toEqual({ end: info.end });
  });

  it('demo chat names a client id only while (or just as) that player is there', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'chat.demo'), chatDemo());
    const r = twcodec(['demo', 'chat', join(dir, 'chat.demo')]);
    expect(r.code).toBe(0);
    expect(ndjson(r.stdout).map((l) => [l.tick, l.clientId, l.name ?? null, l.text])).toEqual([
      [100, -1, null, 'before the first tick'],
      [250, 1, null, 'nobody is client 1 now'],
      [299, 1, 'Later', 'joining'],
      [350, 1, 'Later', 'hello'],
    ]);
  });

  it('demo messages calls the kind "kind" (as teehistorian dump does); a message before the first tick marker has the first tick', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'chat.demo'), chatDemo());
    const lines = ndjson(twcodec(['demo', 'messages', join(dir, 'chat.demo')]).stdout);
    expect(lines[0]).toEqual({ tick: 100, kind: 'sv_chat', fields: { team: 0, clientId: -1, message: 'before the first tick' } });
    expect(lines.every((l) => typeof l.kind === 'string' && !('message' in l))).toBe(true);
  });
});

describe('bad option values are usage errors (exit 2) that list the values', () => {
  it.each([
    [['map', 'render', ctf1, 'x.png', '--layer', 'nope'], 'twcodec: --layer nope: the value is one of game, tiles (see twcodec map render --help)\n'],
    [['map', 'convert', ctf1, 'x.map', '--to', '0.8'], 'twcodec: --to 0.8: the value is one of ddnet, 0.7, 07 (see twcodec map convert --help)\n'],
  ])('%j', (args, stderr) => {
    expect(twcodec(args)).toEqual({ code: 2, stdout: '', stderr });
  });

  it('demo messages --kind with a kind no protocol has', () => {
    const r = twcodec(['demo', 'messages', '--kind', 'sv_chat,nosuch', demo]);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/^twcodec: --kind nosuch: each value is one of .*\bsv_chat, .*\bunknown \(see twcodec demo messages --help\)\n$/);
  });

  it('demo strip with neither --chat nor --map', () => {
    const dir = tmp();
    const r = twcodec(['demo', 'strip', demo, join(dir, 'out.demo')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^twcodec: demo strip needs --chat, --map or both/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('errors name the input they came from', () => {
  const png = encodePng({ width: 2, height: 2, data: new Uint8Array(16).fill(255), channels: 4, depth: 8 });

  it('map replace-image: a missing image name is about the map (not "expected a Teeworlds map" for the PNG)', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'ok.png'), png);
    const r = twcodec(['map', 'replace-image', ctf1, 'nosuch', join(dir, 'ok.png'), join(dir, 'out.map')]);
    expect(r).toMatchObject({ code: 1, stderr: `twcodec: map.image_name: the map has no image named "nosuch" (in ${ctf1})\n` });
  });

  it('map replace-image: a bad PNG is named, not blamed as a wrong map', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'notes.txt'), 'not a png at all');
    const image = twcodec(['map', 'replace-image', ctf1, '0', join(dir, 'notes.txt'), join(dir, 'out.map')]);
    expect(image.code).toBe(1);
    expect(image.stderr).toMatch(/^twcodec: png\.invalid: /);
    expect(image.stderr).toContain('notes.txt');
    expect(image.stderr).not.toContain('expected a Teeworlds map');
  });

  it('map diff: an error in B names B', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'b.map'), readBytes(ctf1).subarray(0, 100));
    const r = twcodec(['map', 'diff', ctf1, join(dir, 'b.map')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^twcodec: \\w+: .*\\(in ${join(dir, 'b.map')}[,)]`));
    expect(r.stderr).not.toContain(ctf1);
  });

  it('map pack: a bad tile gives the file, line and column; bad JSON names map.json, not a wrong map', () => {
    const dir = tmp();
    expect(twcodec(['map', 'unpack', ctf1, join(dir, 'm')]).code).toBe(0);
    const layer = readdirSync(join(dir, 'm', 'layers')).find((f) => f.endsWith('.txt'))!;
    const path = join(dir, 'm', 'layers', layer);
    const rows = readFileSync(path, 'utf8').split('\n');
    // The row's second token made bad (the first may be a run, `00000000*50`: issue 36).
    const second = rows[2]!.indexOf(' ') + 1;
    rows[2] = `${rows[2]!.slice(0, second)}zz${rows[2]!.slice(second + 2)}`;
    writeFileSync(path, rows.join('\n'));
    const tile = twcodec(['map', 'pack', join(dir, 'm'), join(dir, 'out.map')]);
    expect(tile.code).toBe(1);
    expect(tile.stderr).toMatch(/^twcodec: mapdir\.tile: "zz/);
    expect(tile.stderr).toContain(`layers/${layer}:3:${second + 1}`);
    const json = join(dir, 'm', 'map.json');
    writeFileSync(json, readFileSync(json, 'utf8').replace('{', '{\n  "x" 1,'));
    const broken = twcodec(['map', 'pack', join(dir, 'm'), join(dir, 'out.map')]);
    expect(broken.stderr).toMatch(/^twcodec: mapdir\.json: .*map\.json/);
    expect(broken.stderr).not.toContain('expected a Teeworlds map');
    expect(existsSync(join(dir, 'out.map'))).toBe(false);
  });

  it("a PNG's magic is shown with its first byte", () => {
    const dir = tmp();
    writeFileSync(join(dir, 'x.png'), png);
    expect(twcodec(['map', 'info', join(dir, 'x.png')]).stderr).toMatch(/^twcodec: BAD_MAGIC: magic is "\\x89PNG" /);
  });
});

describe('help fits a terminal', () => {
  const commands = twcodec(['--help'])
    .stdout.split('\n')
    .filter((l) => /^ {2}[a-z]+ [a-z-]+ /.test(l))
    .map((l) => l.trim().split(' ').slice(0, 2));

  it('twcodec --help and every command help: lines of at most 80 columns', () => {
    expect(commands.length).toBeGreaterThan(25);
    for (const args of [[], ...commands]) {
      const help = twcodec([...args, '--help']).stdout;
      const wide = help.split('\n').filter((l) => l.length > 80);
      expect(wide, args.join(' ')).toEqual([]);
    }
  });

  it('options show their values; docs are linked in the repository, not by a path the npm package lacks', () => {
    expect(twcodec(['demo', 'messages', '--help']).stdout).toMatch(/^Usage: twcodec demo messages FILE \[--kind KIND,\.\.\.\]\n/);
    expect(twcodec(['map', 'render', '--help']).stdout).toContain('(game, tiles)');
    const all = [[], ...commands].map((args) => twcodec([...args, '--help']).stdout).join('\n');
    expect(all).not.toMatch(/(?<!\/blob\/main\/)docs\//);
    expect(all).toContain(`${REPOSITORY}/blob/main/docs/export.md`);
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'packages', 'cli', 'package.json'), 'utf8')) as { repository: { url: string } };
    expect(pkg.repository.url).toBe(`git+${REPOSITORY}.git`);
  });

  it('counts have their plural only when not one', () => {
    const r = twcodec(['map', 'info', '--jobs', '1', ctf1]);
    expect(r.stderr).toMatch(/^twcodec: map info: 1 file, 1 ok, 0 failed \([0-9.]+ s, 1 thread\)\n$/);
  });
});

// The writers are optional dependencies (devDependencies of @twcodec/export here): without them, skipped.
const haveParquet = await import(/* @vite-ignore */ 'hyparquet-writer').then(() => true, () => false);

describe.skipIf(!haveParquet)('demo export of a demo cut short (needs hyparquet-writer)', () => {
  it('exports what was read and says truncated, as demo info does', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'cut.demo'), readBytes(demo).subarray(0, 30000));
    const r = twcodec(['demo', 'export', join(dir, 'cut.demo'), join(dir, 'out')]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ truncated: true, end: { truncated: true, offset: 29881 } });
    expect(summary.tables.find((t: { table: string }) => t.table === 'character').rows).toBeGreaterThan(0);
  });
});
