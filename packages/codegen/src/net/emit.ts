// Emits the packet-layer codecs (packages/net/src/generated) with ts-morph structures (the page: docs.ts).
import { type InterfaceDeclarationStructure, type StatementStructures, StructureKind, VariableDeclarationKind } from 'ts-morph';
import { createProject, doc, exportedConst, GENERATED_HEADER, type GeneratedFile, generatedText, Imports, listInitializer, str } from '../shared/emit.js';
import { camel, pascal } from '../shared/names.js';
import type { PacketBitField, PacketBitPart, PacketFlag, PacketPayloadField, PacketProtocolSchema } from './model.js';

const prefix = (p: PacketProtocolSchema) => pascal(p.packet_protocol.replace(/[.-]/g, '_'));
const constName = (p: PacketProtocolSchema) => `${p.packet_protocol.replace(/[.-]/g, '_').toUpperCase()}_PACKET`;
/** The constants @twcodec/netmsg and @twcodec/snapshot export for a protocol (ddnet-0.6: DDNET_0_6_MESSAGES, DDNET_0_6). */
const upperName = (protocol: string) => protocol.replace(/[.-]/g, '_').toUpperCase();
const hexBytes = (hex: string) => `[${hex.split(' ').map((b) => `0x${b}`).join(', ')}]`;

function partExpr(part: PacketBitPart): string {
  const masked = `(bytes[offset + ${part.byte}]! & 0x${part.mask.toString(16)})`;
  return part.shift > 0 ? `(${masked} << ${part.shift})` : part.shift < 0 ? `(${masked} >> ${-part.shift})` : masked;
}
function fieldExpr(field: PacketBitField): string {
  const expr = field.parts.map(partExpr).join(' | ');
  // A value reaching bit 31 is read unsigned (tokens).
  return field.parts.some((q) => 31 - Math.clz32(q.mask) + q.shift >= 31) ? `(${expr}) >>> 0` : expr;
}
/** How many values a bit field holds: 2 to the power of its highest value bit + 1 (parts may repeat bits: 0.6's sequence). */
function fieldRange(field: PacketBitField): number {
  const bits = field.parts.reduce((n, q) => n | (q.shift >= 0 ? q.mask << q.shift : q.mask >>> -q.shift), 0);
  return 2 ** (32 - Math.clz32(bits));
}
/** A reader of one bit field (the packet decoder relies on the header's flags and num_chunks, a chunk's flags, size and sequence). */
function fieldAt(fields: readonly PacketBitField[], name: string): string {
  const field = fields.find((f) => f.name === name);
  if (!field) throw new Error(`the packet decoder needs a header field ${name}`); // checked when the schema loads
  return `(bytes: Uint8Array, offset: number) => ${fieldExpr(field)}`;
}
function encodeLines(field: PacketBitField, value: string): string[] {
  return field.parts.map((q) => {
    const v = q.shift > 0 ? `(${value} >>> ${q.shift})` : q.shift < 0 ? `(${value} << ${-q.shift})` : value;
    return `out[offset + ${q.byte}]! |= ${v} & 0x${q.mask.toString(16)};`;
  });
}

