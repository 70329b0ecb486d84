// Emits the teehistorian message codecs and the format reference from schemas/teehistorian.
import { type StatementStructures, StructureKind, VariableDeclarationKind } from 'ts-morph';
import { createProject, doc, exportedConst, GENERATED_HEADER, type GeneratedFile, generatedText, Imports, str } from '../shared/emit.js';

const RUNTIME = '@twcodec/runtime';
/** Hand-written readers the generated decoders call (packages/teehistorian/src/field-readers.ts). */
const FIELD_READERS = '../field-readers.js';
import { camel, pascal } from '../shared/names.js';
import { type TeehistorianSchema, type ThExtensionDef, type ThFieldDef, type ThMessageDef } from './model.js';


const kindOf = (m: ThMessageDef) => m.name;
const exKind = (e: ThExtensionDef) => `EX:${e.name}`;
const messageInterface = (m: ThMessageDef) => `${pascal(m.name.toLowerCase())}Message`;
const exInterface = (e: ThExtensionDef) => `Ex${pascal(e.name.replace(/-/g, '_'))}Message`;

function tsType(f: ThFieldDef, imports: Imports): string {
  switch (f.type) {
    case 'int':
      return 'number';
    case 'string':
    case 'uuid':
      return f.type === 'uuid' ? imports.type(RUNTIME, 'Uuid') : 'string';
    case 'int_array':
      return 'number[]';
    case 'string_array':
      return 'string[]';
    default:
      return 'Uint8Array';
  }
}

function readExpr(f: ThFieldDef, path: string, imports: Imports): string {
  const p = str(path);
  switch (f.type) {
    case 'int':
      return `r.readVarInt(${p})`;
    case 'string':
      return `r.readCString(${p})`;
    case 'uuid':
      return `${imports.value(RUNTIME, 'uuidFromBytes')}(r.readBytes(16, ${p}))`;
    case 'raw':
      return `${imports.value(FIELD_READERS, 'readRaw')}(r, ${p})`;
    case 'raw_rest':
      return `r.readBytes(r.remaining, ${p}).slice()`;
    case 'int_array':
      return `[${Array.from({ length: f.count! }, (_, i) => `r.readVarInt(${str(`${path}[${i}]`)})`).join(', ')}]`;
    case 'string_array':
      return `${imports.value(FIELD_READERS, 'readStringArray')}(r, ${p})`;
  }
}

function writeStmts(f: ThFieldDef, value: string, imports: Imports): string[] {
  switch (f.type) {
    case 'int':
      return [`w.writeVarInt(${value});`];
    case 'string':
      return [`w.writeCString(${value});`];
    case 'uuid':
      return [`w.writeBytes(${imports.value(RUNTIME, 'uuidToBytes')}(${value}));`];
    case 'raw':
      return [`w.writeVarInt(${value}.length);`, `w.writeBytes(${value});`];
    case 'raw_rest':
      return [`w.writeBytes(${value});`];
    case 'int_array':
      return Array.from({ length: f.count! }, (_, i) => `w.writeVarInt(${value}[${i}] ?? 0);`);
    case 'string_array':
      return [`w.writeVarInt(${value}.length);`, `for (const s of ${value}) w.writeCString(s);`];
  }
}

function fieldProps(fields: ThFieldDef[], imports: Imports) {
  return fields.map((f) => ({ kind: StructureKind.PropertySignature as const, name: camel(f.name), type: tsType(f, imports), docs: doc(f.description) }));
}

