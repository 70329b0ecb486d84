// Loads the net message schemas (schemas/netmsg/*.yaml), validated by the shared reader against schema.json's
// netmsgFile, and checks ids, UUIDs and field references, reporting file:line:col. Enums have one source, the
// snapshot schema of the same protocol (schemas/snapshot/<net_protocol>.yaml): a field's `enum:` / `flags:`
// names one of its sets, and the field takes its range (or mask) from it.
import { dirname, join } from 'node:path';
import { uuidFromName } from '@twcodec/runtime';
import { loadPageTemplate, type PageTemplate } from '../shared/pages.js';
import { parseFamily, positionOf, SchemaError, type SchemaProblem } from '../shared/schema-files.js';
import { camel } from '../shared/names.js';
import { loadSnapshotSchemas } from '../snapshot/load.js';
import type { SnapshotEnumDef, SnapshotProtocolDef } from '../snapshot/model.js';

/** An enum or flag set a field's values come from, with the protocol whose snapshot schema defines it. */
export type NetValueSetSchema = SnapshotEnumDef & { protocol: string };

/** A number of the protocol code needs besides its messages (exported as NAME). */
export interface NetConstantSchema {
  name: string;
  value: number;
  description: string;
}

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
  /** The name of the enum / flag set (schema keys). */
  enum?: string;
  flags?: string;
  /** The set `enum` or `flags` names, resolved. */
  values?: NetValueSetSchema;
}

export interface NetMessageSchema {
  name: string;
  system: boolean;
  id: number;
  uuidName?: string;
  uuid?: string;
  direction: 'server' | 'client' | 'both';
  since?: string;
  /** false: a recording client leaves the message out of its demo. */
  recorded?: false;
  description: string;
  fields: NetFieldSchema[];
  /** Where the message's layout was checked, when more than the file's `checked` says (shown on its page). */
  checked?: string[];
  /** Taken from another protocol's schema (uuid_messages_from): its name there, and that protocol. */
  from?: { protocol: string; name: string };
}

export interface NetProtocolSchema {
  protocol: string;
  /** GAME_NETVERSION: what a client's info message and a demo header carry. */
  netVersion: string;
  description: string;
  /** Schema file, relative to the repository root. */
  file: string;
  messages: NetMessageSchema[];
  /** The protocol whose UUID messages this one takes (they are in `messages`, marked with `from`). */
  uuidMessagesFrom?: string;
  constants: NetConstantSchema[];
  /** Where the file's facts were checked: sources (file and tag) and corpus files (shown on the page). */
  checked: string[];
}

const REST_TYPES = new Set(['int_rest', 'string_rest', 'raw_rest']);

/**
 * Loads every protocol of `schemasDir/netmsg`. `snapshot`: the snapshot schemas whose enums fields name
 * (loaded from `schemasDir/snapshot` when not given).
 */
export function loadNetSchemas(schemasDir: string, displayRoot = schemasDir, snapshot?: readonly SnapshotProtocolDef[]): NetProtocolSchema[] {
  const enumsOf = new Map((snapshot ?? loadSnapshotSchemas(schemasDir, displayRoot)).map((p) => [p.protocol, p.enums]));
  const problems: SchemaProblem[] = [];
  const out: NetProtocolSchema[] = [];
  for (const f of parseFamily(schemasDir, 'netmsg', displayRoot)) {
    const file = f.file;
    const problem = (segments: (string | number)[], message: string) => problems.push({ file, ...positionOf(f, segments), message });
    const data = f.data as unknown as { net_protocol: string; net_version: string; description: string; uuid_messages_from?: string; constants?: NetConstantSchema[]; checked?: string[]; messages: (Omit<NetMessageSchema, 'uuidName' | 'system' | 'id'> & { uuid_name?: string; system?: boolean; id?: number })[] };
    const protocol: NetProtocolSchema = { protocol: data.net_protocol, netVersion: data.net_version, description: data.description, file, messages: [], constants: data.constants ?? [], checked: data.checked ?? [], ...(data.uuid_messages_from ? { uuidMessagesFrom: data.uuid_messages_from } : {}) };
    const seenConstant = new Set<string>();
    protocol.constants.forEach((c, i) => {
      if (seenConstant.has(c.name)) problem(['constants', i, 'name'], `constant ${c.name} is defined twice`);
      seenConstant.add(c.name);
    });
    const sets = enumsOf.get(protocol.protocol);
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
        ...(raw.recorded === false ? { recorded: false as const } : {}),
        ...(raw.checked ? { checked: raw.checked } : {}),
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
        for (const kind of ['enum', 'flags'] as const) {
          const name = f[kind];
          if (name === undefined) continue;
          const set = sets?.find((e) => e.name === name);
          if (f.type !== 'int') problem([...fieldAt, kind], `${kind}: is for int fields, ${f.name} is ${f.type}`);
          else if (kind === 'enum' && f.flags !== undefined) problem([...fieldAt, kind], 'a field has enum: or flags:, not both');
          else if (!sets) problem([...fieldAt, kind], `${kind} ${name}: there is no snapshot schema of ${protocol.protocol} (schemas/snapshot/${protocol.protocol}.yaml), where the enums of ${protocol.protocol} are`);
          else if (!set) problem([...fieldAt, kind], `${kind} ${name} is not among the enums of schemas/snapshot/${protocol.protocol}.yaml (${sets.filter((e) => e.kind === kind).map((e) => e.name).join(', ')})`);
          else if (set.kind !== kind) problem([...fieldAt, kind], `${name} is a set of kind ${set.kind}, not ${kind}`);
          else {
            f.values = { ...set, protocol: protocol.protocol };
            // The range DDNet checks, unless the schema says otherwise: NUM_X-1 for an enum, the bits for flags.
            if (kind === 'enum') {
              f.min ??= Math.min(...set.values.map((v) => v.value));
              f.max ??= Math.max(...set.values.map((v) => v.value));
            } else f.mask ??= set.values.reduce((mask, v) => mask | v.value, 0);
          }
        }
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

/** The template of docs/formats/net-messages.md: net-messages.md beside the protocols' schemas. */
export function loadNetDocsTemplate(displayRoot: string, protocols: readonly NetProtocolSchema[], placeholders: readonly string[]): PageTemplate {
  const dir = protocols[0] ? dirname(protocols[0].file) : 'schemas/netmsg';
  return loadPageTemplate(displayRoot, join(dir, 'net-messages.md'), placeholders);
}
