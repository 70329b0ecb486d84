// Emits packages/datafile/src/generated/datafile.gen.ts: the container's magic values, versions, header size and
// field offsets, entry sizes and shared constants, so that @twcodec/datafile's reader and writer hold no layout
// fact of their own.
import { constDoc, constName, fieldsSize, numberLiteral, offsetsInitializer, stringLiteral } from '../shared/containers.js';
import { createProject, exportedConst, GENERATED_HEADER, type GeneratedFile, generatedText } from '../shared/emit.js';
import { camel } from '../shared/names.js';
import type { DatafileSchema } from './load.js';

const PREFIX = 'DATAFILE';

export function emitDatafileTs(d: DatafileSchema): GeneratedFile {
  const doc = (description: string, checked: readonly string[]) => constDoc(description, checked, d.file);
  const magicField = d.header.find((h) => h.type === 'magic')!;
  const versionsChecked = d.versions.flatMap((v) => v.checked);
  const statements = [
    exportedConst(`${PREFIX}_MAGIC`, undefined, doc(`The values of the header's \`${magicField.name}\`: ${d.magic.map((m) => `${m.value}: ${m.description}`).join(' ')}`, d.magic.flatMap((m) => m.checked)), `[${d.magic.map((m) => stringLiteral(m.value)).join(', ')}] as const`),
    exportedConst(`${PREFIX}_VERSIONS`, undefined, doc(d.versions.map((v) => `${v.version}: ${v.description}`).join(' '), versionsChecked), `[${d.versions.map((v) => v.version).join(', ')}] as const`),
    ...(d.compressedFrom !== undefined ? [exportedConst(`${PREFIX}_COMPRESSED_FROM`, undefined, doc('First version with zlib data items.', versionsChecked), `${d.compressedFrom}`)] : []),
    ...(d.dataSizesFrom !== undefined ? [exportedConst(`${PREFIX}_DATA_SIZES_FROM`, undefined, doc('First version with data_sizes.', versionsChecked), `${d.dataSizesFrom}`)] : []),
    exportedConst(`${PREFIX}_HEADER_SIZE`, undefined, doc(`The header's bytes: ${d.header.map((h) => h.name).join(', ')}.`, d.header.flatMap((h) => h.checked).slice(0, 1)), `${d.headerSize}`),
    exportedConst(`${PREFIX}_HEADER`, undefined, doc('Byte offsets of the header fields.', d.header.flatMap((h) => h.checked).slice(0, 1)), offsetsInitializer(d.header, camel)),
    exportedConst(`${PREFIX}_ITEM_TYPE_SIZE`, undefined, doc(`Bytes of an item_types entry: ${d.itemType.map((h) => h.name).join(', ')}.`, d.itemType[0]!.checked), `${fieldsSize(d.itemType)}`),
    exportedConst(`${PREFIX}_ITEM_HEADER_SIZE`, undefined, doc(`Bytes of an item's header: ${d.itemHeader.map((h) => h.name).join(', ')}.`, d.itemHeader[0]!.checked), `${fieldsSize(d.itemHeader)}`),
    ...d.constants.map((c) => exportedConst(constName(PREFIX, c.name), undefined, doc(c.description, c.checked), typeof c.value === 'number' ? numberLiteral(c.value) : stringLiteral(c.value))),
  ];
  const file = createProject().createSourceFile('datafile.gen.ts', { statements: [GENERATED_HEADER(d.file), ...statements] }, { overwrite: true });
  // ts-morph indents a multi-line initializer one level too deep; the formatter puts it back.
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });
  return { path: 'datafile.gen.ts', text: generatedText(file) };
}
