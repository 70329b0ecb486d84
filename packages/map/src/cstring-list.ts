// NUL-terminated strings as a map stores them: a name or a text data item (one string), and the info item's
// settings data item (the server commands of the map, one after another). readMap decodes them; writeMap encodes
// them and keeps an item's original bytes while they decode to the same strings.
import { concatBytes, decodeUtf8, encodeUtf8 } from '@twcodec/runtime';

/** Consecutive NUL-terminated strings (the settings data item). */
export function decodeCStringList(bytes: Uint8Array): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0) {
      out.push(decodeUtf8(bytes.subarray(start, i)));
      start = i + 1;
    }
  }
  if (start < bytes.length) out.push(decodeUtf8(bytes.subarray(start)));
  return out;
}

/** A string as a NUL-terminated data item. */
export const encodeCString = (text: string) => {
  const bytes = encodeUtf8(text);
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  return out;
};

/** Strings as the settings data item holds them: each NUL-terminated, one after another. */
export const encodeCStringList = (list: string[]) => concatBytes(list.map(encodeCString));