export function emitTeehistorianTs(schema: TeehistorianSchema, source = 'schemas/teehistorian/*.yaml'): GeneratedFile[] {
  const project = createProject();
  const imports = new Imports();
  const statements: (string | StatementStructures)[] = [
  ];
  for (const m of schema.messages) {
    statements.push({
      kind: StructureKind.Interface,
      name: messageInterface(m),
      isExported: true,
      docs: doc(`${m.description} (${m.id === 0 ? 'first int >= 0' : `id ${m.id}, stored as ${-m.id}`})`),
      properties: [{ kind: StructureKind.PropertySignature, name: 'kind', type: str(kindOf(m)) }, ...fieldProps(m.fields, imports)],
    });
  }
  statements.push({ kind: StructureKind.TypeAlias, name: 'CoreMessage', isExported: true, docs: doc('A core message (an EX message keeps its payload raw here).'), type: schema.messages.map(messageInterface).join(' | ') });
  for (const e of schema.extensions) {
    statements.push({
      kind: StructureKind.Interface,
      name: exInterface(e),
      isExported: true,
      docs: doc(`${e.description} (\`${e.uuidName}\`, ${e.uuid}; DDNet ${e.since} and later)`),
      properties: [{ kind: StructureKind.PropertySignature, name: 'kind', type: str(exKind(e)) }, ...fieldProps(e.fields, imports)],
    });
  }
  statements.push({ kind: StructureKind.TypeAlias, name: 'KnownExMessage', isExported: true, docs: doc('An extension message the schemas describe.'), type: schema.extensions.map(exInterface).join(' | ') });
  // The file's constants go to a module of their own that imports nothing at run time: the CLI tells a
  // teehistorian file by its first 16 bytes without loading the codecs (@twcodec/teehistorian/constants).
  const constantImports = new Imports();
  const constants: StatementStructures[] = [];
  constants.push(
    exportedConst('TEEHISTORIAN_UUID_NAME', undefined, `The name whose version-3 UUID starts every teehistorian file (${schema.coreFile}).`, str(schema.fileUuidName)),
    exportedConst('TEEHISTORIAN_UUID', constantImports.type(RUNTIME, 'Uuid'), `The 16 bytes every teehistorian file starts with: the UUID of \`${schema.fileUuidName}\` (${schema.coreFile}).`, `${str(schema.fileUuid)} as ${constantImports.type(RUNTIME, 'Uuid')}`),
  );
  for (const c of schema.constants) constants.push(exportedConst(c.name.toUpperCase(), undefined, `${c.description} (${schema.coreFile})`, String(c.value)));
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: doc('Message ids as stored (negated) in the file; PLAYER_DIFF has none (its first int is the client id).'),
    declarations: [{ name: 'MESSAGE_IDS', initializer: `{ ${schema.messages.map((m) => `${m.name}: ${m.id}`).join(', ')} } as const` }],
  });
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: doc('Every extension message the schemas describe.'),
    declarations: [
      {
        name: 'EXTENSIONS',
        type: `readonly { readonly name: string; readonly kind: KnownExMessage['kind']; readonly uuid: ${imports.type(RUNTIME, 'Uuid')}; readonly uuidName: string; readonly since: string }[]`,
        initializer: (w) => {
          w.write('[').newLine();
          w.indent(() => {
            for (const e of schema.extensions) w.writeLine(`{ name: ${str(e.name)}, kind: ${str(exKind(e))}, uuid: ${str(e.uuid)}, uuidName: ${str(e.uuidName)}, since: ${str(e.since)} },`);
          });
          w.write(']');
        },
      },
    ],
  });
  // decodeMessage
  const decodeCases: string[] = [];
  for (const m of schema.messages) {
    if (m.id === 0) continue;
    decodeCases.push(`case ${m.id}:`);
    decodeCases.push(`  return { kind: ${str(m.name)}${m.fields.map((f) => `, ${camel(f.name)}: ${readExpr(f, `${m.name}.${f.name}`, imports)}`).join('')} };`);
  }
  const diff = schema.messages.find((m) => m.id === 0)!;
  statements.push({
    kind: StructureKind.Function,
    name: 'decodeMessage',
    isExported: true,
    docs: doc('Reads one message. Throws BinaryError TRUNCATED when the bytes end inside it, UNKNOWN_MESSAGE for an unknown id.'),
    parameters: [{ name: 'r', type: imports.type(RUNTIME, 'ByteReader') }],
    returnType: 'CoreMessage',
    statements: [
      'const at = r.offset;',
      "const first = r.readVarInt('id');",
      `if (first >= 0) return { kind: ${str(diff.name)}, ${camel(diff.fields[0]!.name)}: first${diff.fields.slice(1).map((f) => `, ${camel(f.name)}: ${readExpr(f, `${diff.name}.${f.name}`, imports)}`).join('')} };`,
      'switch (-first) {',
      ...decodeCases.map((l) => `  ${l}`),
      '  default:',
      `    throw new ${imports.value(RUNTIME, 'BinaryError')}('UNKNOWN_MESSAGE', \`unknown message id \${first}\`, at, 'id');`,
      '}',
    ],
  });
  const encodeCases: string[] = [];
  for (const m of schema.messages) {
    encodeCases.push(`case ${str(m.name)}:`);
    if (m.id === 0) encodeCases.push(`  w.writeVarInt(m.${camel(m.fields[0]!.name)});`, ...m.fields.slice(1).flatMap((f) => writeStmts(f, `m.${camel(f.name)}`, imports)).map((s) => `  ${s}`));
    else encodeCases.push(`  w.writeVarInt(${-m.id});`, ...m.fields.flatMap((f) => writeStmts(f, `m.${camel(f.name)}`, imports)).map((s) => `  ${s}`));
    encodeCases.push('  break;');
  }
  statements.push({
    kind: StructureKind.Function,
    name: 'encodeMessage',
    isExported: true,
    docs: doc('Writes one message.'),
    parameters: [{ name: 'm', type: 'CoreMessage' }, { name: 'w', type: imports.type(RUNTIME, 'ByteWriter') }],
    returnType: 'void',
    statements: ['switch (m.kind) {', ...encodeCases.map((l) => `  ${l}`), '}'],
  });
  const exDecodeCases: string[] = [];
  const exEncodeCases: string[] = [];
  for (const e of schema.extensions) {
    exDecodeCases.push(`case ${schema.extensions.indexOf(e)}: // ${e.name}`, `  return { kind: ${str(exKind(e))}${e.fields.map((f) => `, ${camel(f.name)}: ${readExpr(f, `${e.name}.${f.name}`, imports)}`).join('')} };`);
    exEncodeCases.push(`case ${str(exKind(e))}:`, ...e.fields.flatMap((f) => writeStmts(f, `m.${camel(f.name)}`, imports)).map((s) => `  ${s}`), `  return ${str(e.uuid)};`);
  }
  statements.push({
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    docs: doc("Each known extension's index in EXTENSIONS by UUID: one hash lookup, where a switch on the UUID text compared it with case after case."),
    declarations: [{ name: 'EXTENSION_INDEX', type: `ReadonlyMap<${imports.type(RUNTIME, 'Uuid')}, number>`, initializer: 'new Map(EXTENSIONS.map((e, i) => [e.uuid, i]))' }],
  });
  statements.push({
    kind: StructureKind.Function,
    name: 'decodeExtension',
    isExported: true,
    docs: doc('Reads the payload of a known extension; undefined for an unknown UUID. The caller checks that the whole payload was used.'),
    parameters: [{ name: 'uuid', type: imports.type(RUNTIME, 'Uuid') }, { name: 'r', type: imports.type(RUNTIME, 'ByteReader') }],
    returnType: 'KnownExMessage | undefined',
    statements: ['switch (EXTENSION_INDEX.get(uuid)) {', ...exDecodeCases.map((l) => `  ${l}`), '  default:', '    return undefined;', '}'],
  });
  statements.push({
    kind: StructureKind.Function,
    name: 'encodeExtension',
    isExported: true,
    docs: doc("Writes a known extension's payload and returns its UUID."),
    parameters: [{ name: 'm', type: 'KnownExMessage' }, { name: 'w', type: imports.type(RUNTIME, 'ByteWriter') }],
    returnType: imports.type(RUNTIME, 'Uuid'),
    statements: ['switch (m.kind) {', ...exEncodeCases.map((l) => `  ${l}`), '}'],
  });
  statements.push(...emitScanner(schema, imports));
  const file = project.createSourceFile('messages.gen.ts', { statements: [GENERATED_HEADER(source), ...imports.declarations(), ...statements] }, { overwrite: true });
  const constantsFile = project.createSourceFile('constants.gen.ts', { statements: [GENERATED_HEADER(source), ...constantImports.declarations(), ...constants] }, { overwrite: true });
  return [
    { path: 'messages.gen.ts', text: generatedText(file) },
    { path: 'constants.gen.ts', text: generatedText(constantsFile) },
  ];
}

