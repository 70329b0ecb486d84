// docs/formats/datafile.md: the header, the tables after it, the item type entry and item header, the versions
// and the constants, set into the page's template (schemas/datafile/datafile.md).
import { checkedCell, checkedList, constantsTable, constName, fieldTable, magicTable } from '../shared/containers.js';
import { cell, tableHead } from '../shared/pages.js';
import { renderPage } from '../shared/pages.js';
import { DATAFILE_PLACEHOLDERS, type DatafileSchema, type DatafileTable } from './load.js';

const yes = (b: boolean) => (b ? 'yes' : 'no');

/** A table's size column: its count times its entry size, or the header field that gives its bytes. */
function tableSize(t: DatafileTable): string {
  if (t.size !== undefined) return `\`${t.size}\``;
  return `${t.entryBytes ?? '?'} × \`${t.count}\``;
}

export function emitDatafileDocs(d: DatafileSchema): string {
  const errors = (list: readonly string[]) => list.map((e) => `\`${e}\``).join(', ');
  const fill: Record<(typeof DATAFILE_PLACEHOLDERS)[number], string | string[]> = {
    description: cell(d.description),
    checked: checkedList(d.checked),
    magic_table: magicTable(d.magic),
    versions_table: [
      ...tableHead(['version', 'data', 'data_sizes', 'meaning', 'checked']),
      ...d.versions.map((v) => `| ${v.version} | ${v.compressed ? 'zlib' : 'raw'} | ${yes(v.dataSizes)} | ${cell(v.description)} | ${checkedCell(v.checked)} |`),
    ],
    header_size: `${d.headerSize}`,
    header_table: fieldTable(d.header, { byteOrder: d.byteOrder }),
    layout_table: [
      ...tableHead(['part', 'bytes', 'entry', 'versions', 'unit', 'range', 'meaning', 'error', 'checked']),
      `| header | ${d.headerSize} | | all | | | [Header](#header) | | |`,
      ...d.tables.map((t) => `| \`${t.name}\` | ${tableSize(t)} | ${t.entry} | ${t.versions ? t.versions.join(', ') : 'all'} | ${cell(t.unit ?? '')} | ${cell(t.range ?? '')} | ${cell(t.description)} | ${errors(t.errors)} | ${checkedCell(t.checked)} |`),
    ],
    item_type_table: fieldTable(d.itemType, { relative: true, byteOrder: d.byteOrder }),
    item_type_size: `${d.itemType.reduce((s, f) => s + f.bytes * f.count, 0)}`,
    item_header_table: fieldTable(d.itemHeader, { relative: true, byteOrder: d.byteOrder }),
    item_header_size: `${d.itemHeader.reduce((s, f) => s + f.bytes * f.count, 0)}`,
    constants_table: constantsTable(d.constants, (c) => constName('DATAFILE', c.name)),
  };
  return renderPage(d.template, d.file, fill);
}
