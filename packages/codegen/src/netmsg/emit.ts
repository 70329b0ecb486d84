// Emits the net message tables and types (packages/netmsg/src/generated/<protocol>.gen.ts) and the
// reference (docs/formats/net-messages.md) from schemas/netmsg. The generated file gives each message its
// interface, the union of them keyed by `kind`, the table (with a `read` function per message that calls
// @twcodec/netmsg's field readers in schema order) and typed decode/encode functions; framing, optional
// fields, the checks and the errors are in the codec (codec.ts).
import { type StatementStructures, StructureKind, VariableDeclarationKind } from 'ts-morph';
import { createProject, doc, exportedConst, GENERATED_DOCS_HEADER, GENERATED_HEADER, type GeneratedFile, generatedText, Imports, listInitializer, namedValues, str } from '../shared/emit.js';
import { valueSetLiteral } from '../snapshot/objects.js';
import type { NetFieldSchema, NetMessageSchema, NetProtocolSchema, NetValueSetSchema } from './load.js';
import { camel, pascal } from '../shared/names.js';

const constName = (p: NetProtocolSchema) => `${p.protocol.replace(/[.-]/g, '_').toUpperCase()}_MESSAGES`;
const typePrefix = (p: NetProtocolSchema) => pascal(p.protocol.replace(/[.-]/g, '_'));
const messageInterface = (m: NetMessageSchema) => `${pascal(m.name)}Message`;
const enumsConst = (p: NetProtocolSchema) => `${p.protocol.replace(/[.-]/g, '_').toUpperCase()}_MESSAGE_ENUMS`;
const packedIdsConst = (p: NetProtocolSchema) => `${p.protocol.replace(/[.-]/g, '_').toUpperCase()}_PACKED_MSG_IDS`;
/** The named constants of a set, as @twcodec/snapshot names them too (Ddnet06Weapon.Hammer). */
const setConstName = (set: NetValueSetSchema) => `${pascal(set.protocol.replace(/[.-]/g, '_'))}${pascal(set.name)}`;
const setValuesText = (set: NetValueSetSchema) => set.values.map((v) => `${v.value} ${v.name}`).join(', ');

/** The sets the protocol's own messages name, once each, in the order of first use. */
function ownSets(p: NetProtocolSchema): NetValueSetSchema[] {
  const sets = new Map<string, NetValueSetSchema>();
  for (const m of p.messages) for (const f of m.fields) if (f.values?.protocol === p.protocol && !sets.has(f.values.name)) sets.set(f.values.name, f.values);
  return [...sets.values()];
}
/** The hand-written codec the generated tables are read by. */
const CODEC = '../codec.js';

function tsType(f: NetFieldSchema, imports: Imports): string {
  switch (f.type) {
    case 'int':
    case 'tick':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'string':
      return 'string';
    case 'uuid':
      return imports.type('@twcodec/runtime', 'Uuid');
    case 'raw':
    case 'raw_rest':
      return 'Uint8Array';
    case 'int_array':
    case 'int_rest':
      return 'number[]';
    case 'string_array':
    case 'string_rest':
      return 'string[]';
  }
}

const framing = (m: NetMessageSchema) => (m.uuid ? `UUID message \`${m.uuidName}\` (${m.uuid})` : `id ${m.id}`);
const directionText = { server: 'server to client', client: 'client to server', both: 'either way' } as const;

