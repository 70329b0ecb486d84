// A scratch copy of the repository in which schemas/ can be edited, the generator run and the packages built
// again, without touching the checkout: test/extension/extensions.test.ts makes its YAML-only extensions there.
//
// What is copied: schemas/, docs/formats/ and every package (sources without tests, package.json,
// tsconfig.json, the CLI's bin/). The packages' dist/ and tsbuildinfo are copied too, with their timestamps:
// `tsc -b` then rebuilds only what the edited schemas change (the global setup has brought the checkout's
// dist/ up to date). node_modules is not copied: the scratch node_modules links every dependency of the
// checkout, except @twcodec/*, which point into the copy. fixtures/ is linked (read only).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { repoRoot } from '../corpus.js';

/** Copies the repository's sources into a fresh temporary directory. */
export function copyRepository(): string {
  const root = mkdtempSync(join(tmpdir(), 'twcodec-ext-'));
  const keep = { recursive: true, preserveTimestamps: true } as const;
  for (const f of ['tsconfig.base.json', 'package.json']) cpSync(join(repoRoot, f), join(root, f), keep);
  cpSync(join(repoRoot, 'schemas'), join(root, 'schemas'), keep);
  cpSync(join(repoRoot, 'docs', 'formats'), join(root, 'docs', 'formats'), keep);
  // Read only (the explorer page bundles its samples from here).
  symlinkSync(join(repoRoot, 'fixtures'), join(root, 'fixtures'));
  const packages = readdirSync(join(repoRoot, 'packages'));
  for (const name of packages) {
    const from = join(repoRoot, 'packages', name);
    const to = join(root, 'packages', name);
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from)) {
      // The explorer's dist/ is its page, built again from the copy when a test wants it.
      if (entry === 'node_modules' || (name === 'explorer' && entry === 'dist')) continue;
      cpSync(join(from, entry), join(to, entry), { ...keep, filter: (p) => !p.endsWith('.test.ts') && !p.endsWith('.test.js') && !p.endsWith('.test.d.ts') });
    }
  }
  // node_modules: the checkout's dependencies, and @twcodec/* in the copy (links relative to the copy).
  const modules = join(root, 'node_modules');
  mkdirSync(join(modules, '@twcodec'), { recursive: true });
  for (const entry of readdirSync(join(repoRoot, 'node_modules'))) {
    if (entry !== '@twcodec') symlinkSync(join(repoRoot, 'node_modules', entry), join(modules, entry));
  }
  for (const name of packages) symlinkSync(join('..', '..', 'packages', name), join(modules, '@twcodec', name));
  return root;
}

/** Runs `tsc -b` on the CLI (and so on every package it builds on) in the copy. */
export function buildScratch(root: string): void {
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-b', join(root, 'packages', 'cli')], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    const out = e as { stdout?: string; stderr?: string };
    throw new Error(`tsc -b in the scratch copy failed:\n${out.stdout ?? ''}${out.stderr ?? ''}`);
  }
}

/**
 * The explorer's modules as plain JavaScript beside their sources (node-views/), for Node to run its file views
 * (map layout, demo and teehistorian streams, captures): every module is transpiled on its own (the page's
 * own build is Vite's; the types are checked by `npm run typecheck`). Only the views are imported, so the page's
 * DOM and worker modules are transpiled but never run.
 */
export async function transpileExplorer(root: string): Promise<string> {
  const ts = (await import('typescript')).default;
  const src = join(root, 'packages', 'explorer', 'src');
  const out = join(root, 'packages', 'explorer', 'node-views');
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : []));
  for (const path of walk(src)) {
    const js = ts.transpileModule(readFileSync(path, 'utf8'), {
      fileName: basename(path),
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    }).outputText;
    const to = join(out, relative(src, path)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, js);
  }
  return out;
}

/** Edits a schema file of the copy: `edit` gets the text and returns the new text, which must differ. */
export function editSchema(root: string, path: string, edit: (text: string) => string): void {
  const file = join(root, 'schemas', path);
  const before = readFileSync(file, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`the edit of schemas/${path} changed nothing`);
  writeFileSync(file, after);
}

/** Inserts `text` (whole lines) after the first line of the file that contains `anchor`. */
export function insertAfterLine(text: string, anchor: string, insert: string): string {
  const at = text.indexOf(anchor);
  if (at < 0) throw new Error(`anchor not found: ${anchor}`);
  const end = text.indexOf('\n', at) + 1;
  return text.slice(0, end) + insert + text.slice(end);
}

/**
 * Appends `addition` (whole lines) at the end of the top-level block `key:` of a YAML text: before the next
 * top-level key, or at the end. The block's last list gets the addition when the lines are indented as its items.
 */
export function appendToBlock(text: string, key: string, addition: string): string {
  const start = text.search(new RegExp(`^${key}:`, 'm'));
  if (start < 0) throw new Error(`no top-level ${key}: block`);
  const body = text.indexOf('\n', start) + 1 || text.length;
  const next = text.slice(body).search(/^[A-Za-z_]/m);
  let end = next < 0 ? text.length : body + next;
  // Comment lines just before the next key belong to it.
  while (end > body) {
    const lineStart = text.lastIndexOf('\n', end - 2) + 1;
    if (!/^#/.test(text.slice(lineStart, end))) break;
    end = lineStart;
  }
  const before = text.slice(0, end);
  return `${before.endsWith('\n') ? before : `${before}\n`}${addition}${text.slice(end)}`;
}
