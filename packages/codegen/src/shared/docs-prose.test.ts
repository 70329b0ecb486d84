// "No format prose in TypeScript": every docs page's prose is in a Markdown template beside its schemas or in a
// YAML description. The emitters of docs pages live in <family>/docs.ts; their string literals may hold table
// headers, short cell words and Markdown syntax, never sentences.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = new URL('..', import.meta.url).pathname;
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });

/** A literal reads as prose when it holds this many words (template expressions left out). */
const PROSE_WORDS = 8;

/** String and template literals of a TypeScript file, comments left out. */
function literals(text: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  const lineAt = (i: number) => text.slice(0, i).split('\n').length;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') i = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i);
    else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) + 1;
    else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let depth = 0;
      let body = '';
      for (; j < text.length; j++) {
        const d = text[j]!;
        if (d === '\\') { body += text[j + 1]; j++; continue; }
        if (c === '`' && d === '$' && text[j + 1] === '{') { depth++; j++; body += ' '; continue; }
        if (depth && d === '}') { depth--; continue; }
        if (depth) continue;
        if (d === c) break;
        body += d;
      }
      out.push({ text: body, line: lineAt(i) });
      i = j;
    }
  }
  return out;
}

/** Families whose page prose is still being moved into templates (issue 38); each leaves this list when done. */
const PENDING = ['net', 'netmsg', 'snapshot', 'teehistorian'];
const pending = (file: string) => PENDING.some((family) => relative(src, file).startsWith(`${family}/`));

const words = (s: string) => s.match(/[A-Za-z][A-Za-z']+/g)?.length ?? 0;

describe('docs pages hold no prose in TypeScript', () => {
  const all = files(src);
  it('every docs emitter (emit...Docs) is defined in a <family>/docs.ts', () => {
    const misplaced = all.filter((f) => !f.endsWith('/docs.ts') && !pending(f) && /export function emit\w*Docs\b/.test(readFileSync(f, 'utf8')));
    expect(misplaced.map((f) => relative(src, f))).toEqual([]);
  });
  for (const family of PENDING) it.todo(`${family}: the page's prose moves into its template`);
  for (const file of all.filter((f) => f.endsWith('/docs.ts') && !pending(f))) {
    it(`${relative(src, file)} has no sentences (they belong in the page template or the YAML)`, () => {
      const prose = literals(readFileSync(file, 'utf8')).filter((l) => words(l.text) >= PROSE_WORDS);
      expect(prose.map((l) => `${relative(src, file)}:${l.line}: ${l.text.slice(0, 80)}`)).toEqual([]);
    });
  }
});
