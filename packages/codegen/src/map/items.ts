// Emits a map item type's interface, decoder and encoder (items.gen.ts).
import { type StatementStructures, StructureKind } from 'ts-morph';
import { itemInterface, recordInterface, variantInterface } from './names.js';
import { doc, type Imports, str } from '../shared/emit.js';
import { type ItemDef, type RecordDef } from './model.js';
import { camel, pascal } from '../shared/names.js';
import { constName, decodeEntries, encodeEntries, layoutProperties, RECORDS } from './fields.js';

function itemWhere(item: ItemDef): string {
  return item.typeId !== undefined ? `type_id ${item.typeId}` : `UUID ${item.uuid} (\`${item.uuidName}\`)`;
}

export function itemStatements(item: ItemDef, imports: Imports): StatementStructures[] {
  const statements: StatementStructures[] = [];
  const iface = itemInterface(item);
  const extraProp = {
    kind: StructureKind.PropertySignature as const,
    name: 'extra',
    type: 'number[]',
    hasQuestionToken: true,
    docs: doc('Ints after the known fields, kept so that the item is written back unchanged.'),
  };
  const notes = item.notes.map((n) => `Note: ${n}`);

  if (item.array) {
    // Array items with one record layout are their records (plus surplus ints); with several, the map
    // decides the layout and keeps the ints.
    if (item.array.records.length > 1) return statements;
    const record = recordInterface({ name: item.array.records[0]! } as RecordDef);
    const ints = imports.value(RECORDS, constName(`${item.array.records[0]}_ints`));
    statements.push({
      kind: StructureKind.Interface,
      name: iface,
      isExported: true,
      docs: doc(`${item.description} (${itemWhere(item)})`, ...notes),
      properties: [{ kind: StructureKind.PropertySignature, name: 'records', type: `${imports.type(RECORDS, record)}[]`, docs: doc(item.array.description) }, { ...extraProp, docs: doc('Ints after the last whole record, kept so that the item is written back unchanged.') }],
    });
    statements.push(
      decodeFunction(item, iface, [
        `const records = ${imports.value(RECORDS, `decode${record}Array`)}(d);`,
        `const used = records.length * ${ints};`,
        'return used < d.length ? { records, extra: Array.from(d.subarray(used)) } : { records };',
      ]),
    );
    statements.push(
      encodeFunction(item, iface, [
        `const ints = ${imports.value(RECORDS, `encode${record}Array`)}(item.records);`,
        'if (!item.extra?.length) return ints;',
        'const out = new Int32Array(ints.length + item.extra.length);',
        'out.set(ints);',
        'out.set(item.extra, ints.length);',
        'return out;',
      ]),
    );
    return statements;
  }

  if (!item.variants) {
    statements.push({
      kind: StructureKind.Interface,
      name: iface,
      isExported: true,
      docs: doc(`${item.description} (${itemWhere(item)})`, ...notes),
      properties: [...layoutProperties({ entries: item.fields, imports }), extraProp],
    });
    const body = [
      `const item = {} as ${iface};`,
      'let p = 0;',
      ...decodeEntries({ entries: item.fields, imports }, item.name),
      'if (p < d.length) item.extra = Array.from(d.subarray(p));',
      'return item;',
    ];
    statements.push(decodeFunction(item, iface, body));
    const { size, write } = encodeEntries({ entries: item.fields, imports }, '0');
    statements.push(encodeFunction(item, iface, [...size, 'if (item.extra) n += item.extra.length;', 'const out = new Int32Array(n);', 'let p = 0;', ...write, 'if (item.extra) out.set(item.extra, p);', 'return out;']));
    return statements;
  }

  // Items with variants: a base interface, one interface per case, and an unknown case.
  const variants = item.variants;
  const baseName = `${pascal(item.name)}ItemBase`;
  statements.push({
    kind: StructureKind.Interface,
    name: baseName,
    isExported: true,
    docs: doc(`The fields every ${item.name} item starts with. (${itemWhere(item)})`),
    properties: [...layoutProperties({ entries: item.fields, imports }), extraProp],
  });
  const caseNames: string[] = [];
  for (const c of variants.cases) {
    const name = variantInterface(item, c.name);
    caseNames.push(name);
    statements.push({
      kind: StructureKind.Interface,
      name,
      isExported: true,
      extends: [baseName],
      docs: doc(`${c.description} (\`${variants.on}\` = ${c.value})`, ...c.notes.map((n) => `Note: ${n}`)),
      properties: [
        { kind: StructureKind.PropertySignature, name: 'kind', type: str(c.name) },
        ...layoutProperties({ entries: c.fields, imports }),
      ],
    });
  }
  const unknownName = variantInterface(item, 'unknown');
  statements.push({
    kind: StructureKind.Interface,
    name: unknownName,
    isExported: true,
    extends: [baseName],
    docs: doc(`A ${item.name} of a kind this schema does not describe; its ints after the common fields are in \`extra\`.`),
    properties: [{ kind: StructureKind.PropertySignature, name: 'kind', type: "'unknown'" }],
  });
  statements.push({
    kind: StructureKind.TypeAlias,
    name: iface,
    isExported: true,
    docs: doc(`${item.description} (${itemWhere(item)})`, ...notes),
    type: [...caseNames, unknownName].join(' | '),
  });
  const on = camel(variants.on);
  const decodeBody = [
    `const item = {} as ${iface};`,
    'let p = 0;',
    ...decodeEntries({ entries: item.fields, imports }, item.name),
    `switch (item.${on}) {`,
    ...variants.cases.flatMap((c) => [
      `  case ${c.value}: {`,
      `    item.kind = ${str(c.name)};`,
      `    const v = item as ${variantInterface(item, c.name)};`,
      ...decodeEntries({ entries: c.fields, imports }, `${item.name}.${camel(c.name)}`).map((l) => `    ${l.replace(/\bitem\./g, 'v.')}`),
      '    break;',
      '  }',
    ]),
    '  default:',
    "    item.kind = 'unknown';",
    '}',
    'if (p < d.length) item.extra = Array.from(d.subarray(p));',
    'return item;',
  ];
  statements.push(decodeFunction(item, iface, decodeBody));
  const base = encodeEntries({ entries: item.fields, imports }, '0');
  const encodeBody = [...base.size, 'switch (item.kind) {'];
  const writeBody: string[] = ['switch (item.kind) {'];
  for (const c of variants.cases) {
    const e = encodeEntries({ entries: c.fields, imports }, 'n');
    encodeBody.push(`  case ${str(c.name)}: {`, ...e.size.slice(1).map((l) => `    ${l}`), '    break;', '  }');
    writeBody.push(`  case ${str(c.name)}: {`, ...e.write.map((l) => `    ${l}`), '    break;', '  }');
  }
  encodeBody.push('}');
  writeBody.push('}');
  statements.push(
    encodeFunction(item, iface, [
      ...encodeBody,
      'if (item.extra) n += item.extra.length;',
      'const out = new Int32Array(n);',
      'let p = 0;',
      ...base.write,
      ...writeBody,
      'if (item.extra) out.set(item.extra, p);',
      'return out;',
    ]),
  );
  return statements;
}

function decodeFunction(item: ItemDef, iface: string, body: string[]): StatementStructures {
  // Items that read any length (arrays of records) never report an offset; they keep the parameter, unused,
  // so that every decoder has the same signature.
  const reports = body.some((line) => /\boffset\b/.test(line));
  return {
    kind: StructureKind.Function,
    name: `decode${iface}`,
    isExported: true,
    docs: doc(`Decodes a ${item.name} item's ints. \`offset\` is the item's byte offset in the file, for errors${reports ? '' : ' (this item reads any length: it has none)'}.`),
    parameters: [
      { name: 'd', type: 'Int32Array' },
      { name: reports ? 'offset' : '_offset', type: 'number', initializer: '-1' },
    ],
    returnType: iface,
    statements: body,
  };
}

function encodeFunction(item: ItemDef, iface: string, body: string[]): StatementStructures {
  return {
    kind: StructureKind.Function,
    name: `encode${iface}`,
    isExported: true,
    docs: doc(`Encodes a ${item.name} item into its ints.`),
    parameters: [{ name: 'item', type: iface }],
    returnType: 'Int32Array',
    statements: body,
  };
}
