import { demoChat, type DemoReader, type DemoSnapshot, readDemo } from '@twcodec/demo';
import { netMessageFirstInt } from '@twcodec/netmsg';
import { ByteReader, decodeI32String } from '@twcodec/runtime';
import { fieldValueText, type SnapshotField, type SnapshotItem, type SnapshotLayout, type Snapshot, type SnapshotProtocol, snapshotObjects } from '@twcodec/snapshot';
import { type ColumnType, type ExportTable, TableBuilder } from './table.js';

export interface DemoExportOptions {
  /**
   * Only these tables (default: all that the demo has): `chat`, `unknown_items`, or a snapshot object name
   * (`character`, `player_info`, ...).
   */
  tables?: readonly string[];
  /** The snapshot protocol; default: Teeworlds 0.7 for a demo whose net version starts with 0.7, else DDNet 0.6. */
  protocol?: SnapshotProtocol;
  /** As for the reader; a demo cut short (a recording that was killed) is exported up to its last whole chunk by default. */
  onTruncated?: 'throw' | 'stop';
}

/** How one field of a layout becomes columns. */
interface FieldPlan {
  field: SnapshotField;
  /** First column of the field in the table (after tick and id). */
  column: number;
  /** enum and flags fields: the column of the value's name (see objectTable). */
  nameColumn?: number;
}

interface ObjectTable {
  builder: TableBuilder;
  fields: FieldPlan[];
}

/**
 * Columns of a snapshot object: tick, id (the item id: the client id for character, player_info,
 * client_info, ...), then one per field under the schema's name: ints as stored, fixed-point fields as their
 * value (vel_x: the int / 256), strings decoded, arrays as name_0, name_1, .... A field named tick or id is
 * called <object>_<field> (character_tick). A field past the end of an older server's shorter item is its
 * default, or null. An enum or flags field is followed by <field>_name: the name of its value from the schema
 * (weapon_name `gun`; flags joined with `|`, player_flags_name `playing|aim`), null where the schema names none.
 */
function objectTable(layout: SnapshotLayout): ObjectTable {
  const columns: { name: string; type: ColumnType }[] = [
    { name: 'tick', type: 'int32' },
    { name: 'id', type: 'int32' },
  ];
  const fields: FieldPlan[] = [];
  for (const field of layout.fields) {
    const name = field.name === 'tick' || field.name === 'id' ? `${layout.name}_${field.name}` : field.name;
    const plan: FieldPlan = { field, column: columns.length };
    fields.push(plan);
    if (field.kind === 'i32array') for (let i = 0; i < field.ints; i++) columns.push({ name: `${name}_${i}`, type: 'int32' });
    else columns.push({ name, type: field.kind === 'i32string' ? 'string' : field.kind === 'fixed' ? 'float64' : 'int32' });
    if (field.values) {
      plan.nameColumn = columns.length;
      columns.push({ name: `${name}_name`, type: 'string' });
    }
  }
  return { builder: new TableBuilder(layout.name, columns), fields };
}

// Decoded strings by item data: an unchanged item shares its ints from snapshot to snapshot (a client info over
// a whole demo), so each is decoded once.
const strings = new WeakMap<Int32Array, Map<number, string>>();
function packedString(data: Int32Array, at: number, ints: number): string {
  let cached = strings.get(data);
  if (!cached) strings.set(data, (cached = new Map()));
  let text = cached.get(at);
  if (text === undefined) cached.set(at, (text = decodeI32String(data.subarray(at, at + ints))));
  return text;
}

