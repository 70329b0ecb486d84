// The codec behind every generated message table: framing (id << 1 | system, then for id 0 a 16-byte UUID),
// then the fields in schema order. The generated tables give each message a `read` function (its fields read
// one after the other by the field readers below, where every bounds check lives) or leave it to the field
// interpreter here (readField); both read the same bytes with the same checks and errors.
import { ByteReader, ByteWriter, CodecError, copyBytes, type Uuid, uuidFromBytes, uuidToBytes } from '@twcodec/runtime';
import type { NetMessageErrorCode } from './error-codes.js';

/** Errors of net message decoding and encoding. */
export class NetMessageError extends CodecError<NetMessageErrorCode> {}

// The table types live in table.ts; the generated code imports them from here, beside the codec's functions.
export { type NetJsonText, netJsonText } from './json-text.js';
export type { SanitizeRule, NetFieldType, NetValueSet, NetFieldDef, Direction, NetMessageDef, NetJsonWriter, NetProtocolDef, NetMessageBase, UnknownNetMessage, AnyNetMessage, DecodeOptions } from './table.js';
import type { AnyNetMessage, DecodeOptions, NetFieldDef, NetMessageDef, NetProtocolDef, UnknownNetMessage } from './table.js';


const NETMSG_EX = 0;

/** The field values of the message being decoded (reused: decoding does not nest; they stay until overwritten). */
let fieldValues: unknown[] = new Array<unknown>(16);

/**
 * The reader of the message being decoded, pointed at each message in turn (decoding does not nest, and
 * nothing decoded keeps the reader): a new one per message was a ninth of a capture's decoding garbage.
 */
const messageReader = new ByteReader(new Uint8Array(0));
// Its texts are checked as they are read (the NOT_CANONICAL check in decodeWithSharedReader).
messageReader.checkTexts = true;

/** A message of the table with what decoding it needs, worked out once per table. */
interface Reading {
  def: NetMessageDef;
  /**
   * The def's name and build, read here: the generated defs have several shapes (uuid, since...), so reading
   * them off the def was a megamorphic property load per message.
   */
  name: string;
  build: NetMessageDef['build'];
  /** The def's read (undefined when an optional field's length is in a field read by it: see indexOf). */
  read: NetMessageDef['read'];
  /** Each field's path in errors (`message.field`). */
  paths: string[];
  /** Per field: the index of the field holding its length or count (sizeField), else -1. */
  sizeIndex: number[];
  /** The fields `build` sets (those before the first optional one). */
  fixed: number;
  /**
   * The message's field definitions copied into objects of one shape (every NetFieldDef key, undefined where
   * the schema gives none): the generated tables hold fields of many shapes, and reading `type`, `optional`,
   * `size` off them was a megamorphic property load per field, the costliest part of decoding a small message.
   */
  fields: NetFieldDef[];
  /** Per field: whether it is an int or tick (read right in the decode loop, by far the most common field). */
  isInt: boolean[];
}

/**
 * A field definition with every key present, in one order (see Reading.fields). `satisfies` makes a key added
 * to NetFieldDef and not listed here a type error rather than a key the decoder silently drops.
 */
function uniformField(f: NetFieldDef): NetFieldDef {
  return {
    name: f.name,
    key: f.key,
    type: f.type,
    description: f.description,
    optional: f.optional,
    min: f.min,
    max: f.max,
    mask: f.mask,
    sanitize: f.sanitize,
    size: f.size,
    count: f.count,
    sizeField: f.sizeField,
    countDivisor: f.countDivisor,
    countTable: f.countTable,
    counts: f.counts,
    nonempty: f.nonempty,
    values: f.values,
  } satisfies Record<keyof NetFieldDef, unknown>;
}

/** Message ids (id << 1 | system) below this are looked up in an array, not the Map. */
const ID_LIST_SIZE = 512;

