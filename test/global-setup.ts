// Builds once, before any test runs, what the tests use built: the packages' dist/ (the CLI binary, the packed
// tarballs and the browser bundles read them) and the explorer page. Test files never build: a build while
// tests run rewrites dist/ under a `twcodec` running from the same checkout, and two test files building at once
// made each other flaky.
//
// `tsc -b` writes nothing when dist/ is up to date (as after `npm run build`, which .ci/run does first), so a
// test run does not touch a current checkout's dist/. The explorer page is built into a directory of its own
// (not packages/explorer/dist), which test/explorer/explorer.test.ts gets with inject('explorerDist').
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { repoRoot } from './corpus.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The explorer page, built for this test run. */
    explorerDist: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  execFileSync('npx', ['tsc', '-b'], { cwd: repoRoot, stdio: 'inherit' });
  // The twcodec binary runs the CLI's bundle (packages/cli/bundle.mjs): made again when dist/ changed under it.
  execFileSync('node', [join(repoRoot, 'packages', 'cli', 'bundle.mjs'), '--if-stale'], { cwd: repoRoot, stdio: 'inherit' });
  const explorerDist = mkdtempSync(join(tmpdir(), 'twcodec-explorer-'));
  const { build } = await import('vite');
  const config = (await import(join(repoRoot, 'packages', 'explorer', 'vite.config.mjs'))).default;
  await build({ ...config, configFile: false, logLevel: 'silent', build: { ...config.build, outDir: explorerDist, emptyOutDir: true } });
  project.provide('explorerDist', explorerDist);
  return () => rmSync(explorerDist, { recursive: true, force: true });
}
