// Every workspace package declares the @twcodec packages its code imports: an undeclared one works in the
// monorepo (hoisted node_modules) and breaks once the package is installed on its own.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../corpus.js';

const packagesDir = join(repoRoot, 'packages');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sources(path);
    return /\.(ts|mts|mjs)$/.test(name) && !/\.test\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('package dependencies', () => {
  const packages = readdirSync(packagesDir).filter((name) => statSync(join(packagesDir, name, 'package.json'), { throwIfNoEntry: false }));
  it.each(packages)('%s declares the @twcodec packages it imports', (name) => {
    const manifest = JSON.parse(readFileSync(join(packagesDir, name, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined> & { name: string };
    const declared = new Set([manifest.name, ...Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies })]);
    const missing = new Set<string>();
    for (const file of sources(join(packagesDir, name, 'src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'(@twcodec\/[a-z-]+)'/gm)) {
        if (!declared.has(m[1]!)) missing.add(`${m[1]} (${file.slice(repoRoot.length + 1)})`);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
