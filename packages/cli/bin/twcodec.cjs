#!/usr/bin/env node
// The `twcodec` command. It runs the bundled CLI in dist/bundle/ (the compiled modules of dist/ as a few
// CommonJS chunks, which start faster: see bundle.mjs), else the compiled CLI in dist/ (ES modules); in a
// checkout of the repository both are built by `npm ci` (the root package's prepare script) or
// `npm run build`, and this says so when they are missing. CommonJS itself (.cjs in a "type": "module"
// package), so that a run with the bundle never starts Node's ES module loader (start-up, issue 28).
//
// Loads the CLI's bundle (dist/bundle/, made by bundle.mjs) with the V8 code cache that the build made for it, so
// that a run does not compile its chunks again (start-up, issue 41: compiling them was about a fifth of a small
// map's run above Node's own start-up; docs/performance.md). Node 22.1+ has a compile cache of its own
// (module.enableCompileCache, in the OS temp directory); Node 20 has none, and a cache written at run time into
// a directory that later runs execute is not safe for a tool any user runs. This cache is written by the build
// only, beside the chunks (dist/bundle/code-cache/), so it is trusted as much as the code it was made from.
//
// V8 checks a code cache's own version, V8 flags and source length, and nothing else: a flipped byte in it, or a
// chunk edited without changing its length, crashed V8 or ran other code in a test on Node 20. So the manifest
// (code-cache/manifest.json) says which Node made the cache and holds each chunk's and each cache's CRC-32,
// and a cache is given to V8 only when all of them match; else the chunk compiles as it would without one
// (silently: the same output, only slower). With a manifest for another Node (or none, or no zlib.crc32:
// Node before 20.15), the bundle is require()d as before, and Node 22's own compile cache applies.
//
// NODE_DEBUG=twcodec-code-cache prints on stderr what was used or rejected, and why (for tests and maintainers).
// docs/maintainers.md, "The CLI's bundle and its code cache", says how the build makes it.
//
// The loader is in this file rather than a module of its own: resolving, reading and compiling a second file
// cost every run about 4% of a small map's `map extract` above Node (issue 41). code-cache.cjs and bundle.mjs
// require this file for it; it runs the CLI only as the program Node was started with.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
// node:module is required where it is needed, not here: loading it loads Node's ES module loader and its source
// map support (about 1 ms of CPU time of every run on Node 20, which needs neither; issue 41).
const { dirname, join, resolve, sep } = require('node:path');
const { debuglog } = require('node:util');
const vm = require('node:vm');

/** Bumped when the wrapper below or the manifest's form changes: caches made with another are not used. */
const FORMAT = 1;
const MANIFEST = join('code-cache', 'manifest.json');
/**
 * The name a chunk's script has in the code cache: V8 (Node 20) keeps the name a cache was made under and gives it
 * to the script that takes the cache, whatever name that one was compiled with. The build names its scripts by
 * their place in the package, so that profiles and stack traces of an installed package show that, not the
 * directory the package was built in.
 */
const cachedScriptName = (file) => `@twcodec/cli/dist/bundle/${file}`;
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const WRAPPER_TAIL = '\n})';
const debug = debuglog('twcodec-code-cache');

/** What a cache made by this Node must match: the manifest's `made` (V8 checks its own version and flags too). */
function runtimeKey() {
  return { format: FORMAT, node: process.version, v8: process.versions.v8, arch: process.arch, platform: process.platform };
}

/** The chunk's source as the function that loader compiles: CommonJS's parameters; a `#!` line kept as a comment (same line numbers). */
function wrap(source) {
  return WRAPPER_HEAD + (source.startsWith('#!') ? `//${source.slice(2)}` : source) + WRAPPER_TAIL;
}

/** import() of a module outside the bundle (node: built-ins, export's optional writers), for the chunks. */
const dynamicImport = (specifier) => import(specifier);

/** The CRC-32 function of node:zlib (Node 20.15+, 22.2+), or undefined. */
function crc32Function() {
  return require('node:zlib').crc32;
}

/** The manifest when it was made by this Node with this loader, else undefined (and why, on NODE_DEBUG). */
function readManifest(dir) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(dir + sep + MANIFEST, 'utf8'));
  } catch (e) {
    debug('no usable manifest (%s): chunks loaded by require()', e.code ?? e.message);
    return undefined;
  }
  const want = runtimeKey();
  const made = manifest?.made ?? {};
  const differs = Object.keys(want).filter((k) => made[k] !== want[k]);
  if (differs.length || typeof manifest.chunks !== 'object' || manifest.chunks === null) {
    debug('manifest made for another runtime (%s): chunks loaded by require()', differs.map((k) => `${k} ${made[k]} not ${want[k]}`).join(', ') || 'no chunk list');
    return undefined;
  }
  return manifest;
}

/**
 * Compiles `filename`'s source (already read) as a CommonJS function named `scriptName`, with a code cache when
 * the checksums of the manifest match: `entry` is the chunk's record (its source's, and its shared cache's), `own` the record of
 * the command's own cache of it, if it has one (code-cache.cjs: profiles).
 */
