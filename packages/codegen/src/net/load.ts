// Loads the packet-layer schemas (schemas/net/*.yaml: packet and chunk headers, control and connectionless
// messages) and checks what the JSON schema cannot.
import { type ParsedFile, parseFamily, positionOf, SchemaError, type SchemaProblem } from '../shared/schema-files.js';
import type { HuffmanSchema, PacketBitField, PacketPayloadField, PacketProtocolSchema } from './model.js';
import { camel } from '../shared/names.js';
import { loadPageTemplate, type PageTemplate } from '../shared/pages.js';
import { join, relative } from 'node:path';

/** The protocols of the other families a packet protocol names (net_messages, snapshots); unchecked when not given. */
export interface PacketSchemaRefs {
  netMessages: readonly string[];
  snapshots: readonly string[];
}

/** Loads schemas/net/*.yaml (validated against schema.json's packetFile) and checks what JSON schema cannot. */
export function loadPacketSchemas(schemasDir: string, displayRoot = schemasDir, refs?: PacketSchemaRefs): PacketProtocolSchema[] {
  const files: ParsedFile[] = parseFamily(schemasDir, 'net', displayRoot).filter((f) => 'packet_protocol' in f.data);
  const problems: SchemaProblem[] = [];
  const out: PacketProtocolSchema[] = [];
  for (const f of files) {
    const p = { ...(f.data as unknown as Omit<PacketProtocolSchema, 'file'>), file: f.file } as PacketProtocolSchema;
    const problem = (path: (string | number)[], message: string) => problems.push({ file: f.file, ...positionOf(f, path), message });
    const unique = (list: { name: string }[], path: string, what: string) => {
      const seen = new Set<string>();
      list.forEach((e, i) => {
        if (seen.has(e.name)) problem([path, i, 'name'], `${what} ${e.name} is defined twice`);
        seen.add(e.name);
      });
    };
    const checkBits = (fields: PacketBitField[], size: number, path: (string | number)[]) =>
      fields.forEach((field, i) =>
        field.parts.forEach((part, j) => {
          if (part.byte >= size) problem([...path, i, 'parts', j, 'byte'], `byte ${part.byte} is outside the ${size}-byte header`);
          if (31 - Math.clz32(part.mask & -part.mask) + part.shift < 0) problem([...path, i, 'parts', j, 'shift'], 'shifts bits out to the right');
        }),
      );
    checkBits(p.header.fields, p.header.size, ['header', 'fields']);
    checkBits(p.chunk_header.fields, p.chunk_header.size, ['chunk_header', 'fields']);
    checkBits(p.chunk_header.vital_fields, p.chunk_header.vital_size, ['chunk_header', 'vital_fields']);
    if (!p.header.fields.some((h) => h.name === 'flags') || !p.header.fields.some((h) => h.name === 'num_chunks')) problem(['header'], 'the header needs flags and num_chunks fields');
    if (!p.chunk_header.vital_fields.some((h) => h.name === 'sequence')) problem(['chunk_header', 'vital_fields'], 'a vital chunk header needs a sequence field');
    if (!p.chunk_header.fields.some((h) => h.name === 'flags') || !p.chunk_header.fields.some((h) => h.name === 'size')) problem(['chunk_header'], 'the chunk header needs flags and size fields');
    if (refs && !refs.netMessages.includes(p.net_messages)) problem(['net_messages'], `net_messages: ${p.net_messages} is no protocol of schemas/netmsg (${refs.netMessages.join(', ')})`);
    if (refs && !refs.snapshots.includes(p.snapshots)) problem(['snapshots'], `snapshots: ${p.snapshots} is no protocol of schemas/snapshot (${refs.snapshots.join(', ')})`);
    for (const name of ['control', 'compression', 'connless']) if (!p.packet_flags.some((x) => x.name === name)) problem(['packet_flags'], `packet_flags needs ${name}`);
    if (!p.chunk_flags.some((x) => x.name === 'vital')) problem(['chunk_flags'], 'chunk_flags needs vital');
    unique(p.packet_flags, 'packet_flags', 'flag');
    unique(p.chunk_flags, 'chunk_flags', 'flag');
    unique(p.control_messages, 'control_messages', 'control message');
    unique(p.connless.messages, 'connless', 'connless message');
    const ids = new Set<number>();
    p.control_messages.forEach((m, i) => {
      if (ids.has(m.id)) problem(['control_messages', i, 'id'], `control message id ${m.id} is used twice`);
      ids.add(m.id);
    });
    const checkFields = (fields: PacketPayloadField[], path: (string | number)[]) => {
      let optional = false;
      fields.forEach((x, i) => {
        if ((x.type === 'padding' || x.type === 'list_rest') && i !== fields.length - 1) problem([...path, i], `a ${x.type} field must be the last one`);
        if (optional && !x.optional) problem([...path, i], 'fields after an optional field must be optional too');
        if (camel(x.name) === 'kind') problem([...path, i, 'name'], 'field name kind is reserved (the message kind)');
        optional ||= x.optional === true;
        if (x.fields) checkFields(x.fields, [...path, i, 'fields']);
      });
    };
    p.control_messages.forEach((m, i) => checkFields(m.fields, ['control_messages', i, 'fields']));
    p.connless.messages.forEach((m, i) => {
      checkFields(m.fields, ['connless', 'messages', i, 'fields']);
      if (!/^[\x21-\x7e]+$/.test(m.magic)) problem(['connless', 'messages', i, 'magic'], 'a magic is printable ASCII');
    });
    out.push(p);
  }
  if (problems.length) throw new SchemaError(problems);
  return out;
}