interface Index {
  /** By id << 1 | system, for ids below ID_LIST_SIZE (an array look-up costs less than a Map's). */
  byIdList: (Reading | undefined)[];
  byId: Map<number, Reading>;
  byUuid: Map<string, Reading>;
  byName: Map<string, NetMessageDef>;
}
const indexes = new WeakMap<NetProtocolDef, Index>();
/** The table last looked up: decoders decode message after message of one table. */
let lastProtocol: NetProtocolDef | undefined;
let lastIndex: Index | undefined;
function indexOf(protocol: NetProtocolDef): Index {
  if (protocol === lastProtocol) return lastIndex!;
  let index = indexes.get(protocol);
  if (!index) {
    index = { byIdList: new Array<Reading | undefined>(ID_LIST_SIZE).fill(undefined), byId: new Map(), byUuid: new Map(), byName: new Map() };
    for (const m of protocol.messages) {
      const firstOptional = m.fields.findIndex((f) => f.optional);
      const fixed = firstOptional < 0 ? m.fields.length : firstOptional;
      const sizeIndex = m.fields.map((f) => (f.sizeField ? m.fields.findIndex((g) => g.name === f.sizeField) : -1));
      // `read` keeps the values of the fields it reads in locals: an optional field sized by one of them is read by the table.
      const readable = sizeIndex.every((k, i) => i < fixed || k < 0 || k >= fixed);
      const reading: Reading = {
        def: m,
        name: m.name,
        build: m.build,
        read: readable ? m.read : undefined,
        paths: m.fields.map((f) => `${m.name}.${f.name}`),
        sizeIndex,
        fixed,
        fields: m.fields.map(uniformField),
        isInt: m.fields.map((f) => f.type === 'int' || f.type === 'tick'),
      };
      index.byName.set(m.name, m);
      if (m.uuid) index.byUuid.set(`${m.system ? 1 : 0}${m.uuid}`, reading);
      else {
        const key = netMessageFirstInt(m);
        index.byId.set(key, reading);
        if (key >= 0 && key < ID_LIST_SIZE) index.byIdList[key] = reading;
      }
    }
    indexes.set(protocol, index);
  }
  lastProtocol = protocol;
  lastIndex = index;
  return index;
}

/**
 * The first int of a message as packed: its id shifted left once, plus 1 for a system message (DDNet 16.4
 * src/engine/shared/packer / protocol.h, CMsgPacker); a UUID message has id 0 (NETMSG_EX), its UUID follows.
 */
export function netMessageFirstInt(def: Pick<NetMessageDef, 'id' | 'system' | 'uuid'>): number {
  return ((def.uuid ? NETMSG_EX : def.id) << 1) | (def.system ? 1 : 0);
}

/** The schema entry of a message name, or undefined. */
export function netMessageDef(protocol: NetProtocolDef, name: string): NetMessageDef | undefined {
  return indexOf(protocol).byName.get(name);
}

/**
 * The schema entry of the packed message at the start of `bytes`, from its framing alone (the id and system
 * flag, and the UUID after id 0), without reading its fields: for listings of many messages that decode one
 * when it is opened. `id` is the numeric id (0 for a UUID message), -1 when the framing does not read.
 */
export function peekNetMessage(protocol: NetProtocolDef, bytes: Uint8Array): { def: NetMessageDef | undefined; id: number } {
  const r = new ByteReader(bytes, 0, bytes.length, 0);
  let msg: number;
  try {
    msg = r.readVarInt('id');
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    return { def: undefined, id: -1 };
  }
  const system = msg & 1;
  const id = msg >> 1;
  const index = indexOf(protocol);
  // A UUID message cut short names no message.
  if (id === NETMSG_EX) return { def: r.remaining >= 16 ? index.byUuid.get(`${system}${uuidFromBytes(r.readBytes(16, 'uuid'))}`)?.def : undefined, id };
  return { def: (msg >= 0 && msg < ID_LIST_SIZE ? index.byIdList[msg] : index.byId.get(msg))?.def, id };
}

function wrap(e: unknown, base: number): never {
  if (e instanceof CodecError && !(e instanceof NetMessageError)) throw new NetMessageError(e.code, e.detail, e.offset + base, e.path, { cause: e });
  throw e;
}

/** Decodes one packed message (as a demo message chunk or a teehistorian MESSAGE holds it). */
export function decodeNetMessage(protocol: NetProtocolDef, bytes: Uint8Array, options: DecodeOptions = {}): AnyNetMessage | UnknownNetMessage {
  return decodeNetMessageAt(protocol, bytes, 0, bytes.length, options);
}

/**
 * decodeNetMessage of the message in `bytes[start, end)`, for decoders that hold many messages in one array
 * (the chunks of a packet): no view is made per message. Offsets in errors count from `start`.
 */
export function decodeNetMessageAt(protocol: NetProtocolDef, bytes: Uint8Array, start: number, end: number, options: DecodeOptions = {}): AnyNetMessage | UnknownNetMessage {
  try {
    return decodeWithSharedReader(protocol, bytes, start, end, options);
  } finally {
    // The shared reader lets go of the bytes: they may be a whole capture file, which the caller expects to be
    // collectable once it is done with it. (The field scratch holds only the last message's values.)
    messageReader.release();
  }
}

