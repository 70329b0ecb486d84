// The V8 code cache of the CLI's bundle (start-up, issue 41: bin/twcodec.cjs, code-cache.cjs): used when it
// is the one the build made for this Node, ignored when it is not (a flipped byte, a changed chunk, another Node,
// other V8 flags, no manifest), and the output is the same either way. What each run did is read from
// NODE_DEBUG=twcodec-code-cache on stderr; nothing here is timed.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../test/corpus.js';

const cli = join(repoRoot, 'packages', 'cli');
const args = ['map', 'info', join(repoRoot, 'fixtures', 'maps', 'ctf1.map')];
const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Runs the twcodec binary of `pkg` (a directory laid out as packages/cli) with the debug lines of the loader. */
function run(pkg: string, nodeArgs: string[] = []) {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_DEBUG: 'twcodec-code-cache' };
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, [...nodeArgs, join(pkg, 'bin', 'twcodec.cjs'), ...args], { env, encoding: 'utf8', cwd: repoRoot });
  const debug = r.stderr.split('\n').filter((l) => l.startsWith('TWCODEC-CODE-CACHE'));
  const stderr = r.stderr.split('\n').filter((l) => !l.startsWith('TWCODEC-CODE-CACHE')).join('\n');
  return { status: r.status, stdout: r.stdout, stderr, debug: debug.map((l) => l.replace(/^TWCODEC-CODE-CACHE \d+: /, '')) };
}