/** The ts-morph structures of one bit-field codec: its interface, decoder(s) and encoder. */
function bitCodec(name: string, docText: string, size: number, fields: PacketBitField[], optionalFields: PacketBitField[] = [], optionalSize = size): StatementStructures[] {
  const all = [...fields, ...optionalFields];
  const bytesAt = [
    { name: 'bytes', type: 'Uint8Array' },
    { name: 'offset', initializer: '0' },
  ];
  const out: StatementStructures[] = [
    {
      kind: StructureKind.Interface,
      name,
      isExported: true,
      docs: doc(docText),
      properties: all.map((f) => ({ name: camel(f.name), type: 'number', hasQuestionToken: optionalFields.includes(f), docs: doc(f.description) })),
    },
    {
      kind: StructureKind.Function,
      name: `decode${name}`,
      isExported: true,
      docs: doc(`Reads ${name} from \`bytes\` at \`offset\` (the caller checks that ${size} bytes are there).`),
      parameters: bytesAt,
      returnType: name,
      statements: [`return { ${fields.map((f) => `${camel(f.name)}: ${fieldExpr(f)}`).join(', ')} };`],
    },
  ];
  if (optionalFields.length)
    out.push({
      kind: StructureKind.Function,
      name: `decode${name}Vital`,
      isExported: true,
      docs: doc(`Reads the fields of a vital chunk header (${optionalSize} bytes).`),
      parameters: bytesAt,
      returnType: `{ ${optionalFields.map((f) => `${camel(f.name)}: number`).join('; ')} }`,
      statements: [`return { ${optionalFields.map((f) => `${camel(f.name)}: ${fieldExpr(f)}`).join(', ')} };`],
    });
  const body = [`out.fill(0, offset, offset + ${size});`, ...fields.flatMap((f) => encodeLines(f, `value.${camel(f.name)}`))];
  if (optionalFields.length) {
    body.push(
      `if (${optionalFields.map((f) => `value.${camel(f.name)} === undefined`).join(' || ')}) return ${size};`,
      `out.fill(0, offset + ${size}, offset + ${optionalSize});`,
      ...optionalFields.flatMap((f) => encodeLines(f, `value.${camel(f.name)}`)),
      `return ${optionalSize};`,
    );
  } else body.push(`return ${size};`);
  out.push({
    kind: StructureKind.Function,
    name: `encode${name}`,
    isExported: true,
    docs: doc(`Writes ${name} into \`out\` at \`offset\` (${optionalFields.length ? `${size} bytes, ${optionalSize} with ${optionalFields.map((f) => camel(f.name)).join(', ')}` : `${size} bytes`}); returns the bytes written.`),
    parameters: [
      { name: 'value', type: name },
      { name: 'out', type: 'Uint8Array' },
      { name: 'offset', initializer: '0' },
    ],
    returnType: 'number',
    statements: body,
  });
  return out;
}

function payloadTs(f: PacketPayloadField): string {
  switch (f.type) {
    case 'u8':
    case 'token':
    case 'int':
    case 'padding':
      return 'number';
    case 'magic':
      return 'true';
    case 'string':
    case 'decimal_string':
      return 'string';
    case 'list_rest':
      return `{ ${f.fields!.map((x) => `${camel(x.name)}${x.optional ? '?' : ''}: ${payloadTs(x)}`).join('; ')} }[]`;
  }
}
function fieldTable(fields: PacketPayloadField[]): string {
  return `[${fields
    .map((f) => {
      const parts = [`name: ${str(f.name)}`, `key: ${str(camel(f.name))}`, `type: ${str(f.type)}`];
      if (f.value !== undefined) parts.push(`value: ${str(f.value)}`);
      if (f.optional) parts.push('optional: true');
      if (f.fields) parts.push(`fields: ${fieldTable(f.fields)}`);
      return `{ ${parts.join(', ')} }`;
    })
    .join(', ')}]`;
}
function messageInterface(name: string, kind: string, description: string, fields: PacketPayloadField[], id?: number): InterfaceDeclarationStructure {
  return {
    kind: StructureKind.Interface,
    name,
    isExported: true,
    docs: doc(description),
    properties: [
      { name: 'kind', type: str(kind) },
      ...(id === undefined ? [] : [{ name: 'id', type: String(id), docs: doc(`The control message id (${id}).`) }]),
      ...fields.map((f) => ({ name: camel(f.name), type: payloadTs(f), hasQuestionToken: f.optional === true, docs: doc(`${f.description}${f.type === 'padding' ? ' (its length in bytes)' : ''}`) })),
    ],
  };
}
const flagConst = (name: string, flags: PacketFlag[], docText: string) =>
  exportedConst(name, undefined, docText, listInitializer('{', flags.flatMap((f) => [`/** ${f.description} */`, `${camel(f.name)}: ${f.value},`]), '} as const'));

