#!/usr/bin/env node
// The `twcodec` command. It runs the bundled CLI in dist/bundle/ (the compiled modules of dist/ as a few
// CommonJS chunks, which start faster: see bundle.mjs), else the compiled CLI in dist/ (ES modules); in a
// checkout of the repository both are built by `npm ci` (the root package's prepare script) or
// `npm run build`, and this says so when they are missing. CommonJS itself (.cjs in a "type": "module"
// package), so that a run with the bundle never starts Node's ES module loader (start-up, issue 28). The bundle
// loads with the V8 code cache the build made for it, when this Node made it (load-bundle.cjs; issue 41).
'use strict';
const nodeModule = require('node:module');
const { existsSync } = require('node:fs');
const { dirname, sep } = require('node:path');

// Node 22.1+ keeps the code it compiled for the next run (in the OS temp directory), for a bundle without a cache
// of this Node's (load-bundle.cjs then require()s it) and for dist/; Node 20 has no such cache.
nodeModule.enableCompileCache?.();
// Paths by concatenation (__dirname is absolute and normalised): path.join normalises each path it makes, in
// Node's interpreter, a cost of every run (start-up, issue 41).
const bundle = `${dirname(__dirname)}${sep}dist${sep}bundle`;
if (existsSync(`${bundle}${sep}twcodec.js`)) {
  // The command (`map extract`) picks its own code caches where the build made them (load-bundle.cjs).
  require('./load-bundle.cjs').loadBundle(bundle, 'twcodec.js', undefined, process.argv.slice(2, 4).join(' '));
} else {
  import('../dist/bin.js').catch((e) => {
    if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !/[/\\]dist[/\\]/.test(String(e.message))) throw e;
    process.stderr.write(`twcodec: the packages are not built (${e.message.split('\n')[0]}): run npm run build in the repository\n`);
    process.exitCode = 1;
  });
}