function decodeWithSharedReader(protocol: NetProtocolDef, bytes: Uint8Array, start: number, end: number, options: DecodeOptions): AnyNetMessage | UnknownNetMessage {
  const base = options.baseOffset ?? 0;
  const r = messageReader.repoint(bytes, start, end, base - start);
  const textsNotBack = r.textsNotBack;
  let msg: number;
  let uuid: Uuid | undefined;
  try {
    msg = r.readVarInt('id');
    if (msg < 0) throw new NetMessageError('BAD_MESSAGE_ID', `negative message id ${msg}`, base, 'id');
    if (msg >> 1 === NETMSG_EX) uuid = uuidFromBytes(r.readBytes(16, 'uuid'));
  } catch (e) {
    wrap(e, 0);
  }
  const system = (msg & 1) === 1;
  const index = indexOf(protocol);
  const reading = uuid ? index.byUuid.get(`${system ? 1 : 0}${uuid}`) : msg < ID_LIST_SIZE ? index.byIdList[msg] : index.byId.get(msg);
  const fieldsStart = r.pos;
  if (!reading) return unknownMessage(bytes, end, msg, uuid, fieldsStart);
  // Padding fills up to a multiple of 4: a message of another length has none.
  const padded = options.padded !== false && (end - start) % 4 === 0;
  try {
    const fields = reading.fields;
    const isInt = reading.isInt;
    const values = fieldValues.length >= fields.length ? fieldValues : (fieldValues = new Array<unknown>(fields.length));
    const paths = reading.paths;
    const fixed = reading.fixed;
    const read = reading.read;
    let out: AnyNetMessage | undefined;
    let n = 0;
    // The fields before the first optional one are all there (no check of `optional` for them).
    if (read) {
      out = read(r);
      n = fixed;
    } else for (; n < fixed; n++) values[n] = isInt[n] ? r.readVarInt(paths[n]) : readField(r, fields[n]!, values, reading.sizeIndex[n]!, paths[n]!, padded);
    for (; n < fields.length; n++) {
      const f = fields[n]!;
      if (f.optional && (r.pos === end || (padded && isPadding(bytes, r.pos, end)))) break;
      values[n] = isInt[n] ? r.readVarInt(paths[n]) : readField(r, f, values, reading.sizeIndex[n]!, paths[n]!, padded);
    }
    let i = fixed;
    if (!out) {
      const build = reading.build;
      if (build) out = build(values);
      else {
        out = { kind: reading.name };
        i = 0;
      }
    }
    for (; i < n; i++) out[fields[i]!.key] = values[i];
    if (r.remaining > 0) out.trailing = copyBytes(bytes, r.pos, end);
    // Lossless or nothing: a message that would not be written back byte for byte stays raw. Its other fields
    // are read only in the form they are written in (shortest varints, bools 0 or 1), and every field that is
    // not a number or text keeps its bytes, so only a text can come back otherwise (invalid UTF-8, or a leading
    // byte order mark, which TextDecoder drops): readCString counted those, and a message without text read none.
    if (r.textsNotBack !== textsNotBack)
      throw new NetMessageError('NOT_CANONICAL', `${reading.name} would not be written back as read (e.g. invalid UTF-8)`, base + fieldsStart - start, reading.name);
    return out;
  } catch (e) {
    if (options.lenient && e instanceof CodecError) return unknownMessage(bytes, end, msg, uuid, fieldsStart, `${e.code}: ${e.detail}`);
    wrap(e, 0);
  }
}

/**
 * Whether `bytes[from, end)` can only be a demo's padding of a message that ended at `from`: fewer than 4
 * bytes (the padding fills up to the next multiple of 4), all zero. An optional field sent there with the
 * value 0 (false, an empty string) has the same bytes; such a message decodes without the field and keeps
 * the byte in `trailing`, so it is written back the same either way.
 */
