#!/usr/bin/env node
import { main, nodeIo } from './index.js';

// Not a top-level await: the bundle (bundle.mjs) is CommonJS, which has none.
void main(process.argv.slice(2), nodeIo()).then((code) => {
  process.exitCode = code;
});
