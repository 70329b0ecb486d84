// What every byte of a file is: a tree of nodes with byte ranges, built beside the codecs (which check the file)
// so that the page can show a file even where it is unusual. Map item fields come from the YAML schemas.
import { Datafile } from '@twcodec/datafile';
import { MAP_ITEM_TYPE, type MapItemName, type MapItemTypeInfo } from '@twcodec/map';
import { decodeI32String, uuidFromName } from '@twcodec/runtime';
import { isCapture } from '@twcodec/net';
import { TEEHISTORIAN_UUID } from '@twcodec/teehistorian';

/** A field of a map item (generated from schemas/map): `key` is its property in the decoded item. */
export interface SchemaField {
  name: string;
  key: string;
  type: string;
  ints: number;
  description: string;
}
/** A map item type's fields in order, those of every variant after them (generated from schemas/map). */
export interface ItemSchema {
  name: MapItemName;
  typeId?: number;
  uuidName?: string;
  description: string;
  source: string;
  fields: SchemaField[];
  variants?: { on: string; cases: { name: string; value: number; description: string; fields: SchemaField[] }[] };
}

/** A byte range of the file and what it is. `end` is exclusive. */
export interface LayoutNode {
  label: string;
  start: number;
  end: number;
  type?: string;
  value?: string;
  description?: string;
  children?: LayoutNode[];
  /** `map validate` findings about this node (filled by placeFindings). */
  findings?: { severity: string; code: string; path: string; message: string }[];
  /** Findings at this node and below it. */
  findingCount?: number;
  /** A picture of the node (tilemap layers, embedded images). */
  preview?: { width: number; height: number; rgba: Uint8ClampedArray<ArrayBuffer>; note?: string };
  /** Children (or a picture) the worker builds when the node is first opened: the key to ask it for them. */
  lazy?: string;
  /** Decoded from compressed data (a snapshot item, a net message field): its bytes are those of its chunk. */
  decoded?: boolean;
  /** The game tick of a demo tick, chunk or teehistorian message (for the timeline). */
  tick?: number;
  /** An envelope's points, plotted by the page. */
  plot?: EnvelopePlot;
  /** A quads layer's quads, drawn by the page. */
  quads?: QuadShape[];
  /**
   * A node of a view over the bytes (the map's groups and layers as a mapper sees them), not a byte range of its
   * own: its bytes are also under another node, so `leaves` skips it.
   */
  view?: boolean;
  /** Shown opened when the file is opened. */
  open?: boolean;
  /** A tilemap layer whose tiles can be asked about (`tile` requests to the worker): `g:l`, and its size in tiles. */
  tiles?: { key: string; width: number; height: number };
}

/** One quad: its corners in world units (top-left, top-right, bottom-right, bottom-left) and its mean colour. */
export interface QuadShape {
  corners: [number, number][];
  rgba: [number, number, number, number];
}

/** The points of an envelope: time in ms, then one value per channel (colours 0..1, positions in units). */
export interface EnvelopePlot {
  channels: string[];
  points: {
    time: number;
    curve: number;
    values: number[];
    /** Bezier tangents per channel ([time delta in ms, value delta]), when the map has them. */
    in?: [number, number][];
    out?: [number, number][];
  }[];
}

export type FileKind = 'map' | 'demo' | 'teehistorian' | 'capture' | 'unknown';

const TEEHISTORIAN_MAGIC = [0x69, 0x9d, 0xb1, 0x7b, 0x8e, 0xfb, 0x34, 0xff, 0xb1, 0xd8, 0xda, 0x6f, 0x60, 0xc1, 0x5d, 0xd1];

/** The kind of file from its first bytes (datafile "DATA"/"ATAD", demo "TWDEMO\0", teehistorian UUID). */
export function detectKind(bytes: Uint8Array): FileKind {
  const ascii = String.fromCharCode(...bytes.subarray(0, 7));
  if (ascii.startsWith('DATA') || ascii.startsWith('ATAD')) return 'map';
  if (ascii === 'TWDEMO\0') return 'demo';
  if (bytes.length >= 16 && TEEHISTORIAN_MAGIC.every((b, i) => bytes[i] === b)) return 'teehistorian';
  if (isCapture(bytes)) return 'capture';
  return 'unknown';
}

const HEADER_FIELDS: [string, string][] = [
  ['version', 'Datafile version: 4 (3 in old Teeworlds maps, without the data size table).'],
  ['size', 'Bytes after the first 16 of the header up to the end of the data.'],
  ['swaplen', 'Bytes up to the end of the items (the part an endian swap covers), not counting the first 16.'],
  ['num_item_types', 'Entries in the item type table.'],
  ['num_items', 'Items in the file.'],
  ['num_data', 'Data items (compressed blobs) in the file.'],
  ['item_size', 'Total bytes of all items, headers included.'],
  ['data_size', 'Total bytes of the stored data items.'],
];

