// Bundles the built CLI (dist/bin.js and the batch worker, with the @twcodec packages and their dependencies)
// into dist/bundle/: a few chunks, loaded as a command needs them (index.ts imports each command's modules
// dynamically); bin/twcodec.cjs runs it when it is there. Why: Node 20 resolves, reads and links each ES
// module on its own, and the ~80 modules of a map command cost about a fifth of a small map's run; as a few
// chunks they cost much less (docs/performance.md, "Against DDNet's tools (issue 28)"). The chunks are
// CommonJS: loaded by require(), a run does not start Node's ES module loader at all (about 10 to 15 ms of CPU
// time less per run on Node 20; the loader's own modules, and node:fs/promises with streams and readline that
// it loads). The modules in dist/ stay the package's API (`import { main } from '@twcodec/cli'`), as ES modules.
//
// Run by the build (after tsc -b) and by test/global-setup.ts with --if-stale: then nothing is written when no
// module the bundle was made from changed since (dist/bundle/inputs.json lists them), so that the bin tests never
// run a bundle older than dist/.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'rolldown/parseAst';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const out = here('./dist/bundle');
const inputsFile = `${out}/inputs.json`;

function current() {
  if (!existsSync(inputsFile)) return false;
  const made = statSync(inputsFile).mtimeMs;
  const inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
  return inputs.every((path) => existsSync(path) && statSync(path).mtimeMs <= made);
}

const lazyFflate = here('./lazy-fflate.cjs');
// The CommonJS file of fflate's browser build (the require condition of fflate/browser).
const fflateBrowser = createRequire(import.meta.url).resolve('fflate/browser');
const dist = (pkg, modules) => new RegExp(`[\\\\/]packages[\\\\/]${pkg}[\\\\/]dist[\\\\/]${modules}\\.js$`);
/** Chunks of modules that commands load together (the first group that matches a module takes it). */
const CHUNK_GROUPS = [
  // What every command loads beside index.ts and the command tables (commands/*.js: the entry chunk).
  // With the teehistorian constants sniff.ts uses (a chunk of 400 bytes of its own was read and compiled apart).
  { name: 'cli', test: new RegExp(`${dist('cli', '(io|sniff|glob|message-json)').source}|[\\\\/]packages[\\\\/]teehistorian[\\\\/]dist[\\\\/]generated[\\\\/]constants\\.gen\\.js$`) },
  // The container and its zlib. pako (DDNet-identical deflate) is not bundled: the node codec requires pako's own
  // deflate-only build when it first deflates, at run time from node_modules, so that the commands that only
  // read never load it (and a resave that compresses nothing new neither): hence pako among this package's
  // dependencies.
  { name: 'datafile', test: /[\\/]packages[\\/]datafile[\\/]dist[\\/]/ },
  // The runtime in one chunk: every codec uses most of it, and split by which commands use which of its modules
  // a map command loaded six small chunks of it, each read, checked and compiled on its own (issue 41).
  { name: 'runtime', test: /[\\/]packages[\\/]runtime[\\/]dist[\\/]/ },
  { name: 'map-write', test: dist('map', 'write(-items)?') },
  { name: 'map-validate', test: dist('map', '(validate|load-fixes|tile-validity)') },
  { name: 'map-read', test: dist('map', '.*') },
  // The PNG writer and fflate (which builds its tables when imported): map extract, unpack and render only.
  { name: 'map-tools-png-encode', test: /[\\/](packages[\\/]map-tools[\\/]dist[\\/](png-encode|image-files)\.js$|node_modules[\\/]fflate[\\/]|lazy-fflate\.cjs$)/ },
  // RGB to RGBA on its own: map fix and map convert need it, not the PNG decoder of map-tools-images.
  { name: 'map-tools-rgb', test: dist('map-tools', 'rgb') },
  { name: 'map-tools-images', test: dist('map-tools', '(png|images|file-names|sounds)') },
  { name: 'map-tools-convert', test: dist('map-tools', 'convert(-07)?') },
  { name: 'map-tools-dir', test: dist('map-tools', 'dir(-check)?') },
  { name: 'map-tools-diff', test: dist('map-tools', 'diff') },
  { name: 'map-tools-fix', test: dist('map-tools', 'fix') },
  { name: 'map-tools-render', test: dist('map-tools', 'render') },
  // @twcodec/net's live client, its demo recorder and capture-to-demo, and the package's index (which re-exports
  // them): net pcap reads captures with the decoder and the tracker alone, and loaded all of this (60 KB of
  // source and its code cache, and the demo package with them) before its first datagram (issue 41).
  { name: 'net-live', test: dist('net', '(index|client|client-api|transport|input|rcon|game|capture-demo|record|map-request|info)') },
  // The rest of @twcodec/net: the capture decoder, the packets and the tracker, in one chunk.
  { name: 'net-read', test: /[\\/]packages[\\/]net[\\/]dist[\\/](?!node\.js$)/ },
  // The snapshot package on its own: net pcap rebuilds snapshots but writes no demo (the demo package's reader
  // and writer, with it in one chunk, came with every net command).
  { name: 'snapshot', test: /[\\/]packages[\\/]snapshot[\\/]dist[\\/]/ },
];

