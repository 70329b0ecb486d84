// Every publishable package, packed with npm pack, installs into an empty project together with only the
// twcodec tarballs it depends on, and works from plain Node ESM (no TypeScript, no workspace links).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir, repoRoot } from '../corpus.js';

const PACKAGES = ['runtime', 'datafile', 'map', 'map-tools', 'teehistorian', 'snapshot', 'netmsg', 'net', 'demo', 'export', 'cli'];
const packDir = mkdtempSync(join(tmpdir(), 'twcodec-pack-'));
const tarballs = new Map<string, string>();
const internalDeps = new Map<string, string[]>();

const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });

function closure(name: string, out = new Set<string>()): Set<string> {
  out.add(name);
  for (const dep of internalDeps.get(name) ?? []) if (!out.has(dep)) closure(dep, out);
  return out;
}

// What each package is checked with, from plain JavaScript.
const CHECKS: Record<string, string> = {
  runtime: `import { ByteReader, CodecError, uuidFromName } from '@twcodec/runtime';
let code;
try { new ByteReader(Uint8Array.of(0x80)).readVarInt('x'); } catch (e) { code = e instanceof CodecError && e.code; }
ok(uuidFromName('teehistorian@ddnet.tw') === '699db17b-8efb-34ff-b1d8-da6f60c15dd1' && typeof code === 'string' && code.length > 0);`,
  datafile: `import { Datafile } from '@twcodec/datafile';
const bytes = new Uint8Array(readFileSync(fixture('maps/ctf1.map')));
const df = Datafile.read(bytes);
ok(df.write().every((b, i) => b === bytes[i]) && df.data.every((d) => d.bytes().length === d.size));`,
  map: `import { readMap, writeMap, validateMap } from '@twcodec/map';
const bytes = new Uint8Array(readFileSync(fixture('maps/dm7-legacy-size.map')));
const map = readMap(bytes);
ok(validateMap(map).every((i) => i.severity !== 'error') && writeMap(map).length === bytes.length);`,
  'map-tools': `import { readMap } from '@twcodec/map';
import { packMap, unpackMap, renderGameLayer } from '@twcodec/map-tools';
const bytes = new Uint8Array(readFileSync(fixture('maps/ctf1.map')));
const png = renderGameLayer(readMap(bytes));
ok(packMap(unpackMap(bytes)).every((b, i) => b === bytes[i]) && png[1] === 0x50);`,
  teehistorian: `import { readTeehistorian } from '@twcodec/teehistorian';
const th = readTeehistorian(new Uint8Array(readFileSync(fixture('teehistorian/idle-ctf1.teehistorian'))));
ok(th.header.map_name === 'ctf1' && [...th].at(-1).kind === 'FINISH');`,
  snapshot: `import { Snapshot, createDelta, applyDelta, DDNET_0_6 } from '@twcodec/snapshot';
const a = new Snapshot([{ type: 5, id: 0, data: Int32Array.of(1, 2, 3) }]);
const b = new Snapshot([{ type: 5, id: 0, data: Int32Array.of(1, 2, 4) }]);
ok(applyDelta(a, createDelta(a, b, DDNET_0_6), DDNET_0_6).get(5, 0).data[2] === 4);`,
  netmsg: `import { decodeDdnet06Message, encodeDdnet06Message } from '@twcodec/netmsg';
const bytes = Uint8Array.of(6, 0, 1, 0x68, 0x69, 0);
const m = decodeDdnet06Message(bytes);
ok(m.kind === 'sv_chat' && m.message === 'hi' && encodeDdnet06Message(m).every((b, i) => b === bytes[i]));`,
  net: `import { decodeCapture, encodePacket } from '@twcodec/net';
const lines = [...decodeCapture(new Uint8Array(readFileSync(fixture('net/teeworlds-0.7-cut.pcap'))))];
ok(lines.length === 257 && lines.every((d) => d.packet && encodePacket(d.packet).length > 0) && lines[0].packet.control.kind === 'token');`,
  demo: `import { readDemo } from '@twcodec/demo';
const demo = readDemo(new Uint8Array(readFileSync(fixture('demos/ctf2_server_Alpha_server_manual.demo'))));
ok(demo.header.mapName === 'ctf2' && [...demo.snapshots()].length > 10);`,
  // Installed without its optional writers: the tables work, a format says which package it needs.
  export: `import { teehistorianTables, toParquet, ExportDependencyError } from '@twcodec/export';
const tables = teehistorianTables(new Uint8Array(readFileSync(fixture('teehistorian/idle-ctf1.teehistorian'))));
const missing = await toParquet(tables[0]).then(() => undefined, (e) => e);
ok(tables.map((t) => t.name).join() === 'positions,inputs,events' && missing instanceof ExportDependencyError && /npm install hyparquet-writer/.test(missing.message));`,
  cli: `import { execFileSync, spawnSync } from 'node:child_process';
const out = execFileSync(join('node_modules', '.bin', 'twcodec'), ['map', 'info', fixture('maps/ctf1.map')], { encoding: 'utf8' });
const exp = spawnSync(join('node_modules', '.bin', 'twcodec'), ['teehistorian', 'export', fixture('teehistorian/idle-ctf1.teehistorian'), 'out'], { encoding: 'utf8' });
const batch = spawnSync(join('node_modules', '.bin', 'twcodec'), ['map', 'info', '--jobs', '2', fixture('maps/*.map')], { encoding: 'utf8' });
ok(JSON.parse(out).layers.byKind.game === 1 && exp.status === 1 && exp.stderr.includes('needs the optional package hyparquet-writer') && batch.status === 0 && batch.stdout.trim().split('\\n').length === 3);`,
};

