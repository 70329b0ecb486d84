// Emits the map format reference (Markdown) from the same schema model as the code.
import { cell, type PageTemplate, renderPage } from '../shared/pages.js';
import type { MAP_PAGE_PLACEHOLDERS } from './load.js';
import { type EnumDef, type FieldDef, type FieldEntry, fieldInts, flatFields, type ItemDef, type KindsDef, type KnownVersion, type RecordDef, type SchemaSet, type TileDef, tileFieldBytes, type VersionRange } from './model.js';

const TYPE_NAMES: Record<string, string> = {
  i32: 'i32',
  bool: 'bool (i32)',
  u8: 'u8 (i32)',
  point: 'Point',
  color: 'Color',
  i32color: 'I32Color',
  version: 'i32 (version)',
};

function typeText(field: FieldDef): string {
  switch (field.type) {
    case 'i32string':
      return `I32String[${field.ints}]`;
    case 'i32array':
      return `i32[${field.ints}]`;
    case 'enum':
      return `enum [${field.enum}](#${field.enum})`;
    case 'flags':
      return `flags [${field.flags}](#${field.flags})`;
    case 'data_ref': {
      const [kind, target] = field.data!.split(':');
      const what = kind === 'records' ? `[${target}](#record-${target})[]` : kind === 'tiles' ? `[${target}](#tile-${target}) tiles` : field.data!;
      return `${field.optional ? 'opt ' : ''}&${what}`;
    }
    case 'item_ref':
      return `${field.optional ? 'opt ' : ''}*${field.ref}`;
    default:
      return TYPE_NAMES[field.type] ?? field.type;
  }
}


function fieldRows(entries: FieldEntry[], start: number): { rows: string[]; end: number } {
  const rows: string[] = [];
  let at = start;
  // Fields after a since_version group sit that many ints earlier in items older than the group's version
  // (DDNet reads a version-2 tilemap's data indices from int 15, not 18).
  const shifts: { version: number; ints: number }[] = [];
  for (const entry of entries) {
    const fields = entry.kind === 'field' ? [entry.field] : entry.fields;
    const when = entry.kind === 'since_version' ? `version >= ${entry.version}` : entry.kind === 'if_room' ? 'if room' : '';
    for (const field of fields) {
      const n = fieldInts(field);
      const span = (from: number) => `${from}${n > 1 ? `-${from + n - 1}` : ''}`;
      // A since_version field is absent from older items; any other sits earlier by the ints of every
      // since_version group an older item lacks.
      const older = entry.kind === 'since_version' ? '' : shifts.map((s) => `; ${span(at - shifts.filter((t) => t.version >= s.version).reduce((sum, t) => sum + t.ints, 0))} if version < ${s.version}`).join('');
      const extra = field.min !== undefined ? ` At least ${field.min}.` : '';
      rows.push(`| ${span(at)}${older} | \`${field.name}\` | ${typeText(field)} | ${field.unit ?? ''} | ${when} | ${cell(field.description)}${extra} |`);
      at += n;
    }
    if (entry.kind === 'since_version') shifts.push({ version: entry.version, ints: entry.fields.reduce((sum, f) => sum + fieldInts(f), 0) });
  }
  return { rows, end: at };
}

const TABLE_HEAD = ['| int | field | type | unit | present | description |', '| --- | --- | --- | --- | --- | --- |'];

function versionsLine(v: VersionRange | undefined): string[] {
  if (!v) return [];
  const range = v.min === v.max ? `${v.min}` : `${v.min} to ${v.max}`;
  return [`Versions read: ${range}; others: ${v.outside === 'refused' ? 'map refused' : 'item ignored'}.${v.description ? ` ${v.description}` : ''}`, ''];
}

function knownVersionsList(known: KnownVersion[] | undefined): string[] {
  if (!known) return [];
  return ['Named versions:', '', ...known.map((v) => `- ${v.value} \`${v.name}\`: ${v.description}`), ''];
}

function kindsTable(kinds: KindsDef | undefined, fields: FieldDef[]): string[] {
  if (!kinds) return [];
  const tileOf = (name: string) => fields.find((f) => f.name === name)?.data?.split(':')[1] ?? '?';
  const row = (name: string, flag: string, tiles: string) => `| \`${name}\` | ${flag} | \`${tiles}\` | [${tileOf(tiles)}](#tile-${tileOf(tiles)}) |`;
  return [
    `Kinds, by flag in \`${kinds.on}\`:`,
    '',
    '| kind | flag | tiles in | tile type |',
    '| --- | --- | --- | --- |',
    row(kinds.none.name, 'none', kinds.none.tiles),
    ...kinds.flags.map((k) => row(k.flag, `\`${k.flag}\``, k.tiles)),
    '',
  ];
}

