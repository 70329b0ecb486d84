// docs/formats/network.md: the tables of both packet protocols (headers, flags, control and connectionless
// messages, the connection's limits) and the Huffman code's frequencies, set into the page's template
// (schemas/net/network.md), which holds all of the page's prose.
import { cell, renderPage, type PageFill } from '../shared/pages.js';
import type { HuffmanSchema, PacketBitField, PacketBitPart, PacketFlag, PacketPayloadField, PacketProtocolSchema } from './model.js';
import type { NetworkPage } from './load.js';

const hex = (n: number) => `0x${n.toString(16)}`;
/** A list item of a `checked` line: its `*`s (NET_CTRLMSG_*) are no emphasis. */
const checkedItem = (text: string) => `- ${cell(text).replace(/\*/g, '\\*')}`;

function bitsText(parts: PacketBitPart[]): string {
  return parts
    .map((q) => {
      const hi = 31 - Math.clz32(q.mask);
      const lo = 31 - Math.clz32(q.mask & -q.mask);
      return `byte ${q.byte} bits ${hi === lo ? hi : `${hi}-${lo}`}${q.shift ? ` → value bits ${hi + q.shift}-${lo + q.shift}` : ''}`;
    })
    .join('; ');
}
const TYPE_WORDS: Record<PacketPayloadField['type'], string> = {
  u8: 'one byte',
  token: '4-byte token',
  magic: 'magic',
  string: 'NUL-terminated string',
  int: 'variable-width int',
  decimal_string: 'decimal number as a string',
  padding: 'zero bytes to the end',
  list_rest: 'list to the end',
};
const payloadText = (f: PacketPayloadField): string =>
  f.type === 'magic' ? `${TYPE_WORDS.magic} \`${f.value}\`` : f.type === 'list_rest' ? `${TYPE_WORDS.list_rest}: ${f.fields!.map((x) => `${x.name} (${payloadText(x)})`).join(', ')}` : TYPE_WORDS[f.type];
const optional = (f: PacketPayloadField) => (f.optional ? ' (optional)' : '');
/** A field's row; a list's entries get a row per field of an entry (`clients[].name`), with its description. */
const payloadRows = (f: PacketPayloadField): string[] => [
  `| \`${f.name}\` | ${payloadText(f)}${optional(f)} | ${cell(f.description)} |`,
  ...(f.type === 'list_rest' ? f.fields!.map((x) => `| \`${f.name}[].${x.name}\` | ${payloadText(x)} | ${cell(x.description)} |`) : []),
];
const DIRECTION = { server: 'server → client', client: 'client → server', both: 'either way' } as const;

const bitTable = (fields: PacketBitField[]) => ['| field | bits | description |', '| --- | --- | --- |', ...fields.map((f) => `| \`${f.name}\` | ${bitsText(f.parts)} | ${cell(f.description)} |`)];
/** The flags of a `flags` field, each with its mask in the byte the field sits in. */
function flagTable(flags: PacketFlag[], fields: PacketBitField[]): string[] {
  const part = fields.find((f) => f.name === 'flags')!.parts[0]!;
  return ['| flag | value | mask | description |', '| --- | --- | --- | --- |', ...flags.map((f) => `| \`${f.name}\` | ${f.value} | ${hex(part.shift < 0 ? f.value << -part.shift : f.value >> part.shift)} | ${cell(f.description)} |`)];
}

