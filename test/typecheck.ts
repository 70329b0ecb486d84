// Type-checks generated TypeScript against the runtime's sources, as a package would compile it.
import ts from 'typescript';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './corpus.js';

/** What a strict user compiles with: the repository's own strictness (tsconfig.base.json), ES modules as Node runs them. */
export const STRICT_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  skipLibCheck: true,
};

/**
 * Where a user's compiler finds each import: `@twcodec/<pkg>` and its subpath exports, and the packages' own
 * `#imports`, taken from the packages' package.json and mapped from dist/*.d.ts (the `types` condition, which is
 * what tsc resolves) to the source file it is built from.
 */
export function packagePaths(): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  const toSource = (pkgDir: string, target: unknown): string[] => {
    const types = typeof target === 'string' ? target : (target as { types?: string } | undefined)?.types;
    if (!types || !types.startsWith('./dist/') || !types.endsWith('.d.ts')) return [];
    return [`${pkgDir}/src/${types.slice('./dist/'.length, -'.d.ts'.length)}.ts`];
  };
  for (const name of readdirSync(join(repoRoot, 'packages'))) {
    const pkgDir = `packages/${name}`;
    if (!existsSync(join(repoRoot, pkgDir, 'package.json'))) continue;
    const pkg = JSON.parse(readFileSync(join(repoRoot, pkgDir, 'package.json'), 'utf8')) as {
      name: string;
      exports?: Record<string, unknown>;
      imports?: Record<string, unknown>;
    };
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      const source = toSource(pkgDir, target);
      if (source.length) paths[subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`] = source;
    }
    for (const [specifier, target] of Object.entries(pkg.imports ?? {})) {
      const source = toSource(pkgDir, target);
      if (source.length) paths[specifier] = source;
    }
  }
  return paths;
}

/** The compiler's complaints about `files` (empty when they compile). */
export function typeCheck(files: string[]): string[] {
  const program = ts.createProgram(files, { ...STRICT_OPTIONS, types: [], baseUrl: repoRoot, paths: packagePaths() });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}