/** A copy of the CLI package (its bin/ and dist/bundle/) to spoil, with `spoil` applied to its bundle directory. */
function copy(spoil: (bundle: string) => void): string {
  const pkg = mkdtempSync(join(tmpdir(), 'twcodec-code-cache-'));
  scratch.push(pkg);
  cpSync(join(cli, 'bin'), join(pkg, 'bin'), { recursive: true });
  cpSync(join(cli, 'dist', 'bundle'), join(pkg, 'dist', 'bundle'), { recursive: true });
  cpSync(join(cli, 'package.json'), join(pkg, 'package.json'));
  // pako and the other packages the chunks require at run time.
  symlinkSync(join(repoRoot, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  spoil(join(pkg, 'dist', 'bundle'));
  return pkg;
}

const mapRead = () => readdirSync(join(cli, 'dist', 'bundle')).find((f) => /^map-read-.*\.js$/.test(f))!;

describe('the code cache of the bundle', () => {
  const reference = run(cli);

  it('is used for every chunk a command loads, when this Node made it', () => {
    expect(reference.status).toBe(0);
    expect(reference.debug.length).toBeGreaterThan(3);
    for (const line of reference.debug) expect(line).toMatch(/: (the command's )?cache used$/);
    // map info has caches of its own (code-cache.cjs: profiles); the entry chunk, which the training does not
    // run, has the shared one only.
    expect(reference.debug.find((l) => l.includes(mapRead()))).toMatch(/: the command's cache used$/);
    expect(reference.debug[0]).toMatch(/twcodec\.js: cache used$/);
  });

  it('names its scripts by their place in the package, not by the directory the build ran in', () => {
    // V8 gives a script that takes a cache the name the cache was made under (bin/twcodec.cjs: cachedScriptName):
    // a build path in the cache would show in the profiles and stack traces of every installed copy.
    const cacheDir = join(cli, 'dist', 'bundle', 'code-cache');
    const caches = readdirSync(cacheDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.bin'));
    expect(caches.length).toBeGreaterThan(10);
    const buildPath = Buffer.from(join(cli, 'dist', 'bundle'));
    for (const file of caches) expect(readFileSync(join(cacheDir, file)).includes(buildPath), file).toBe(false);
    // V8 keeps the name as the two strings it was joined from.
    expect(readFileSync(join(cacheDir, `${mapRead()}.bin`)).includes(Buffer.from('@twcodec/cli/dist/bundle/'))).toBe(true);
  });

  it('is used by net pcap, whose run lowers a V8 flag (the build sets it back before making the caches)', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_DEBUG: 'twcodec-code-cache' };
    delete env.NODE_OPTIONS;
    const r = spawnSync(process.execPath, [join(cli, 'bin', 'twcodec.cjs'), 'net', 'pcap', join(repoRoot, 'fixtures', 'net', 'ddnet-0.6-cut.pcap')], { env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const debug = r.stderr.split('\n').filter((l) => l.startsWith('TWCODEC-CODE-CACHE'));
    expect(debug.length).toBeGreaterThan(3);
    for (const line of debug) expect(line).toMatch(/: (the command's )?cache used$/);
  });

  it("is the shared one for a command without caches of its own", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_DEBUG: 'twcodec-code-cache' };
    delete env.NODE_OPTIONS;
    const r = spawnSync(process.execPath, [join(cli, 'bin', 'twcodec.cjs'), 'datafile', 'info', args[2]!], { env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const debug = r.stderr.split('\n').filter((l) => l.startsWith('TWCODEC-CODE-CACHE'));
    expect(debug.length).toBeGreaterThan(3);
    for (const line of debug) expect(line).toMatch(/: cache used$/);
  });

  it('is ignored for a chunk whose cache has a flipped byte (V8 itself would take it, and crash or run other code)', () => {
    const spoilt = run(
      copy((bundle) => {
        // the shared cache and map info's own
        for (const file of [join(bundle, 'code-cache', `${mapRead()}.bin`), join(bundle, 'code-cache', 'map-info', `${mapRead()}.bin`)]) {
          const bytes = readFileSync(file);
          bytes[bytes.length >> 1]! ^= 0x55;
          writeFileSync(file, bytes);
        }
      }),
    );
    expect(spoilt.debug.find((l) => l.includes(mapRead()))).toMatch(/cache checksum mismatch, compiled$/);
    expect(spoilt.debug.filter((l) => l.endsWith('cache used')).length).toBe(reference.debug.length - 1);
    expect([spoilt.status, spoilt.stdout, spoilt.stderr]).toEqual([reference.status, reference.stdout, reference.stderr]);
  });

  it('is ignored for a chunk changed since the build, even with its length kept (V8 checks only the length)', () => {
    const spoilt = run(
      copy((bundle) => {
        const file = join(bundle, mapRead());
        const source = readFileSync(file, 'utf8');
        const edited = source.replace('/map/dist/', '/map/dixt/');
        expect(edited.length === source.length && edited !== source).toBe(true);
        writeFileSync(file, edited);
      }),
    );
    expect(spoilt.debug.find((l) => l.includes(mapRead()))).toMatch(/source changed since the cache was made, compiled$/);
    expect([spoilt.status, spoilt.stdout, spoilt.stderr]).toEqual([reference.status, reference.stdout, reference.stderr]);
  });

  it('is not read when another Node made it, or there is no manifest: the bundle is require()d', () => {
    const otherNode = run(
      copy((bundle) => {
        const file = join(bundle, 'code-cache', 'manifest.json');
        const manifest = JSON.parse(readFileSync(file, 'utf8'));
        manifest.made.node = 'v20.0.0';
        manifest.made.v8 = '11.3.244.4-node.0';
        writeFileSync(file, JSON.stringify(manifest));
      }),
    );
    expect(otherNode.debug).toEqual([expect.stringMatching(/^manifest made for another runtime \(node v20\.0\.0 not v.*\): chunks loaded by require\(\)$/)]);
    const none = run(copy((bundle) => rmSync(join(bundle, 'code-cache'), { recursive: true })));
    expect(none.debug).toEqual(['no usable manifest (ENOENT): chunks loaded by require()']);
    const broken = run(copy((bundle) => writeFileSync(join(bundle, 'code-cache', 'manifest.json'), '{"made": ')));
    expect(broken.debug).toEqual([expect.stringMatching(/^no usable manifest \(.*JSON.*\): chunks loaded by require\(\)$/)]);
    for (const r of [otherNode, none, broken]) expect([r.status, r.stdout, r.stderr]).toEqual([reference.status, reference.stdout, reference.stderr]);
  });

  it('is rejected by V8 under other V8 flags, and the chunks compile', () => {
    const flags = run(cli, ['--stack-size=900']);
    expect(flags.debug.length).toBe(reference.debug.length);
    for (const line of flags.debug) expect(line).toMatch(/: (the command's )?cache rejected by V8, compiled$/);
    expect([flags.status, flags.stdout, flags.stderr]).toEqual([reference.status, reference.stdout, reference.stderr]);
  });
});
