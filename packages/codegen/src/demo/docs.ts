// docs/formats/demo.md: the header, its extensions, the chunk header's bits, the chunk types, the versions and
// the constants, set into the page's template (schemas/demo/demo.md).
import { checkedCell, checkedList, constantsTable, constName, fieldTable, magicTable } from '../shared/containers.js';
import { cell, tableHead } from '../shared/pages.js';
import { renderPage } from '../shared/pages.js';
import { DEMO_PLACEHOLDERS, DEMO_VERSION_FLAGS, type DemoSchema } from './load.js';

const yes = (b: boolean) => (b ? 'yes' : 'no');
const bitsCell = (lo: number, hi: number) => (lo === hi ? `${lo}` : `${hi}-${lo}`);
const maskCell = (mask: number) => `\`0x${mask.toString(16).padStart(2, '0')}\``;

export function emitDemoDocs(d: DemoSchema): string {
  const errors = (list: readonly string[]) => list.map((e) => `\`${e}\``).join(', ');
  const allVersions = d.versions.map((v) => v.version);
  const fill: Record<(typeof DEMO_PLACEHOLDERS)[number], string | string[]> = {
    description: cell(d.description),
    checked: checkedList(d.checked),
    magic_table: magicTable(d.magic),
    versions_table: [
      ...tableHead(['version', ...DEMO_VERSION_FLAGS.map((f) => `\`${f}\``), 'meaning', 'checked']),
      ...d.versions.map((v) => `| ${v.version} | ${DEMO_VERSION_FLAGS.map((f) => yes(v.flags[f])).join(' | ')} | ${cell(v.description)} | ${checkedCell(v.checked)} |`),
    ],
    header_size: `${d.headerSize}`,
    header_table: fieldTable(d.header, { byteOrder: d.byteOrder }),
    extensions: d.extensions.flatMap((e, i) => [
      ...(i ? [''] : []),
      `### \`${e.name}\``,
      '',
      `In versions ${allVersions.filter((v) => v >= e.from).join(', ')}: ${e.size} bytes.`,
      '',
      cell(e.description),
      '',
      ...fieldTable(e.fields, { relative: true, byteOrder: d.byteOrder }),
    ]),
    chunk_bits_table: [
      ...tableHead(['field', 'chunk', 'bits', 'mask', 'versions', 'meaning', 'error', 'checked']),
      ...d.chunkBits.map((b) => `| \`${b.name}\` | ${b.chunk.replace('_', ' ')} | ${bitsCell(b.lo, b.hi)} | ${maskCell(b.mask)} | ${(b.versions ?? allVersions).join(', ')} | ${cell(b.description)} | ${errors(b.errors)} | ${checkedCell(b.checked)} |`),
    ],
    chunk_types_table: [
      ...tableHead(['value', 'type', 'payload', 'checked']),
      ...d.chunkTypes.map((t) => `| ${t.value} | \`${t.name}\` | ${cell(t.description)} ([${t.link}](${t.link})) | ${checkedCell(t.checked)} |`),
    ],
    constants_table: constantsTable(d.constants, (c) => constName('DEMO', c.name)),
  };
  return renderPage(d.template, d.file, fill);
}