/** The generated TypeScript of one packet protocol. */
export function emitPacketTs(p: PacketProtocolSchema): GeneratedFile {
  const P = prefix(p);
  const imports = new Imports();
  const statements: StatementStructures[] = [
    ...bitCodec(`${P}PacketHeader`, `The ${p.header.size}-byte packet header of ${p.packet_protocol}.`, p.header.size, p.header.fields),
    ...bitCodec(`${P}ChunkHeader`, `A chunk header of ${p.packet_protocol} (${p.chunk_header.size} bytes, ${p.chunk_header.vital_size} for a vital chunk).`, p.chunk_header.size, p.chunk_header.fields, p.chunk_header.vital_fields, p.chunk_header.vital_size),
  ];
  for (const h of p.connless.headers)
    if (h.fields?.length) statements.push(...bitCodec(`${P}Connless${pascal(h.name)}Header`, h.description, h.size ?? h.prefix!.split(' ').length, h.fields));
  statements.push(flagConst(`${P}PacketFlag`, p.packet_flags, `Bits of the packet header's flags field (${p.packet_protocol}).`));
  statements.push(flagConst(`${P}ChunkFlag`, p.chunk_flags, `Bits of the chunk header's flags field (${p.packet_protocol}).`));
  statements.push(exportedConst(`${P}ControlId`, undefined, `Control message ids (${p.packet_protocol}): the first byte of a control packet's data.`, listInitializer('{', p.control_messages.flatMap((m) => [`/** ${m.description} */`, `${camel(m.name)}: ${m.id},`]), '} as const')));
  const magics = p.control_messages.filter((m) => m.fields.some((f) => f.type === 'magic'));
  if (magics.length)
    statements.push(
      exportedConst(`${P}ControlMagic`, undefined, `The magic bytes (ASCII) of control message fields (${p.packet_protocol}), by message and field.`, listInitializer('{', magics.map((m) => `${camel(m.name)}: { ${m.fields.filter((f) => f.type === 'magic').map((f) => `${camel(f.name)}: ${str(f.value!)}`).join(', ')} },`), '} as const')),
    );
  if (p.token) statements.push(exportedConst(`${P}Token`, undefined, p.token.description, `{ none: 0x${p.token.none.toString(16)}${p.token.request_size !== undefined ? `, requestSize: ${p.token.request_size}` : ''} } as const`));
  const control = p.control_messages.map((m) => ({ m, type: `${P}Control${pascal(m.name)}` }));
  for (const { m, type } of control) statements.push(messageInterface(type, m.name, m.description, m.fields, m.id));
  statements.push({ kind: StructureKind.TypeAlias, name: `${P}ControlMessage`, isExported: true, docs: doc(`A control message of ${p.packet_protocol}, by kind.`), type: control.map((c) => c.type).join(' | ') });
  const connless = p.connless.messages.map((m) => ({ m, type: `${P}Connless${pascal(m.name)}` }));
  for (const { m, type } of connless) statements.push(messageInterface(type, m.name, `${m.description} (magic \`${m.magic}\`, ${m.direction === 'both' ? 'either way' : m.direction === 'server' ? 'server to client' : 'client to server'})`, m.fields));
  statements.push({ kind: StructureKind.TypeAlias, name: `${P}ConnlessMessage`, isExported: true, docs: doc(`A connectionless message of ${p.packet_protocol}, by kind.`), type: connless.map((c) => c.type).join(' | ') });
  const headerFields = (fields: PacketBitField[]) => `[${fields.map((f) => str(camel(f.name))).join(', ')}]`;
  const table = [
    `protocol: ${str(p.packet_protocol)},`,
    `messages: ${imports.value('@twcodec/netmsg', `${upperName(p.net_messages)}_MESSAGES`)},`,
    `snapshots: ${imports.value('@twcodec/snapshot', upperName(p.snapshots))},`,
    `headerSize: ${p.header.size},`,
    `decodeHeader: decode${P}PacketHeader,`,
    `encodeHeader: encode${P}PacketHeader,`,
    `headerFields: ${headerFields(p.header.fields)},`,
    // The header as a decoded packet shows it (schema names): one object literal, not fields added by name.
    `namedHeader: (h: ${P}PacketHeader) => ({ ${p.header.fields.map((f) => `${f.name}: h.${camel(f.name)}`).join(', ')} }),`,
    // The decoder's hot path: the named header straight from the bytes, and single fields as numbers, so that
    // a packet and each of its chunks make no header object of their own (measured: a third of the packet
    // decoder's garbage).
    `namedHeaderAt: (bytes: Uint8Array, offset: number) => ({ ${p.header.fields.map((f) => `${f.name}: ${fieldExpr(f)}`).join(', ')} }),`,
    // namedHeaderAt's object as JSON text, its keys in order: for writers of many packets (`net pcap`'s lines),
    // which need not walk the header's keys (issue 41).
    `namedHeaderJson: (h: Record<string, number>, w: ${imports.type('@twcodec/netmsg', 'NetJsonWriter')}) => { ${p.header.fields.map((f, i) => `w.textNumber(HEADER_JSON_TEXTS[${i}]!, h.${f.name}!);`).join(' ')} w.byte(125); },`,
    `headerFlagsAt: ${fieldAt(p.header.fields, 'flags')},`,
    `headerNumChunksAt: ${fieldAt(p.header.fields, 'num_chunks')},`,
    `packetFlags: ${P}PacketFlag,`,
    `securityTokenSize: ${p.security_token?.size ?? 0},`,
    `chunkHeaderSize: ${p.chunk_header.size},`,
    `vitalChunkHeaderSize: ${p.chunk_header.vital_size},`,
    `decodeChunkHeader: decode${P}ChunkHeader,`,
    `decodeChunkHeaderVital: decode${P}ChunkHeaderVital,`,
    `chunkFlagsAt: ${fieldAt(p.chunk_header.fields, 'flags')},`,
    `chunkSizeAt: ${fieldAt(p.chunk_header.fields, 'size')},`,
    `chunkSequenceAt: ${fieldAt(p.chunk_header.vital_fields, 'sequence')},`,
    `sequenceModulo: ${fieldRange(p.chunk_header.vital_fields.find((f) => f.name === 'sequence')!)},`,
    `encodeChunkHeader: encode${P}ChunkHeader,`,
    `chunkFlags: ${P}ChunkFlag,`,
    `controlMessages: [${p.control_messages.map((m) => `{ name: ${str(m.name)}, id: ${m.id}${m.new_connection ? ', newConnection: true' : ''}, fields: ${fieldTable(m.fields)} }`).join(', ')}],`,
    `connlessHeaders: [${p.connless.headers
      .map((h) => {
        const size = h.size ?? h.prefix!.split(' ').length;
        const parts = [`name: ${str(h.name)}`, `size: ${size}`];
        if (h.prefix) parts.push(`prefix: ${hexBytes(h.prefix)}`);
        if (h.match) parts.push(`match: { mask: ${h.match.mask}, value: ${h.match.value} }`);
        if (h.fields?.length) parts.push(`decode: decode${P}Connless${pascal(h.name)}Header`, `encode: encode${P}Connless${pascal(h.name)}Header`);
        return `{ ${parts.join(', ')} }`;
      })
      .join(', ')}],`,
    `connlessMagicPrefix: ${hexBytes(p.connless.magic_prefix)},`,
    `connlessMessages: [${p.connless.messages.map((m) => `{ name: ${str(m.name)}, magic: ${str(m.magic)}, direction: ${str(m.direction)}, fields: ${fieldTable(m.fields)} }`).join(', ')}],`,
  ];
  statements.push({
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    docs: doc("The keys (with their punctuation) namedHeaderJson writes, as kept text (NetJsonText)."),
    declarations: [{ name: 'HEADER_JSON_TEXTS', initializer: listInitializer('[', p.header.fields.map((f, i) => `${imports.value('@twcodec/netmsg', 'netJsonText')}(${str(`${i ? ',' : '{'}${JSON.stringify(f.name)}:`)}),`), ']') }],
  });
  statements.push(exportedConst(constName(p), imports.type('../table.js', 'PacketProtocolDef'), `The packet layer of ${p.packet_protocol}: header codecs, flags, control and connectionless messages.`, listInitializer('{', table, '}')));
  const path = `${p.packet_protocol}.gen.ts`;
  // A blank line between consts and after a type alias, as ts-morph puts around interfaces and functions.
  const spaced = statements.flatMap((s, i): (string | StatementStructures)[] => (s.kind === StructureKind.VariableStatement && (statements[i - 1]?.kind === StructureKind.VariableStatement || statements[i - 1]?.kind === StructureKind.TypeAlias) ? ['\n', s] : [s]));
  const file = createProject().createSourceFile(path, { statements: [GENERATED_HEADER(p.file), ...imports.declarations(), ...spaced] });
  // ts-morph indents a multi-line initializer one level too deep (a hanging indent); the formatter puts the
  // table's lines back at one level.
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });
  return { path, text: generatedText(file) };
}
