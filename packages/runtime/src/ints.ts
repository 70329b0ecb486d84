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

/**
 * The bytes of ASCII `text` (its char codes' low bytes) as little-endian int32 words, the last padded with zeros:
 * text kept to be written four bytes at a store (@twcodec/netmsg's NetJsonText, whose generated tables
 * @twcodec/codegen writes with these words ready-made).
 */
export function asciiInt32s(text: string): Int32Array {
  const words = new Int32Array((text.length + 3) >> 2);
  // ASCII text on a little-endian platform is its UTF-8 bytes in the words' own memory: written by the encoder,
  // natively, rather than by a loop over its characters, which V8 compiled in `net pcap`'s short runs (a few
  // hundred texts made while it writes: its times, routes, tokens; issue 41, node --trace-opt).
  if (LITTLE_ENDIAN && !NOT_ASCII.test(text)) {
    (asciiEncoder ??= new TextEncoder()).encodeInto(text, new Uint8Array(words.buffer));
    return words;
  }
  for (let i = 0; i < text.length; i++) words[i >> 2]! |= (text.charCodeAt(i) & 255) << ((i & 3) * 8);
  return words;
}
const NOT_ASCII = /[^\0-\x7f]/;
let asciiEncoder: TextEncoder | undefined;

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  let i = 0;
  // Four bytes at a time (tile layers of hundreds of MB are compared on every resave), through DataViews so
  // that it holds for any byte offset: a map's stored data sits anywhere in the file, and `map diff` compares
  // it stored. As fast as Uint32Array views where both are aligned, three times a byte loop where they are not
  // (4 MiB: 1.25 ms aligned, 4.0 ms byte by byte, 1.24 ms this way; Node 20).
  if (a.length >= 64) {
    const da = new DataView(a.buffer, a.byteOffset, a.length);
    const db = new DataView(b.buffer, b.byteOffset, b.length);
    const end = a.length - 3;
    for (; i < end; i += 4) if (da.getInt32(i, true) !== db.getInt32(i, true)) return false;
  }
  for (; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