/** The datafile's fixed 36-byte header (the file must have its 36 bytes). */
function datafileHeader(bytes: Uint8Array): LayoutNode {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header: LayoutNode = {
    label: 'header',
    start: 0,
    end: 36,
    description: 'Fixed 36-byte header.',
    children: [{ label: 'magic', start: 0, end: 4, type: 'char[4]', value: JSON.stringify(String.fromCharCode(...bytes.subarray(0, 4))), description: '"DATA" (or "ATAD" from big-endian writers).' }],
  };
  HEADER_FIELDS.forEach(([name, description], i) => {
    const o = 4 + i * 4;
    header.children!.push({ label: name, start: o, end: o + 4, type: 'i32', value: String(view.getInt32(o, true)), description });
  });
  return header;
}

/**
 * What a file that could not be read shows: its fixed-size start where there are bytes for it (a map's header, a
 * teehistorian file's UUID), then the rest as one node saying why it was not read.
 */
export function damagedLayout(bytes: Uint8Array, kind: FileKind, error: unknown): LayoutNode {
  const read: LayoutNode[] = [];
  if (kind === 'map' && bytes.length >= 36) read.push(datafileHeader(bytes));
  if (kind === 'teehistorian') read.push({ label: 'uuid', start: 0, end: 16, type: 'uuid', value: TEEHISTORIAN_UUID, description: 'Identifies a teehistorian file.' });
  return { label: `${kind} (damaged)`, start: 0, end: bytes.length, children: [...read, unreadNode(error, read[read.length - 1]?.end ?? 0, bytes.length)] };
}

/** The node that stands for the bytes of a damaged file that could not be read, and why. */
export function unreadNode(error: unknown, start: number, end: number): LayoutNode {
  const message = error instanceof Error ? error.message : String(error);
  return { label: 'not read', start, end, type: 'error', value: message, description: `Reading stopped here: ${message}. The nodes above are what was read before.` };
}

/**
 * The byte layout of a datafile (map). The datafile container's own fields are described here, following
 * docs/formats/datafile.md; map item fields come from the schemas. Bytes the tables do not cover stay visible as
 * "unaccounted" nodes rather than disappearing.
 */
export function mapLayout(bytes: Uint8Array, schemas: readonly ItemSchema[]): LayoutNode {
  const df = Datafile.read(bytes); // every check of DDNet's loader; throws a CodecError on a bad file
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const i32 = (o: number) => view.getInt32(o, true);
  const header = datafileHeader(bytes);
  const [numTypes, numItems, numData, itemSize, dataSize] = [i32(16), i32(20), i32(24), i32(28), i32(32)];
  let o = 36;
  const table = (label: string, count: number, entryInts: number, description: string, names: string[]): LayoutNode => {
    const node: LayoutNode = { label, start: o, end: o + count * entryInts * 4, description, children: [] };
    for (let i = 0; i < count; i++) {
      const entry: LayoutNode = { label: `${label}[${i}]`, start: o, end: o + entryInts * 4, children: [] };
      for (let k = 0; k < entryInts; k++, o += 4) entry.children!.push({ label: names[k]!, start: o, end: o + 4, type: 'i32', value: String(i32(o)), description });
      node.children!.push(entryInts === 1 ? { ...entry.children![0]!, label: `${label}[${i}]` } : entry);
    }
    return node;
  };
  const types = table('item_types', numTypes, 3, 'Item type table: type id, index of its first item, number of items.', ['type', 'start', 'num']);
  const itemOffsets = table('item_offsets', numItems, 1, 'Offset of each item from the start of the items.', ['offset']);
  const dataOffsets = table('data_offsets', numData, 1, 'Offset of each data item from the start of the data.', ['offset']);
  const tables = [types, itemOffsets, dataOffsets];
  if (df.version === 4) tables.push(table('data_sizes', numData, 1, 'Uncompressed size of each data item.', ['size']));
  const itemsStart = o;
  const dataStart = itemsStart + itemSize;

  const uuids = df.uuidIndex();
  const byUuid = new Map(schemas.filter((s) => s.uuidName).map((s) => [uuidFromName(s.uuidName!), s]));
  const byType = new Map(schemas.filter((s) => s.typeId !== undefined).map((s) => [s.typeId!, s]));
  const items: LayoutNode = { label: 'items', start: itemsStart, end: dataStart, children: [], description: 'The items: an 8-byte header (type << 16 | id, size) then size bytes of ints each.' };
  for (let i = 0; i < numItems; i++) {
    const start = itemsStart + i32(36 + numTypes * 12 + i * 4);
    const typeAndId = i32(start);
    const size = i32(start + 4);
    const type = (typeAndId >>> 16) & 0xffff;
    const id = typeAndId & 0xffff;
    const uuid = uuids.get(type);
    const schema = uuid !== undefined ? byUuid.get(uuid) : byType.get(type);
    const name = type === 0xffff ? 'uuid_index' : (schema?.name ?? `type ${type}`);
    const node: LayoutNode = {
      label: `${name} #${id}`,
      start,
      end: start + 8 + size,
      type: uuid ?? String(type),
      description: type === 0xffff ? 'Declares a UUID item type: its id is the internal type id, its 4 ints the UUID.' : (schema?.description ?? 'An item type no schema describes (kept as ints).'),
      children: [
        { label: 'type_and_id', start, end: start + 4, type: 'i32', value: `type ${type}, id ${id}`, description: 'Item type id (upper 16 bits) and item id (lower 16 bits).' },
        { label: 'size', start: start + 4, end: start + 8, type: 'i32', value: String(size), description: 'Bytes of ints that follow.' },
      ],
    };
    node.children!.push(...itemFields(view, start + 8, size >> 2, schema));
    // Named items (layers, images, envelopes, groups) show their name in the tree.
    const named = node.children!.find((c) => c.label === 'name' && c.type?.startsWith('i32string'));
    if (named) node.value = named.value;
    items.children!.push(node);
  }
  const data: LayoutNode = { label: 'data', start: dataStart, end: dataStart + dataSize, children: [], description: 'Data items, zlib-compressed in version 4.' };
  for (let i = 0; i < numData; i++) {
    const start = dataStart + i32(36 + numTypes * 12 + numItems * 4 + i * 4);
    const end = i + 1 < numData ? dataStart + i32(36 + numTypes * 12 + numItems * 4 + (i + 1) * 4) : dataStart + dataSize;
    const d = df.data[i]!;
    data.children!.push({
      label: `data[${i}]`,
      start,
      end,
      type: d.storedCompressed ? 'zlib' : 'raw',
      value: `${end - start} bytes stored, ${d.size} bytes uncompressed`,
      description: 'A data item (tiles, quads, names, image pixels, ...): what it holds is said by the item that points to it.',
    });
  }
  const root: LayoutNode = { label: 'map (datafile)', start: 0, end: bytes.length, children: [header, ...tables, items, data] };
  if (dataStart + dataSize < bytes.length) {
    root.children!.push({ label: 'trailing bytes', start: dataStart + dataSize, end: bytes.length, description: 'Bytes after the data; DDNet ignores them.' });
  }
  return root;
}