/** What scripts/pack.mjs printed: the tarballs, packed once as docs/install.md says and used by every test below. */
let packed: string[] = [];

beforeAll(() => {
  // dist/ is built before the tests (test/global-setup.ts); pack.mjs packs it as it is (npm pack --ignore-scripts).
  packed = execFileSync('node', [join(repoRoot, 'scripts', 'pack.mjs'), packDir], { encoding: 'utf8', timeout: 300_000 }).trim().split('\n');
  for (const path of packed) tarballs.set(path.replace(/^.*\/twcodec-(.*)-\d+\.\d+\.\d+\.tgz$/, '$1'), path);
  for (const name of PACKAGES) {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'packages', name, 'package.json'), 'utf8'));
    internalDeps.set(name, Object.keys(manifest.dependencies ?? {}).filter((d) => d.startsWith('@twcodec/')).map((d) => d.slice(9)));
  }
}, 600_000);

describe('packed packages', () => {
  it.each(PACKAGES)('@twcodec/%s installs on its own and works from plain Node ESM', (name) => {
    const project = join(packDir, `project-${name}`);
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: `check-${name}`, private: true, type: 'module' }));
    npm(['install', '--no-audit', '--no-fund', '--no-package-lock', ...[...closure(name)].map((n) => tarballs.get(n)!)], project);
    writeFileSync(
      join(project, 'check.mjs'),
      `import { readFileSync } from 'node:fs';\nimport { join, posix } from 'node:path';\n${CHECKS[name]!.split('\n').filter((l) => l.startsWith('import ')).join('\n')}\n` +
        `const fixture = (p) => join(${JSON.stringify(fixturesDir)}, p);\nconst ok = (c) => { if (!c) throw new Error('check failed'); console.log('ok'); };\n` +
        CHECKS[name]!.split('\n').filter((l) => !l.startsWith('import ')).join('\n'),
    );
    expect(execFileSync('node', ['check.mjs'], { cwd: project, encoding: 'utf8' }).trim()).toBe('ok');
    // Only the files meant for users are in the tarball.
    const listing = npm(['pack', '--dry-run', '--ignore-scripts', '--json'], join(repoRoot, 'packages', name));
    const files: string[] = JSON.parse(listing)[0].files.map((f: { path: string }) => f.path);
    expect(files.filter((f) => !/^(dist\/|src\/|bin\/|package\.json$|README\.md$|CHANGELOG\.md$|LICENSE$)/.test(f))).toEqual([]);
    expect(files.filter((f) => /\.test\.(js|ts)$/.test(f))).toEqual([]);
    expect(files).toContain('LICENSE');
    expect(readFileSync(join(repoRoot, 'packages', name, 'LICENSE'), 'utf8')).toBe(readFileSync(join(repoRoot, 'LICENSE'), 'utf8'));
    // Every source map and declaration map points at sources the tarball holds.
    for (const map of files.filter((f) => f.endsWith('.map'))) {
      const { sources } = JSON.parse(readFileSync(join(repoRoot, 'packages', name, map), 'utf8')) as { sources: string[] };
      for (const source of sources) expect(files, `${map} -> ${source}`).toContain(posix.join(posix.dirname(map), source));
    }
    // Where the package comes from, for npm's page and for bug reports.
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'packages', name, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      license: 'MIT',
      repository: { type: 'git', url: 'git+https://github.com/twcodec/twcodec.git', directory: `packages/${name}` },
      homepage: expect.stringMatching(/^https:\/\/github\.com\/twcodec\/twcodec/),
      bugs: { url: 'https://github.com/twcodec/twcodec/issues' },
    });
  });
});

describe('installing from a clone as docs/install.md says', () => {
  it('scripts/pack.mjs packs every publishable package; installed globally together they give a working twcodec', () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-packall-'));
    expect([...tarballs.keys()].sort()).toEqual([...PACKAGES].sort());
    // npm install -g into a prefix of its own: the same as the global install, without touching the machine's.
    const prefix = join(dir, 'global');
    npm(['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', ...packed], dir);
    const out = execFileSync(join(prefix, 'bin', 'twcodec'), ['map', 'info', join(fixturesDir, 'maps', 'ctf1.map')], { encoding: 'utf8' });
    expect(JSON.parse(out).layers.byKind.game).toBe(1);
  }, 600_000);
});
