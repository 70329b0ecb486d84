// Every TypeScript example in the docs compiles as a strict user's project compiles it (strict,
// noUncheckedIndexedAccess, module NodeNext), against the packages' sources. Nothing else checks the doc
// examples, so without this they drift from the API (a user-side audit found five that did not compile).
//
// Each ```ts block (and ```js/```typescript/... block: a user copies those too) of README.md, docs/**/*.md,
// packages/*/README.md and the doc comments of packages/*/src (the API reference typedoc makes of them)
// becomes its own ES module. The few values examples take as given (`bytes`: the file read by the reader)
// are declared once below, as globals, so that a block defining the name itself shadows them. A block that is
// deliberately not standalone TypeScript is skipped only when the markdown says so, on the line before its
// fence: `<!-- not-checked: why -->`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../corpus.js';
import { packagePaths, STRICT_OPTIONS } from '../typecheck.js';

/** The free variables of the examples, with the type a user's value has. Each must be used by some block. */
const exampleGlobals = `
declare const bytes: Uint8Array;              // the file an example reads (map, demo, teehistorian, capture, ...)
declare const demoBytes: Uint8Array;          // a demo, beside a teehistorian in \`bytes\`
declare const pcapBytes: Uint8Array;          // a capture
declare const pngBytes: Uint8Array;           // a PNG file
declare const udpPayload: Uint8Array;         // one UDP datagram's payload
declare const a: Uint8Array;                  // two maps to compare
declare const b: Uint8Array;
declare const path: string;                   // a file on disk
declare const response: Response;             // a fetch() response
declare const stream: ReadableStream<Uint8Array>;
declare const df: import('@twcodec/datafile').Datafile; // the datafile of the example before
declare const previous: import('@twcodec/snapshot').Snapshot; // the snapshot a delta applies to
declare const next: import('@twcodec/snapshot').Snapshot; // the snapshot of the example before
declare const deltaInts: Int32Array;          // a snapshot delta as DDNet's server sends it
declare function save(fileName: string, bytes: Uint8Array): void; // the user's own output
`;

const codeLanguages = new Set(['ts', 'typescript', 'tsx', 'mts', 'js', 'javascript', 'jsx', 'mjs']);

interface Block {
  /** The markdown (or source) file, relative to the repository. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
}

function markdownFiles(): string[] {
  const docs = (dir: string): string[] =>
    readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? docs(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : [],
    );
  const readmes = readdirSync(join(repoRoot, 'packages'))
    .map((p) => `packages/${p}/README.md`)
    .filter((f) => existsSync(join(repoRoot, f)));
  return ['README.md', ...docs('docs'), ...readmes];
}

/** The packages' hand-written sources (not tests, not generated code), whose doc comments may hold examples. */
function sourceFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? e.name === 'generated' ? [] : walk(`${dir}/${e.name}`)
        : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [`${dir}/${e.name}`] : [],
    );
  return readdirSync(join(repoRoot, 'packages'))
    .filter((p) => existsSync(join(repoRoot, 'packages', p, 'src')))
    .flatMap((p) => walk(`packages/${p}/src`));
}

/** A source file's comment lines without their ` * `, other lines blank: markdown with the file's line numbers. */
function docCommentText(text: string): string {
  return text
    .split('\n')
    .map((line) => /^\s*\* ?(.*)$/.exec(line)?.[1] ?? '')
    .join('\n');
}

/** The code blocks to check, and the problems of the markers (a marker without a reason or without a block). */
function extractBlocks(file: string): { blocks: Block[]; problems: string[] } {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const lines = (file.endsWith('.ts') ? docCommentText(text) : text).split('\n');
  const blocks: Block[] = [];
  const problems: string[] = [];
  let pendingMarker: { line: number; reason: string } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = /^\s*<!--\s*not-checked:(.*?)-->\s*$/.exec(line);
    if (marker) {
      pendingMarker = { line: i + 1, reason: marker[1]!.trim() };
      if (!pendingMarker.reason) problems.push(`${file}:${i + 1}: not-checked marker without a reason`);
      continue;
    }
    const fence = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (!fence) {
      if (pendingMarker && line.trim()) {
        problems.push(`${file}:${pendingMarker.line}: not-checked marker not right before a code block`);
        pendingMarker = undefined;
      }
      continue;
    }
    const [, indent, mark, language] = fence;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.trimStart().startsWith(mark!)) end++;
    const code = lines
      .slice(i + 1, end)
      .map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l))
      .join('\n');
    if (codeLanguages.has(language!.toLowerCase())) {
      if (!pendingMarker) blocks.push({ file, line: i + 1, code });
    } else if (pendingMarker) {
      problems.push(`${file}:${pendingMarker.line}: not-checked marker before a ${language || 'plain'} block, which is not checked anyway`);
    }
    pendingMarker = undefined;
    i = end;
  }
  if (pendingMarker) problems.push(`${file}:${pendingMarker.line}: not-checked marker not right before a code block`);
  return { blocks, problems };
}

/** The compiler's complaints, as `file.md:line: message` with the markdown line. */
function typeCheckBlocks(blocks: Block[]): string[] {
  const virtual = new Map<string, { text: string; block?: Block }>();
  const dir = join(repoRoot, '.doc-examples');
  const globalsFile = join(dir, 'globals.d.ts');
  virtual.set(globalsFile, { text: exampleGlobals });
  // .mts: an ES module whatever package.json says, as the examples' top-level await needs.
  for (const block of blocks) virtual.set(join(dir, `${block.file.replaceAll('/', '__')}__${block.line}.mts`), { text: block.code, block });

  const options: ts.CompilerOptions = { ...STRICT_OPTIONS, types: ['node'], baseUrl: repoRoot, paths: packagePaths() };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  host.readFile = (f) => virtual.get(f)?.text ?? readFile.call(host, f);
  host.getSourceFile = (f, language, onError, shouldCreate) => {
    const v = virtual.get(f);
    return v ? ts.createSourceFile(f, v.text, language) : getSourceFile.call(host, f, language, onError, shouldCreate);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  // Only the examples' own diagnostics: the packages' sources are checked by `npm run typecheck`, and asking
  // for theirs too would check every function body of every package (three times the time).
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...[...virtual.keys()].flatMap((f) => {
      const sourceFile = program.getSourceFile(f)!;
      return [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)];
    }),
  ];
  return diagnostics.map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const block = d.file && virtual.get(d.file.fileName)?.block;
    if (!block || d.start === undefined) return `${d.file ? relative(repoRoot, d.file.fileName) : ''}: ${message}`;
    const { line, character } = d.file!.getLineAndCharacterOfPosition(d.start);
    return `${block.file}:${block.line + 1 + line}:${character + 1}: ${message}`;
  });
}

describe('doc examples', () => {
  const extracted = [...markdownFiles(), ...sourceFiles()].map(extractBlocks);
  const blocks = extracted.flatMap((e) => e.blocks);

  it('mark a skipped block right before it, with a reason', () => {
    expect(extracted.flatMap((e) => e.problems)).toEqual([]);
  });

  it('declare only free variables some example uses', () => {
    const unused = [...exampleGlobals.matchAll(/declare (?:const|function) (\w+)/g)]
      .map((m) => m[1]!)
      .filter((name) => !blocks.some((b) => new RegExp(`\\b${name}\\b`).test(b.code)));
    expect(unused).toEqual([]);
  });

  it('type-check with strict and noUncheckedIndexedAccess, each block as its own module', () => {
    expect(blocks.length).toBeGreaterThan(20);
    expect(typeCheckBlocks(blocks)).toEqual([]);
  });
});
