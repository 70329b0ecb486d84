// Start-up (issue 28): a command loads its modules when it runs, so that `twcodec --version` or a small map's
// `map info` does not pay for loading every package (docs/performance.md, "Against DDNet's tools"). Checked on
// the built modules' static imports (what Node loads before any code runs), not by timing.
import { existsSync, readFileSync } from 'node:fs';
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
  it('the CLI loads no codec package before a command runs', () => {
    expect([...staticImports(join(dist, 'bin.js'))].sort()).toEqual(['node:fs', 'node:fs/promises', 'node:path', 'node:util']);
  });

  it('a batch worker loads the modules of its command only when it gets a file (runtime: its errors)', () => {
    expect([...staticImports(join(dist, 'batch-worker.js'))].sort()).toEqual(['@twcodec/runtime', 'node:fs', 'node:fs/promises', 'node:path', 'node:worker_threads']);
  });

  it('the binary runs the bundle the build made', () => {
    expect(readFileSync(join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.js'), 'utf8')).toContain('../dist/bundle/twcodec.js');
    expect(existsSync(join(dist, 'bundle', 'twcodec.js')) && existsSync(join(dist, 'bundle', 'batch-worker.js'))).toBe(true);
  });
});
