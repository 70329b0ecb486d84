// The tree nodes of what the stream views (demo-view.ts, teehistorian-view.ts) decode inside a chunk or record:
// a net message's fields, a snapshot's objects with their named fields (from the schemas' layouts and
// descriptions), and the one-line summaries and error positions both formats show. Shared here so that the
// two formats show the same thing the same way.
import { type NetFieldDef, type NetMessageDef, netValueName, type UnknownNetMessage } from '@twcodec/netmsg';
import { decodeObject, fieldValueText, type Snapshot, type SnapshotField, snapshotObjects, type SnapshotProtocol } from '@twcodec/snapshot';
import { uuidFromInts } from '@twcodec/runtime';
import type { LayoutNode } from './layout.js';
import type { StreamDocs } from './streams.js';

export const errorMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));
/** Where reading stopped: the error's byte offset (a CodecError's), at least `from`. */
export const errorOffset = (e: unknown, from: number, length: number) => {
  const offset = (e as { offset?: unknown }).offset;
  return typeof offset === 'number' && offset >= from ? Math.min(offset, length) : from;
};

export const clip = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function show(v: unknown): string {
  if (v instanceof Uint8Array) return `${v.length} bytes`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return `[${Array.from(v as ArrayLike<unknown>).join(', ')}]`;
  if (v && typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A net message's fields as nodes (all inside the chunk or record that holds the message). */
export function netMessageNodes(message: { kind: string } & Record<string, unknown>, def: NetMessageDef | undefined, start: number, end: number): LayoutNode[] {
  if (!def) {
    const m = message as unknown as UnknownNetMessage;
    return [
      { label: 'id', start, end, decoded: true, type: m.system ? 'system message id' : 'game message id', value: String(m.id), description: 'A message id the protocol tables do not know; its bytes are kept.' },
      ...(m.uuid ? [{ label: 'uuid', start, end, decoded: true, type: 'uuid', value: String(m.uuid), description: 'The UUID of an extended (NETMSG_EX) message.' }] : []),
      { label: 'data', start, end, decoded: true, type: 'bytes', value: `${m.data.length} bytes`, description: m.error ? `Kept raw: ${m.error}` : 'The message body, kept as bytes.' },
    ];
  }
  return def.fields.map((f) => ({
    label: f.name,
    start,
    end,
    decoded: true,
    type: f.type + (f.values ? ` (${f.values.kind} ${f.values.name})` : '') + (f.optional ? ' (optional)' : ''),
    value: message[f.key] === undefined ? '(absent)' : clip(fieldText(f, message[f.key]), 200),
    description: f.description,
  }));
}

/** A field's value as text; an enum or flags value with its name(s) from the schema's set (`4 (laser)`). */
export function fieldText(f: NetFieldDef, value: unknown): string {
  const name = f.values && typeof value === 'number' ? netValueName(f.values, value) : undefined;
  return name ? `${value} (${name})` : show(value);
}

export function messageSummary(message: { kind: string } & Record<string, unknown>, def: NetMessageDef | undefined): string {
  if (!def) return `unknown id ${(message as unknown as UnknownNetMessage).id}`;
  return clip(def.fields.slice(0, 4).map((f) => `${f.name}=${fieldText(f, message[f.key])}`).join(' '));
}

export const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function fieldType(f: SnapshotField): string {
  let t: string = f.kind;
  if (f.ints > 1) t += ` (${f.ints} ints)`;
  if (f.scale) t += `, value × ${f.scale} stored`;
  if (f.min !== undefined || f.max !== undefined) t += `, ${f.min ?? '…'}..${f.max ?? '…'}`;
  return t;
}

/** The items of a snapshot with their named fields (from the protocol's layouts and the schemas' descriptions). */
export function snapshotNodes(snapshot: Snapshot, protocol: SnapshotProtocol, docs: StreamDocs, start: number, end: number): LayoutNode[] {
  const items = docs.snapshot[protocol.name] ?? {};
  const out: LayoutNode[] = [];
  for (const entry of snapshotObjects(snapshot, protocol).entries()) {
    if (!entry.known) {
      const { item } = entry;
      out.push({
        label: `type ${item.type} id ${item.id}`,
        start,
        end,
        decoded: true,
        type: entry.uuid ? `uuid ${entry.uuid}` : entry.reason,
        value: `${item.data.length} ints: ${clip(Array.from(item.data).join(', '))}`,
        description: entry.reason === 'unknown_uuid' ? 'An item of a UUID type this protocol does not know; its ints are kept.' : 'An item type this protocol does not know; its ints are kept.',
      });
      continue;
    }
    const { layout, item } = entry.view;
    const doc = items[layout.name];
    const decoded = decodeObject(layout, item.data);
    const fields: LayoutNode[] = [];
    for (const f of layout.fields) {
      const key = camel(f.name);
      if (!(key in decoded)) continue;
      // Enum values and flag bits by their schema names beside the number: `2 (happy)`, `17 (playing|aim)`.
      const named = typeof decoded[key] === 'number' ? fieldValueText(f, decoded[key] as number) : undefined;
      fields.push({ label: f.name, start, end, decoded: true, type: fieldType(f), value: clip(`${show(decoded[key])}${named ? ` (${named})` : ''}`, 200), description: doc?.fields[f.name] ?? `Field of ${layout.name}: ${doc?.description ?? ''}` });
    }
    if (decoded.extra) fields.push({ label: 'extra', start, end, decoded: true, type: `int[${decoded.extra.length}]`, value: decoded.extra.join(', '), description: 'Ints after the fields the schema knows (a newer server); kept unchanged.' });
    let value: string;
    if (layout.name === 'ex' && item.data.length >= 4) {
      // A UUID type declaration: the UUID, and the object it stands for when the protocol knows it.
      const uuid = uuidFromInts(item.data);
      value = `${uuid}${protocol.uuidItems.find((u) => u.uuid === uuid) ? ` (${protocol.uuidItems.find((u) => u.uuid === uuid)!.name})` : ''}`;
    } else if (typeof decoded.name === 'string') value = JSON.stringify(decoded.name);
    else if (typeof decoded.x === 'number' && typeof decoded.y === 'number') value = `x=${decoded.x} y=${decoded.y}`;
    else value = clip(fields.slice(0, 3).map((f) => `${f.label}=${f.value}`).join(' '));
    out.push({ label: `${layout.name} ${item.id}`, start, end, decoded: true, type: `${layout.event ? 'event' : 'object'} type ${item.type}`, value, description: doc?.description ?? '', children: fields });
  }
  return out;
}

