// Emits the net message tables and types (packages/netmsg/src/generated/<protocol>.gen.ts) and the
// reference (docs/formats/net-messages.md) from schemas/netmsg. The generated file gives each message its
// interface, the union of them keyed by `kind`, the table (with a `read` function per message that calls
// @twcodec/netmsg's field readers in schema order) and typed decode/encode functions; framing, optional
// fields, the checks and the errors are in the codec (codec.ts).
import { asciiInt32s } from '@twcodec/runtime';
import { type StatementStructures, StructureKind, VariableDeclarationKind } from 'ts-morph';
import { createProject, doc, exportedConst, GENERATED_HEADER, type GeneratedFile, generatedText, Imports, listInitializer, namedValues, str } from '../shared/emit.js';
import { valueSetLiteral } from '../snapshot/objects.js';
import type { NetFieldSchema, NetMessageSchema, NetProtocolSchema, NetValueSetSchema } from './load.js';
import { camel, pascal } from '../shared/names.js';

const constName = (p: NetProtocolSchema) => `${p.protocol.replace(/[.-]/g, '_').toUpperCase()}_MESSAGES`;
const typePrefix = (p: NetProtocolSchema) => pascal(p.protocol.replace(/[.-]/g, '_'));
const messageInterface = (m: NetMessageSchema) => `${pascal(m.name)}Message`;
export const enumsConst = (p: NetProtocolSchema) => `${p.protocol.replace(/[.-]/g, '_').toUpperCase()}_MESSAGE_ENUMS`;
const packedIdsConst = (p: NetProtocolSchema) => `${p.protocol.replace(/[.-]/g, '_').toUpperCase()}_PACKED_MSG_IDS`;
/** The named constants of a set, as @twcodec/snapshot names them too (Ddnet06Weapon.Hammer). */
const setConstName = (set: NetValueSetSchema) => `${pascal(set.protocol.replace(/[.-]/g, '_'))}${pascal(set.name)}`;
export const setValuesText = (set: NetValueSetSchema) => set.values.map((v) => `${v.value} ${v.name}`).join(', ');

/** The sets the protocol's own messages name, once each, in the order of first use. */
export function ownSets(p: NetProtocolSchema): NetValueSetSchema[] {
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

function tableEntry(p: NetProtocolSchema, m: NetMessageSchema, imports: Imports, texts: JsonTexts): string {
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
  return `{ ${head.join(', ')}, fields: [${fields.join(', ')}], build: ${buildFunction(m)}${read ? `, read: ${read}` : ''}, json: ${jsonFunction(m, texts)} },`;
}

/** The writer method of each field type's value in `json` (NetJsonWriter). */
const JSON_WRITERS: Record<NetFieldSchema['type'], string> = {
  int: 'number',
  tick: 'number',
  bool: 'boolean',
  string: 'string',
  uuid: 'string',
  raw: 'bytes',
  raw_rest: 'bytes',
  int_array: 'numbers',
  int_rest: 'numbers',
  string_array: 'strings',
  string_rest: 'strings',
};
const JSON_VALUE_TYPES: Record<string, string> = { number: 'number', boolean: 'boolean', string: 'string', bytes: 'Uint8Array', numbers: 'number[]', strings: 'string[]' };

/**
 * `fn(text, [words])`: a NetJsonText with its words (asciiInt32s of the text, as netJsonText would make them)
 * written out, so that loading a table loops over no text's characters (issue 41). `fn` is the name netJsonText
 * is imported under.
 */
export function jsonTextCall(fn: string, text: string): string {
  return `${fn}(${str(text)}, [${asciiInt32s(text).join(', ')}])`;
}

/**
 * The texts of a table's generated JSON writers (keys with their punctuation), each once, in the order of first
 * use: the writers name them as `JSON_TEXTS[i]`, a list of NetJsonText made when the module loads.
 */
class JsonTexts {
  readonly list: string[] = [];
  readonly #index = new Map<string, number>();

  /** The expression of `text` in a writer. */
  of(text: string): string {
    let i = this.#index.get(text);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(text);
      this.#index.set(text, i);
    }
    return `JSON_TEXTS[${i}]!`;
  }
}

/**
 * The message's fields as a JSON object, written straight through a NetJsonWriter: each key as literal text,
 * each value by its type's method, in schema order (the decoded message's key order), optional fields only
 * when present (the decoder stops at the first absent one, so those after it are absent too). The same text
 * as JSON.stringify of the fields (less kind and trailing) with the writer's form for bytes; a reader with the
 * message's shape known per kind instead of a walk of its keys with a type test per value (issue 41: the
 * fields were most of `net pcap`'s JSON time).
 */
function jsonFunction(m: NetMessageSchema, texts: JsonTexts): string {
  if (!m.fields.length) return `(_m, w) => w.text(${texts.of('{}')})`;
  const statements: string[] = [];
  // From the first optional field on, a field may be absent (reading stops there, required fields after it too).
  const firstOptional = m.fields.findIndex((f) => f.optional);
  for (const [i, f] of m.fields.entries()) {
    const key = camel(f.name);
    const method = JSON_WRITERS[f.type];
    const keyText = texts.of(`${i ? ',' : '{'}${JSON.stringify(key)}:`);
    // A key and its int in one call into the writer (each call costs about what its bytes do).
    const write = method === 'number' ? `w.textNumber(${keyText}, m.${key} as number);` : `w.text(${keyText}); w.${method}(m.${key} as ${JSON_VALUE_TYPES[method]});`;
    // A first field that may be absent leaves the object's opening brace to be written when it is.
    if (firstOptional >= 0 && i >= firstOptional) statements.push(i ? `if (m.${key} !== undefined) { ${write} }` : `if (m.${key} === undefined) w.byte(123); else { ${write} }`);
    else statements.push(write);
  }
  statements.push('w.byte(125);');
  return `(m, w) => { ${statements.join(' ')} }`;
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
  const texts = new JsonTexts();
  const entries = p.messages.map((m) => tableEntry(p, m, imports, texts));
  statements.push({
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    docs: doc("The keys (with their punctuation) the messages' `json` writers write, as kept text (NetJsonText)."),
    declarations: [{ name: 'JSON_TEXTS', initializer: listInitializer('[', texts.list.map((t) => `${jsonTextCall(imports.value(CODEC, 'netJsonText'), t)},`), ']') }],
  });
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
