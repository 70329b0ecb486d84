// Bundles the built CLI (dist/bin.js and the batch worker, with the @twcodec packages and their dependencies)
// into dist/bundle/: one chunk per command group, loaded when a command runs (index.ts imports each command's
// modules dynamically); bin/twcodec.js runs it when it is there. Why: Node 20 resolves, reads and links each ES
// module on its own, and the ~80 modules of a map command cost about a fifth of a small map's run; as a few
// chunks they cost much less (docs/performance.md, "Against DDNet's tools (issue 28)"). The modules in dist/
// stay the package's API (`import { main } from '@twcodec/cli'`).
//
// Run by the build (after tsc -b) and by test/global-setup.ts with --if-stale: then nothing is written when no
// module the bundle was made from changed since (dist/bundle/inputs.json lists them), so that the bin tests never
// run a bundle older than dist/.
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const out = here('./dist/bundle');
const inputsFile = `${out}/inputs.json`;

function current() {
  if (!existsSync(inputsFile)) return false;
  const made = statSync(inputsFile).mtimeMs;
  const inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
  return inputs.every((path) => existsSync(path) && statSync(path).mtimeMs <= made);
}

if (!(process.argv.includes('--if-stale') && current())) {
  rmSync(out, { recursive: true, force: true });
  // Imported here: a current bundle (--if-stale) does not pay for loading the bundler.
  const { rolldown } = await import('rolldown');
  const bundle = await rolldown({
    input: { twcodec: here('./dist/bin.js'), 'batch-worker': here('./dist/batch-worker.js') },
    platform: 'node',
    // Export's optional writers stay optional: looked up when a format needs them (export imports them by a
    // variable name, which is left alone anyway; listed so that a literal import never pulls them in).
    external: [/^node:/, 'hyparquet-writer', 'apache-arrow'],
    logLevel: 'warn',
  });
  // batch.js starts its workers from new URL('./batch-worker.js', import.meta.url): the entry of that name sits
  // beside the chunks.
  const { output } = await bundle.write({ dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' });
  await bundle.close();
  const inputs = [...new Set(output.flatMap((chunk) => chunk.moduleIds ?? []))].filter((id) => existsSync(id)).sort();
  inputs.push(here('./bundle.mjs'));
  writeFileSync(inputsFile, `${JSON.stringify(inputs, null, 1)}\n`);
}
