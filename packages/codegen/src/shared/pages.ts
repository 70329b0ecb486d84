// Docs pages are data: each page of docs/formats is a Markdown template that sits beside its schemas
// (schemas/<family>/<page>.md) holding all of the page's prose, with {{placeholder}}s where the generator puts
// what it derives from the YAML (tables, lists, constants). The generator never writes prose of its own, so a
// reader's fix to a page is an edit to the template or to a YAML description.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_DOCS_HEADER } from './emit.js';
import { SchemaError, type SchemaProblem } from './schema-files.js';

/** A page's template: its path as shown in errors and in the generated notice, and its text. */
export interface PageTemplate {
  file: string;
  text: string;
  /** The placeholders the template uses, in order of first use. */
  placeholders: string[];
}

const PLACEHOLDER = /\{\{([^}]*)\}\}/g;

/**
 * Reads the template `file` (relative to `displayRoot`, e.g. `schemas/snapshot/snapshot.md`). `known` are the
 * placeholders the page's emitter fills: a template naming another one is a SchemaError at its line:col.
 */
export function loadPageTemplate(displayRoot: string, file: string, known: readonly string[]): PageTemplate {
  const path = join(displayRoot, file);
  if (!existsSync(path)) throw new SchemaError([{ file, line: 1, col: 1, message: `the docs template ${file} is missing` }]);
  const text = readFileSync(path, 'utf8');
  const problems: SchemaProblem[] = [];
  const placeholders: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(PLACEHOLDER)) {
      const name = m[1]!;
      if (!known.includes(name)) {
        problems.push({ file, line: i + 1, col: m.index! + 1, message: `unknown placeholder {{${name}}} (known: ${known.join(', ')})` });
      } else if (!placeholders.includes(name)) placeholders.push(name);
    }
  });
  if (problems.length) throw new SchemaError(problems);
  return { file, text, placeholders };
}

/** What fills a placeholder: a block of lines, or text to be set inline. */
export type PageFill = string | readonly string[];

/**
 * The generated page: the notice naming `sources` and the template, then the template with every placeholder
 * replaced. `fill` may hold more placeholders than the template uses (a template may leave a table out).
 */
export function renderPage(template: PageTemplate, sources: string, fill: Readonly<Record<string, PageFill>>): string {
  const body = template.text.replace(PLACEHOLDER, (_, name: string) => {
    const value = fill[name];
    if (value === undefined) throw new Error(`${template.file}: the emitter has nothing for {{${name}}}`);
    return typeof value === 'string' ? value : value.join('\n');
  });
  return `${GENERATED_DOCS_HEADER(`${sources} and ${template.file}`)}\n\n${body.replace(/\n+$/, '')}\n`;
}

/** A table cell: pipes escaped, one line. */
export const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A table's header row and its rule, from the column names. */
export const tableHead = (columns: readonly string[]) => [`| ${columns.join(' | ')} |`, `| ${columns.map(() => '---').join(' | ')} |`];
