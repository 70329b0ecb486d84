// Emits packages/demo/src/generated/demo.gen.ts: the demo's marker, versions and the version each feature came
// with, header offsets and sizes, extension sizes, the chunk header's masks and shifts, the chunk types and the
// shared constants, so that @twcodec/demo's reader and writer hold no layout fact of their own.
import { constDoc, constName, numberLiteral, offsetsInitializer, stringLiteral } from '../shared/containers.js';
import { createProject, exportedConst, GENERATED_HEADER, type GeneratedFile, generatedText, namedValues } from '../shared/emit.js';
import { camel } from '../shared/names.js';
import type { DemoSchema } from './load.js';

const PREFIX = 'DEMO';
const hex = (v: number) => `0x${v.toString(16).padStart(2, '0')}`;

export function emitDemoTs(d: DemoSchema): GeneratedFile {
  const doc = (description: string, checked: readonly string[]) => constDoc(description, checked, d.file);
  const marker = d.magic[0]!;
  const versionsChecked = d.versions.flatMap((v) => v.checked);
  const headerChecked = d.header.flatMap((h) => h.checked).slice(0, 1);
  const statements = [
    exportedConst(`${PREFIX}_MARKER`, undefined, doc(marker.description, marker.checked), stringLiteral(marker.value)),
    exportedConst(`${PREFIX}_VERSIONS`, undefined, doc(d.versions.map((v) => `${v.version}: ${v.description}`).join(' '), versionsChecked), `[${d.versions.map((v) => v.version).join(', ')}] as const`),
    ...Object.entries(d.versionFrom).flatMap(([flag, version]) => (version === undefined ? [] : [exportedConst(`${PREFIX}_VERSION_${flag.toUpperCase()}`, undefined, doc(`First version with ${flag}.`, versionsChecked), `${version}`)])),
    exportedConst(`${PREFIX}_HEADER_SIZE`, undefined, doc(`The header's bytes: ${d.header.map((h) => h.name).join(', ')}.`, headerChecked), `${d.headerSize}`),
    exportedConst(`${PREFIX}_HEADER`, undefined, doc('Byte offsets of the header fields.', headerChecked), offsetsInitializer(d.header, camel)),
    exportedConst(`${PREFIX}_HEADER_BYTES`, undefined, doc('Sizes of the header fields.', headerChecked), `{ ${d.header.map((h) => `${camel(h.name)}: ${h.bytes * h.count}`).join(', ')} } as const`),
    ...d.extensions.map((e) => exportedConst(`${PREFIX}_${e.name.toUpperCase()}_SIZE`, undefined, doc(`${e.description} Bytes: ${e.fields.map((f) => f.name).join(', ')}.`, e.fields.flatMap((f) => f.checked).slice(0, 1)), `${e.size}`)),
    ...d.chunkBits.flatMap((b) => [
      exportedConst(`${PREFIX}_${b.name.toUpperCase()}_MASK`, undefined, doc(`Bits ${b.lo === b.hi ? b.lo : `${b.lo}-${b.hi}`} of a ${b.chunk === 'any' ? 'chunk' : b.chunk.replace('_', ' ')}'s first byte${b.versions ? ` (versions ${b.versions.join(', ')})` : ''}: ${b.description}`, b.checked), hex(b.mask)),
      ...(b.lo > 0 && b.hi > b.lo ? [exportedConst(`${PREFIX}_${b.name.toUpperCase()}_SHIFT`, undefined, doc(`The lowest bit of ${b.name}.`, b.checked), `${b.lo}`)] : []),
    ]),
    ...namedValues('DemoChunkType', doc('The values of a data chunk\'s chunk_type.', d.chunkTypes.flatMap((t) => t.checked).slice(0, 1)), d.chunkTypes.map((t) => ({ name: t.name, value: t.value, description: t.description }))),
    ...d.constants.map((c) => exportedConst(constName(PREFIX, c.name), undefined, doc(c.description, c.checked), typeof c.value === 'number' ? numberLiteral(c.value) : stringLiteral(c.value))),
  ];
  const file = createProject().createSourceFile('demo.gen.ts', { statements: [GENERATED_HEADER(d.file), ...statements] }, { overwrite: true });
  // ts-morph indents a multi-line initializer one level too deep; the formatter puts it back.
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });
  return { path: 'demo.gen.ts', text: generatedText(file) };
}
