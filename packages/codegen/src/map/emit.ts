// Emits the map package's generated TypeScript from the schema model with ts-morph structures.
// Output is deterministic: declarations in schema order (items by type id, the rest by name), fixed
// quotes, indentation and newlines.
import {
  type Project,
  type SourceFile,
  type StatementStructures,
  StructureKind,
  VariableDeclarationKind,
} from 'ts-morph';
import { registryStatements } from './registry.js';
import { knownVersionStatements } from './versions.js';
import { itemInterface, recordInterface, tileClass, tileInterface, variantInterface } from './names.js';
import { createProject, doc, GENERATED_HEADER, type GeneratedFile, str, generatedText } from '../shared/emit.js';
import { type EnumDef, type FieldDef, type FieldEntry, fieldInts, flatFields, type ItemDef, type RecordDef, type SchemaSet, type TileDef, tileFieldBytes } from './model.js';
import { camel, pascal } from '../shared/names.js';

// ---------------------------------------------------------------------------------------------
// Names

const constName = (name: string) => name.toUpperCase();

// ---------------------------------------------------------------------------------------------
// Field types and codecs

function fieldTsType(field: FieldDef): string {
  switch (field.type) {
    case 'bool':
      return 'boolean';
    case 'point':
      return 'Point';
    case 'color':
    case 'i32color':
      return 'Color';
    case 'i32string':
      return 'string';
    case 'i32array':
      return 'number[]';
    default:
      return 'number';
  }
}

function fieldDoc(field: FieldDef, since?: string): string {
  const parts = [field.description];
  if (field.type === 'data_ref') parts.push(`Data item index (${field.data})${field.optional ? ', -1 for none' : ''}.`);
  if (field.type === 'item_ref') parts.push(`Index of a ${field.ref} item${field.optional ? ', -1 for none' : ''}.`);
  if (field.enum) parts.push(`Values: {@link ${pascal(field.enum)}}.`);
  if (field.flags) parts.push(`Flags: {@link ${pascal(field.flags)}}.`);
  if (since) parts.push(since);
  return parts.join(' ');
}

/** An int index expression: `base + off + k`. */
type Index = (k: number) => string;
const index = (base: string, off = 0): Index => (k) => (off + k ? `${base} + ${off + k}` : base);

/** Expression reading `field` from Int32Array `d` at the ints `idx(0)`, `idx(1)`, ... */
function readExpr(field: FieldDef, idx: Index): string {
  const d = (k: number) => `d[${idx(k)}]!`;
  switch (field.type) {
    case 'bool':
      return `${d(0)} !== 0`;
    case 'point':
      return `{ x: ${d(0)}, y: ${d(1)} }`;
    case 'color':
    case 'i32color':
      return `{ r: ${d(0)}, g: ${d(1)}, b: ${d(2)}, a: ${d(3)} }`;
    case 'i32string':
      return `decodeI32String(d, ${idx(0)}, ${field.ints})`;
    case 'i32array':
      return `[${Array.from({ length: field.ints! }, (_, k) => d(k)).join(', ')}]`;
    default:
      return d(0);
  }
}

/** Statements writing `value` (an expression of the field's TS type) into Int32Array `out`. */
function writeStmts(field: FieldDef, value: string, idx: Index): string[] {
  const o = (k: number) => `out[${idx(k)}]`;
  switch (field.type) {
    case 'bool':
      return [`${o(0)} = ${value} ? 1 : 0;`];
    case 'point':
      return [`${o(0)} = ${value}.x;`, `${o(1)} = ${value}.y;`];
    case 'color':
    case 'i32color':
      return ['r', 'g', 'b', 'a'].map((c, k) => `${o(k)} = ${value}.${c};`);
    case 'i32string':
      return [`out.set(encodeI32String(${value}, ${field.ints}), ${idx(0)});`];
    case 'i32array':
      return Array.from({ length: field.ints! }, (_, k) => `${o(k)} = ${value}[${k}] ?? 0;`);
    default:
      return [`${o(0)} = ${value};`];
  }
}

