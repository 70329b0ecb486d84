// Readers of the variable-length field types the generated message decoders (generated/messages.gen.ts) call:
// fixed code, written here once rather than emitted by the generator as text. Internal: not exported from the
// package.
import { BinaryError, type ByteReader } from '@twcodec/runtime';

/** A `raw` field: a length (int), then that many bytes, copied. */
export function readRaw(r: ByteReader, path: string): Uint8Array {
  const at = r.offset;
  const n = r.readVarInt(path);
  if (n < 0) throw new BinaryError('BAD_LENGTH', `negative length ${n}`, at, path);
  // A copy made straight from the bytes (readBytes would make a view first).
  r.ensure(n, path);
  const data = r.bytes.slice(r.pos, r.pos + n);
  r.pos += n;
  return data;
}

/** A `string_array` field: a count (int), then that many NUL-terminated strings. */
export function readStringArray(r: ByteReader, path: string): string[] {
  const at = r.offset;
  const n = r.readVarInt(path);
  if (n < 0) throw new BinaryError('BAD_LENGTH', `negative count ${n}`, at, path);
  // Every string takes at least its NUL: a count beyond the bytes at hand cannot be met by them, so stop
  // before reading any (a stream reader waits for more bytes, a whole file ends truncated here).
  if (n > r.remaining) throw new BinaryError('TRUNCATED', `${n} strings need at least ${n} bytes, ${r.remaining} left`, at, path);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(r.readCString(`${path}[${i}]`));
  return out;
}