function fieldDoc(f: NetFieldSchema): string {
  const notes = [f.description];
  if (f.values) notes.push(`${f.values.kind === 'flags' ? 'Bits' : 'A value'} of {@link ${setConstName(f.values)}} (${f.values.protocol}'s ${f.values.name}: ${setValuesText(f.values)}).`);
  if (f.min !== undefined || f.max !== undefined) notes.push(`DDNet accepts ${f.min ?? '-inf'} to ${f.max ?? 'inf'}.`);
  if (f.mask !== undefined) notes.push(`DDNet accepts the bits of ${f.mask} only.`);
  if (f.sanitize && f.sanitize !== 'none') notes.push(`DDNet sanitises it (${f.sanitize}); kept here as sent.`);
  if (f.optional) notes.push(`Absent from messages of older versions${f.since ? ` (added in DDNet ${f.since})` : ''}; a demo's padding after the fields before it is not read as it.`);
  if (f.counts) notes.push(`Senders write ${f.counts.join(' or ')}; up to 3 zero bytes after that many in a message padded to 4 bytes (a demo chunk) are padding, kept in \`trailing\`.`);
  if (f.nonempty) notes.push('Senders write no empty strings; empty ones at the end of a message padded to 4 bytes (a demo chunk) are padding, kept in `trailing`.');
  return notes.join(' ');
}

function tableEntry(p: NetProtocolSchema, m: NetMessageSchema, imports: Imports): string {
  const fields = m.fields.map((f) => {
    const parts = [`name: ${str(f.name)}`, `key: ${str(camel(f.name))}`, `type: ${str(f.type)}`, `description: ${str(f.description)}`];
    if (f.optional) parts.push('optional: true');
    if (f.min !== undefined) parts.push(`min: ${f.min}`);
    if (f.max !== undefined) parts.push(`max: ${f.max}`);
    if (f.mask !== undefined) parts.push(`mask: ${f.mask}`);
    if (f.sanitize) parts.push(`sanitize: ${str(f.sanitize)}`);
    if (f.size !== undefined) parts.push(`size: ${f.size}`);
    if (f.count !== undefined) parts.push(`count: ${f.count}`);
    if (f.size_field) parts.push(`sizeField: ${str(f.size_field)}`);
    if (f.count_divisor !== undefined) parts.push(`countDivisor: ${f.count_divisor}`);
    if (f.count_table) parts.push(`countTable: [${f.count_table.join(', ')}]`);
    if (f.counts) parts.push(`counts: [${f.counts.join(', ')}]`);
    if (f.nonempty) parts.push('nonempty: true');
    // A set of this protocol by its name in the enums table; one of another (a message uuid_messages_from takes) as it is.
    if (f.values) parts.push(`values: ${f.values.protocol === p.protocol ? `${enumsConst(p)}.${f.values.name}` : valueSetLiteral(f.values)}`);
    return `{ ${parts.join(', ')} }`;
  });
  const head = [`name: ${str(m.name)}`, `system: ${m.system}`, `id: ${m.id}`];
  if (m.uuid) head.push(`uuid: ${str(m.uuid)}`, `uuidName: ${str(m.uuidName!)}`);
  head.push(`direction: ${str(m.direction)}`);
  if (m.since) head.push(`since: ${str(m.since)}`);
  if (m.recorded === false) head.push('recorded: false');
  head.push(`description: ${str(m.description)}`);
  const read = readFunction(m, imports);
  return `{ ${head.join(', ')}, fields: [${fields.join(', ')}], build: ${buildFunction(m)}${read ? `, read: ${read}` : ''} },`;
}

/**
 * The message's fields up to its first optional one read from the reader `r` in schema order, by the codec's
 * field readers (the same calls its field interpreter makes for each type, so the same checks and errors),
 * and the message made of them; undefined for a message with a field the interpreter is left to (text or
 * ints to the end of the message, string arrays, counts by table). No dispatch on each field's type, no
 * array of values: the corpus capture's 21844 messages decoded 7 to 11% faster than by the interpreter alone
 * (alternating rounds in one process, CPU time).
 */
