// Emits a map record's interface and codecs (records.gen.ts): fixed-size int structs inside data and array items.
import { type StatementStructures, StructureKind } from 'ts-morph';
import { recordInterface } from './names.js';
import { doc, exportedConst, type Imports } from '../shared/emit.js';
import { fieldInts, type RecordDef } from './model.js';
import { camel } from '../shared/names.js';
import { constName, fieldDoc, fieldTsType, index, readExpr, writeStmts } from './fields.js';

export function recordStatements(record: RecordDef, imports: Imports): StatementStructures[] {
  const name = recordInterface(record);
  const ints = constName(`${record.name}_ints`);
  const readLines: string[] = [];
  const writeLines: string[] = [];
  let k = 0;
  for (const field of record.fields) {
    readLines.push(`${camel(field.name)}: ${readExpr(field, index('at', k), imports)},`);
    writeLines.push(...writeStmts(field, `r.${camel(field.name)}`, index('at', k), imports));
    k += fieldInts(field);
  }
  const readBody = ['return {', ...readLines.map((l) => `  ${l}`), '};'];
  return [
    exportedConst(ints, undefined, `Size of a ${record.name} record in i32.`, String(record.ints)),
    {
      kind: StructureKind.Interface,
      name,
      isExported: true,
      docs: doc(`${record.description}${record.extends ? ` Starts with the fields of ${recordInterface({ name: record.extends } as RecordDef)}.` : ''}`, ...record.notes.map((n) => `Note: ${n}`)),
      properties: record.fields.map((field) => ({
        kind: StructureKind.PropertySignature as const,
        name: camel(field.name),
        type: fieldTsType(field, imports),
        docs: doc(fieldDoc(field)),
      })),
    },
    {
      kind: StructureKind.Function,
      name: `decode${name}`,
      isExported: true,
      docs: doc(`Reads one ${record.name} record at int index \`at\`.`),
      parameters: [
        { name: 'd', type: 'Int32Array' },
        { name: 'at', type: 'number' },
      ],
      returnType: name,
      statements: readBody,
    },
    {
      kind: StructureKind.Function,
      name: `encode${name}`,
      isExported: true,
      docs: doc(`Writes one ${record.name} record at int index \`at\`.`),
      parameters: [
        { name: 'r', type: name },
        { name: 'out', type: 'Int32Array' },
        { name: 'at', type: 'number' },
      ],
      returnType: 'void',
      statements: writeLines,
    },
    {
      kind: StructureKind.Function,
      name: `decode${name}Array`,
      isExported: true,
      docs: doc(`Reads consecutive ${record.name} records; ints after the last whole record are ignored.`),
      parameters: [{ name: 'd', type: 'Int32Array' }],
      returnType: `${name}[]`,
      statements: [`const out: ${name}[] = [];`, `for (let at = 0; at + ${ints} <= d.length; at += ${ints}) out.push(decode${name}(d, at));`, 'return out;'],
    },
    {
      kind: StructureKind.Function,
      name: `encode${name}Array`,
      isExported: true,
      docs: doc(`Writes ${record.name} records one after another.`),
      parameters: [{ name: 'records', type: `readonly ${name}[]` }],
      returnType: 'Int32Array',
      statements: [`const out = new Int32Array(records.length * ${ints});`, `records.forEach((r, i) => encode${name}(r, out, i * ${ints}));`, 'return out;'],
    },
  ];
}
