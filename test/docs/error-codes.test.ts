// Each package's error codes: one table of codes and meanings (`*_ERROR_CODES`), from which the error class's
// `code` type is made (issue 37), listed in docs/library.md as the tables say, and holding every code the
// hand-written code throws (for MapError, whose class the generator declares, the compiler cannot check that).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATAFILE_ERROR_CODES } from '@twcodec/datafile';
import { MAP_ERROR_CODES } from '@twcodec/map';
import { RUNTIME_ERROR_CODES } from '@twcodec/runtime';
import { repoRoot } from '../corpus.js';
// @ts-expect-error: a plain ES module of the repository's scripts (no declarations)
import { END, ERROR_CODE_TABLES, errorCodesMarkdown, START, withSection } from '../../scripts/error-codes-doc.mjs';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('error codes', () => {
  it('docs/library.md lists each package\'s codes as its table has them (node scripts/error-codes-doc.mjs --write)', async () => {
    const docs = readFileSync(join(repoRoot, 'docs', 'library.md'), 'utf8');
    expect(docs).toContain(START);
    expect(docs).toContain(END);
    expect(withSection(docs, (await errorCodesMarkdown()) as string)).toBe(docs);
  });

  it.each((ERROR_CODE_TABLES as { pkg: string; table: string }[]).map((t) => [t.pkg, t.table] as const))('%s exports %s: codes in UPPER_SNAKE or area.name, each with a meaning', async (pkg, table) => {
    const codes = (await import(pkg))[table] as Record<string, string>;
    expect(Object.keys(codes).length).toBeGreaterThan(0);
    for (const [code, meaning] of Object.entries(codes)) {
      expect(code).toMatch(/^([A-Z][A-Z0-9_]*|[a-z]+\.[a-z0-9_]+)$/);
      expect(meaning.length, code).toBeGreaterThan(10);
    }
  });

  it('every code a MapError is thrown with in hand-written code is in MAP_ERROR_CODES (or the datafile and runtime codes it hands on)', () => {
    const known = new Set([...Object.keys(MAP_ERROR_CODES), ...Object.keys(DATAFILE_ERROR_CODES), ...Object.keys(RUNTIME_ERROR_CODES)]);
    const thrown = new Map<string, string>();
    for (const pkg of ['map', 'map-tools', 'cli']) {
      for (const file of sources(join(repoRoot, 'packages', pkg, 'src'))) {
        const text = readFileSync(file, 'utf8');
        // new MapError('code', ...), and the helpers that make one from a code (fail('code', ...) in the map
        // tools, this.problem('code', ...) in the reader, which throws in strict mode).
        const makesMapErrors = /new MapError\(/.test(text);
        for (const m of text.matchAll(/new MapError\(\s*'([^']+)'/g)) thrown.set(m[1]!, file);
        if (makesMapErrors) for (const m of text.matchAll(/\b(?:fail|this\.problem)\(\s*'([^']+)'/g)) thrown.set(m[1]!, file);
      }
    }
    expect(thrown.size).toBeGreaterThan(20);
    expect([...thrown].filter(([code]) => !known.has(code))).toEqual([]);
  });
});