/** What the template's placeholders of one protocol (`<protocol>:<name>`) are filled with. */
function protocolFill(p: PacketProtocolSchema): Record<string, PageFill> {
  const fill: Record<string, PageFill> = {
    description: cell(p.description),
    file: p.file,
    header_size: `${p.header.size}`,
    header_table: bitTable(p.header.fields),
    packet_flags_table: flagTable(p.packet_flags, p.header.fields),
    chunk_header_size: `${p.chunk_header.size}`,
    chunk_header_vital_size: `${p.chunk_header.vital_size}`,
    chunk_header_table: bitTable([...p.chunk_header.fields, ...p.chunk_header.vital_fields]),
    chunk_flags_table: flagTable(p.chunk_flags, p.chunk_header.fields),
    control_table: [
      '| id | message | payload | starts a connection | description |',
      '| --- | --- | --- | --- | --- |',
      ...p.control_messages.map((m) => `| ${m.id} | \`${m.name}\` | ${m.fields.map((f) => `${f.name}: ${payloadText(f)}${optional(f)}`).join('; ') || '—'} | ${m.new_connection ? 'yes' : ''} | ${cell(m.description)} |`),
    ],
    connless_description: cell(p.connless.description),
    connless_headers_table: [
      '| header | starts with | size | fields | description |',
      '| --- | --- | --- | --- | --- |',
      ...p.connless.headers.map(
        (h) =>
          `| \`${h.name}\` | ${h.prefix ? `\`${h.prefix}\`` : `first byte & ${hex(h.match!.mask)} = ${hex(h.match!.value)}`} | ${h.size ?? h.prefix!.split(' ').length} | ${(h.fields ?? []).map((f) => `${f.name} (${bitsText(f.parts)})`).join('; ') || '—'} | ${cell(h.description)} |`,
      ),
    ],
    connless_magic_prefix: p.connless.magic_prefix,
    connless_messages_table: ['| magic | message | direction | description |', '| --- | --- | --- | --- |', ...p.connless.messages.map((m) => `| \`${m.magic}\` | [${m.name}](#${m.magic.replace(/[^a-z0-9]/g, '')}-${m.name}) | ${DIRECTION[m.direction]} | ${cell(m.description)} |`)],
    connless_messages: p.connless.messages.flatMap((m) => [
      `#### \`${m.magic}\` ${m.name}`,
      '',
      `${cell(m.description)} (${DIRECTION[m.direction]})`,
      '',
      ...(m.fields.length ? ['| field | type | description |', '| --- | --- | --- |', ...m.fields.flatMap(payloadRows)] : ['—']),
      '',
    ]),
    connection_limits_table: [
      '| name | value | unit | description |',
      '| --- | --- | --- | --- |',
      ...(p.connection?.limits ?? []).map((l) => `| \`${l.name}\` | ${l.value} | ${l.unit} | ${cell(l.description)} |`),
    ],
    checked: (p.checked ?? []).map(checkedItem),
    sequence_modulo: `${sequenceModulo(p)}`,
  };
  if (p.token) {
    fill.token_none = hex(p.token.none);
    fill.token_description = cell(p.token.description);
    if (p.token.request_size !== undefined) fill.token_request_size = `${p.token.request_size}`;
  }
  if (p.security_token) {
    fill.security_token_size = `${p.security_token.size}`;
    fill.security_token_description = cell(p.security_token.description);
  }
  return fill;
}

/** How many values the vital chunk's sequence takes (2 to the power of its highest value bit + 1). */
function sequenceModulo(p: PacketProtocolSchema): number {
  const field = p.chunk_header.vital_fields.find((f) => f.name === 'sequence')!;
  const bits = field.parts.reduce((n, q) => n | (q.shift >= 0 ? q.mask << q.shift : q.mask >>> -q.shift), 0);
  return 2 ** (32 - Math.clz32(bits));
}

function huffmanFill(h: HuffmanSchema): Record<string, PageFill> {
  const rows: string[] = [];
  for (let i = 0; i < h.frequencies.length; i += 16) {
    const last = Math.min(i + 15, h.frequencies.length - 1);
    rows.push(`| ${i}-${last} | ${h.frequencies.slice(i, last + 1).join(', ')} |`);
  }
  return {
    'huffman:description': cell(h.description),
    'huffman:file': h.file,
    'huffman:checked': h.checked.map(checkedItem),
    'huffman:eof_symbol': `${h.eofSymbol}`,
    'huffman:last_byte': `${h.eofSymbol - 1}`,
    'huffman:eof_listed_frequency': `${h.frequencies[h.eofSymbol]}`,
    'huffman:const_name': `${h.name.toUpperCase()}_FREQUENCIES`,
    'huffman:table': ['| symbols | frequencies |', '| --- | --- |', ...rows],
  };
}

/** docs/formats/network.md: both packet protocols and the Huffman code, in the page's template. */
export function emitNetworkDocs(page: NetworkPage): string {
  const fill: Record<string, PageFill> = {};
  for (const p of page.protocols) for (const [name, value] of Object.entries(protocolFill(p))) fill[`${p.packet_protocol}:${name}`] = value;
  Object.assign(fill, huffmanFill(page.huffman));
  return renderPage(page.template, [...page.protocols.map((p) => p.file), page.huffman.file].join(', '), fill);
}
