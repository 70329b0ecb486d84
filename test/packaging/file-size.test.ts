// Every hand-written source file of the packages stays under 600 lines (issue 37's limit), so that a module keeps
// one purpose a reader can hold in mind. Four files had grown past it unnoticed (the explorer's main.ts to 830,
// streams.ts, player.ts, and the net client): this fails as soon as one reaches the limit again, naming it, so
// that it is split by concern (as those were) rather than grown. Generated files (*.gen.ts, which codegen writes
// from the schemas) and tests do not count.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../corpus.js';

const LIMIT = 600;
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** The hand-written source files under `dir`: no generated files, no tests. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(path);
    return SOURCE.test(e.name) && !e.name.endsWith('.gen.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Lines as `wc -l` counts them (a last line without its newline counts too). */
function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('hand-written source files', () => {
  const packagesDir = join(repoRoot, 'packages');
  const files = readdirSync(packagesDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => {
      const src = join(packagesDir, e.name, 'src');
      try {
        return sourceFiles(src);
      } catch {
        return [];
      }
    });

  it('are found (every package has its sources under src/)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.endsWith(join('net', 'src', 'client.ts')))).toBe(true);
  });

  it(`are each under ${LIMIT} lines (split a file that reaches it by concern, with a header saying why each module exists)`, () => {
    const tooLong = files
      .map((f) => ({ file: relative(repoRoot, f), lines: lineCount(readFileSync(f, 'utf8')) }))
      .filter((f) => f.lines >= LIMIT)
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(tooLong).toEqual([]);
  });

  it('counts lines as wc -l does', () => {
    expect([lineCount(''), lineCount('a\n'), lineCount('a\nb'), lineCount('a\nb\n')]).toEqual([0, 1, 2, 2]);
  });
});