/** The network Huffman code (schemas/net/huffman.yaml): its frequency table, checked to hold one per symbol. */
export function loadHuffmanSchema(schemasDir: string, displayRoot = schemasDir): HuffmanSchema {
  const files = parseFamily(schemasDir, 'net', displayRoot).filter((f) => 'huffman' in f.data);
  const f = files[0];
  if (!f || files.length > 1) throw new SchemaError([{ file: f?.file ?? 'schemas/net', line: 1, col: 1, message: `schemas/net holds ${files.length} Huffman codes; the network layer has one` }]);
  const d = f.data as { huffman: string; description: string; checked?: string[]; eof_symbol: number; frequencies: number[] };
  if (d.frequencies.length !== d.eof_symbol + 1) throw new SchemaError([{ file: f.file, ...positionOf(f, ['frequencies']), message: `frequencies: ${d.frequencies.length} of them, one per symbol 0..${d.eof_symbol} is ${d.eof_symbol + 1}` }]);
  return { file: f.file, name: d.huffman, description: d.description, checked: d.checked ?? [], eofSymbol: d.eof_symbol, frequencies: d.frequencies };
}

/** What a protocol's part of the network page fills (each is `<protocol>:<name>` in the template). */
const PROTOCOL_PLACEHOLDERS = [
  'description', 'file', 'header_size', 'header_table', 'packet_flags_table', 'chunk_header_size', 'chunk_header_vital_size',
  'chunk_header_table', 'chunk_flags_table', 'control_table', 'connless_description', 'connless_headers_table',
  'connless_magic_prefix', 'connless_messages_table', 'connless_messages', 'connection_limits_table', 'checked',
  'sequence_modulo', 'token_none', 'token_description', 'token_request_size', 'security_token_size', 'security_token_description',
] as const;
const HUFFMAN_PLACEHOLDERS = ['description', 'file', 'checked', 'eof_symbol', 'last_byte', 'eof_listed_frequency', 'const_name', 'table'] as const;

/** The placeholders the network page's template may use, for these protocols. */
export function networkPlaceholders(protocols: readonly PacketProtocolSchema[]): string[] {
  return [...protocols.flatMap((p) => PROTOCOL_PLACEHOLDERS.map((n) => `${p.packet_protocol}:${n}`)), ...HUFFMAN_PLACEHOLDERS.map((n) => `huffman:${n}`)];
}

/** docs/formats/network.md's inputs: both protocols, the Huffman code and the template schemas/net/network.md. */
export interface NetworkPage {
  protocols: PacketProtocolSchema[];
  huffman: HuffmanSchema;
  template: PageTemplate;
}

/** Loads the network page's template (schemas/net/network.md), its placeholders checked with file:line:col. */
export function loadNetworkPage(schemasDir: string, displayRoot: string, protocols: PacketProtocolSchema[], huffman: HuffmanSchema): NetworkPage {
  const file = relative(displayRoot, join(schemasDir, 'net', 'network.md')).split('\\').join('/');
  return { protocols, huffman, template: loadPageTemplate(displayRoot, file, networkPlaceholders(protocols)) };
}