function readFunction(m: NetMessageSchema, imports: Imports): string | undefined {
  const first = m.fields.findIndex((f) => f.optional);
  const fixed = first < 0 ? m.fields : m.fields.slice(0, first);
  const statements: string[] = [];
  for (const [i, f] of fixed.entries()) {
    const path = str(`${m.name}.${f.name}`);
    const sizeIndex = f.size_field ? m.fields.findIndex((g) => g.name === f.size_field) : -1;
    if (f.size_field && !(sizeIndex >= 0 && sizeIndex < i)) return undefined;
    const lengthOf = (divisor: number) => `${imports.value(CODEC, 'lengthOf')}(r, v${sizeIndex}, ${str(f.size_field!)}, ${divisor}, ${path})`;
    let value: string;
    switch (f.type) {
      case 'int':
      case 'tick':
        value = `r.readVarInt(${path})`;
        break;
      case 'bool':
        value = `${imports.value(CODEC, 'readBool')}(r, ${path})`;
        break;
      case 'string':
        value = `r.readCString(${path})`;
        break;
      case 'uuid':
        value = `${imports.value(CODEC, 'readUuid')}(r, ${path})`;
        break;
      case 'raw':
        if (f.size === undefined && !f.size_field) return undefined;
        value = `${imports.value(CODEC, 'readCopy')}(r, ${f.size ?? lengthOf(1)}, ${path})`;
        break;
      case 'int_array':
        if (f.count === undefined && (f.count_table || !f.size_field)) return undefined;
        value = `${imports.value(CODEC, 'readIntArray')}(r, ${f.count ?? lengthOf(f.count_divisor ?? 1)}, ${path})`;
        break;
      default:
        return undefined;
    }
    statements.push(`const v${i} = ${value};`);
  }
  const props = [`kind: ${str(m.name)}`, ...fixed.map((f, i) => `${camel(f.name)}: v${i}`)];
  if (!fixed.length) return `() => ({ ${props.join(', ')} })`;
  return `(r) => { ${statements.join(' ')} return { ${props.join(', ')} }; }`;
}

/**
 * The message's object from its field values, up to its first optional field (the codec adds the fields
 * after it that are there): an object literal per message gives every message one shape made at once, where
 * adding fields by name one by one cost as much as the rest of decoding (measured on a capture's messages).
 */
function buildFunction(m: NetMessageSchema): string {
  const first = m.fields.findIndex((f) => f.optional);
  const fixed = first < 0 ? m.fields : m.fields.slice(0, first);
  const props = [`kind: ${str(m.name)}`, ...fixed.map((f, i) => `${camel(f.name)}: v[${i}]`)];
  return `(${fixed.length ? 'v' : '_v'}) => ({ ${props.join(', ')} })`;
}