function defaultValue(field: FieldDef): string {
  switch (field.type) {
    case 'bool':
      return 'false';
    case 'point':
      return '{ x: 0, y: 0 }';
    case 'color':
    case 'i32color':
      return '{ r: 0, g: 0, b: 0, a: 0 }';
    case 'i32string':
      return "''";
    case 'i32array':
      return '[]';
    case 'data_ref':
    case 'item_ref':
      return field.optional ? '-1' : '0';
    default:
      return '0';
  }
}


// ---------------------------------------------------------------------------------------------
// Item layouts: a sequence of entries read with a cursor `p`.

interface Layout {
  entries: FieldEntry[];
  /** The name of the `version` field in scope. */
  version?: string;
}

function layoutProperties(layout: Layout) {
  return layout.entries.flatMap((entry) => {
    const fields = entry.kind === 'field' ? [entry.field] : entry.fields;
    const since =
      entry.kind === 'since_version'
        ? `Present from version ${entry.version} on.`
        : entry.kind === 'if_room'
          ? 'Present only when the item is long enough.'
          : undefined;
    return fields.map((field) => ({
      kind: StructureKind.PropertySignature as const,
      name: camel(field.name),
      type: fieldTsType(field),
      hasQuestionToken: entry.kind !== 'field',
      docs: doc(fieldDoc(field, since)),
    }));
  });
}

/** Consecutive unconditional fields are read and written as one run with a single bounds check. */
function runs(entries: FieldEntry[]): ({ kind: 'run'; fields: FieldDef[] } | Exclude<FieldEntry, { kind: 'field' }>)[] {
  const out: ({ kind: 'run'; fields: FieldDef[] } | Exclude<FieldEntry, { kind: 'field' }>)[] = [];
  for (const entry of entries) {
    const last = out[out.length - 1];
    if (entry.kind !== 'field') out.push(entry);
    else if (last?.kind === 'run') last.fields.push(entry.field);
    else out.push({ kind: 'run', fields: [entry.field] });
  }
  return out;
}

const width = (fields: FieldDef[]) => fields.reduce((s, f) => s + fieldInts(f), 0);

function versionFieldOf(layout: Layout): FieldDef | undefined {
  return flatFields(layout.entries).find((f) => f.type === 'version');
}

/** Decode statements for the entries, reading into `item` with cursor `p`; `name` names errors. */
function decodeEntries(layout: Layout, name: string): string[] {
  const lines: string[] = [];
  const versionField = versionFieldOf(layout);
  let roomIndex = 0;
  for (const entry of runs(layout.entries)) {
    if (entry.kind === 'run') {
      const w = width(entry.fields);
      lines.push(`need(d, p + ${w}, ${str(`${name}.${camel(entry.fields[0]!.name)}`)}, offset);`);
      let k = 0;
      for (const field of entry.fields) {
        lines.push(`item.${camel(field.name)} = ${readExpr(field, index('p', k))};`);
        k += fieldInts(field);
      }
      lines.push(`p += ${w};`);
    } else if (entry.kind === 'since_version') {
      // An item too short for its version keeps these fields undefined (validateMap reports it): DDNet
      // loads some such items (it skips groups of versions it does not know), so they must read and
      // write back as they are.
      const w = width(entry.fields);
      lines.push(`if (item.${camel(versionField!.name)} >= ${entry.version} && p + ${w} <= d.length) {`);
      let k = 0;
      for (const field of entry.fields) {
        lines.push(`  item.${camel(field.name)} = ${readExpr(field, index('p', k))};`);
        k += fieldInts(field);
      }
      lines.push(`  p += ${w};`);
      lines.push('}');
    } else {
      const label = `room${roomIndex++ || ''}`;
      lines.push(`${label}: {`);
      for (const field of entry.fields) {
        const w = fieldInts(field);
        lines.push(`  if (p + ${w} > d.length) break ${label};`);
        lines.push(`  item.${camel(field.name)} = ${readExpr(field, index('p'))};`);
        lines.push(`  p += ${w};`);
      }
      lines.push('}');
    }
  }
  return lines;
}

