// Start-up (issue 28): a command loads its modules when it runs, so that `twcodec --version` or a small map's
// `map info` does not pay for loading every package (docs/performance.md, "Against DDNet's tools"). Checked on
// the built modules' static imports (what Node loads before any code runs), not by timing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../test/corpus.js';

const dist = join(repoRoot, 'packages', 'cli', 'dist');

/** The bare specifiers (packages, node: built-ins) that loading `entry` loads, following its static relative imports. */
function staticImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    // Emitted ES modules: `import ... from '...'`, `export ... from '...'` and bare `import '...'` (dynamic
    // `import(...)` and type-only imports are not loaded up front).
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s(?:[^'";]*?\sfrom\s)?'([^']+)';/gm)) {
      if (spec!.startsWith('.')) visit(join(file, '..', spec!));
      else bare.add(spec!);
    }
  };
  visit(entry);
  return bare;
}

describe('start-up', () => {
  // Only the teehistorian constants (generated from its schema, importing nothing at run time), for sniff.ts.
  it('the CLI loads no codec package before a command runs', () => {
    expect([...staticImports(join(dist, 'bin.js'))].sort()).toEqual(['@twcodec/teehistorian/constants', 'node:fs', 'node:path', 'node:util']);
  });

  it('a batch worker loads the modules of its command only when it gets a file (runtime: its errors)', () => {
    expect([...staticImports(join(dist, 'batch-worker.js'))].sort()).toEqual(['@twcodec/runtime', '@twcodec/teehistorian/constants', 'node:fs', 'node:fs/promises', 'node:path', 'node:worker_threads']);
  });

  it('the binary runs the bundle the build made', () => {
    expect(readFileSync(join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs'), 'utf8')).toContain('${sep}dist${sep}bundle');
    expect(readFileSync(join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs'), 'utf8')).toContain("loadBundle(bundle, 'twcodec.js'");
    expect(existsSync(join(dist, 'bundle', 'twcodec.js')) && existsSync(join(dist, 'bundle', 'batch-worker.js'))).toBe(true);
  });

  it("a map command's chunks hold the modules it uses, not the other map tools' (bundle.mjs: chunk groups)", () => {
    const bundle = join(dist, 'bundle');
    const files = readdirSync(bundle);
    /** The source modules (the bundle's region comments) of the chunk named `name` and the chunks it require()s up front. */
    const modulesOf = (name: string): string[] => {
      // `<name>-<8-character hash>.js`: `map-extract-` also begins `map-extract-png-<hash>.js`, and which of the two
      // sorts first depends on the hashes.
      const chunk = files.find((f) => f.startsWith(`${name}-`) && f.endsWith('.js') && f.length === name.length + 12);
      if (!chunk) throw new Error(`no chunk ${name}-*.js in ${bundle}`);
      const seen = new Set<string>();
      const modules: string[] = [];
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        const text = readFileSync(join(bundle, file), 'utf8');
        for (const [, module] of text.matchAll(/^\/\/ (\S+\.m?js)$/gm)) modules.push(module!);
        // Static requires only: a chunk's dynamic imports are `Promise.resolve().then(() => require(...))`.
        for (const [, dep] of text.matchAll(/^(?:const|let|var) \w+ = require\("\.\/([^"]+)"\);$/gm)) visit(dep!);
      };
      visit(chunk);
      return modules;
    };
    const tools = (names: string) => new RegExp(`map-tools/dist/(${names})\\.js$`);
    const pngWriter = /fflate|map-tools\/dist\/(png-encode|image-files)\.js$/;
    expect(modulesOf('map-resave').filter((m) => /map-tools|fflate|map\/dist\/validate/.test(m))).toEqual([]);
    expect(modulesOf('map-info').filter((m) => /map-tools|fflate|map\/dist\/write/.test(m))).toEqual([]);
    expect(modulesOf('map-convert').filter((m) => pngWriter.test(m) || tools('dir|diff|render|fix').test(m))).toEqual([]);
    expect(modulesOf('map-diff').filter((m) => pngWriter.test(m) || tools('dir|convert|convert-07|render|fix').test(m) || m.endsWith('map/dist/write.js'))).toEqual([]);
    expect(modulesOf('map-extract').filter((m) => tools('dir|diff|convert|convert-07|render|fix').test(m) || m.endsWith('map/dist/write.js'))).toEqual([]);
    // map fix: the fixer, validateMap and the writer, not the PNG decoder (issue 41: its RGB to RGBA is a module of its own)
    expect(modulesOf('map-fix').filter((m) => pngWriter.test(m) || tools('png|images|dir|diff|convert|convert-07|render').test(m))).toEqual([]);
    // and they do hold what they use
    // map extract's PNG writer is loaded only for a map with embedded images (issue 41)
    expect(modulesOf('map-extract').filter((m) => pngWriter.test(m))).toEqual([]);
    expect(modulesOf('map-extract-png').some((m) => m.includes('png-encode'))).toBe(true);
    expect(modulesOf('map-resave').some((m) => m.includes('map/dist/write'))).toBe(true);
  });

  // net pcap reads captures with @twcodec/net's decoder and tracker: the live client, the demo recorders and the
  // demo package are in chunks of their own (bundle.mjs: net-live), which its chunks do not require (issue 41).
  it("net pcap's chunks hold the capture decoder, not net's live client nor the demo package", () => {
    const bundle = join(dist, 'bundle');
    const files = readdirSync(bundle).filter((f) => f.endsWith('.js'));
    const regions = (file: string) => [...readFileSync(join(bundle, file), 'utf8').matchAll(/^\/\/ (\S+\.m?js)$/gm)].map((m) => m[1]!);
    // The CLI's net.ts and the chunks it requires up front (the bundler names a module from where the build ran:
    // dist/net.js in the package, packages/cli/dist/net.js at the root).
    const start = files.find((f) => regions(f).some((m) => m === 'dist/net.js' || m.endsWith('packages/cli/dist/net.js')));
    expect(start).toBeDefined();
    const seen = new Set<string>();
    const modules: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      modules.push(...regions(file));
      for (const [, dep] of readFileSync(join(bundle, file), 'utf8').matchAll(/^(?:const|let|var) \w+ = require\("\.\/([^"]+)"\);$/gm)) visit(dep!);
    };
    visit(start!);
    expect(modules.filter((m) => /net\/dist\/(client|capture-demo|record|game|rcon|transport)\.js$|demo\/dist\//.test(m))).toEqual([]);
    expect(modules.some((m) => m.endsWith('net/dist/capture.js')) && modules.some((m) => m.endsWith('net/dist/tracker.js'))).toBe(true);
  });

  // A loop at a chunk's top level makes V8 compile all of that top level with its baseline compiler (a short
  // run's import of the runtime built its CRC and MD5 tables and the scan kernel's bytes at import; issue 41).
  it('the chunks build no tables when loaded: no loop at their top level', () => {
    const bundle = join(dist, 'bundle');
    const loops = readdirSync(bundle)
      .filter((f) => f.endsWith('.js'))
      .flatMap((f) => [...readFileSync(join(bundle, f), 'utf8').matchAll(/^(?:for|while|do)\b.*$/gm)].map((m) => `${f}: ${m[0]}`));
    // but map unpack's and pack's 16 hex digits (map-tools' tile-text, loaded by those commands only)
    expect(loops.filter((l) => !l.includes('for (let i = 0; i < 16; i++) {'))).toEqual([]);
    expect(loops.length).toBeLessThanOrEqual(1);
  });

  // A run reads, checks and holds each chunk's source whole (the code cache needs it): the doc comments, about a
  // sixth of the bundle, are left to src/ and dist/ (issue 41).
  it('the chunks hold no doc comments', () => {
    const bundle = join(dist, 'bundle');
    const withDocs = readdirSync(bundle).filter((f) => f.endsWith('.js') && /^\s*\/\*\*\s/m.test(readFileSync(join(bundle, f), 'utf8')));
    expect(withDocs).toEqual([]);
  });

  // An import() of a package makes the bundle build its namespace object (a getter per export) when its chunk
  // loads; the CLI imports what it needs of @twcodec/runtime by name (runtime-names.ts; issue 41).
  it("the runtime's chunk builds no namespace object", () => {
    const bundle = join(dist, 'bundle');
    // and it is one chunk (split by which commands use which module, a map command loaded six); the bundler
    // names a module's path from where the build ran: `../runtime/dist/` in the package, `packages/runtime/dist/` at the root
    const runtime = readdirSync(bundle).filter((f) => f.endsWith('.js') && /^\/\/ (\.\.|packages)\/runtime\/dist\//m.test(readFileSync(join(bundle, f), 'utf8')));
    expect(runtime).toHaveLength(1);
    expect(readFileSync(join(bundle, runtime[0]!), 'utf8')).not.toContain('__exportAll');
  });

  // A chunk calls another's functions as properties of that chunk's exports object, which V8 reads fast only while
  // the object has fast properties: a namespace object made with the same first name had put netmsg's exports
  // (and map-tools' namespace) in dictionary mode (bundle.mjs: namespace-map-of-its-own; issue 41).
  it("every chunk's exports object and namespace objects keep fast properties", () => {
    const bundle = join(dist, 'bundle');
    // Every chunk but the entries that run something when loaded, by Node's require() (its exports object is an
    // empty literal, as the code-cache loader's is), then V8's own answer for each object.
    const script = `const dir = ${JSON.stringify(bundle)}; const slow = [];
      for (const f of require('node:fs').readdirSync(dir).filter((f) => f.endsWith('.js') && f !== 'twcodec.js' && f !== 'batch-worker.js').sort()) {
        const exports = require(dir + '/' + f);
        if (!%HasFastProperties(exports)) slow.push(f);
        for (const [k, v] of Object.entries(exports)) if (v?.[Symbol.toStringTag] === 'Module' && !%HasFastProperties(v)) slow.push(f + ' ' + k);
      }
      console.log(JSON.stringify(slow));`;
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  // Node's own modules a run loads (process.moduleLoadList at exit), beyond what the command needs (issue 41).
  it("a command line of arguments only does not load node:util's option parser, a file is read synchronously", () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-startup-'));
    try {
      const hook = join(dir, 'hook.cjs');
      writeFileSync(hook, "process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED, process.moduleLoadList.join('\\n')));\n");
      const loaded = (...argv: string[]) => {
        const run = spawnSync(process.execPath, ['--require', hook, join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs'), ...argv], { env: { ...process.env, LOADED: join(dir, 'loaded.txt') }, encoding: 'utf8' });
        expect(run.status, run.stderr).toBe(0);
        return readFileSync(join(dir, 'loaded.txt'), 'utf8').split('\n');
      };
      const parser = 'NativeModule internal/util/parse_args/parse_args';
      expect(loaded('map', 'info', join(repoRoot, 'fixtures', 'maps', 'ctf1.map'))).not.toContain(parser);
      const extract = loaded('map', 'extract', join(repoRoot, 'fixtures', 'maps', 'ctf1.map'), join(dir, 'extracted'));
      expect(extract).not.toContain(parser);
      // the input is read as the chunks are (readFileSync), not by Node's asynchronous readFile
      expect(extract).not.toContain('NativeModule internal/fs/read/context');
      // nor Node's ES module loader, which node:module loads (bin/twcodec.cjs requires it only for Node 22's
      // compile cache and for pako; issue 41)
      expect(loaded('net', 'pcap', join(repoRoot, 'fixtures', 'net', 'ddnet-0.6-cut.pcap'))).not.toContain('NativeModule internal/modules/esm/loader');
      // with an option, it parses
      expect(loaded('map', 'resave', '--ddnet', join(repoRoot, 'fixtures', 'maps', 'ctf1.map'), join(dir, 'resaved.map'))).toContain(parser);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