const ifStale = process.argv.includes('--if-stale');
const bundleCurrent = ifStale && current();
if (!bundleCurrent) {
  rmSync(out, { recursive: true, force: true });
  // Imported here: a current bundle (--if-stale) does not pay for loading the bundler.
  const { rolldown } = await import('rolldown');
  const bundle = await rolldown({
    // main.js: the CLI's main(), an entry of its own so that code-cache.cjs can run commands in one process.
    input: { twcodec: here('./dist/bin.js'), main: here('./dist/index.js'), 'batch-worker': here('./dist/batch-worker.js') },
    platform: 'node',
    // Export's optional writers stay optional: looked up when a format needs them (export imports them by a
    // variable name, which is left alone anyway; listed so that a literal import never pulls them in).
    external: [/^node:/, 'hyparquet-writer', 'apache-arrow'],
    // fflate's build for browsers: the same synchronous deflate and inflate (its two builds differ only in how
    // its asynchronous functions, which nothing here calls, start workers), without the Node build's
    // node:worker_threads, which it loads when it is imported (start-up, issue 28: importing the Node build
    // alone cost about 13 ms of CPU time more than the browser build on Node 20; docs/performance.md). And
    // evaluated when first called (lazy-fflate.cjs; issue 41): `fflate` is that file, which requires the build.
    plugins: [
      {
        // import() in a chunk goes through the loader's import() when bin/twcodec.cjs runs the chunks: V8
        // code compiled from a code cache in Node 20 loses the vm.Script's dynamic import callback (import()
        // then throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), and the callback that keeps Node's default
        // loader (vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER) prints an ExperimentalWarning. Loaded by
        // Node's require() (no cache for this Node), `require.twcodecImport` is undefined and import() is the
        // chunk's own, as before. The imports: node:fs/promises and node:os (io.ts), and export's optional
        // writers, all bare specifiers, which resolve the same from bin/ as from dist/bundle/.
        name: 'import-through-loader',
        renderChunk(code) {
          const starts = [];
          const walk = (node) => {
            if (Array.isArray(node)) node.forEach(walk);
            else if (node && typeof node === 'object') {
              if (node.type === 'ImportExpression') starts.push(node.start);
              for (const key of Object.keys(node)) if (key !== 'parent') walk(node[key]);
            }
          };
          walk(parseAst(code));
          for (const start of starts.sort((a, b) => b - a)) {
            if (!code.startsWith('import', start)) throw new Error(`bundle.mjs: no import( at ${start} of a chunk`);
            code = `${code.slice(0, start)}(require.twcodecImport ?? ((specifier) => import(specifier)))${code.slice(start + 'import'.length)}`;
          }
          return starts.length ? code : null;
        },
      },
      {
        // Namespace objects (the bundler's __exportAll, for a module imported by import() or `import * as`) take
        // Symbol.toStringTag first, then their names: made name first, a namespace whose first name is a
        // chunk's first export (netmsg's, `DDNET_0_6_MESSAGES`; map-tools' re-exported runtime's, `BinaryError`)
        // takes the same transition from the empty object's map as that chunk's exports object, with another
        // getter, which V8 cannot share: the object defined second went to dictionary mode, and every chunk's
        // call of a function of it was a generic property load (1% of `net pcap`, issue 41; %HasFastProperties).
        // The same object: the same properties, and symbols come after names in its keys either way.
        name: 'namespace-map-of-its-own',
        transform: {
          filter: { id: /^\0rolldown\/runtime\.js$/ },
          handler(code) {
            const names = `  for (var name in all) {\n    __defProp(target, name, { get: all[name], enumerable: true });\n  }\n`;
            const tag = `  if (!no_symbols) {\n    __defProp(target, Symbol.toStringTag, { value: 'Module' });\n  }\n`;
            if (!code.includes(names + tag)) throw new Error("bundle.mjs: the bundler's __exportAll is not the one namespace-map-of-its-own knows");
            return { code: code.replace(names + tag, tag + names), map: null };
          },
        },
      },
      {
        name: 'lazy-fflate',
        resolveId: (source, importer) => (source === 'fflate' ? (importer === lazyFflate ? fflateBrowser : lazyFflate) : null),
      },
    ],
    logLevel: 'warn',
    // Chunks may export more than their entry module (codeSplitting below moves modules out of them).
    preserveEntrySignatures: 'allow-extension',
  });
  // batch.js starts its workers from new URL('./batch-worker.js', import.meta.url) (made __filename's URL in
  // CommonJS): the entry of that name sits beside the chunks.
  const { output } = await bundle.write({
    dir: out,
    format: 'cjs',
    // The modules were ES modules, which are strict mode code: so are the chunks.
    strict: true,
    // Without the doc comments (the source in src/ and dist/ has them): a run reads, checks and holds each chunk's
    // source whole, and they were about half of its bytes (start-up, issue 41). Legal comments stay.
    comments: { jsdoc: false, legal: true, annotation: true },
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    // Chunks by what the commands load, not by which commands could reach a module: the packages' index
    // modules re-export all their modules, and through them every command that imports from @twcodec/map-tools
    // (or @twcodec/map) reached every module of it, so automatic splitting put map diff, convert and extract
    // in one chunk with the PNG writer, the directory form and fflate, and map's writer and validator in
    // every map command. As chunks of their own, the modules a command does not use are not loaded (their
    // packages declare no side effects). Start-up, issue 28: docs/performance.md.
    codeSplitting: { groups: CHUNK_GROUPS, includeDependenciesRecursively: false },
  });
  await bundle.close();
  // The chunks keep the .js names (batch.js names its worker batch-worker.js); this package.json makes them
  // CommonJS inside @twcodec/cli, whose own package.json says "type": "module".
  writeFileSync(`${out}/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);
  const inputs = [...new Set(output.flatMap((chunk) => chunk.moduleIds ?? []))].filter((id) => existsSync(id)).sort();
  inputs.push(here('./bundle.mjs'), here('./code-cache.cjs'), here('./bin/twcodec.cjs'));
  writeFileSync(inputsFile, `${JSON.stringify(inputs, null, 1)}\n`);
}

// The V8 code cache of the chunks (code-cache.cjs; start-up, issue 41), made again with the bundle and when the
// Node running this is not the one that made it (a cache is used only by the Node that made it). In a child
// process without Node options or NODE_OPTIONS: V8 takes a cache only in a process with the same V8 flags.
const { runtimeKey, MANIFEST } = createRequire(import.meta.url)('./bin/twcodec.cjs');
const cacheCurrent = () => {
  try {
    const made = JSON.parse(readFileSync(`${out}/${MANIFEST}`, 'utf8')).made;
    return Object.entries(runtimeKey()).every(([k, v]) => made[k] === v);
  } catch {
    return false;
  }
};
if (!(bundleCurrent && cacheCurrent())) {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  execFileSync(process.execPath, [here('./code-cache.cjs'), out], { env, stdio: 'inherit' });
}