function itemSection(item: ItemDef): string[] {
  const out = [`### ${item.name}`, ''];
  out.push(item.typeId !== undefined ? `type_id **${item.typeId}**` : `UUID type \`${item.uuidName}\` = \`${item.uuid}\``);
  const tags = [item.oneItem && 'one item per map', item.ddnetOnly && 'DDNet only'].filter(Boolean);
  if (tags.length) out[out.length - 1] += ` (${tags.join(', ')})`;
  out.push('', item.description, '', ...checkedLine(item.checked));
  for (const note of item.notes) out.push(`> ${note}`, '');
  out.push(...versionsLine(item.versions), ...knownVersionsList(item.knownVersions));
  if (item.array) {
    out.push(`Records: ${item.array.records.map((r) => `[${r}](#record-${r})`).join(' or ')}. ${item.array.description}`, '');
    return out;
  }
  const base = fieldRows(item.fields, 0);
  out.push(...TABLE_HEAD, ...base.rows, '');
  if (item.variants) {
    for (const c of item.variants.cases) {
      out.push(`#### ${item.name}: ${c.name} (\`${item.variants.on}\` = ${c.value})`, '', c.description, '');
      for (const note of c.notes) out.push(`> ${note}`, '');
      out.push(...versionsLine(c.versions), ...knownVersionsList(c.knownVersions));
      out.push(...TABLE_HEAD, ...fieldRows(c.fields, base.end).rows, '');
      out.push(...kindsTable(c.kinds, [...flatFields(item.fields), ...flatFields(c.fields)]));
    }
  }
  return out;
}

const checkedLine = (checked: string[]): string[] => (checked.length ? [`Checked: ${checked.join('; ')}.`, ''] : []);

function recordSection(record: RecordDef): string[] {
  const out = [`### record: ${record.name}`, '', `<a id="record-${record.name}"></a>${record.description}`, '', `Size: ${record.ints} i32 (${record.ints * 4} bytes).`, '', ...checkedLine(record.checked)];
  for (const note of record.notes) out.push(`> ${note}`, '');
  out.push(...TABLE_HEAD, ...fieldRows(record.fields.map((field) => ({ kind: 'field', field })), 0).rows, '');
  return out;
}

function tileSection(tile: TileDef): string[] {
  const out = [`### tile: ${tile.name}`, '', `<a id="tile-${tile.name}"></a>${tile.description}`, '', `Size: ${tile.bytes} bytes.`, '', ...checkedLine(tile.checked)];
  for (const note of tile.notes) out.push(`> ${note}`, '');
  out.push('| byte | field | type | description |', '| --- | --- | --- | --- |');
  let at = 0;
  for (const f of tile.fields) {
    const n = tileFieldBytes(f);
    const zero = f.must_be_zero ? ' (must be 0)' : '';
    out.push(`| ${at}${n > 1 ? `-${at + n - 1}` : ''} | \`${f.name}\` | ${f.type}${f.flags ? ` ([${f.flags}](#${f.flags}))` : ''}${zero} | ${cell(f.description)} |`);
    at += n;
  }
  out.push('');
  return out;
}

function enumSection(e: EnumDef): string[] {
  return [
    `### ${e.name}`,
    '',
    `<a id="${e.name}"></a>${e.description}${e.kind === 'flags' ? ' Bit flags.' : ''}`,
    '',
    ...(e.values.some((v) => v.bytes !== undefined)
      ? ['| value | name | bytes | description |', '| --- | --- | --- | --- |', ...e.values.map((v) => `| ${v.value} | \`${v.name}\` | ${v.bytes} | ${cell(v.description)} |`)]
      : [
          '| value | name | description |',
          '| --- | --- | --- |',
          ...e.values.map((v) => `| ${e.kind === 'flags' ? `0x${v.value.toString(16)}` : v.value} | \`${v.name}\` | ${cell(v.description)} |`),
        ]),
    '',
  ];
}

/** docs/formats/map.md: the template schemas/map/map.md with the tables of items, records, tiles and enums. */
export function emitMapDocs(set: SchemaSet, template: PageTemplate, sources = 'schemas/map/**/*.yaml'): string {
  const fill: Record<(typeof MAP_PAGE_PLACEHOLDERS)[number], string[]> = {
    item_types_table: [
      '| type | item | description |',
      '| --- | --- | --- |',
      ...set.items.map((i) => `| ${i.typeId ?? `\`${i.uuidName}\``} | [${i.name}](#${i.name}) | ${cell(i.description)} |`),
    ],
    items: set.items.flatMap(itemSection),
    records: set.records.flatMap(recordSection),
    tiles: set.tiles.flatMap(tileSection),
    enums: set.enums.flatMap(enumSection),
  };
  return renderPage(template, sources, fill);
}