function addObject(table: ObjectTable, tick: number, item: SnapshotItem): void {
  const columns = table.builder.columns;
  const data = item.data;
  columns[0]!.push(tick);
  columns[1]!.push(item.id);
  for (const { field, column, nameColumn } of table.fields) {
    const at = field.offset;
    if (nameColumn !== undefined) {
      const value = at < data.length ? data[at] : field.default;
      columns[nameColumn]!.push(value === undefined ? null : (fieldValueText(field, value) ?? null));
    }
    switch (field.kind) {
      case 'i32array':
        for (let i = 0; i < field.ints; i++) columns[column + i]!.push(at + i < data.length ? data[at + i] : field.default);
        break;
      case 'i32string':
        columns[column]!.push(at + field.ints <= data.length ? packedString(data, at, field.ints) : null);
        break;
      case 'fixed':
        columns[column]!.push(at < data.length ? data[at]! / field.scale! : field.default === undefined ? null : field.default / field.scale!);
        break;
      default:
        columns[column]!.push(at < data.length ? data[at] : field.default);
    }
  }
  table.builder.rows++;
}

/** The first int of the messages demoChat reads (sv_chat, and 0.7's sv_client_info for names). */
function chatMessageIds(demo: DemoReader): Set<number> {
  return new Set(demo.protocol.messages.messages.filter((m) => m.name === 'sv_chat' || m.name === 'sv_client_info').map(netMessageFirstInt));
}

function messageId(data: Uint8Array): number {
  try {
    return new ByteReader(data).readVarInt();
  } catch {
    return -1;
  }
}

/** The protocol of a demo's snapshots, from its header's net version (DemoReader.protocol). */
export function demoProtocol(demo: DemoReader): SnapshotProtocol {
  return demo.protocol.snapshots;
}

/**
 * A demo as tables:
 * - one per snapshot object type that occurs (`character`, `player_info`, `client_info`, `projectile`,
 *   `pickup`, `flag`, `game_info`, DDNet's `ddnet_character`, events such as `death`, ...): a row per item per
 *   recorded tick (see objectTable for the columns);
 * - `unknown_items`: items of a type the protocol does not know: tick, type (its UUID, or type_N), id, data
 *   (the ints as a JSON array);
 * - `chat`: tick, client_id (-1: the server), name (from the client-info items), team, text.
 *
 * Every table carries the demo's header as JSON in its metadata (`demo.header`), and where reading ended
 * (`demo.end`: `truncated` for a demo cut short, exported up to its last whole chunk).
 */
export function demoTables(bytes: Uint8Array, options: DemoExportOptions = {}): ExportTable[] {
  const read = readDemo(bytes, { onTruncated: options.onTruncated ?? 'stop' });
  // The object tables and the chat (its names come from a pass over the snapshots, its lines from the
  // messages) each walk the chunks: decompress them once, not three times; and of the messages keep only
  // those demoChat reads, so that the others are not decoded.
  const chatIds = chatMessageIds(read);
  const chunks = [...read.chunks()].filter((c) => c.kind !== 'message' || chatIds.has(messageId(c.data)));
  const demo: DemoReader = Object.create(read, { chunks: { value: () => chunks.values() } });
  const protocol = options.protocol ?? demoProtocol(demo);
  const wanted = options.tables && new Set(options.tables);
  const known = new Set(['chat', 'unknown_items', ...[...protocol.items, ...protocol.uuidItems].filter((t) => t.name !== 'ex').map((t) => t.name)]);
  for (const name of wanted ?? []) {
    if (!known.has(name)) throw new RangeError(`a demo has no table ${name} (its tables: chat, unknown_items and the snapshot objects of ${protocol.name}: ${[...known].slice(2).join(', ')})`);
  }
  const want = (name: string) => !wanted || wanted.has(name);
  const wantObjects = !wanted || [...wanted].some((n) => n !== 'chat');
  // The chunks were all read above: `end` says whether the file was cut short, and where.
  const metadata = { 'demo.header': JSON.stringify(demo.header, (_k, v: unknown) => (v instanceof Uint8Array ? undefined : v)), 'demo.end': JSON.stringify(read.end) };
  // demoChat takes its names from the snapshots (client-info items, in the demo's own protocol): it gets those
  // of the object pass instead of applying every delta again.
  let decoded: DemoSnapshot[] | undefined;
  const own = demo.protocol.snapshots;
  const keep = want('chat') && protocol === own;
  const snapshots = function* () {
    const list: DemoSnapshot[] = [];
    for (const s of demo.snapshots(protocol)) {
      if (keep) list.push(s);
      yield s;
    }
    decoded = list;
  };
  const out = wantObjects ? snapshotTables(snapshots(), protocol, { tables: options.tables, metadata }) : [];
  if (want('chat')) {
    if (decoded) Object.defineProperty(demo, 'snapshots', { value: (p: SnapshotProtocol = own) => (p === own ? decoded!.values() : read.snapshots(p)) });
    const chat = new TableBuilder('chat', [
      { name: 'tick', type: 'int32' },
      { name: 'client_id', type: 'int32', description: '-1: the server' },
      { name: 'name', type: 'string' },
      { name: 'team', type: 'int32', description: '0 everyone, 1 team, 2/3 whisper sent/received' },
      { name: 'text', type: 'string' },
    ]);
    const [tick, clientId, name, team, text] = chat.columns;
    for (const line of demoChat(demo)) {
      tick!.push(line.tick);
      clientId!.push(line.clientId);
      name!.push(line.name ?? null);
      team!.push(line.team);
      text!.push(line.text);
      chat.rows++;
    }
    out.push(chat.finish(metadata));
  }
  return out;
}

