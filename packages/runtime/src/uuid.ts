import { encodeUtf8 } from './utf8.js';
import { CodecError } from './errors.js';
import { md5 } from './md5.js';

/** A UUID in its canonical text form: 36 lowercase characters with dashes. */
export type Uuid = string;

/** The namespace of all Teeworlds/DDNet UUIDs (checked against DDNet's uuid_manager.cpp). */
export const TEEWORLDS_NAMESPACE: Uuid = 'e05ddaaa-c4e6-4cfb-b642-5d48e80c0029';

/** How many UUIDs uuidFromBytes and uuidToBytes each keep (files repeat a few; see there). */
const RECENT_MAX = 64;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isUuid(text: string): text is Uuid {
  return UUID_PATTERN.test(text);
}

/** The value of a lowercase hex digit's char code (isUuid admits no others). */
function hexDigit(code: number): number {
  return code <= 0x39 ? code - 0x30 : code - 0x57;
}

/** The bytes of UUID texts converted lately (at most RECENT_MAX; see uuidToBytes). */
const recentBytes = new Map<string, Uint8Array>();

export function uuidToBytes(uuid: Uuid): Uint8Array {
  // A copy of the bytes found for the same text lately: the teehistorian reader writes every known extension
  // message back to check it, and the pattern test cost more than the rest of that (issue 41).
  const known = recentBytes.get(uuid);
  if (known !== undefined) return known.slice();
  if (!isUuid(uuid)) throw new CodecError('BAD_UUID', `not a UUID: ${JSON.stringify(uuid)}`);
  const out = new Uint8Array(16);
  for (let i = 0, c = 0; i < 16; i++, c += 2) {
    if (c === 8 || c === 13 || c === 18 || c === 23) c++;
    out[i] = (hexDigit(uuid.charCodeAt(c)) << 4) | hexDigit(uuid.charCodeAt(c + 1));
  }
  if (recentBytes.size >= RECENT_MAX) recentBytes.clear();
  recentBytes.set(uuid, out.slice());
  return out;
}

/** The char code of a lowercase hex digit by value. */
const HEX_CODE = Array.from({ length: 16 }, (_, v) => v.toString(16).charCodeAt(0));

/** UUIDs made lately, by their first four bytes: the bytes and the text (at most RECENT_MAX; see uuidFromBytes). */
const recent = new Map<number, { bytes: Uint8Array; text: Uuid }>();

export function uuidFromBytes(bytes: Uint8Array, offset = 0): Uuid {
  if (offset < 0 || offset + 16 > bytes.length) throw new CodecError('TRUNCATED', 'UUID needs 16 bytes', offset);
  // Files repeat a few UUIDs (a teehistorian file's extension messages, a demo's or map's item types): the text
  // made for the same bytes before is returned again, which also keeps the hash V8 computed for it when it was
  // looked up in a Map (the teehistorian object iterator: about 4% of its time went to making and hashing
  // these strings anew; issue 41). Bounded: a stream of new UUIDs (connection ids) only refills the table.
  const key = bytes[offset]! | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16) | (bytes[offset + 3]! << 24);
  const seen = recent.get(key);
  if (seen !== undefined) {
    const b = seen.bytes;
    let i = 4;
    while (i < 16 && b[i] === bytes[offset + i]) i++;
    if (i === 16) return seen.text;
  }
  const text = uuidText(bytes, offset);
  if (recent.size >= RECENT_MAX) recent.clear();
  recent.set(key, { bytes: bytes.slice(offset, offset + 16), text });
  return text;
}

function uuidText(bytes: Uint8Array, offset: number): Uuid {
  // One flat string from its 36 char codes: a template of 20 pieces made a string of pieces that a Map
  // lookup or comparison flattened first (UUID text and the teehistorian extension lookup: about 1.5x faster).
  const hi = (i: number) => HEX_CODE[bytes[offset + i]! >> 4]!;
  const lo = (i: number) => HEX_CODE[bytes[offset + i]! & 15]!;
  return String.fromCharCode(
    hi(0), lo(0), hi(1), lo(1), hi(2), lo(2), hi(3), lo(3), 0x2d, hi(4), lo(4), hi(5), lo(5), 0x2d, hi(6), lo(6), hi(7), lo(7), 0x2d,
    hi(8), lo(8), hi(9), lo(9), 0x2d, hi(10), lo(10), hi(11), lo(11), hi(12), lo(12), hi(13), lo(13), hi(14), lo(14), hi(15), lo(15),
  );
}

/**
 * The version-3 (MD5) UUID of `name` in the Teeworlds namespace, as DDNet's CalculateUuid computes it,
 * e.g. `uuidFromName('mapitemtype-automapper-config@ddnet.tw')`.
 */
export function uuidFromName(name: string, namespace: Uuid = TEEWORLDS_NAMESPACE): Uuid {
  const ns = uuidToBytes(namespace);
  const nameBytes = encodeUtf8(name);
  const input = new Uint8Array(16 + nameBytes.length);
  input.set(ns);
  input.set(nameBytes, 16);
  const hash = md5(input);
  hash[6] = (hash[6]! & 0x0f) | 0x30;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  return uuidFromBytes(hash);
}

/**
 * UUIDs stored as four i32 (map UUID index items, snapshot type declarations): each i32 is the big-endian
 * reading of four consecutive UUID bytes, so in a little-endian file each 4-byte group appears reversed.
 */
export function uuidFromInts(ints: ArrayLike<number>, start = 0): Uuid {
  const bytes = new Uint8Array(16);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 4; i++) view.setInt32(i * 4, ints[start + i]! | 0, false);
  return uuidFromBytes(bytes);
}

export function uuidToInts(uuid: Uuid): Int32Array {
  const bytes = uuidToBytes(uuid);
  const view = new DataView(bytes.buffer);
  const out = new Int32Array(4);
  for (let i = 0; i < 4; i++) out[i] = view.getInt32(i * 4, false);
  return out;
}
