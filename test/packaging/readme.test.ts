// The README stays short (what twcodec is, how to try it, a taste of the library and the command, links to
// docs/), and its links and the docs' links lead to files that exist.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../corpus.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const section = (text: string, heading: string) => {
  const start = text.indexOf(`\n## ${heading}\n`);
  const end = text.indexOf('\n## ', start + 1);
  return start < 0 ? '' : text.slice(start, end < 0 ? undefined : end);
};

describe('README', () => {
  it('keeps a short performance summary; the measurement notes are in docs/performance.md', () => {
    const performance = section(readme, 'Performance');
    expect(performance.split('\n').length).toBeLessThan(25);
    expect(performance).toContain('](docs/performance.md)');
    const doc = readFileSync(join(repoRoot, 'docs', 'performance.md'), 'utf8');
    // Every measured range in the README's table is one the notes give.
    for (const [, range] of performance.matchAll(/(\d+(?:\.\d+)?x? to \d+(?:\.\d+)?x?)/g)) expect(doc, range).toContain(range!);
  });

  it('links only to files that exist (README.md and docs/*.md)', () => {
    const files = ['README.md', ...readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const missing: string[] = [];
    for (const file of files) {
      for (const [, target] of readFileSync(join(repoRoot, file), 'utf8').matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        if (!existsSync(join(repoRoot, dirname(file), target!))) missing.push(`${file}: ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
