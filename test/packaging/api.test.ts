// Each package's public API is a list of names chosen by hand (issue 37): no index re-exports a module
// wholesale (`export *`, which made every generated helper public: @twcodec/map exposed 119 runtime symbols),
// and the names each package exports, types and values, are pinned here so that a change to them is
// deliberate. After adding an export on purpose: npx vitest run test/packaging/api.test.ts -u (and a changeset).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../corpus.js';

const packagesDir = join(repoRoot, 'packages');
/** The published packages (codegen and the explorer are private: tools of this repository, not an API). */
const packages = readdirSync(packagesDir).filter((name) => {
  const manifest = join(packagesDir, name, 'package.json');
  return existsSync(manifest) && !(JSON.parse(readFileSync(manifest, 'utf8')) as { private?: boolean }).private && existsSync(join(packagesDir, name, 'dist', 'index.d.ts'));
});

describe('public API', () => {
  it.each(packages)('%s: its index exports names, no module wholesale (export *)', (name) => {
    const text = readFileSync(join(packagesDir, name, 'src', 'index.ts'), 'utf8');
    expect(text.split('\n').filter((line) => /^\s*export\s+(type\s+)?\*/.test(line))).toEqual([]);
  });

  it('is the names each package exports (types and values)', () => {
    const roots = packages.map((name) => join(packagesDir, name, 'dist', 'index.d.ts'));
    const program = ts.createProgram(roots, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true, skipLibCheck: true, types: [] });
    const checker = program.getTypeChecker();
    const api: Record<string, string[]> = {};
    for (const [i, name] of packages.entries()) {
      const file = program.getSourceFile(roots[i]!)!;
      const symbol = checker.getSymbolAtLocation(file)!;
      api[`@twcodec/${name}`] = checker.getExportsOfModule(symbol).map((s) => s.getName()).sort();
    }
    expect(api).toMatchSnapshot();
  });
});
