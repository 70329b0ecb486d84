// docs/formats/teehistorian.md: the header keys, message and extension tables and the player input's ints, set
// into the page's template (schemas/teehistorian/teehistorian.md), which holds all of the page's prose.
import { dirname, join } from 'node:path';
import { cell, loadPageTemplate, renderPage, type PageTemplate } from '../shared/pages.js';
import type { SnapshotLayoutDef } from '../snapshot/model.js';
import type { TeehistorianSchema, ThFieldDef } from './model.js';

/** The placeholders the template may use. */
export const TEEHISTORIAN_DOCS_PLACEHOLDERS = ['file_uuid_name', 'file_uuid', 'checked', 'header_keys', 'core_messages', 'extensions', 'player_input', 'player_input_link', 'max_clients', 'max_clients_128', 'max_clients_128_since'] as const;

/** The template: teehistorian.md beside the core messages' schema. */
export const loadTeehistorianDocsTemplate = (displayRoot: string, schema: TeehistorianSchema): PageTemplate =>
  loadPageTemplate(displayRoot, join(dirname(schema.coreFile || 'schemas/teehistorian/core.yaml'), 'teehistorian.md'), TEEHISTORIAN_DOCS_PLACEHOLDERS);

/** A table's header row and rule. */
const header = (columns: string[]) => [`| ${columns.join(' | ')} |`, `|${columns.map(() => ' --- |').join('')}`];


const FIELD_TEXT: Record<string, string> = {
  int: 'int',
  string: 'string (NUL-terminated)',
  raw: 'int length, then bytes',
  raw_rest: 'bytes (rest of the payload)',
  uuid: 'UUID (16 bytes)',
  string_array: 'int count, then strings',
};

const fieldList = (fields: ThFieldDef[]) => (fields.length ? fields.map((f) => `\`${f.name}\`: ${f.type === 'int_array' ? `${f.count} ints` : FIELD_TEXT[f.type]}`).join(', ') : '(none)');

/** The snapshot object whose ints INPUT_NEW and INPUT_DIFF carry, and the protocol whose schema has it. */
export interface PlayerInputLayout {
  protocol: string;
  layout: SnapshotLayoutDef;
}

/** docs/formats/teehistorian.md. `playerInput`: the snapshot schema's player_input, when there is one. */
export function emitTeehistorianDocs(schema: TeehistorianSchema, template: PageTemplate, playerInput?: PlayerInputLayout, source = 'schemas/teehistorian/*.yaml'): string {
  const constant = (name: string) => `${schema.constants.find((c) => c.name === name)?.value ?? '-'}`;
  const anchor = playerInput ? `snapshot.md#${playerInput.protocol.replace(/\./g, '')}-${playerInput.layout.name}` : 'snapshot.md';
  return renderPage(template, source, {
    file_uuid_name: `\`${schema.fileUuidName}\``,
    file_uuid: `\`${schema.fileUuid}\``,
    max_clients: constant('max_clients'),
    max_clients_128: constant('max_clients_128'),
    max_clients_128_since: constant('max_clients_128_since'),
    checked: schema.checked.length ? schema.checked.map((c) => `- ${c}`) : '-',
    header_keys: [...header(['key', 'type', 'since DDNet', 'example', 'meaning']), ...schema.headerKeys.map((k) => `| \`${k.key}\` | ${cell(k.type)} | ${k.since} | \`${cell(k.example)}\` | ${cell(k.description)} |`)],
    core_messages: [...header(['id', 'message', 'fields', 'description']), ...schema.messages.map((m) => `| ${m.id === 0 ? '>= 0' : -m.id} | ${m.name} | ${fieldList(m.fields)} | ${cell(m.description)} |`)],
    extensions: [...header(['name', 'UUID name', 'UUID', 'since DDNet', 'payload', 'description']), ...schema.extensions.map((e) => `| ${e.name} | \`${e.uuidName}\` | \`${e.uuid}\` | ${e.since} | ${fieldList(e.fields)} | ${cell(e.description)} |`)],
    player_input_link: `[\`${playerInput?.layout.name ?? 'player_input'}\`](${anchor})`,
    player_input: playerInput
      ? [...header(['int', 'field', 'type', 'meaning']), ...playerInput.layout.fields.map((f) => `| ${f.offset} | \`${f.name}\` | ${f.type} | ${cell((f as { description?: string }).description ?? '-') || '-'} |`)]
      : '-',
  });
}