export function emitNetTs(p: NetProtocolSchema): GeneratedFile {
  const project = createProject();
  const prefix = typePrefix(p);
  const table = constName(p);
  const sets = ownSets(p);
  const imports = new Imports();
  const statements: (string | StatementStructures)[] = [];
  for (const c of p.constants) statements.push(exportedConst(c.name.toUpperCase(), undefined, `${c.description} (${p.file})`, String(c.value)));
  for (const set of sets) {
    statements.push(...namedValues(setConstName(set), `The ${set.kind === 'flags' ? 'bits' : 'values'} of ${set.protocol}'s ${set.name}${set.ddnet ? ` (DDNet's ${set.ddnet}_*)` : ''}, from schemas/snapshot/${set.protocol}.yaml, as fields of ${p.protocol} messages hold them.`, set.values));
  }
  if (sets.length) statements.push(exportedConst(enumsConst(p), undefined, `The enums and flag sets fields of ${p.protocol} messages name (NetFieldDef.values), by name.`, listInitializer('{', sets.map((set) => `${set.name}: ${valueSetLiteral(set)},`), `} as const satisfies Record<string, ${imports.type(CODEC, 'NetValueSet')}>`)));
  const numbered = p.messages.filter((m) => !m.uuid);
  statements.push(
    exportedConst(
      packedIdsConst(p),
      undefined,
      `The first int of each numbered message of ${p.protocol}: its id << 1, plus 1 for a system message, as DDNet packs it (a UUID message starts with 0 or 1, NETMSG_EX, and its UUID).`,
      listInitializer('{', numbered.map((m) => `${m.name}: ${(m.id << 1) | (m.system ? 1 : 0)},`), '} as const'),
    ),
  );
  // A message with the same fields as an earlier one (cl_change_info and cl_start_info) reuses its interface.
  const sameFields = new Map<string, string>();
  for (const m of p.messages) {
    const key = JSON.stringify(m.fields);
    const earlier = m.fields.length ? sameFields.get(key) : undefined;
    if (!earlier) sameFields.set(key, messageInterface(m));
    statements.push({
      kind: StructureKind.Interface,
      name: messageInterface(m),
      isExported: true,
      extends: [earlier ? `Omit<${earlier}, 'kind'>` : imports.type(CODEC, 'NetMessageBase')],
      docs: doc(`${m.description} (${m.system ? 'system' : 'game'} message, ${framing(m)}; ${directionText[m.direction]}${m.since ? `; since DDNet ${m.since}` : ''})`),
      properties: [
        { kind: StructureKind.PropertySignature, name: 'kind', type: str(m.name) },
        ...(earlier ? [] : m.fields.map((f) => ({ kind: StructureKind.PropertySignature as const, name: camel(f.name), hasQuestionToken: f.optional === true, type: tsType(f, imports), docs: doc(fieldDoc(f)) }))),
      ],
    });
  }
  statements.push({ kind: StructureKind.TypeAlias, name: `${prefix}Message`, isExported: true, docs: doc(`Every message of ${p.protocol} the schema names.`), type: p.messages.map(messageInterface).join(' | ') });
  // Written before the file is printed, so that the imports they use are known by then.
  const entries = p.messages.map((m) => tableEntry(p, m, imports));
  const unknown = imports.type(CODEC, 'UnknownNetMessage');
  statements.push({ kind: StructureKind.TypeAlias, name: `${prefix}MessageKind`, isExported: true, docs: doc('The message names.'), type: `${prefix}Message['kind']` });
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: doc(`${p.description} The table the codec reads; from ${p.file}.`),
    declarations: [
      {
        name: table,
        type: imports.type(CODEC, 'NetProtocolDef'),
        initializer: (w) => {
          w.write('{').newLine();
          w.indent(() => {
            w.writeLine(`protocol: ${str(p.protocol)},`);
            w.writeLine(`netVersion: ${str(p.netVersion)},`);
            w.writeLine(`description: ${str(p.description)},`);
            w.writeLine('messages: [');
            w.indent(() => {
              for (const entry of entries) w.writeLine(entry);
            });
            w.writeLine('],');
          });
          w.write('}');
        },
      },
    ],
  });
  statements.push({
    kind: StructureKind.Function,
    name: `decode${prefix}Message`,
    isExported: true,
    docs: doc(`Decodes one packed ${p.protocol} message. Unknown ids and UUIDs come back as \`kind: 'unknown'\` with their bytes; a known message that does not read as its schema says throws NetMessageError (or, with \`lenient\`, comes back unknown with \`error\`).`),
    parameters: [{ name: 'bytes', type: 'Uint8Array' }, { name: 'options', type: imports.type(CODEC, 'DecodeOptions'), hasQuestionToken: true }],
    returnType: `${prefix}Message | ${unknown}`,
    statements: [`return ${imports.value(CODEC, 'decodeNetMessage')}(${table}, bytes, options) as ${prefix}Message | ${unknown};`],
  });
  statements.push({
    kind: StructureKind.Function,
    name: `encode${prefix}Message`,
    isExported: true,
    docs: doc(`Encodes a ${p.protocol} message (or an unknown one) to its packed bytes.`),
    parameters: [{ name: 'message', type: `${prefix}Message | ${unknown}` }],
    returnType: 'Uint8Array',
    statements: [`return ${imports.value(CODEC, 'encodeNetMessage')}(${table}, message);`],
  });
  const path = `${p.protocol}.gen.ts`;
  const file = project.createSourceFile(path, { statements: [GENERATED_HEADER(p.file), ...imports.declarations(), ...statements] }, { overwrite: true });
  return { path, text: generatedText(file) };
}

const FIELD_TEXT: Record<NetFieldSchema['type'], string> = {
  int: 'int',
  bool: 'bool (int 0 or 1)',
  tick: 'tick (int)',
  string: 'string (NUL-terminated UTF-8)',
  uuid: 'UUID (16 bytes)',
  raw: 'bytes',
  raw_rest: 'bytes to the end of the message',
  int_array: 'ints',
  string_array: 'strings',
  int_rest: 'ints to the end of the message',
  string_rest: 'strings to the end of the message',
};

function fieldKind(f: NetFieldSchema): string {
  let text = FIELD_TEXT[f.type];
  if (f.size !== undefined) text = `${f.size} bytes`;
  if (f.count !== undefined) text = `${f.count} ${f.type === 'int_array' ? 'ints' : 'strings'}`;
  if (f.size_field) {
    const items = f.type === 'raw' ? 'bytes' : f.type === 'string_array' ? 'strings' : 'ints';
    text = f.count_table ? `ints (by \`${f.size_field}\`: ${f.count_table.join(', ')})` : `${items} (\`${f.size_field}\`${f.count_divisor ? ` / ${f.count_divisor}` : ''} of them)`;
  }
  if (f.counts) text += ` (senders write ${f.counts.join(' or ')}; a demo's zero padding after them is not data)`;
  if (f.nonempty) text += " (never empty; a demo's zero padding is not data)";
  if (f.values) text += ` (${f.values.kind} [\`${f.values.name}\`](#${f.values.protocol.replace(/\./g, '')}-enums))`;
  const extras: string[] = [];
  if (f.min !== undefined || f.max !== undefined) extras.push(`${f.min ?? '…'}..${f.max ?? '…'}`);
  if (f.mask !== undefined) extras.push(`mask ${f.mask}`);
  if (f.sanitize && f.sanitize !== 'none') extras.push(`sanitise: ${f.sanitize}`);
  if (f.optional) extras.push('optional');
  return extras.length ? `${text}; ${extras.join('; ')}` : text;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function emitNetDocs(protocols: NetProtocolSchema[]): string {
  const lines = [
    GENERATED_DOCS_HEADER(protocols.map((p) => p.file).join(', ')),
    '',
    '# Net message reference',
    '',
    'Teeworlds and DDNet clients and servers talk in net messages; demos record the ones the server sends',
    '(message chunks) and teehistorian files the ones clients send (`MESSAGE` records). This reference is',
    'generated from the YAML schemas under `schemas/netmsg/` that also generate `@twcodec/netmsg`. A worked',
    'example on a real demo: [examples.md](examples.md#net-messages).',
    '',
    '## Framing',
    '',
    'Every message starts with a variable-width int (the same ints as teehistorian: [extend | sign | 6 bits],',
    'then [extend | 7 bits]): `id << 1 | system`, where `system` is 1 for engine messages (connection, map,',
    'snapshots, rcon) and 0 for game messages. Id 0 (`NETMSG_EX`) is followed by 16 bytes: the version-3 UUID',
    'of a name such as `killmsgteam@netmsg.ddnet.tw` in the Teeworlds namespace; DDNet adds messages this way',
    "so that ids never clash. The fields follow, in order: ints as variable-width ints, strings NUL-terminated",
    'UTF-8, raw bytes as they are. Fields marked optional were appended by a later version: older senders stop',
    'before them. A demo pads each message chunk with zeros to a multiple of 4 bytes (DDNet 16.4',
    '`CDemoRecorder::Write`); those bytes are kept as `trailing`, as are bytes after the last known field, and',
    'never read as a field: where fewer than 4 zero bytes are all that is left of a padded message, an optional',
    'field is absent. (A newer sender\'s optional field of value 0, false or empty text in that place has the',
    'same bytes: it too reads as absent, its byte in `trailing`, and the message is written back the same.)',
    'Messages from the network or a teehistorian file are not padded (`padded: false` when decoding).',
    '',
    'Strings are kept as sent. DDNet cleans them when it unpacks them: `sanitize` turns control characters other',
    'than tab, newline and carriage return into spaces, `sanitize_cc` every control character, `strict` does',
    'that and skips leading whitespace (`sanitizeNetString` does the same). Ranges are what DDNet accepts; it',
    'drops a message with a value outside them.',
    '',
    'Direction: **server** = server to client, **client** = client to server.',
    '',
  ];
  for (const p of protocols) {
    lines.push(`## ${p.protocol}`, '', p.description, '', `Net version (a client's \`info\` message, a demo's header): \`${p.netVersion}\`.`, '');
    for (const [title, filter] of [
      ['System messages', (m: NetMessageSchema) => m.system && !m.uuid],
      ['System messages with UUIDs', (m: NetMessageSchema) => m.system && !!m.uuid],
      ['Game messages', (m: NetMessageSchema) => !m.system && !m.uuid],
      ['Game messages with UUIDs', (m: NetMessageSchema) => !m.system && !!m.uuid],
    ] as const) {
      const list = p.messages.filter((m) => !m.from && filter(m));
      if (!list.length) continue;
      lines.push(`### ${title}`, '');
      for (const m of list) {
        lines.push(`#### ${m.name}`, '');
        lines.push(`${m.description} ${m.uuid ? `UUID name \`${m.uuidName}\` (\`${m.uuid}\`)` : `Id ${m.id}`}, first int ${m.uuid ? (m.system ? 1 : 0) : (m.id << 1) | (m.system ? 1 : 0)}; direction: **${m.direction}**${m.since ? `; since DDNet ${m.since}` : ''}${m.recorded === false ? '; not recorded in demos (the client only applies it)' : ''}.`, '');
        if (!m.fields.length) {
          lines.push('No fields.', '');
          continue;
        }
        lines.push('| field | kind | description |', '| --- | --- | --- |');
        for (const f of m.fields) lines.push(`| \`${f.name}\` | ${cell(fieldKind(f))} | ${cell(f.description)} |`);
        lines.push('');
      }
    }
    const sets = ownSets(p);
    if (sets.length) {
      lines.push(`### ${p.protocol} enums`, '', `The names of the values of enum fields and the bits of flags fields above (the numbers are what the messages hold; \`${enumsConst(p)}\`, \`netValueName\`). They come from [the snapshot schema of ${p.protocol}](snapshot.md#enums-and-flags), the one source of the protocol's enums; a field without its own range takes the enum's lowest to highest value, a flags field without a mask exactly its bits.`, '');
      lines.push('| set | kind | values |', '| --- | --- | --- |');
      for (const set of sets) lines.push(`| \`${set.name}\`${set.ddnet ? ` (\`${set.ddnet}_*\`)` : ''} | ${set.kind} | ${cell(set.values.map((v) => `${v.value} ${v.name}`).join(', '))} |`);
      lines.push('');
    }
    const taken = p.messages.filter((m) => m.from);
    if (taken.length) {
      lines.push(`### UUID messages of ${p.uuidMessagesFrom}`, '', `Every UUID message of ${p.uuidMessagesFrom} (described there) also decodes on ${p.protocol}, under the same name, or with \`ddnet_\` before it where ${p.protocol} has a message of that name:`, '');
      lines.push(taken.map((m) => (m.name === m.from!.name ? `\`${m.name}\`` : `\`${m.name}\` (${m.from!.name})`)).join(', ') + '.', '');
    }
  }
  return lines.join('\n');
}
