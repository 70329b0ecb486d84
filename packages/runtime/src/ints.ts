const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * The little-endian i32 values in `bytes` (a trailing partial int is ignored). A view when the bytes are
 * aligned and the platform is little-endian, else a copy.
 */
export function int32sFromBytes(bytes: Uint8Array): Int32Array {
  const count = bytes.length >> 2;
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0) return new Int32Array(bytes.buffer, bytes.byteOffset, count);
  const out = new Int32Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < count; i++) out[i] = view.getInt32(i * 4, true);
  return out;
}

/** The bytes of `ints` in little-endian order (a view on little-endian platforms). */
export function bytesFromInt32s(ints: Int32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(ints.buffer, ints.byteOffset, ints.byteLength);
  const out = new Uint8Array(ints.length * 4);
  const view = new DataView(out.buffer);
  ints.forEach((v, i) => view.setInt32(i * 4, v, true));
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  let i = 0;
  // Four bytes at a time where both start on a 4-byte boundary (tile layers of hundreds of MB are compared
  // on every resave).
  if (a.length >= 64 && a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = a.length >>> 2;
    const wa = new Uint32Array(a.buffer, a.byteOffset, words);
    const wb = new Uint32Array(b.buffer, b.byteOffset, words);
    for (let w = 0; w < words; w++) if (wa[w] !== wb[w]) return false;
    i = words * 4;
  }
  for (; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
