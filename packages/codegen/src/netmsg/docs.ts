// docs/formats/net-messages.md: the message tables of each protocol set into the page's template
// (schemas/netmsg/net-messages.md), which holds all of the page's prose.
import { cell, renderPage, type PageFill, type PageTemplate } from '../shared/pages.js';
import { enumsConst, ownSets } from './emit.js';
import type { NetFieldSchema, NetMessageSchema, NetProtocolSchema } from './load.js';


/** The placeholders of one protocol, `<protocol>:<what>`. */
const PROTOCOL_PLACEHOLDERS = ['net_version', 'description', 'checked', 'system_messages', 'system_uuid_messages', 'game_messages', 'game_uuid_messages', 'enums', 'enums_const', 'uuid_messages', 'uuid_messages_from'] as const;

/** Every placeholder the template may use for these protocols. */
export const netDocsPlaceholders = (protocols: readonly NetProtocolSchema[]) => protocols.flatMap((p) => PROTOCOL_PLACEHOLDERS.map((what) => `${p.protocol}:${what}`));

const TYPE_TEXT: Record<NetFieldSchema['type'], string> = {
  int: 'int',
  bool: 'bool (int 0 or 1)',
  tick: 'tick (int)',
  string: 'string',
  uuid: 'UUID (16 bytes)',
  raw: 'bytes',
  raw_rest: 'bytes to the end',
  int_array: 'ints',
  string_array: 'strings',
  int_rest: 'ints to the end',
  string_rest: 'strings to the end',
};

function fieldType(f: NetFieldSchema): string {
  let text = TYPE_TEXT[f.type];
  if (f.size !== undefined) text = `${f.size} bytes`;
  if (f.count !== undefined) text = `${f.count} ${f.type === 'int_array' ? 'ints' : 'strings'}`;
  if (f.size_field) {
    const items = f.type === 'raw' ? 'bytes' : f.type === 'string_array' ? 'strings' : 'ints';
    text = f.count_table ? `ints (count by \`${f.size_field}\`: ${f.count_table.join(', ')})` : `${items} (\`${f.size_field}\`${f.count_divisor ? ` / ${f.count_divisor}` : ''} of them)`;
  }
  if (f.values) text += ` (${f.values.kind} [\`${f.values.name}\`](#${f.values.protocol.replace(/\./g, '')}-enums))`;
  return text;
}

/** Range, mask, sanitising, counts: what DDNet checks of the field, and what senders write. */
function fieldRange(f: NetFieldSchema): string {
  const parts: string[] = [];
  if (f.min !== undefined || f.max !== undefined) parts.push(`${f.min ?? '…'}..${f.max ?? '…'}`);
  if (f.mask !== undefined) parts.push(`mask ${f.mask}`);
  if (f.sanitize && f.sanitize !== 'none') parts.push(`\`${f.sanitize}\``);
  if (f.counts) parts.push(`counts ${f.counts.join(', ')}`);
  if (f.nonempty) parts.push('nonempty');
  if (f.optional) parts.push(f.since ? `optional (DDNet ${f.since})` : 'optional');
  return parts.length ? parts.join('; ') : '-';
}

function messageLines(m: NetMessageSchema): string[] {
  const firstInt = m.uuid ? (m.system ? 1 : 0) : (m.id << 1) | (m.system ? 1 : 0);
  const facts = [
    m.uuid ? `UUID name \`${m.uuidName}\` (\`${m.uuid}\`)` : `id ${m.id}`,
    `first int ${firstInt}`,
    `direction: **${m.direction}**`,
    ...(m.since ? [`since DDNet ${m.since}`] : []),
    ...(m.recorded === false ? ['recorded: no'] : []),
  ];
  const lines = [`#### ${m.name}`, '', `${m.description} (${facts.join('; ')})`, ''];
  if (m.checked) lines.push(`Checked: ${m.checked.join('; ')}.`, '');
  if (!m.fields.length) return [...lines, '*(no fields)*', ''];
  return [...lines, '| field | type | range | description |', '| --- | --- | --- | --- |', ...m.fields.map((f) => `| \`${f.name}\` | ${cell(fieldType(f))} | ${cell(fieldRange(f))} | ${cell(f.description)} |`), ''];
}

const SECTIONS = {
  system_messages: (m: NetMessageSchema) => m.system && !m.uuid,
  system_uuid_messages: (m: NetMessageSchema) => m.system && !!m.uuid,
  game_messages: (m: NetMessageSchema) => !m.system && !m.uuid,
  game_uuid_messages: (m: NetMessageSchema) => !m.system && !!m.uuid,
} as const;

function protocolFill(p: NetProtocolSchema): Record<string, PageFill> {
  const fill: Record<string, PageFill> = {
    net_version: `\`${p.netVersion}\``,
    description: cell(p.description),
    checked: p.checked.length ? p.checked.map((c) => `- ${c}`) : '-',
    enums_const: `\`${enumsConst(p)}\``,
    uuid_messages_from: p.uuidMessagesFrom ?? '-',
  };
  for (const [name, keep] of Object.entries(SECTIONS)) {
    const list = p.messages.filter((m) => !m.from && keep(m));
    fill[name] = list.length ? list.flatMap(messageLines) : '*(none)*';
  }
  const sets = ownSets(p);
  fill.enums = sets.length ? ['| set | kind | values |', '| --- | --- | --- |', ...sets.map((set) => `| \`${set.name}\`${set.ddnet ? ` (\`${set.ddnet}_*\`)` : ''} | ${set.kind} | ${cell(set.values.map((v) => `${v.value} ${v.name}`).join(', '))} |`)] : '*(none)*';
  const taken = p.messages.filter((m) => m.from);
  fill.uuid_messages = taken.length ? taken.map((m) => (m.name === m.from!.name ? `\`${m.name}\`` : `\`${m.name}\` (${m.from!.name})`)).join(', ') : '*(none)*';
  return Object.fromEntries(Object.entries(fill).map(([k, v]) => [`${p.protocol}:${k}`, v]));
}

/** docs/formats/net-messages.md: every message of every protocol, set into the template. */
export function emitNetDocs(protocols: NetProtocolSchema[], template: PageTemplate): string {
  return renderPage(template, protocols.map((p) => p.file).join(', '), Object.assign({}, ...protocols.map(protocolFill)) as Record<string, PageFill>);
}
