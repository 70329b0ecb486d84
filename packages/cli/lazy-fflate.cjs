// fflate as the CLI's bundle has it (bundle.mjs resolves `fflate` to this file): its build for browsers (the same
// synchronous deflate and inflate as its Node build, without node:worker_threads), evaluated when a function of
// it is first called rather than when the PNG writer loads. fflate builds its Huffman tables when it is
// evaluated, about 4 ms of CPU time on Node 20 (start-up, issue 41; docs/performance.md), and the CLI passes
// node:zlib's deflate to the PNG writer, so most runs that load it (map extract of a map without embedded
// images, map fix, convert) never call it. A CommonJS require() inside a function: the bundler keeps it lazy.
'use strict';
let fflate;
const load = () => (fflate ??= require('fflate'));
exports.zlibSync = (data, options) => load().zlibSync(data, options);