/**
 * The object tables and `unknown_items` of a sequence of snapshots (see demoTables), in the protocol's order
 * of object types, so that the output does not depend on which item came first.
 */
export function snapshotTables(snapshots: Iterable<{ tick: number; snapshot: Snapshot }>, protocol: SnapshotProtocol, options: { tables?: readonly string[]; metadata?: Record<string, string> } = {}): ExportTable[] {
  const wanted = options.tables && new Set(options.tables);
  const want = (name: string) => !wanted || wanted.has(name);
  const tables = new Map<SnapshotLayout, ObjectTable>();
  const unknown = new TableBuilder('unknown_items', [
    { name: 'tick', type: 'int32' },
    { name: 'type', type: 'string', description: 'the UUID of an extended type, or type_N' },
    { name: 'id', type: 'int32' },
    { name: 'data', type: 'string', description: 'the ints as a JSON array' },
  ]);
  for (const { tick, snapshot } of snapshots) {
    const objects = snapshotObjects(snapshot, protocol);
    let uuids: Map<number, string> | undefined;
    for (const item of snapshot.items) {
      // Type 0 items declare the UUIDs of extended types: structure, not data.
      if (item.type === 0) continue;
      const layout = objects.layoutOf(item.type);
      if (layout) {
        if (!want(layout.name)) continue;
        let table = tables.get(layout);
        if (!table) tables.set(layout, (table = objectTable(layout)));
        addObject(table, tick, item);
      } else if (want('unknown_items')) {
        uuids ??= snapshot.uuidTypes();
        const c = unknown.columns;
        c[0]!.push(tick);
        c[1]!.push(uuids.get(item.type) ?? `type_${item.type}`);
        c[2]!.push(item.id);
        c[3]!.push(`[${item.data.join(',')}]`);
        unknown.rows++;
      }
    }
  }
  // A table asked for by name is written also when the demo has no such items: empty, with its columns.
  for (const layout of [...protocol.items, ...protocol.uuidItems]) {
    if (wanted?.has(layout.name) && !tables.has(layout)) tables.set(layout, objectTable(layout));
  }
  const metadata = options.metadata ?? {};
  const out: ExportTable[] = [...tables.values()].map((t) => t.builder.finish(metadata));
  if (unknown.rows || wanted?.has('unknown_items')) out.push(unknown.finish(metadata));
  const order = new Map([...protocol.items, ...protocol.uuidItems].map((t, i) => [t.name, i]));
  return out.sort((a, b) => (order.get(a.name) ?? 1e9) - (order.get(b.name) ?? 1e9));
}