/** The names of a message's int slots in `scanMessage`'s output, in schema order (an int array gives one per int). */
function intSlots(m: ThMessageDef): string[] {
  return m.fields.flatMap((f) => (f.type === 'int' ? [camel(f.name)] : f.type === 'int_array' ? Array.from({ length: f.count! }, (_, i) => `${camel(f.name)}[${i}]`) : []));
}

/**
 * The allocation-free decoder: one function that walks a core message, puts its id and int fields in an
 * Int32Array and skips its other fields, with every varint decoded inline. It follows the same rules as
 * decodeMessage (canonical varints, bounds) and gives up (-1) on anything decodeMessage would refuse, so a
 * caller re-decodes just that message the slow way for the exact error.
 */
function emitScanner(schema: TeehistorianSchema, imports: Imports): (string | StatementStructures)[] {
  let slot = 0;
  // The sign by a branch, where the runtime's decoders take it by a mask (its varint.ts): with the mask here and
  // in the fronts below, the object iterator over 24 MB of bench/teehistorian.mjs's file took 1% more
  // instructions (3,048 to 3,080 M; `-((b >> 6) & 1)` 3,093 M), the runtime's mask alone none more (issue 41,
  // callgrind).
  const readInt = (target: string, fail = '-1'): string[] => [
    `if (p >= end) return ${fail};`,
    'b = bytes[p]!;',
    'if (b & 0x80) {',
    "  // Two bytes inline (canonical when the second holds bits); longer ones by the runtime's unpackVarInt.",
    '  c = p + 1 < end ? bytes[p + 1]! : 0x80;',
    '  if (c !== 0 && !(c & 0x80)) {',
    '    v = b & 0x40 ? ~((b & 0x3f) | (c << 6)) : (b & 0x3f) | (c << 6);',
    '    p += 2;',
    '  } else {',
    `    p = ${imports.value(RUNTIME, 'unpackVarInt')}(bytes, p, end, longInt, 0);`,
    `    if (p < 0) return ${fail};`,
    '    v = longInt[0]!;',
    '  }',
    '} else {',
    '  v = b & 0x40 ? ~(b & 0x3f) : b & 0x3f;',
    '  p++;',
    '}',
    `${target} = v;`,
  ];
  const skipField = (f: ThFieldDef): string[] => {
    switch (f.type) {
      case 'int':
        return readInt(`ints[${++slot}]`);
      case 'int_array':
        return Array.from({ length: f.count! }, () => readInt(`ints[${++slot}]`)).flat();
      case 'string':
        return ['n = bytes.indexOf(0, p);', 'if (n < 0 || n >= end) return -1;', 'p = n + 1;'];
      case 'uuid':
        return ['if (end - p < 16) return -1;', 'p += 16;'];
      case 'raw':
        return [...readInt('n'), 'if (n < 0 || n > end - p) return -1;', 'p += n;'];
      case 'string_array':
        return [
          ...readInt('n'),
          'if (n < 0 || n > end - p) return -1;',
          'for (let i = 0; i < n; i++) {',
          '  const nul = bytes.indexOf(0, p);',
          '  if (nul < 0 || nul >= end) return -1;',
          '  p = nul + 1;',
          '}',
        ];
      case 'raw_rest':
        return ['p = end;'];
    }
  };
  const cases: string[] = [];
  const diff = schema.messages.find((m) => m.id === 0)!;
  slot = 1; // ints[1] already holds the client id read as the message's first int
  const diffBody = diff.fields.slice(1).flatMap(skipField);
  for (const m of schema.messages) {
    if (m.id === 0) continue;
    slot = 0;
    cases.push(`case ${m.id}:`, ...m.fields.flatMap(skipField).map((l) => `  ${l}`), '  return p;');
  }
  const maxSlots = Math.max(...schema.messages.map((m) => intSlots(m).length)) + 1;
  const intOnly = schema.messages.filter((m) => m.fields.every((f) => f.type === 'int' || f.type === 'int_array'));
  const objectCases = intOnly.flatMap((m) => {
    let k = 0;
    const props = m.fields.map((f) =>
      f.type === 'int' ? `${camel(f.name)}: ints[${++k}]!` : `${camel(f.name)}: [${Array.from({ length: f.count! }, () => `ints[${++k}]!`).join(', ')}]`,
    );
    return [`case ${m.id}:`, `  return { kind: ${str(m.name)}${props.map((p) => `, ${p}`).join('')}, tick, offset };`];
  });
  // decodeIntMessage: the same int-only messages read straight into locals (f0, f1, ...) and built in one
  // step, without scanMessage's Int32Array in between or a second switch on the id.
  const intMessage = (m: ThMessageDef, firstRead: boolean): string[] => {
    let k = 0;
    const reads: string[] = [];
    const props: string[] = [];
    for (const f of m.fields) {
      const locals = Array.from({ length: f.type === 'int_array' ? f.count! : 1 }, () => `f${k++}`);
      for (const local of locals) {
        if (firstRead && local === 'f0') reads.push('const f0 = id;');
        else reads.push(...readInt('v', 'undefined'), `const ${local} = v;`);
      }
      props.push(f.type === 'int' ? `${camel(f.name)}: ${locals[0]}` : `${camel(f.name)}: [${locals.join(', ')}]`);
    }
    return [
      ...reads,
      'r.pos = p;',
      `const tick = ticks.advance(${m.id}, ${k ? 'f0' : '0'});`,
      `return { kind: ${str(m.name)}${props.map((p) => `, ${p}`).join('')}, tick, offset: r.baseOffset + pos };`,
    ];
  };
  // decodeIntMessage's front: the message whose first int is its client id, when every int of it takes one
  // byte (nearly every PLAYER_DIFF of a real session: movement per tick is small). Small enough for V8 to
  // inline into the reader; every other message goes on to decodeAnyIntMessage.
  const diffInts = diff.fields.every((f) => f.type === 'int') ? diff.fields.length : 0;
  // The sign by a branch, as readInt above.
  const oneByte = (i: number) => (i === 0 ? 'b0' : `b${i} & 0x40 ? ~(b${i} & 0x3f) : b${i} & 0x3f`);
  // Both fronts: the message's bytes at pos, b0, b1, ..., and the test that each is a whole int by itself.
  const frontBytes = Array.from({ length: diffInts }, (_, i) => `  const b${i} = bytes[pos${i ? ` + ${i}` : ''}]!;`);
  const frontTest = [
    '  // One-byte ints are always canonical; the first must be non-negative (a negative one is a message id).',
    `  if (((${Array.from({ length: diffInts }, (_, i) => `b${i}`).join(' | ')}) & 0x80) === 0 && (b0 & 0x40) === 0) {`,
  ];
  const frontStatements = diffInts
    ? [
        'const pos = r.pos;',
        `if (pos + ${diffInts} <= r.end) {`,
        '  const bytes = r.bytes;',
        ...frontBytes,
        ...frontTest,
        `    r.pos = pos + ${diffInts};`,
        `    const tick = ticks.advance(${diff.id}, b0);`,
        `    return { kind: ${str(diff.name)}${diff.fields.map((f, i) => `, ${camel(f.name)}: ${oneByte(i)}`).join('')}, tick, offset: r.baseOffset + pos };`,
        '  }',
        '}',
        'return decodeAnyIntMessage(r, ticks);',
      ]
    : ['return decodeAnyIntMessage(r, ticks);'];
  // scanMessage's front: the same one-byte message stored straight into `ints`. The whole scanner is far too
  // large for V8 to inline into a caller's loop, and the call into it was about a third of the scan's time
  // (issue 41, the 64 MB bench file: 154-158 -> 110-115 ms CPU); the front is small enough to be inlined.
  const scanFrontStatements = diffInts
    ? [
        `if (pos + ${diffInts} <= end) {`,
        ...frontBytes,
        ...frontTest,
        `    ints[0] = ${diff.id};`,
        ...Array.from({ length: diffInts }, (_, i) => `    ints[${i + 1}] = ${oneByte(i)};`),
        `    return pos + ${diffInts};`,
        '  }',
        '}',
        'return scanAnyMessage(bytes, pos, end, ints);',
      ]
    : ['return scanAnyMessage(bytes, pos, end, ints);'];
  const intMessageCases = intOnly.filter((m) => m.id !== diff.id).flatMap((m) => [`case ${m.id}: {`, ...intMessage(m, false).map((l) => `  ${l}`), '}']);
  return [
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: doc('Core message kinds by id (the index): `MESSAGE_KINDS[ints[0]]` names what `scanMessage` read.'),
      declarations: [{ name: 'MESSAGE_KINDS', initializer: `[${Array.from({ length: Math.max(...schema.messages.map((m) => m.id)) + 1 }, (_, id) => { const m = schema.messages.find((x) => x.id === id); return m ? str(m.name) : 'undefined'; }).join(', ')}] as const` }],
    },
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: doc("Where `scanMessage` puts each core message's int fields: `ints[1 + i]` holds the i-th name here."),
      declarations: [{ name: 'MESSAGE_INT_FIELDS', initializer: `{ ${schema.messages.map((m) => `${m.name}: [${intSlots(m).map(str).join(', ')}]`).join(', ')} } as const` }],
    },
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: doc("The length `scanMessage`'s `ints` needs: the message id and the most int fields of any message."),
      declarations: [{ name: 'SCAN_INTS', initializer: String(maxSlots) }],
    },
    "/** Where unpackVarInt puts the varints of 3 bytes and more that scanMessage reads. */\nconst longInt = new Int32Array(1);",
    {
      kind: StructureKind.Function,
      name: 'scannedMessage',
      isExported: true,
      docs: doc(
        "The object of a message `scanMessage` read, built in one step with its tick and offset, when all its fields are ints; undefined for the others (decode those with decodeMessage).",
      ),
      parameters: [{ name: 'ints', type: 'Int32Array' }, { name: 'tick', type: 'number' }, { name: 'offset', type: 'number' }],
      returnType: '(CoreMessage & { tick: number; offset: number }) | undefined',
      statements: ['switch (ints[0]) {', ...objectCases.map((l) => `  ${l}`), '  default:', '    return undefined;', '}'],
    },
    {
      kind: StructureKind.Interface,
      name: 'TickAdvance',
      isExported: true,
      docs: doc("What gives decodeIntMessage's messages their tick: moves past a message (its id and first int field, 0 when it has none) and returns the tick the message belongs to."),
      properties: [],
      methods: [{ name: 'advance', parameters: [{ name: 'id', type: 'number' }, { name: 'first', type: 'number' }], returnType: 'number' }],
    },
    {
      kind: StructureKind.Function,
      name: 'decodeIntMessage',
      isExported: true,
      docs: doc(
        "The core message at `r.pos` when all its fields are ints, read straight from the bytes and built in one step with its tick (from `ticks`) and offset; `r.pos` moves past it. Undefined, with `r.pos` and `ticks` untouched, for the other messages and for any message decodeMessage would refuse (truncated, non-canonical varint, unknown id): decode those with decodeMessage. The object iterator's fast path.",
      ),
      parameters: [{ name: 'r', type: imports.type(RUNTIME, 'ByteReader') }, { name: 'ticks', type: 'TickAdvance' }],
      returnType: '(CoreMessage & { tick: number; offset: number }) | undefined',
      statements: frontStatements,
    },
    {
      kind: StructureKind.Function,
      name: 'decodeAnyIntMessage',
      docs: doc('decodeIntMessage for every int-only message and any varint width.'),
      parameters: [{ name: 'r', type: imports.type(RUNTIME, 'ByteReader') }, { name: 'ticks', type: 'TickAdvance' }],
      returnType: '(CoreMessage & { tick: number; offset: number }) | undefined',
      statements: [
        'const bytes = r.bytes;',
        'const end = r.end;',
        'const pos = r.pos;',
        'let p = pos;',
        'let b = 0;',
        'let c = 0;',
        'let v = 0;',
        ...readInt('const id', 'undefined'),
        'if (id >= 0) {',
        ...(intOnly.includes(diff) ? intMessage(diff, true) : ['return undefined;']).map((l) => `  ${l}`),
        '}',
        'switch (-id) {',
        ...intMessageCases.map((l) => `  ${l}`),
        '  default:',
        '    return undefined;',
        '}',
      ],
    },
    {
      kind: StructureKind.Function,
      name: 'scanMessage',
      isExported: true,
      docs: doc(
        'Reads the core message at `bytes[pos]` without allocating: its id goes to `ints[0]` (see MESSAGE_KINDS), its int fields to `ints[1]`, `ints[2]`, ... (see MESSAGE_INT_FIELDS); strings, bytes and UUIDs are skipped. Returns the position after the message, or -1 when decodeMessage would throw there (truncated, non-canonical varint, unknown id): decode that message with decodeMessage for the error. `ints` needs SCAN_INTS elements.',
      ),
      parameters: [{ name: 'bytes', type: 'Uint8Array' }, { name: 'pos', type: 'number' }, { name: 'end', type: 'number' }, { name: 'ints', type: 'Int32Array' }],
      returnType: 'number',
      statements: scanFrontStatements,
    },
    {
      kind: StructureKind.Function,
      name: 'scanAnyMessage',
      docs: doc('scanMessage for every message and any varint width.'),
      parameters: [{ name: 'bytes', type: 'Uint8Array' }, { name: 'pos', type: 'number' }, { name: 'end', type: 'number' }, { name: 'ints', type: 'Int32Array' }],
      returnType: 'number',
      statements: [
        'let p = pos;',
        'let b = 0;',
        'let c = 0;',
        'let v = 0;',
        'let n = 0;',
        ...readInt('const id'),
        'if (id >= 0) {',
        `  ints[0] = ${diff.id};`,
        '  ints[1] = id;',
        ...diffBody.map((l) => `  ${l}`),
        '  return p;',
        '}',
        'ints[0] = -id;',
        'switch (-id) {',
        ...cases.map((l) => `  ${l}`),
        '  default:',
        '    return -1;',
        '}',
      ],
    },
  ];
}