/** Statements computing the encoded length `n` and writing the entries into `out`. */
function encodeEntries(layout: Layout, startLength: string): { size: string[]; write: string[] } {
  const size: string[] = [`let n = ${startLength};`];
  const write: string[] = [];
  const versionField = versionFieldOf(layout);
  let roomIndex = 0;
  for (const entry of runs(layout.entries)) {
    if (entry.kind === 'run' || entry.kind === 'since_version') {
      const w = width(entry.fields);
      const indent = entry.kind === 'run' ? '' : '  ';
      const cond = entry.kind === 'since_version' ? `item.${camel(versionField!.name)} >= ${entry.version} && item.${camel(entry.fields[0]!.name)} !== undefined` : '';
      size.push(cond ? `if (${cond}) n += ${w};` : `n += ${w};`);
      if (cond) write.push(`if (${cond}) {`);
      let k = 0;
      for (const field of entry.fields) {
        const value = cond ? `(item.${camel(field.name)} ?? ${defaultValue(field)})` : `item.${camel(field.name)}`;
        write.push(...writeStmts(field, value, index('p', k)).map((s) => `${indent}${s}`));
        k += fieldInts(field);
      }
      write.push(`${indent}p += ${w};`);
      if (cond) write.push('}');
    } else {
      const label = `room${roomIndex++ || ''}`;
      size.push(`${label}: {`);
      write.push(`${label}: {`);
      for (const field of entry.fields) {
        const w = fieldInts(field);
        const prop = `item.${camel(field.name)}`;
        size.push(`  if (${prop} === undefined) break ${label};`, `  n += ${w};`);
        write.push(`  if (${prop} === undefined) break ${label};`);
        write.push(...writeStmts(field, prop, index('p')).map((s) => `  ${s}`), `  p += ${w};`);
      }
      size.push('}');
      write.push('}');
    }
  }
  return { size, write };
}

function itemWhere(item: ItemDef): string {
  return item.typeId !== undefined ? `type_id ${item.typeId}` : `UUID ${item.uuid} (\`${item.uuidName}\`)`;
}