function isPadding(bytes: Uint8Array, from: number, end: number): boolean {
  if (end - from > 3) return false;
  for (let i = from; i < end; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** A message kept as its bytes after the id (and UUID): one the table does not name, or (lenient) one that does not read. */
function unknownMessage(bytes: Uint8Array, end: number, msg: number, uuid: Uuid | undefined, fieldsStart: number, error?: string): UnknownNetMessage {
  const system = (msg & 1) === 1;
  const id = msg >> 1;
  const data = copyBytes(bytes, fieldsStart, end);
  const out: UnknownNetMessage = uuid ? { kind: 'unknown', system, id, uuid, data } : { kind: 'unknown', system, id, data };
  if (error) out.error = error;
  return out;
}

/** `n` ints (all that is left when n is undefined); the error of a bad one names its index. */
function readInts(r: ByteReader, n: number | undefined, path: string): number[] {
  // A known count gets an array of its size (one grown by push from empty was most of reading an input).
  const ints: number[] = n === undefined ? [] : new Array<number>(n);
  let i = 0;
  try {
    if (n === undefined) for (; r.pos < r.end; i++) ints.push(r.readVarInt());
    else for (; i < n; i++) ints[i] = r.readVarInt();
  } catch {
    // The failed read again with its path (the reader did not move), for the error; the path costs a string
    // per int, so it is made only here.
    r.readVarInt(`${path}[${i}]`);
  }
  return ints;
}

// The field readers: what readField does for each type, also called by the generated `read` functions.

/** A bool: an int 0 or 1. */
export function readBool(r: ByteReader, path: string): boolean {
  const at = r.offset;
  const v = r.readVarInt(path);
  if (v !== 0 && v !== 1) throw new NetMessageError('BAD_BOOL', `bool field is ${v}, not 0 or 1`, at, path);
  return v === 1;
}

/** A UUID: 16 bytes. */
export function readUuid(r: ByteReader, path: string): Uuid {
  return uuidFromBytes(r.readBytes(16, path));
}

/** `n` bytes, copied (the message's array may be a buffer its caller reuses). */
export function readCopy(r: ByteReader, n: number, path: string): Uint8Array {
  r.ensure(n, path);
  r.pos += n;
  return copyBytes(r.bytes, r.pos - n, r.pos);
}

/** `n` ints (an int_array field of that count). */
export function readIntArray(r: ByteReader, n: number, path: string): number[] {
  // Every int takes at least one byte: a count beyond the bytes left is truncation, not an allocation.
  if (n > r.remaining) throw new NetMessageError('TRUNCATED', `${n} ints, ${r.remaining} bytes left`, r.offset, path);
  return readInts(r, n, path);
}

/** The length or count a field takes from `value`, the field `sizeField` read before it, over `divisor`. */
export function lengthOf(r: ByteReader, value: unknown, sizeField: string | undefined, divisor: number, path: string): number {
  const n = value as number;
  if (n < 0 || n % divisor !== 0) throw new NetMessageError('BAD_LENGTH', `${sizeField} is ${n}`, r.offset, path);
  return n / divisor;
}

/**
 * One field. `values` holds the fields read before it; `sizeIndex` is where its sizeField is among them;
 * `padded`: the message may end in a demo's padding to a multiple of 4 bytes (see withoutPadding).
 */
function readField(r: ByteReader, f: NetFieldDef, values: readonly unknown[], sizeIndex: number, path: string, padded: boolean): unknown {
  switch (f.type) {
    case 'int':
    case 'tick':
      return r.readVarInt(path);
    case 'bool':
      return readBool(r, path);
    case 'string':
      return r.readCString(path);
    case 'uuid':
      return readUuid(r, path);
    case 'raw':
      return readCopy(r, f.size ?? lengthOf(r, values[sizeIndex], f.sizeField, 1, path), path);
    case 'raw_rest':
      return readCopy(r, r.remaining, path);
    case 'int_array':
      return readIntArray(r, f.count ?? (f.countTable ? countFromTable(r, f, values[sizeIndex], path) : lengthOf(r, values[sizeIndex], f.sizeField, f.countDivisor ?? 1, path)), path);
    case 'string_array': {
      const n = f.count ?? lengthOf(r, values[sizeIndex], f.sizeField, 1, path);
      // Every string takes at least its NUL: a count beyond the bytes left is truncation, not an allocation.
      if (n > r.remaining) throw new NetMessageError('TRUNCATED', `${n} strings, ${r.remaining} bytes left`, r.offset, path);
      const strings: string[] = [];
      for (let i = 0; i < n; i++) strings.push(r.readCString(`${path}[${i}]`));
      return strings;
    }
    case 'int_rest': {
      return withoutPadding(r, f, readInts(r, undefined, path), 0, padded);
    }
    case 'string_rest': {
      const strings: string[] = [];
      while (r.remaining > 0) strings.push(r.readCString(`${path}[${strings.length}]`));
      return withoutPadding(r, f, strings, '', padded);
    }
  }
}

/**
 * A demo pads each message chunk with zero bytes to a multiple of 4 (DDNet's CDemoRecorder::Write); read to
 * the end, those bytes are up to 3 ints 0 or empty strings. When the field says what senders write (`counts`,
 * `nonempty`), the items that can only be padding are given back to the reader, so they end up in `trailing`
 * and the message is still written back byte for byte.
 */
function withoutPadding<T>(r: ByteReader, f: NetFieldDef, items: T[], zero: T, padded: boolean): T[] {
  if (!padded) return items;
  let zeros = 0;
  while (zeros < 3 && zeros < items.length && items[items.length - 1 - zeros] === zero) zeros++;
  let drop = 0;
  if (f.nonempty) drop = zeros;
  // The fewest items a sender could have written: DDNet 16.4's 45 tune params padded with 2 zeros read as 47,
  // the count of 18.0, whose last two (ground elasticity) default to 0; the bytes cannot tell them apart, and
  // DDNet's client gives a missing param its default, so both readings mean the same tuning.
  else if (f.counts) drop = [3, 2, 1].find((k) => k <= zeros && f.counts!.includes(items.length - k)) ?? 0;
  if (drop === 0) return items;
  // Each such item is the single byte 0.
  r.pos -= drop;
  return items.slice(0, items.length - drop);
}

function countFromTable(r: ByteReader, f: NetFieldDef, value: unknown, path: string): number {
  const n = f.countTable![value as number];
  if (n === undefined) throw new NetMessageError('BAD_LENGTH', `${f.sizeField} is ${String(value)}, which says no count (0..${f.countTable!.length - 1})`, r.offset, path);
  return n;
}

/** Encodes a message of the protocol (or an UnknownNetMessage) to its packed bytes. */
export function encodeNetMessage(protocol: NetProtocolDef, message: { readonly kind: string } | UnknownNetMessage): Uint8Array {
  const w = new ByteWriter(64);
  if (message.kind === 'unknown') {
    const u = message as UnknownNetMessage;
    w.writeVarInt(((u.uuid ? NETMSG_EX : u.id) << 1) | (u.system ? 1 : 0));
    if (u.uuid) w.writeBytes(uuidToBytes(u.uuid));
    w.writeBytes(u.data);
    return w.finish().slice();
  }
  const def = indexOf(protocol).byName.get(message.kind);
  if (!def) throw new NetMessageError('UNKNOWN_MESSAGE', `${protocol.protocol} has no message ${message.kind}`, -1, 'kind');
  w.writeVarInt(netMessageFirstInt(def));
  if (def.uuid) w.writeBytes(uuidToBytes(def.uuid));
  const m = message as unknown as AnyNetMessage;
  for (const f of def.fields) {
    const v = m[f.key];
    const path = `${def.name}.${f.name}`;
    if (v === undefined) {
      if (f.optional) break;
      throw new NetMessageError('MISSING_FIELD', `${path} is missing`, -1, path);
    }
    writeField(w, f, v, path);
  }
  if (m.trailing) w.writeBytes(m.trailing);
  return w.finish().slice();
}

function writeField(w: ByteWriter, f: NetFieldDef, v: unknown, path: string): void {
  const bad = (what: string): never => {
    throw new NetMessageError('BAD_FIELD', `${path} must be ${what}`, -1, path);
  };
  switch (f.type) {
    case 'int':
    case 'tick':
      if (!Number.isInteger(v) || (v as number) < -0x80000000 || (v as number) > 0x7fffffff) bad('a 32-bit integer');
      w.writeVarInt(v as number);
      return;
    case 'bool':
      if (typeof v !== 'boolean') bad('a boolean');
      w.writeVarInt(v ? 1 : 0);
      return;
    case 'string':
      if (typeof v !== 'string' || v.includes('\0')) bad('a string without NUL');
      w.writeCString(v as string);
      return;
    case 'uuid':
      if (typeof v !== 'string') bad('a UUID');
      w.writeBytes(uuidToBytes(v as Uuid));
      return;
    case 'raw':
    case 'raw_rest':
      if (!(v instanceof Uint8Array) || (f.size !== undefined && v.length !== f.size)) bad(f.size !== undefined ? `${f.size} bytes` : 'a Uint8Array');
      w.writeBytes(v as Uint8Array);
      return;
    case 'int_array':
    case 'int_rest':
      if (!Array.isArray(v) || (f.count !== undefined && v.length !== f.count)) bad('an array of ints');
      for (const x of v as unknown[]) writeField(w, { ...f, type: 'int' }, x, path);
      return;
    case 'string_array':
    case 'string_rest':
      if (!Array.isArray(v) || (f.count !== undefined && v.length !== f.count)) bad('an array of strings');
      for (const x of v as unknown[]) writeField(w, { ...f, type: 'string' }, x, path);
      return;
  }
}
