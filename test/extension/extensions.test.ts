// The test of the architecture (issue 37): seven extensions a maintainer makes by editing YAML only (a UUID map
// item, a snapshot object, a 0.6 UUID net message and a 0.7 net message, a teehistorian EX message, a tile id,
// a control and a connectionless packet message, a weapon and a game flag) reach every reader, writer, CLI
// command, explorer view and doc page that shows such things.
//
// In a scratch copy of the repository (test/extension/scratch.ts) the fixtures of fixtures/schema-extension/
// are put into schemas/ (test/extension/edits.ts), the generator runs, `tsc -b` rebuilds what changed, and
// test/extension/probe.ts builds small inputs holding each extension and reads them through the copy's
// libraries and explorer views; the CLI runs on the same inputs. Every check looks for the added names and
// values; none compares with a list of what exists today.
//
// A check that cannot pass because a fact is still hand-written in TypeScript (or pinned in the YAML instead
// of derived) is marked `it.fails` with the place named; none is today.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { decodePng } from '@twcodec/map-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../packages/codegen/src/generate.js';
import { fixturesDir, repoRoot } from '../corpus.js';
import { CHROMIUM, clickPath, findRow, launchChromium, openFile, serveDir } from '../explorer/page.js';
import { ADDED, applyExtensions } from './edits.js';
import { buildScratch, copyRepository, transpileExplorer } from './scratch.js';

type Result = { value: unknown } | { error: string };
let root = '';
let results: Record<string, Result> = {};

