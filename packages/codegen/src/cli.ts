#!/usr/bin/env node
// `twcodec-codegen [--root DIR] [--check]`: regenerates the codecs and docs from schemas/.
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './generate.js';
import { SchemaError } from './shared/schema-files.js';

const { values } = parseArgs({ options: { root: { type: 'string', default: '.' }, check: { type: 'boolean' } } });
const root = resolve(values.root!);
try {
  const result = generate({ root, check: values.check === true });
  const show = (paths: string[]) => paths.map((p) => relative(root, p)).join(', ');
  if (values.check) {
    const stale = [...result.written, ...result.removed];
    if (stale.length) {
      console.error(`generated files are stale: ${show(stale)}\nrun \`npm run generate\` and commit the result`);
      process.exitCode = 1;
    } else console.log(`generated files are up to date (${result.unchanged.length})`);
  } else {
    console.log(`generated: ${result.written.length} written, ${result.unchanged.length} unchanged, ${result.removed.length} removed`);
    if (result.written.length) console.log(`  ${show(result.written)}`);
  }
} catch (e) {
  if (e instanceof SchemaError) {
    console.error(e.message);
    process.exitCode = 1;
  } else throw e;
}
