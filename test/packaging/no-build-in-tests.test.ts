// Tests never build: test/global-setup.ts builds dist/ and the explorer page once before they run. A test that
// rebuilt dist/ (nx, tsc -b, a Vite build into packages/*/dist) rewrote it under the other tests and under a
// `twcodec` running from the same checkout.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../corpus.js';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist') return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? testFiles(path) : e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Ways a test file could start a build of the packages. */
const BUILDS = [/['"]tsc['"]\s*,\s*['"](-b|--build)['"]/, /['"]nx['"]\s*,\s*['"]run/, /\bnx run(-many)? /, /['"]run['"]\s*,\s*['"]build['"]/, /vite\.config\.mjs['"]\)\)\.default/];

describe('the test suite', () => {
  it('builds nothing inside test files', () => {
    const files = [...testFiles(join(repoRoot, 'packages')), ...testFiles(join(repoRoot, 'test'))];
    expect(files.length).toBeGreaterThan(50);
    const building = files.filter((f) => BUILDS.some((re) => re.test(readFileSync(f, 'utf8')))).map((f) => relative(repoRoot, f));
    expect(building).toEqual([]);
  });

  it('builds once before the tests, in vitest globalSetup', () => {
    expect(readFileSync(join(repoRoot, 'vitest.config.ts'), 'utf8')).toMatch(/globalSetup: \['\.\/test\/global-setup\.ts'\]/);
  });
});
