// Emits what the explorer shows of the schemas (packages/explorer/src/generated/schemas.gen.ts): map item field
// lists with each field's width in ints and its property in the decoded item (which fields an item has, the
// map package's generated decoder says), and the descriptions of snapshot objects, teehistorian messages and the
// parts of packets (headers, flags, control and connectionless messages). The explorer takes them from here
// instead of reading the YAML a second time.
import { createProject, exportedConst, GENERATED_HEADER, type GeneratedFile, generatedText, Imports } from '../shared/emit.js';
import { fieldInts, type FieldDef, type FieldEntry, flatFields, type SchemaSet } from '../map/model.js';
import { camel } from '../shared/names.js';
import { type SnapshotProtocolDef } from '../snapshot/model.js';
import { type TeehistorianSchema } from '../teehistorian/model.js';
import type { PacketBitField, PacketFlag, PacketPayloadField, PacketProtocolSchema } from '../net/model.js';

/**
 * A field as the explorer lists it: which ints it takes comes from the map package's generated decoder (a field
 * the decoder leaves undefined is not in the item), so the explorer does not interpret since_version / if_room.
 */
type ExplorerField = { name: string; key: string; type: string; ints: number; description: string };

const fields = (list: FieldEntry[]): ExplorerField[] =>
  flatFields(list).map((f: FieldDef) => ({ name: f.name, key: camel(f.name), type: f.type, ints: fieldInts(f), description: f.description }));

const describedBy = (list: readonly (PacketBitField | PacketFlag | PacketPayloadField)[]) => Object.fromEntries(list.map((f) => [f.name, f.description]));
const messageDocs = (list: readonly { name: string; description: string; fields?: PacketPayloadField[] }[]) =>
  Object.fromEntries(list.map((m) => [m.name, { description: m.description, fields: describedBy(m.fields ?? []) }]));

/** What the explorer says of a packet protocol's parts (the explorer's PacketDocs), from schemas/net. */
function packetDocs(p: PacketProtocolSchema) {
  return {
    description: p.description,
    header: describedBy(p.header.fields),
    packetFlags: describedBy(p.packet_flags),
    chunkHeader: describedBy([...p.chunk_header.fields, ...p.chunk_header.vital_fields]),
    chunkFlags: describedBy(p.chunk_flags),
    ...(p.security_token ? { securityToken: p.security_token.description } : {}),
    control: messageDocs(p.control_messages),
    connlessDescription: p.connless.description,
    connlessHeaders: Object.fromEntries(p.connless.headers.map((h) => [h.name, { description: h.description, fields: describedBy(h.fields ?? []) }])),
    connless: messageDocs(p.connless.messages),
  };
}

/** The explorer's schema data, for packages/explorer/src/generated/. */
export function emitExplorerTs(map: SchemaSet, teehistorian: TeehistorianSchema, snapshot: SnapshotProtocolDef[], packet: PacketProtocolSchema[] = []): GeneratedFile {
  const items = map.items.map((item) => ({
    name: item.name,
    ...(item.typeId !== undefined ? { typeId: item.typeId } : {}),
    ...(item.uuidName !== undefined ? { uuidName: item.uuidName } : {}),
    description: item.description,
    source: item.file,
    fields: fields(item.fields),
    ...(item.variants
      ? { variants: { on: item.variants.on, cases: item.variants.cases.map((c) => ({ name: c.name, value: c.value, description: c.description, fields: fields(c.fields) })) } }
      : {}),
  }));
  const messageDocs: Record<string, string> = {};
  const teehistorianFields: Record<string, Record<string, string>> = {};
  for (const m of [...teehistorian.messages, ...teehistorian.extensions]) {
    messageDocs[m.name] = m.description;
    teehistorianFields[m.name] = Object.fromEntries(m.fields.filter((f) => f.description).map((f) => [f.name, f.description]));
  }
  const objects: Record<string, Record<string, { description: string; fields: Record<string, string> }>> = {};
  for (const p of snapshot) {
    objects[p.protocol] = Object.fromEntries(
      [...p.items, ...p.uuidItems].map((l) => [l.name, { description: l.description, fields: Object.fromEntries(l.fields.filter((f) => f.description).map((f) => [f.name, f.description!])) }]),
    );
  }
  const packets = Object.fromEntries(packet.map((p) => [p.packet_protocol, packetDocs(p)]));
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const imports = new Imports();
  const statements = [
    exportedConst('MAP_ITEM_SCHEMAS', `readonly ${imports.type('../layout.js', 'ItemSchema')}[]`, 'Every map item type: its fields in order with their widths in ints and their property names in the decoded item.', json(items)),
    exportedConst('TEEHISTORIAN_MESSAGE_DOCS', 'Readonly<Record<string, string>>', 'Teehistorian message and extension names and their descriptions.', json(messageDocs)),
    exportedConst('STREAM_DOCS', imports.type('../streams.js', 'StreamDocs'), 'Descriptions of snapshot objects (by protocol), teehistorian message fields and the parts of packets (by packet protocol).', json({ snapshot: objects, teehistorianFields, packet: packets })),
  ];
  const file = createProject().createSourceFile(
    'schemas.gen.ts',
    { statements: [GENERATED_HEADER('schemas/map/items/*.yaml, schemas/teehistorian/*.yaml, schemas/snapshot/*.yaml, schemas/net/*.yaml'), ...imports.declarations(), ...statements] },
    { overwrite: true },
  );
  return { path: 'schemas.gen.ts', text: generatedText(file) };
}