function itemStatements(item: ItemDef): StatementStructures[] {
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
    const ints = constName(`${item.array.records[0]}_ints`);
    statements.push({
      kind: StructureKind.Interface,
      name: iface,
      isExported: true,
      docs: doc(`${item.description} (${itemWhere(item)})`, ...notes),
      properties: [{ kind: StructureKind.PropertySignature, name: 'records', type: `${record}[]`, docs: doc(item.array.description) }, { ...extraProp, docs: doc('Ints after the last whole record, kept so that the item is written back unchanged.') }],
    });
    statements.push(
      decodeFunction(item, iface, [
        `const records = decode${record}Array(d);`,
        `const used = records.length * ${ints};`,
        'return used < d.length ? { records, extra: Array.from(d.subarray(used)) } : { records };',
      ]),
    );
    statements.push(
      encodeFunction(item, iface, [
        `const ints = encode${record}Array(item.records);`,
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
      properties: [...layoutProperties({ entries: item.fields }), extraProp],
    });
    const body = [
      `const item = {} as ${iface};`,
      'let p = 0;',
      ...decodeEntries({ entries: item.fields }, item.name),
      'if (p < d.length) item.extra = Array.from(d.subarray(p));',
      'return item;',
    ];
    statements.push(decodeFunction(item, iface, body));
    const { size, write } = encodeEntries({ entries: item.fields }, '0');
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
    properties: [...layoutProperties({ entries: item.fields }), extraProp],
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
        ...layoutProperties({ entries: c.fields }),
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
    ...decodeEntries({ entries: item.fields }, item.name),
    `switch (item.${on}) {`,
    ...variants.cases.flatMap((c) => [
      `  case ${c.value}: {`,
      `    item.kind = ${str(c.name)};`,
      `    const v = item as ${variantInterface(item, c.name)};`,
      ...decodeEntries({ entries: c.fields }, `${item.name}.${camel(c.name)}`).map((l) => `    ${l.replace(/\bitem\./g, 'v.')}`),
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
  const base = encodeEntries({ entries: item.fields }, '0');
  const encodeBody = [...base.size, 'switch (item.kind) {'];
  const writeBody: string[] = ['switch (item.kind) {'];
  for (const c of variants.cases) {
    const e = encodeEntries({ entries: c.fields }, 'n');
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

// ---------------------------------------------------------------------------------------------
// Records (fixed-size int structs inside data items and array items)

function recordStatements(record: RecordDef): StatementStructures[] {
  const name = recordInterface(record);
  const ints = constName(`${record.name}_ints`);
  const readLines: string[] = [];
  const writeLines: string[] = [];
  let k = 0;
  for (const field of record.fields) {
    readLines.push(`${camel(field.name)}: ${readExpr(field, index('at', k))},`);
    writeLines.push(...writeStmts(field, `r.${camel(field.name)}`, index('at', k)));
    k += fieldInts(field);
  }
  const readBody = ['return {', ...readLines.map((l) => `  ${l}`), '};'];
  return [
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: doc(`Size of a ${record.name} record in i32.`),
      declarations: [{ name: ints, initializer: String(record.ints) }],
    },
    {
      kind: StructureKind.Interface,
      name,
      isExported: true,
      docs: doc(`${record.description}${record.extends ? ` Starts with the fields of ${recordInterface({ name: record.extends } as RecordDef)}.` : ''}`, ...record.notes.map((n) => `Note: ${n}`)),
      properties: record.fields.map((field) => ({
        kind: StructureKind.PropertySignature as const,
        name: camel(field.name),
        type: fieldTsType(field),
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

// ---------------------------------------------------------------------------------------------
// Tiles (byte records, viewed in place)

function tileStatements(tile: TileDef): StatementStructures[] {
  const iface = tileInterface(tile);
  const cls = tileClass(tile);
  const fields = tile.fields.filter((f) => f.type !== 'padding');
  let offset = 0;
  const offsets = new Map<string, number>();
  for (const f of tile.fields) {
    offsets.set(f.name, offset);
    offset += tileFieldBytes(f);
  }
  const getExpr = (f: TileDef['fields'][number], base: string) => {
    const o = offsets.get(f.name)!;
    const b = (j: number) => `this.bytes[${base} + ${o + j}]!`;
    if (f.type === 'u8') return b(0);
    if (f.type === 'u16') return `(${b(0)} | (${b(1)} << 8))`;
    return `((${b(0)} | (${b(1)} << 8)) << 16) >> 16`;
  };
  const setStmts = (f: TileDef['fields'][number], base: string, value: string) => {
    const o = offsets.get(f.name)!;
    if (f.type === 'u8') return [`this.bytes[${base} + ${o}] = ${value};`];
    return [`this.bytes[${base} + ${o}] = ${value} & 0xff;`, `this.bytes[${base} + ${o + 1}] = (${value} >> 8) & 0xff;`];
  };
  const bytesConst = `${constName(tile.name)}_TILE_BYTES`;
  const methods = fields.flatMap((f) => [
    {
      kind: StructureKind.Method as const,
      name: `get${pascal(f.name)}`,
      docs: doc(f.description),
      parameters: [{ name: 'index', type: 'number' }],
      returnType: 'number',
      statements: [`return ${getExpr(f, `index * ${bytesConst}`)};`],
    },
    {
      kind: StructureKind.Method as const,
      name: `set${pascal(f.name)}`,
      parameters: [
        { name: 'index', type: 'number' },
        { name: 'value', type: 'number' },
      ],
      returnType: 'void',
      statements: setStmts(f, `index * ${bytesConst}`, 'value'),
    },
  ]);
  return [
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: doc(`Size of a ${tile.name} tile in bytes.`),
      declarations: [{ name: bytesConst, initializer: String(tile.bytes) }],
    },
    {
      kind: StructureKind.Interface,
      name: iface,
      isExported: true,
      docs: doc(tile.description, ...tile.notes.map((n) => `Note: ${n}`)),
      properties: fields.map((f) => ({
        kind: StructureKind.PropertySignature as const,
        name: camel(f.name),
        type: 'number',
        docs: doc(`${f.description}${f.flags ? ` Flags: {@link ${pascal(f.flags)}}.` : ''} (${f.type})`),
      })),
    },
    {
      kind: StructureKind.Class,
      name: cls,
      isExported: true,
      docs: doc(`${tile.name} tiles viewed in place over their bytes (${tile.bytes} per tile, row by row); nothing is copied.`),
      properties: [{ name: 'bytes', isReadonly: true, type: 'Uint8Array' }],
      ctors: [
        {
          parameters: [{ name: 'bytes', type: 'Uint8Array' }],
          statements: [
            `if (bytes.length % ${bytesConst} !== 0) throw new RangeError(\`${tile.name} tile data of \${bytes.length} bytes is not a multiple of ${tile.bytes}\`);`,
            'this.bytes = bytes;',
          ],
        },
      ],
      methods: [
        {
          name: 'create',
          isStatic: true,
          docs: doc('Zeroed tiles.'),
          parameters: [{ name: 'count', type: 'number' }],
          returnType: cls,
          statements: [`return new ${cls}(new Uint8Array(count * ${bytesConst}));`],
        },
        {
          name: 'get',
          parameters: [{ name: 'index', type: 'number' }],
          returnType: iface,
          statements: [`const o = index * ${bytesConst};`, `return { ${fields.map((f) => `${camel(f.name)}: ${getExpr(f, 'o')}`).join(', ')} };`],
        },
        {
          name: 'set',
          parameters: [
            { name: 'index', type: 'number' },
            { name: 'tile', type: iface },
          ],
          returnType: 'void',
          statements: ['const o = index * ' + bytesConst + ';', ...fields.flatMap((f) => setStmts(f, 'o', `tile.${camel(f.name)}`))],
        },
        ...methods,
      ],
      getAccessors: [
        {
          name: 'length',
          docs: doc('Number of tiles.'),
          returnType: 'number',
          statements: [`return this.bytes.length / ${bytesConst};`],
        },
      ],
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Enums

function enumStatements(e: EnumDef): StatementStructures[] {
  const name = pascal(e.name);
  return [
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: doc(`${e.description}${e.kind === 'flags' ? ' (bit flags)' : ''}`),
      declarations: [
        {
          name,
          initializer: (w) => {
            w.write('{').newLine();
            w.indent(() => {
              for (const v of e.values) {
                w.writeLine(`/** ${v.description} */`);
                w.writeLine(`${pascal(v.name)}: ${v.value},`);
              }
            });
            w.write('} as const');
          },
        },
      ],
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name,
      type: `(typeof ${name})[keyof typeof ${name}]`,
    },
    ...(e.values.some((v) => v.bytes !== undefined)
      ? [
          {
            kind: StructureKind.VariableStatement,
            isExported: true,
            declarationKind: VariableDeclarationKind.Const,
            docs: doc(`Bytes of one element of each ${e.name} value (\`bytes\` in the schema).`),
            declarations: [{ name: `${constName(e.name)}_BYTES`, type: 'Readonly<Record<number, number>>', initializer: `{ ${e.values.map((v) => `${v.value}: ${v.bytes}`).join(', ')} }` }],
          } satisfies StatementStructures,
        ]
      : []),
  ];
}

// ---------------------------------------------------------------------------------------------
// Files

function addFile(project: Project, path: string, source: string, imports: string[], statements: (string | StatementStructures)[]): SourceFile {
  return project.createSourceFile(
    path,
    {
      statements: [
        GENERATED_HEADER(source),
        ...imports,
        ...statements,
      ],
    },
    { overwrite: true },
  );
}

/** The generated map codecs, as files relative to the map package's src/generated/. */
export function emitMapTs(set: SchemaSet, source = 'schemas/map'): GeneratedFile[] {
  const project = createProject();
  const files: SourceFile[] = [];
  files.push(addFile(project, 'enums.gen.ts', `${source}/enums.yaml`, [], set.enums.flatMap(enumStatements)));
  files.push(
    addFile(
      project,
      'types.gen.ts',
      `${source} (the field types of schemas/README.md)`,
      [],
      [
        {
          kind: StructureKind.Interface,
          name: 'Point',
          isExported: true,
          docs: doc('Two i32: x and y.'),
          properties: [
            { name: 'x', type: 'number' },
            { name: 'y', type: 'number' },
          ],
        },
        {
          kind: StructureKind.Interface,
          name: 'Color',
          isExported: true,
          docs: doc('Four i32: r, g, b, a (0-255 in `color` fields, any i32 in `i32color` fields).'),
          properties: ['r', 'g', 'b', 'a'].map((c) => ({ name: c, type: 'number' })),
        },
      ],
    ),
  );
  const usesI32String = (fields: FieldDef[]) => fields.some((f) => f.type === 'i32string');
  const arrayRecords = set.records.filter((r) => set.items.some((i) => i.array?.records.length === 1 && i.array.records[0] === r.name));
  const itemFields = set.items.flatMap((item) => [
    ...flatFields(item.fields),
    ...(item.variants?.cases.flatMap((c) => flatFields(c.fields)) ?? []),
  ]);
  files.push(
    addFile(
      project,
      'records.gen.ts',
      `${source}/records/*.yaml`,
      [
        ...(usesI32String(set.records.flatMap((r) => r.fields)) ? ["import { decodeI32String, encodeI32String } from '@twcodec/runtime';"] : []),
        "import type { Color, Point } from './types.gen.js';",
      ],
      set.records.flatMap(recordStatements),
    ),
  );
  files.push(addFile(project, 'tiles.gen.ts', `${source}/tiles/*.yaml`, [], set.tiles.flatMap(tileStatements)));
  files.push(
    addFile(
      project,
      'items.gen.ts',
      `${source}/items/*.yaml`,
      [
        ...(usesI32String(itemFields) ? ["import { decodeI32String, encodeI32String } from '@twcodec/runtime';"] : []),
        "import { need } from './errors.gen.js';",
        ...(arrayRecords.length ? [`import { ${arrayRecords.flatMap((r) => [`decode${recordInterface(r)}Array`, `encode${recordInterface(r)}Array`, `type ${recordInterface(r)}`, `${constName(`${r.name}_ints`)}`]).sort().join(', ')} } from './records.gen.js';`] : []),
        "import type { Color, Point } from './types.gen.js';",
      ],
      set.items.flatMap((item) => itemStatements(item)),
    ),
  );
  files.push(addFile(project, 'versions.gen.ts', `${source}/items/*.yaml`, [], knownVersionStatements(set)));
  const registry = registryStatements(set);
  files.push(addFile(project, 'registry.gen.ts', `${source}/**/*.yaml`, registry.imports, registry.statements));
  // The map's error class lives in generated code so that generated code imports only the runtime and
  // its own files; src/errors.ts re-exports it. `need` is internal (not in index.gen.ts).
  files.push(
    addFile(project, 'errors.gen.ts', `${source}/items/*.yaml`, ["import { CodecError } from '@twcodec/runtime';"], [
      '/** Errors of map decoding and encoding; `path` names the map element, e.g. `groups[2].layers[0].data`. */\nexport class MapError extends CodecError {}',
      [
        '/**',
        ' * Used by the generated item decoders: throws when an item has fewer ints than a field needs.',
        " * `offset` is the item's byte offset in the file (or -1), `path` the field.",
        ' */',
        'export function need(d: Int32Array, ints: number, path: string, offset: number): void {',
        '  if (d.length < ints) {',
        "    throw new MapError('ITEM_TOO_SHORT', `item has ${d.length} ints, ${path} needs ${ints}`, offset < 0 ? -1 : offset + d.length * 4, path);",
        '  }',
        '}',
      ].join('\n'),
    ]),
  );
  files.push(
    addFile(project, 'index.gen.ts', source, [], [
      "export * from './enums.gen.js';",
      "export * from './items.gen.js';",
      "export * from './records.gen.js';",
      "export * from './registry.gen.js';",
      "export * from './tiles.gen.js';",
      "export * from './types.gen.js';",
      "export * from './versions.gen.js';",
    ]),
  );
  return files.map((f) => ({ path: f.getFilePath().replace(/^\//, ''), text: generatedText(f) }));
}
