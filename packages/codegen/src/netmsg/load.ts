// Loads the net message schemas (schemas/netmsg/*.yaml), validated by the shared reader against schema.json's
// netmsgFile, and checks ids, UUIDs and field references, reporting file:line:col.
import { uuidFromName } from '@twcodec/runtime';
import { parseFamily, positionOf, SchemaError, type SchemaProblem } from '../shared/schema-files.js';
import { camel } from '../shared/names.js';

export interface NetFieldSchema {
  name: string;
  type: 'int' | 'bool' | 'tick' | 'string' | 'uuid' | 'raw' | 'raw_rest' | 'int_array' | 'string_array' | 'int_rest' | 'string_rest';
  description: string;
  optional?: boolean;
  since?: string;
  min?: number;
  max?: number;
  /** Flags: the bits DDNet accepts. */
  mask?: number;
  sanitize?: 'none' | 'sanitize' | 'sanitize_cc' | 'strict';
  size?: number;
  count?: number;
  size_field?: string;
  count_divisor?: number;
  count_table?: number[];
  counts?: number[];
  nonempty?: boolean;
}

export interface NetMessageSchema {
  name: string;
  system: boolean;
  id: number;
  uuidName?: string;
  uuid?: string;
  direction: 'server' | 'client' | 'both';
  since?: string;
  description: string;
  fields: NetFieldSchema[];
  /** Taken from another protocol's schema (uuid_messages_from): its name there, and that protocol. */
  from?: { protocol: string; name: string };
}

export interface NetProtocolSchema {
  protocol: string;
  description: string;
  /** Schema file, relative to the repository root. */
  file: string;
  messages: NetMessageSchema[];
  /** The protocol whose UUID messages this one takes (they are in `messages`, marked with `from`). */
  uuidMessagesFrom?: string;
}

const REST_TYPES = new Set(['int_rest', 'string_rest', 'raw_rest']);

export function loadNetSchemas(schemasDir: string, displayRoot = schemasDir): NetProtocolSchema[] {
  const problems: SchemaProblem[] = [];
  const out: NetProtocolSchema[] = [];
  for (const f of parseFamily(schemasDir, 'netmsg', displayRoot)) {
    const file = f.file;
    const problem = (segments: (string | number)[], message: string) => problems.push({ file, ...positionOf(f, segments), message });
    const data = f.data as unknown as { net_protocol: string; description: string; uuid_messages_from?: string; messages: (Omit<NetMessageSchema, 'uuidName' | 'system' | 'id'> & { uuid_name?: string; system?: boolean; id?: number })[] };
    const protocol: NetProtocolSchema = { protocol: data.net_protocol, description: data.description, file, messages: [], ...(data.uuid_messages_from ? { uuidMessagesFrom: data.uuid_messages_from } : {}) };
    const seenName = new Set<string>();
    const seenId = new Set<string>();
    data.messages.forEach((raw, i) => {
      const m: NetMessageSchema = {
        name: raw.name,
        system: raw.system === true,
        id: raw.id ?? 0,
        ...(raw.uuid_name ? { uuidName: raw.uuid_name, uuid: uuidFromName(raw.uuid_name) } : {}),
        direction: raw.direction,
        ...(raw.since ? { since: raw.since } : {}),
        description: raw.description,
        fields: raw.fields,
      };
      if (seenName.has(m.name)) problem(['messages', i, 'name'], `message ${m.name} is defined twice`);
      seenName.add(m.name);
      const key = `${m.system ? 'system' : 'game'} ${m.uuid ?? m.id}`;
      if (seenId.has(key)) problem(['messages', i], `${key} is used twice`);
      seenId.add(key);
      const earlier = new Map<string, NetFieldSchema>();
      let optionalSeen = false;
      m.fields.forEach((f, j) => {
        const fieldAt = ['messages', i, 'fields', j];
        if (earlier.has(f.name)) problem(fieldAt, `field ${f.name} is defined twice`);
        if (f.size_field && !['int'].includes(earlier.get(f.size_field)?.type ?? '')) problem(fieldAt, `size_field ${f.size_field} must name an earlier int field`);
        if (f.count_table && (f.type !== 'int_array' || !f.size_field)) problem(fieldAt, 'count_table is for an int_array with size_field');
        if (f.counts && f.type !== 'int_rest') problem(fieldAt, 'counts is for int_rest fields');
        if (f.nonempty && f.type !== 'string_rest') problem(fieldAt, 'nonempty is for string_rest fields');
        if (REST_TYPES.has(f.type) && j !== m.fields.length - 1) problem(fieldAt, `a ${f.type} field must be the last one`);
        if (optionalSeen && !f.optional) problem(fieldAt, 'fields after an optional field must be optional too');
        if (f.sanitize && f.type !== 'string' && f.type !== 'string_array' && f.type !== 'string_rest') problem(fieldAt, 'sanitize is for strings');
        optionalSeen ||= f.optional === true;
        earlier.set(f.name, f);
        if (camel(f.name) === 'kind' || camel(f.name) === 'trailing') problem(fieldAt, `field name ${f.name} is reserved (the message kind / trailing bytes)`);
      });
      protocol.messages.push(m);
    });
    out.push(protocol);
  }
  for (const p of out) {
    if (p.uuidMessagesFrom === undefined) continue;
    const from = out.find((o) => o.protocol === p.uuidMessagesFrom);
    if (!from || from === p || from.uuidMessagesFrom !== undefined) {
      problems.push({ file: p.file, line: 1, col: 1, message: `uuid_messages_from: ${p.uuidMessagesFrom} is not another protocol with messages of its own (${out.map((o) => o.protocol).join(', ')})` });
      continue;
    }
    const own = new Set(p.messages.map((m) => m.name));
    const ownUuids = new Set(p.messages.flatMap((m) => (m.uuid ? [m.uuid] : [])));
    for (const m of from.messages) {
      if (!m.uuid || ownUuids.has(m.uuid)) continue;
      const name = own.has(m.name) ? `ddnet_${m.name}` : m.name;
      if (own.has(name)) problems.push({ file: p.file, line: 1, col: 1, message: `uuid_messages_from: ${from.protocol}'s ${m.name} would be ${name}, which this protocol defines` });
      p.messages.push({ ...m, name, from: { protocol: from.protocol, name: m.name } });
    }
  }
  if (problems.length) throw new SchemaError(problems);
  return out;
}