/** A probe result's value; a probe that threw fails the check with its error. */
function value<T = unknown>(name: string): T {
  const r = results[name];
  if (!r) throw new Error(`the probe did not run ${name}`);
  if ('error' in r) throw new Error(`${name}: ${r.error}`);
  return r.value as T;
}
const doc = (name: string) => readFileSync(join(root, 'docs', 'formats', name), 'utf8');
/** The scratch copy's CLI: stdout, whatever the exit code (map diff exits 1 when maps differ). */
function twcodec(...args: string[]): string {
  const r = spawnSync(process.execPath, [join(root, 'packages', 'cli', 'dist', 'bin.js'), ...args], { cwd: join(root, 'inputs'), encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`twcodec ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** Transpiles a test helper into the copy (Node runs it there, resolving @twcodec/* to the copy's packages). */
function transpileInto(from: string, to: string): void {
  const out = ts.transpileModule(readFileSync(from, 'utf8'), { fileName: from, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true } });
  writeFileSync(to, out.outputText);
}

beforeAll(async () => {
  const ms: Record<string, number> = {};
  const time = async (step: string, run: () => unknown) => {
    const t = performance.now();
    await run();
    ms[step] = Math.round(performance.now() - t);
  };
  await time('copy', () => (root = copyRepository()));
  await time('edit+generate', () => {
    applyExtensions(root);
    generate({ root });
  });
  await time('tsc -b', () => buildScratch(root));
  await time('probe', async () => {
    await transpileExplorer(root);
    mkdirSync(join(root, 'extension'));
    transpileInto(join(repoRoot, 'test', 'extension', 'probe.ts'), join(root, 'extension', 'probe.js'));
    transpileInto(join(repoRoot, 'test', 'net-capture-builder.ts'), join(root, 'net-capture-builder.js'));
    cpSync(join(fixturesDir, 'maps', 'ctf1.map'), join(root, 'inputs-src', 'ctf1.map'));
    const r = spawnSync(process.execPath, [join(root, 'extension', 'probe.js'), root, JSON.stringify(ADDED)], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`probe failed: ${r.stderr}`);
    results = JSON.parse(r.stdout);
  });
  console.log(`scratch copy ${root}: ${Object.entries(ms).map(([k, v]) => `${k} ${v} ms`).join(', ')}`);
}, 300_000);
// TWCODEC_KEEP_SCRATCH=1 keeps the copy (its path is printed) to look into a failure.
afterAll(() => {
  if (root && process.env.TWCODEC_KEEP_SCRATCH !== '1') rmSync(root, { recursive: true, force: true });
});

describe('1. a UUID map item', () => {
  const { name, uuidName } = ADDED.mapItem;
  const item = { version: 2, group: 0, weights: [5, 6, 7], label: 'west' };

  it('is written by writeMap from map.items, read back by readMap, and the map round-trips byte for byte', () => {
    expect(value<number[][]>('map.write')).toHaveLength(1);
    expect(value('map.read')).toMatchObject({ item: [item], unknownItems: 0 });
    expect(value('map.roundtrip')).toBe(true);
  });
  it('shows in map info, map json, datafile info and map diff', () => {
    expect(JSON.parse(twcodec('map', 'info', 'ext.map')).items[name]).toBe(1);
    expect(JSON.parse(twcodec('map', 'json', 'ext.map')).items[name]).toEqual([item]);
    expect(twcodec('datafile', 'info', 'ext.map')).toContain(uuidName);
    expect(twcodec('map', 'diff', 'base.map', 'ext.map')).toContain(name);
  });
  it('is written back by map resave byte for byte, and kept by map unpack and map pack', () => {
    twcodec('map', 'resave', 'ext.map', 'resaved.map');
    expect(readFileSync(join(root, 'inputs', 'resaved.map')).equals(readFileSync(join(root, 'inputs', 'ext.map')))).toBe(true);
    twcodec('map', 'unpack', 'ext.map', 'unpacked');
    expect(readFileSync(join(root, 'inputs', 'unpacked', 'map.json'), 'utf8')).toContain(name);
    twcodec('map', 'pack', 'unpacked', 'packed.map');
    expect(JSON.parse(twcodec('map', 'info', 'packed.map')).items[name]).toBe(1);
  });
  it('shows in the explorer with its fields', () => {
    expect(value<string>('explorer.schemas')).toContain(name);
    const view = value<string>('explorer.map');
    expect(view).toContain(name);
    expect(view).toMatch(/^weights \|/m);
  });
  it('is documented in docs/formats/map.md', () => {
    expect(doc('map.md')).toContain(uuidName);
    expect(doc('map.md')).toContain(name);
  });
});

describe('2. a snapshot object', () => {
  const { name } = ADDED.snapshotObject;
  it('is written back by demo resave byte for byte', () => {
    twcodec('demo', 'resave', 'ext06.demo', 'resaved06.demo');
    expect(readFileSync(join(root, 'inputs', 'resaved06.demo')).equals(readFileSync(join(root, 'inputs', 'ext06.demo')))).toBe(true);
  });
  it('decodes from a demo snapshot by name, with its fields', () => {
    expect(value<{ timer: unknown }>('snapshot06.objects').timer).toEqual({ startTick: 500, laps: 7 });
  });
  it('shows in demo snapshots', () => {
    const lines = twcodec('demo', 'snapshots', 'ext06.demo').trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toContain(name);
    expect(lines[0]).toContain('"startTick":500');
    expect(JSON.parse(twcodec('demo', 'snapshots', '--summary', 'ext06.demo').split('\n')[0]!).byType[name]).toBe(1);
  });
  it('shows in the explorer', () => {
    expect(value<string>('explorer.schemas')).toContain(name);
    expect(value<string>('explorer.demo06')).toContain(name);
  });
  it('is a table of demo export', () => {
    const out = JSON.parse(twcodec('demo', 'export', 'ext06.demo', 'export06'));
    expect(out.tables.find((t: { table: string }) => t.table === name)).toMatchObject({ rows: 3 });
    expect(existsSync(join(root, 'inputs', 'export06', `${name}.parquet`))).toBe(true);
  });
  it('is documented in docs/formats/snapshot.md', () => expect(doc('snapshot.md')).toContain(`ddnet-0.6 ${name}`));
});

describe('3. a 0.6 UUID net message and a 0.7 net message', () => {
  const m06 = ADDED.message06.name;
  const m07 = ADDED.message07.name;
  it('encode and decode, round trip', () => {
    expect(value('message06.roundtrip')).toMatchObject({ back: { kind: m06, winner: 3, prize: 'cake' }, again: true });
    expect(value('message07.roundtrip')).toMatchObject({ back: { kind: m07, secondsLeft: 90, label: 'overtime' }, again: true });
  });
  it('the 0.6 UUID message is one of 0.7 too (uuid_messages_from)', () => {
    expect(value('message06in07.roundtrip')).toMatchObject({ back: { kind: m06, winner: 3, prize: 'cake' }, same06: true });
  });
  it('are read from demos', () => {
    expect(value<string[]>('demo06.messages').join('\n')).toContain(`"kind":"${m06}"`);
    expect(value<string[]>('demo07.messages').join('\n')).toContain(`"kind":"${m07}"`);
  });
  it('show in demo messages', () => {
    const line06 = twcodec('demo', 'messages', 'ext06.demo').split('\n').find((l) => l.includes(m06));
    expect(line06).toContain('cake');
    const line07 = twcodec('demo', 'messages', 'ext07.demo').split('\n').find((l) => l.includes(m07));
    expect(line07).toContain('overtime');
    // --kind takes the new names (its choices come from the message tables).
    expect(twcodec('demo', 'messages', 'ext06.demo', '--kind', m06).trim().split('\n')).toEqual([expect.stringContaining('"cake"')]);
    expect(twcodec('demo', 'messages', 'ext07.demo', '--kind', m07).trim().split('\n')).toEqual([expect.stringContaining('"overtime"')]);
  });
  it('show in the explorer with their fields', () => {
    expect(value<string>('explorer.demo06')).toMatch(new RegExp(`${m06}[^]*prize \\| string \\| "cake"`));
    expect(value<string>('explorer.demo07')).toMatch(new RegExp(`${m07}[^]*seconds_left \\| int \\| 90`));
    expect(value<string>('explorer.demo06')).toContain('Client id of the winner.');
  });
  it('are documented in docs/formats/net-messages.md', () => {
    expect(doc('net-messages.md')).toContain(m06);
    expect(doc('net-messages.md')).toContain(ADDED.message06.uuidName);
    expect(doc('net-messages.md')).toContain(m07);
  });
});

describe('4. a teehistorian EX message', () => {
  const kind = `EX:${ADDED.teehistorian.name}`;
  it('is written, read back and round-trips byte for byte', () => {
    expect(value<string[]>('teehistorian.read').find((m) => m.includes(kind))).toContain('"prize":"cake"');
    expect(value('teehistorian.roundtrip')).toBe(true);
  });
  it('is written back by teehistorian resave byte for byte', () => {
    twcodec('teehistorian', 'resave', 'ext.teehistorian', 'resaved.teehistorian');
    expect(readFileSync(join(root, 'inputs', 'resaved.teehistorian')).equals(readFileSync(join(root, 'inputs', 'ext.teehistorian')))).toBe(true);
  });
  it('shows in teehistorian dump and stats', () => {
    expect(twcodec('teehistorian', 'dump', 'ext.teehistorian').split('\n').find((l) => l.includes(kind))).toContain('cake');
    // Counted by its own kind (an unknown extension would be counted as EX:<uuid>).
    expect(twcodec('teehistorian', 'stats', 'ext.teehistorian')).toMatch(new RegExp(`"${kind}": ?1\\b`));
  });
  it('is an event of teehistorian export', () => {
    twcodec('teehistorian', 'export', 'ext.teehistorian', 'export-th');
    // The event's kind is a dictionary string of the parquet file (not compressed).
    expect(readFileSync(join(root, 'inputs', 'export-th', 'events.parquet')).includes(kind)).toBe(true);
  });
  it('shows in the explorer with its description', () => {
    expect(value<string>('explorer.schemas')).toContain(ADDED.teehistorian.name);
    const view = value<string>('explorer.teehistorian');
    expect(view).toContain(ADDED.teehistorian.name);
    expect(view).toContain('What they won.');
  });
  it('is documented in docs/formats/teehistorian.md', () => expect(doc('teehistorian.md')).toContain(ADDED.teehistorian.uuidName));
});

describe('5. a tile id', () => {
  const { id, name, colour } = ADDED.tile;
  const named = new RegExp(name.replace('_', '_?'), 'i');
  it('is named and accepted in the game layer, with its colour', () => {
    expect(value('map.tileName')).toMatch(named);
    expect(value('map.tileColour')).toEqual(colour);
    expect(value<{ tile: number }>('map.read').tile).toBe(id);
    expect(value<string[]>('map.validate').filter((i) => i.startsWith('TILE_ID_INVALID'))).toEqual([]);
  });
  it('is drawn in its colour by map render', () => {
    twcodec('map', 'render', 'ext.map', 'game.png', '--layer', 'game');
    const { pixels } = decodePng(new Uint8Array(readFileSync(join(root, 'inputs', 'game.png'))));
    let found = false;
    for (let i = 0; i < pixels.length && !found; i += 4) found = pixels[i] === colour[0] && pixels[i + 1] === colour[1] && pixels[i + 2] === colour[2];
    expect(found).toBe(true);
  });
  it('is accepted by map validate and named by map diff', () => {
    expect(JSON.parse(twcodec('map', 'validate', 'ext.map')).issues.filter((i: { code: string }) => i.code === 'TILE_ID_INVALID')).toEqual([]);
    expect(twcodec('map', 'diff', 'base.map', 'ext.map')).toMatch(named);
  });
  it('is documented in docs/formats/map-tiles.md', () => expect(doc('map-tiles.md')).toMatch(new RegExp(`\\b${id}\\b[^\\n]*${name}|${name}[^\\n]*\\b${id}\\b`)));
});

describe('6. a control message and a connectionless message', () => {
  const control = ADDED.control.name;
  const connless = ADDED.connless.name;
  it('encode, decode and round-trip as packets and in a capture', () => {
    const [c, l] = value<string[]>('packet.decode');
    expect(c).toContain(`"kind":"${control}"`);
    expect(c).toContain('feeling lucky');
    expect(l).toContain(`"kind":"${connless}"`);
    expect(l).toContain('seven');
    expect(value('packet.roundtrip')).toEqual([true, true]);
    const capture = value<string[]>('capture.decode').join('\n');
    expect(capture).toContain(control);
    expect(capture).toContain(connless);
  });
  it('show in net pcap', () => {
    const out = twcodec('net', 'pcap', 'ext.pcap');
    expect(out.split('\n').find((l) => l.includes(control))).toContain('feeling lucky');
    expect(out.split('\n').find((l) => l.includes(connless))).toContain('seven');
  });
  it('show in the explorer', () => {
    const view = value<string>('explorer.capture');
    expect(view).toContain(control);
    expect(view).toContain(connless);
  });
  it("show in the explorer with their schema's descriptions", () => {
    const view = value<string>('explorer.capture');
    expect(view).toContain('A made-up control message');
    expect(view).toContain('A made-up connless message');
  });
  it('are documented in docs/formats/network.md', () => {
    expect(doc('network.md')).toContain(control);
    expect(doc('network.md')).toContain(connless);
    expect(doc('network.md')).toContain(ADDED.connless.magic);
  });
});

describe('7. a weapon and a game flag', () => {
  const { weapon, gameFlag } = ADDED;
  it('are named in decoded snapshots', () => {
    expect(value('snapshot06.objects')).toMatchObject({ weapon: weapon.name, gameFlags: `teams|${gameFlag.name}` });
  });
  it('show by name in demo snapshots', () => {
    const first = twcodec('demo', 'snapshots', 'ext06.demo').split('\n')[0]!;
    expect(first).toContain(weapon.name);
    expect(first).toContain(gameFlag.name);
    const first07 = twcodec('demo', 'snapshots', 'ext07.demo').split('\n')[0]!;
    expect(first07).toContain(weapon.name);
    expect(first07).toContain(gameFlag.name);
  });
  it('show by name in the explorer', () => {
    for (const view of [value<string>('explorer.demo06'), value<string>('explorer.demo07')]) {
      expect(view).toContain(`${weapon.value} (${weapon.name})`);
      expect(view).toContain(gameFlag.name);
    }
  });
  it('are named in demo export tables', () => {
    twcodec('demo', 'export', 'ext06.demo', 'export06-names');
    expect(readFileSync(join(root, 'inputs', 'export06-names', 'character.parquet')).includes(weapon.name)).toBe(true);
  });
  it('are named in net messages (sv_weapon_pickup in demo messages)', () => {
    expect(value<string[]>('message06.weapon').join('\n')).toContain(weapon.name);
    expect(twcodec('demo', 'messages', 'weapon06.demo')).toContain(weapon.name);
  });
  it('are documented in docs/formats/snapshot.md', () => {
    expect(doc('snapshot.md')).toContain(weapon.name);
    expect(doc('snapshot.md')).toContain(gameFlag.name);
  });
  const problems = () => [...value<string[]>('snapshot06.validate'), ...value<string[]>('snapshot07.validate')];
  it('the weapon is in range for the validation of both protocols', () => {
    expect(problems().filter((p) => p.includes('weapon'))).toEqual([]);
  });
  it('the game flag is in the mask of 0.7', () => {
    expect(problems().filter((p) => p.includes('game_flags') || p.includes('gameFlags'))).toEqual([]);
  });
});

describe('the probe', () => {
  // The inputs of the checks above were made and read (a check that expects a failure would pass on any).
  it('has its results', () => {
    for (const name of ['snapshot06.validate', 'snapshot07.validate', 'message06.weapon', 'explorer.capture']) expect(() => value(name), name).not.toThrow();
    expect(value<string[]>('message06.weapon').join('\n')).toContain('"kind":"sv_weapon_pickup"');
  });
});

describe.skipIf(!CHROMIUM)('the explorer page, built from the copy', () => {
  it('shows the new map item and teehistorian message with their descriptions, and the new packet messages', async () => {
    const t = performance.now();
    const { build } = await import('vite');
    const config = (await import(join(root, 'packages', 'explorer', 'vite.config.mjs'))).default;
    const page = join(root, 'explorer-page');
    await build({ ...config, configFile: false, logLevel: 'silent', build: { ...config.build, outDir: page, emptyOutDir: true } });
    const built = performance.now() - t;
    const server = await serveDir(page);
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await tab.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
      const input = (name: string) => join(root, 'inputs', name);
      expect((await openFile(tab, input('ext.map'))).kind).toBe('map');
      expect((await clickPath(tab, ['items', new RegExp(`^${ADDED.mapItem.name} #\\d+$`)])).description).toBe('Spawn weights (an example extension).');
      expect((await clickPath(tab, ['weights'])).description).toBe('Weights.');
      expect((await openFile(tab, input('ext.teehistorian'))).kind).toBe('teehistorian');
      expect((await clickPath(tab, ['messages', new RegExp(`: EX:${ADDED.teehistorian.name}$`)])).description).toBe('A made-up extension: a player won the lucky draw.');
      expect((await openFile(tab, input('ext.pcap'))).kind).toBe('capture');
      await clickPath(tab, ['datagrams']);
      expect(await (await findRow(tab, new RegExp(`control ${ADDED.control.name}$`))).count()).toBe(1);
      expect(await (await findRow(tab, new RegExp(`connless ${ADDED.connless.name}$`))).count()).toBe(1);
    } finally {
      await browser.close();
      server.close();
    }
    console.log(`explorer page: vite build ${Math.round(built)} ms, checks ${Math.round(performance.now() - t - built)} ms`);
  });
});