function compile(filename, scriptName, bytes, entry, cacheFile, own, ownCacheFile, crc32) {
  const source = bytes.toString('utf8');
  let cachedData;
  if (entry && crc32(bytes) === entry.source && bytes.length === entry.sourceBytes) {
    const [record, file] = own ? [own, ownCacheFile] : [entry, cacheFile];
    try {
      const data = readFileSync(file);
      if (data.length === record.cacheBytes && crc32(data) === record.cache) cachedData = data;
      else debug('%s: cache checksum mismatch, compiled', filename);
    } catch (e) {
      debug('%s: no cache (%s), compiled', filename, e.code ?? e.message);
    }
  } else debug('%s: %s, compiled', filename, entry ? 'source changed since the cache was made' : 'not in the manifest');
  const script = new vm.Script(wrap(source), { filename: scriptName, cachedData });
  if (cachedData) debug('%s: %s %s', filename, own ? "the command's cache" : 'cache', script.cachedDataRejected ? 'rejected by V8, compiled' : 'used');
  return script;
}

/** The directory in code-cache/ of a command's own caches: `map extract` -> `map-extract` (code-cache.cjs writes them). */
const profileDir = (command) => command.replace(/ /g, '-');

/** The manifest's caches of `command` (`map extract`) by chunk, when it has any (code-cache.cjs: profiles). */
function profileOf(manifest, command) {
  const profiles = manifest?.profiles;
  if (command === undefined || typeof profiles !== 'object' || profiles === null || !Object.hasOwn(profiles, command)) return undefined;
  const profile = profiles[command];
  return typeof profile === 'object' && profile !== null ? profile : undefined;
}

/**
 * Runs the bundle's `entry` (a file name in `dir`) and the chunks it requires, compiled with their code cache
 * when the manifest in `dir` was made by this Node; else require()s it. `onCompiled(file, script)` is for the
 * build (code-cache.cjs), which makes the cache from the scripts after running them. `command` (`map extract`:
 * the first two arguments of the command line) picks that command's own caches where the build made them.
 */
function loadBundle(bundleDir, entry, onCompiled, command) {
  const dir = resolve(bundleDir);
  const crc32 = crc32Function();
  const manifest = crc32 ? readManifest(dir) : undefined;
  if (!manifest && !onCompiled) return require(join(dir, entry));
  const chunks = manifest?.chunks ?? {};
  const own = profileOf(manifest, command);
  const ownDir = own && `${dir}${sep}code-cache${sep}${profileDir(command)}`;
  const modules = new Map();
  // Everything but the chunks as the entry would require it: Node's built-ins (the same from any module) by this
  // module's require; others (pako from node_modules) by a require made for the entry when first needed
  // (createRequire costs about as much as loading a small chunk: start-up, issue 41).
  let entryRequire;
  const outside = (id) => (id.startsWith('node:') ? require(id) : (entryRequire ??= require('node:module').createRequire(join(dir, entry)))(id));
  // Paths by concatenation, not path.join: `dir` is resolved already, and join's normalising, in the interpreter,
  // for two paths a chunk was about 4% of a small map's map extract above Node (issue 41).
  const load = (file) => {
    const known = modules.get(file);
    if (known) return known.exports;
    const filename = dir + sep + file;
    const module = { id: filename, filename, exports: {}, loaded: false };
    modules.set(file, module);
    const ownRecord = own && Object.hasOwn(own, file) && typeof own[file] === 'object' && own[file] !== null ? own[file] : undefined;
    // The build (onCompiled) compiles under the name the cache will carry; a run under the file's own path, which
    // a script that takes a cache gives up for the cache's name (cachedScriptName).
    const script = compile(filename, onCompiled ? cachedScriptName(file) : filename, readFileSync(filename), chunks[file], `${dir}${sep}code-cache${sep}${file}.bin`, ownRecord, ownRecord && `${ownDir}${sep}${file}.bin`, crc32);
    onCompiled?.(file, script);
    const inner = (id) => (id.startsWith('./') && !id.includes('/', 2) ? load(id.slice(2)) : outside(id));
    // A chunk's import() calls this (bundle.mjs rewrites them so): a script compiled from a code cache has no
    // dynamic import callback in Node 20, and this module's import() is Node's own.
    inner.twcodecImport = dynamicImport;
    script.runInThisContext().call(module.exports, module.exports, inner, module, filename, dir);
    module.loaded = true;
    return module.exports;
  };
  return load(entry);
}

module.exports = { loadBundle, wrap, runtimeKey, crc32Function, profileDir, cachedScriptName, MANIFEST };

if (require.main === module) {
  // Node 22.1+ keeps the code it compiled for the next run (in the OS temp directory), for a bundle without a
  // cache of this Node's (loadBundle then require()s it) and for dist/; Node 20 has no such cache.
  // (Node 20 and 21, which have none, do not load node:module for it.)
  if (Number(process.versions.node.split('.')[0]) >= 22) require('node:module').enableCompileCache?.();
  // Paths by concatenation (__dirname is absolute and normalised): path.join normalises each path it makes, in
  // Node's interpreter, a cost of every run (start-up, issue 41).
  const bundle = `${dirname(__dirname)}${sep}dist${sep}bundle`;
  if (existsSync(`${bundle}${sep}twcodec.js`)) {
    // The command (`map extract`) picks its own code caches where the build made them.
    loadBundle(bundle, 'twcodec.js', undefined, process.argv.slice(2, 4).join(' '));
  } else {
    import('../dist/bin.js').catch((e) => {
      if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !/[/\\]dist[/\\]/.test(String(e.message))) throw e;
      process.stderr.write(`twcodec: the packages are not built (${e.message.split('\n')[0]}): run npm run build in the repository\n`);
      process.exitCode = 1;
    });
  }
}
