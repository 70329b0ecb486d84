// JSON text as messageJson (message-json.ts) writes it, byte for byte, built by concatenation instead of
// JSON.stringify with a replacer: V8 takes its slow path for every value once there is a replacer, and that was
// a fifth of `net pcap`'s time (issue 41, node --cpu-prof on the corpus DDNet capture). Plain objects, arrays,
// strings, numbers, booleans and null are written here; Uint8Array as a hex string (messageJson's replacer);
// anything else (a class instance, a value with toJSON, a BigInt) is left to messageJson itself, so the output
// is the same whatever the value.
import { Buffer } from 'node:buffer';
import { messageJson } from './message-json.js';

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** The bytes as lowercase hex: a table for short arrays, Buffer's native hex for long ones (a view, no copy). */
export function hexOf(bytes: Uint8Array): string {
  if (bytes.length > 48) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]!];
  return s;
}

/** Object keys as JSON strings, quoted once: a capture's messages use a few hundred names. */
const quotedKeys = new Map<string, string>();
function quoted(key: string): string {
  let q = quotedKeys.get(key);
  if (q === undefined) {
    q = JSON.stringify(key);
    if (quotedKeys.size < 4096) quotedKeys.set(key, q);
  }
  return q;
}

/** The JSON of `value` as messageJson writes it; undefined for what JSON leaves out (undefined, a function, a symbol). */
export function fastJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? `${value}` : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object': {
      if (value === null) return 'null';
      if (value instanceof Uint8Array && value.constructor === Uint8Array) return `"${hexOf(value)}"`;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) break;
        let s = '[';
        for (let i = 0; i < value.length; i++) s += (i ? ',' : '') + (fastJson(value[i]) ?? 'null');
        return `${s}]`;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype || 'toJSON' in value) break;
      return objectJson(value as Record<string, unknown>);
    }
  }
  return messageJson(value as object);
}

/**
 * The JSON object of the members of `object` in its key order (a plain object's), leaving out the keys `skipA`
 * and `skipB` (a message's kind and trailing bytes, which its line writes elsewhere).
 */
export function objectJson(object: Record<string, unknown>, skipA?: string, skipB?: string): string {
  let s = '{';
  let first = true;
  for (const key in object) {
    if (!Object.hasOwn(object, key) || key === skipA || key === skipB) continue;
    const v = fastJson(object[key]);
    if (v === undefined) continue;
    s += (first ? '' : ',') + quoted(key) + ':' + v;
    first = false;
  }
  return `${s}}`;
}
