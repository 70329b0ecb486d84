// Type-checks generated TypeScript against the runtime's sources, as a package would compile it.
import ts from 'typescript';
import { repoRoot } from './corpus.js';

/** The compiler's complaints about `files` (empty when they compile). */
export function typeCheck(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    skipLibCheck: true,
    types: [],
    baseUrl: repoRoot,
    // As vitest.config.ts resolves them: a package to its src/index.ts, a subpath export to src/<name>.ts.
    paths: {
      '@twcodec/datafile': ['packages/datafile/src/index.ts'],
      '@twcodec/datafile/deflate': ['packages/datafile/src/deflate.ts'],
      '@twcodec/runtime': ['packages/runtime/src/index.ts'],
      '@twcodec/netmsg': ['packages/netmsg/src/index.ts'],
      // The map writer's conditional import, as vitest.config.ts resolves it (Node).
      '#deflate': ['packages/map/src/deflate-node.ts'],
    },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}