/**
 * The fields of an item's ints: which of the schema's fields the item has is what the map package's generated
 * decoder reads (version-gated and if-room fields included), laid out in schema order. An item the decoder
 * refuses (too short for its fields) shows as ints, with the decoder's reason.
 */
function itemFields(view: DataView, start: number, ints: number, schema: ItemSchema | undefined): LayoutNode[] {
  const out: LayoutNode[] = [];
  const raw = Int32Array.from({ length: ints }, (_, k) => view.getInt32(start + k * 4, true));
  let decoded: Record<string, unknown> | undefined;
  let refused: string | undefined;
  if (schema) {
    try {
      decoded = (MAP_ITEM_TYPE[schema.name] as MapItemTypeInfo).decode(raw) as unknown as Record<string, unknown>;
    } catch (e) {
      refused = e instanceof Error ? e.message : String(e);
    }
  }
  let at = 0;
  if (decoded && schema && !ArrayBuffer.isView(decoded)) {
    const variant = schema.variants?.cases.find((c) => c.name === decoded!.kind);
    for (const f of [...schema.fields, ...(variant?.fields ?? [])]) {
      if (decoded[f.key] === undefined) continue;
      const o = start + at * 4;
      out.push({ label: f.name, start: o, end: o + f.ints * 4, type: f.ints > 1 ? `${f.type} (${f.ints} ints)` : f.type, value: fieldValue(f, [...raw.subarray(at, at + f.ints)]), description: f.description });
      at += f.ints;
    }
  }
  for (; at < ints; at++) {
    const o = start + at * 4;
    const description = refused ? `An int of an item the codec does not read: ${refused}.` : 'An int the schema does not describe (kept unchanged).';
    out.push({ label: `int[${at}]`, start: o, end: o + 4, type: 'i32', value: String(raw[at]), description });
  }
  return out;
}

function fieldValue(f: SchemaField, raw: number[]): string {
  if (f.type === 'i32string') return JSON.stringify(decodeI32String(raw));
  if (f.type === 'flags') return `0x${(raw[0]! >>> 0).toString(16)}`;
  return raw.join(', ');
}

/** The deepest nodes (leaves), sorted by start, for finding the field under a byte. */
export function leaves(root: LayoutNode): LayoutNode[] {
  const out: LayoutNode[] = [];
  const visit = (n: LayoutNode) => (n.view ? undefined : n.children?.length ? n.children.forEach(visit) : out.push(n));
  visit(root);
  return out.sort((a, b) => a.start - b.start);
}

/** The leaf that covers a byte, or undefined. */
export function leafAt(sorted: readonly LayoutNode[], offset: number): LayoutNode | undefined {
  let lo = 0;
  let hi = sorted.length - 1;
  let found: LayoutNode | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.start <= offset) {
      found = sorted[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found && offset < found.end ? found : undefined;
}
