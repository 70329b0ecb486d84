// Small builders for the ts-morph structures the emitters write again and again.
import { type InterfaceDeclarationStructure, StructureKind, VariableDeclarationKind, type VariableStatementStructure, type WriterFunction } from 'ts-morph';
import { doc } from './emit-ts.js';

/** A property: name, type, and optionally its doc comment. */
export type Prop = readonly [name: string, type: string, docText?: string];

/** An exported interface of readonly properties. */
export function readonlyInterface(name: string, docText: string, props: readonly Prop[], extra: Partial<InterfaceDeclarationStructure> = {}): InterfaceDeclarationStructure {
  return {
    kind: StructureKind.Interface,
    name,
    isExported: true,
    docs: doc(docText),
    properties: props.map(([prop, type, propDoc]) => ({ name: prop, type, isReadonly: true, docs: doc(propDoc) })),
    ...extra,
  };
}

/** An exported `const` with a type and an initializer (text or a writer). */
export function exportedConst(name: string, type: string | undefined, docText: string, initializer: string | WriterFunction): VariableStatementStructure {
  return {
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: doc(docText),
    declarations: [{ name, ...(type ? { type } : {}), initializer }],
  };
}

/** An initializer writing `open`, one line per entry (indented), then `close`. */
export const listInitializer =
  (open: string, lines: readonly string[], close: string): WriterFunction =>
  (w) => {
    w.write(open).newLine();
    w.indent(() => lines.forEach((line) => w.writeLine(line)));
    w.write(close);
  };
