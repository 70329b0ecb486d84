// Reads a control or connectionless payload by its generated field list (schemas/net): the one
// interpreter behind every table, so that every bounds check lives here.
import { ByteReader, type ByteWriter, CodecError, decodeUtf8Escaped } from '@twcodec/runtime';
import { NetError } from './errors.js';
import type { PacketPayloadFieldDef } from './table.js';

const ASCII = new TextEncoder();
const magicBytes = new Map<string, Uint8Array>();
const magicOf = (value: string) => {
  let bytes = magicBytes.get(value);
  if (!bytes) magicBytes.set(value, (bytes = ASCII.encode(value)));
  return bytes;
};

function startsWith(r: ByteReader, bytes: Uint8Array): boolean {
  if (r.remaining < bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (r.bytes[r.pos + i] !== bytes[i]) return false;
  return true;
}

function readField(r: ByteReader, f: PacketPayloadFieldDef, path: string): unknown {
  switch (f.type) {
    case 'u8':
      return r.readU8(path);
    case 'token':
      return r.readI32BE(path) >>> 0;
    case 'magic': {
      const bytes = magicOf(f.value!);
      if (!startsWith(r, bytes)) throw new NetError('BAD_MAGIC', `expected ${JSON.stringify(f.value)}`, r.offset, path);
      r.skip(bytes.length, path);
      return true;
    }
    case 'string':
      return r.readCString(path);
    case 'int':
      return r.readVarInt(path);
    case 'decimal_string': {
      // A decimal number sent as text: kept as text (DDNet reads it with str_toint, so anything goes).
      const start = r.pos;
      r.readCString(path);
      return decodeUtf8Escaped(r.bytes.subarray(start, r.pos - 1));
    }
    case 'padding': {
      const n = r.remaining;
      const bytes = r.readBytes(n, path);
      const nonZero = bytes.findIndex((b) => b !== 0);
      if (nonZero >= 0) throw new NetError('BAD_PADDING', 'padding holds a non-zero byte', r.offset - n + nonZero, path);
      return n;
    }
    case 'list_rest': {
      const list: Record<string, unknown>[] = [];
      // Each entry is at least one byte, so the list is bounded by the bytes left.
      while (r.remaining > 0) list.push(readFields(r, f.fields!, `${path}[${list.length}]`));
      return list;
    }
  }
}

/** Reads `fields` from `r` (up to its end); optional fields are read only while bytes remain. */
export function readFields(r: ByteReader, fields: readonly PacketPayloadFieldDef[], path = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.optional && (r.remaining === 0 || (f.type === 'magic' && !startsWith(r, magicOf(f.value!))))) continue;
    const at = path ? `${path}.${f.name}` : f.name;
    try {
      out[f.key] = readField(r, f, at);
    } catch (e) {
      if (e instanceof NetError || !(e instanceof CodecError)) throw e;
      throw new NetError(e.code, e.detail, e.offset, e.path || at, { cause: e });
    }
  }
  return out;
}

/** Writes `fields` of `value` (the inverse of readFields): optional fields only when present. */
export function writeFields(w: ByteWriter, fields: readonly PacketPayloadFieldDef[], value: Record<string, unknown>, path = ''): void {
  for (const f of fields) {
    const v = value[f.key];
    const at = path ? `${path}.${f.name}` : f.name;
    if (v === undefined) {
      if (f.optional) continue;
      throw new NetError('MISSING_FIELD', `${at} is missing`, -1, at);
    }
    switch (f.type) {
      case 'u8':
        w.writeU8(v as number);
        break;
      case 'token':
        w.writeI32BE((v as number) | 0);
        break;
      case 'magic':
        w.writeBytes(magicOf(f.value!));
        break;
      case 'string':
      case 'decimal_string':
        w.writeCString(v as string);
        break;
      case 'int':
        w.writeVarInt(v as number);
        break;
      case 'padding':
        w.writeBytes(new Uint8Array(v as number));
        break;
      case 'list_rest':
        (v as Record<string, unknown>[]).forEach((entry, i) => writeFields(w, f.fields!, entry, `${at}[${i}]`));
        break;
    }
  }
}
