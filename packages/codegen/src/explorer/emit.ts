// Emits what the explorer shows of the schemas (packages/explorer/src/generated/schemas.gen.ts): map item field
// lists with each field's width in ints and its property in the decoded item (which fields an item has, the
// map package's generated decoder says), and the descriptions of snapshot objects and
// teehistorian messages. The explorer takes them from here instead of reading the YAML a second time.
import { createProject, exportedConst, GENERATED_HEADER, type GeneratedFile, generatedText } from '../shared/emit.js';
import { fieldInts, type FieldDef, type FieldEntry, flatFields, type SchemaSet } from '../map/model.js';
import { camel } from '../shared/names.js';
import { type SnapshotProtocolDef } from '../snapshot/model.js';
import { type TeehistorianSchema } from '../teehistorian/model.js';

/**
 * A field as the explorer lists it: which ints it takes comes from the map package's generated decoder (a field
 * the decoder leaves undefined is not in the item), so the explorer does not interpret since_version / if_room.
 */
type ExplorerField = { name: string; key: string; type: string; ints: number; description: string };

const fields = (list: FieldEntry[]): ExplorerField[] =>
  flatFields(list).map((f: FieldDef) => ({ name: f.name, key: camel(f.name), type: f.type, ints: fieldInts(f), description: f.description }));

/** The explorer's schema data, for packages/explorer/src/generated/. */
export function emitExplorerTs(map: SchemaSet, teehistorian: TeehistorianSchema, snapshot: SnapshotProtocolDef[]): GeneratedFile {
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
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const project = createProject();
  const file = project.createSourceFile(
    'schemas.gen.ts',
    {
      statements: [
        GENERATED_HEADER('schemas/map/items/*.yaml, schemas/teehistorian/*.yaml, schemas/snapshot/*.yaml'),
        "import type { ItemSchema } from '../layout.js';",
        "import type { StreamDocs } from '../streams.js';",
        exportedConst('MAP_ITEM_SCHEMAS', 'readonly ItemSchema[]', 'Every map item type: its fields in order with their widths in ints and their property names in the decoded item.', json(items)),
        exportedConst('TEEHISTORIAN_MESSAGE_DOCS', 'Readonly<Record<string, string>>', 'Teehistorian message and extension names and their descriptions.', json(messageDocs)),
        exportedConst('STREAM_DOCS', 'StreamDocs', 'Descriptions of snapshot objects (by protocol) and teehistorian message fields.', json({ snapshot: objects, teehistorianFields })),
      ],
    },
    { overwrite: true },
  );
  return { path: 'schemas.gen.ts', text: generatedText(file) };
}
