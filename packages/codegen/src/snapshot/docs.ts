// docs/formats/snapshot.md: the item tables, enums and field layouts of every snapshot protocol, set into the
// page's template (schemas/snapshot/snapshot.md), which holds all of the page's prose.
import { cell, tableHead, type PageTemplate, renderPage } from '../shared/pages.js';
import { type SnapshotLayoutDef, type SnapshotProtocolDef } from './model.js';

/** The placeholders schemas/snapshot/snapshot.md may use. */
export const SNAPSHOT_PAGE_PLACEHOLDERS = ['protocol_tables', 'enum_tables', 'field_tables'] as const;

const checkedLine = (checked: string | undefined) => (checked ? [`Checked: ${cell(checked)}`, ''] : []);

/** Per protocol: its description, where it was checked, its numbered types and its UUID-typed items. */
function protocolTables(p: SnapshotProtocolDef): string[] {
  const out = [`### ${p.protocol}`, '', cell(p.description), '', ...checkedLine(p.checked), ...tableHead(['type', 'name', 'size (i32)', 'size in deltas'])];
  for (const item of p.items) {
    const size = item.size === undefined ? 'varies' : `${item.size}`;
    out.push(`| ${item.type_id} | ${item.name} | ${size} | ${item.sizeInDelta ? 'carried' : 'pre-agreed'} |`);
  }
  out.push('');
  if (p.uuidItems.length) {
    out.push(...tableHead(['UUID-typed item', 'UUID name', 'UUID', 'size (i32)', 'description']));
    for (const u of p.uuidItems) out.push(`| ${u.name} | \`${u.uuidName}\` | \`${u.uuid}\` | ${u.size}${u.variableSize ? ' (or fewer)' : ''} | ${cell(u.description)} |`);
    out.push('');
  }
  return out;
}

/** The enums and flag sets of one protocol. */
function enumTables(p: SnapshotProtocolDef): string[] {
  if (!p.enums.length) return [];
  const out = [`### ${p.protocol} enums and flags`, '', ...checkedLine(p.enumsChecked), ...tableHead(['set', 'kind', 'values', 'meaning'])];
  for (const e of p.enums) {
    const values = e.values.map((v) => (e.kind === 'flags' ? `${v.name} (bit ${Math.log2(v.value)})` : `${v.value} ${v.name}`)).join(', ');
    const meaning = `${e.description ?? ''}${e.checked ? ` Checked: ${e.checked}` : ''}`;
    out.push(`| ${e.name}${e.ddnet ? ` (\`${e.ddnet}_*\`)` : ''} | ${e.kind} | ${cell(values)} | ${cell(meaning)} |`);
  }
  out.push('');
  return out;
}

/** The field table of every object and event of one protocol. */
function fieldTables(p: SnapshotProtocolDef): string[] {
  const out: string[] = [];
  const layouts: (SnapshotLayoutDef & { label: string })[] = [
    ...p.items.map((i) => ({ ...i, label: `type ${i.type_id}` })),
    ...p.uuidItems.map((u) => ({ ...u, label: `\`${u.uuidName}\`` })),
  ];
  for (const l of layouts) {
    const since = l.since ? `, since DDNet ${l.since}` : '';
    out.push(`### ${p.protocol} ${l.name}`, '', `${l.event ? 'Event' : 'Object'}, ${l.label}${since}. ${cell(l.description)}`, '', ...checkedLine(l.checked));
    if (!l.fields.length) {
      out.push('No fields.', '');
      continue;
    }
    out.push(...tableHead(['i32', 'field', 'type', 'unit', 'range', 'since (default)', 'description']));
    for (const f of l.fields) {
      const at = f.ints > 1 ? `${f.offset}-${f.offset + f.ints - 1}` : `${f.offset}`;
      const kind = f.type + (f.enum ? ` (${f.enum})` : f.flags ? ` (${f.flags})` : '') + (f.scale ? ` /${f.scale}` : '');
      const range = f.mask !== undefined ? `mask ${f.mask}` : f.min !== undefined || f.max !== undefined ? `${f.min ?? 'min_int'}..${f.max ?? 'max_int'}` : 'any';
      const since = f.since ? `${f.since}${f.default !== undefined ? ` (${f.default})` : ''}` : f.default !== undefined ? `(${f.default})` : '';
      out.push(`| ${at} | ${f.name} | ${kind} | ${cell(f.unit ?? '')} | ${range} | ${cell(since)} | ${cell(f.description ?? '')} |`);
    }
    out.push('');
  }
  return out;
}

/** docs/formats/snapshot.md from the protocols and the page template. */
export function emitSnapshotDocs(protocols: SnapshotProtocolDef[], template: PageTemplate, source = 'schemas/snapshot/*.yaml'): string {
  const fill: Record<(typeof SNAPSHOT_PAGE_PLACEHOLDERS)[number], string[]> = {
    protocol_tables: protocols.flatMap(protocolTables),
    enum_tables: protocols.flatMap(enumTables),
    field_tables: protocols.flatMap(fieldTables),
  };
  return renderPage(template, source, fill);
}
