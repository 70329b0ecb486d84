// Text in the formats: UTF-8 (escaping the bytes that are not UTF-8, so they round-trip) and C strings.
import { concatBytes } from './arrays.js';

// The decoders are made on first use: a short run whose strings are all short ASCII (a small map's names)
// never makes one (start-up, issue 41).
let textDecoder: TextDecoder | undefined;
const looseDecoder = () => (textDecoder ??= new TextDecoder('utf-8', { fatal: false }));
const textEncoder = new TextEncoder();

/**
 * Decodes UTF-8 (invalid sequences become U+FFFD). Short ASCII strings, nearly every name in a map or a
 * recording, are built from their char codes: TextDecoder costs about 0.7 us a call whatever the length
 * (measured on Node 20: 1300 layer names 0.9 ms against 0.06 ms); any byte over 0x7F goes to TextDecoder.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  return shortAscii(bytes, 0, bytes.length) ?? looseDecoder().decode(bytes);
}

/** The text of `bytes[start..end)` when it is at most SHORT_STRING bytes of ASCII (the same under any UTF-8 decoder); undefined otherwise. */
export function shortAscii(bytes: Uint8Array, start: number, end: number): string | undefined {
  if (end - start > SHORT_STRING) return undefined;
  let text = '';
  let i = start;
  // Eight chars per String.fromCharCode: a string per char made as much garbage as the strings themselves and
  // took twice as long (3000 names of 3 to 42 chars, Node 20).
  for (; i + 8 <= end; i += 8) {
    const b0 = bytes[i]!, b1 = bytes[i + 1]!, b2 = bytes[i + 2]!, b3 = bytes[i + 3]!;
    const b4 = bytes[i + 4]!, b5 = bytes[i + 5]!, b6 = bytes[i + 6]!, b7 = bytes[i + 7]!;
    if ((b0 | b1 | b2 | b3 | b4 | b5 | b6 | b7) > 0x7f) return undefined;
    text += String.fromCharCode(b0, b1, b2, b3, b4, b5, b6, b7);
  }
  for (; i < end; i++) {
    const b = bytes[i]!;
    if (b > 0x7f) return undefined;
    text += String.fromCharCode(b);
  }
  return text;
}

/** Up to this many bytes, decodeUtf8 tries its ASCII loop before TextDecoder. */
export const SHORT_STRING = 64;

export function encodeUtf8(text: string): Uint8Array {
  return textEncoder.encode(text);
}

let strictDecoder: TextDecoder | undefined;
/** Lone low surrogates U+DC80..U+DCFF: the escapes decodeUtf8Escaped gives bytes that are not UTF-8. */
const ESCAPED_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;

/** The length of the valid UTF-8 sequence at `bytes[i]` (WHATWG/RFC 3629 rules), or 0 when there is none. */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < bytes.length && bytes[i + k]! >= lo && bytes[i + k]! <= hi;
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    const ok = b === 0xe0 ? cont(1, 0xa0) : b === 0xed ? cont(1, 0x80, 0x9f) : cont(1);
    return ok && cont(2) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const ok = b === 0xf0 ? cont(1, 0x90) : b === 0xf4 ? cont(1, 0x80, 0x8f) : cont(1);
    return ok && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/**
 * UTF-8 text that keeps bytes which are not UTF-8: each such byte b becomes the lone surrogate U+DC00 + b
 * (as Python's "surrogateescape" does), which no valid UTF-8 decodes to, and encodeUtf8Escaped turns it back
 * into the byte. Servers and clients store whatever bytes they got, so this is what makes a resave exact.
 */
export function decodeUtf8Escaped(bytes: Uint8Array): string {
  // Short ASCII (names, console commands) without TextDecoder's per-call cost, as in decodeUtf8.
  const ascii = shortAscii(bytes, 0, bytes.length);
  if (ascii !== undefined) return ascii;
  try {
    return (strictDecoder ??= new TextDecoder('utf-8', { fatal: true })).decode(bytes);
  } catch {
    let out = '';
    let run = 0; // start of the current run of valid sequences
    for (let i = 0; i < bytes.length; ) {
      const n = utf8SequenceLength(bytes, i);
      if (n) {
        i += n;
        continue;
      }
      out += looseDecoder().decode(bytes.subarray(run, i)) + String.fromCharCode(0xdc00 + bytes[i]!);
      run = ++i;
    }
    return out + looseDecoder().decode(bytes.subarray(run));
  }
}

/** The inverse of decodeUtf8Escaped: UTF-8, with each escaped byte (lone U+DC80..U+DCFF) written as that byte. */
export function encodeUtf8Escaped(text: string): Uint8Array {
  if (!ESCAPED_BYTE.test(text)) return textEncoder.encode(text);
  const parts: Uint8Array[] = [];
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const lone = c >= 0xdc80 && c <= 0xdcff && !(i > 0 && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800);
    if (!lone) continue;
    parts.push(textEncoder.encode(text.slice(run, i)), Uint8Array.of(c - 0xdc00));
    run = i + 1;
  }
  parts.push(textEncoder.encode(text.slice(run)));
  return concatBytes(parts);
}

/** The string in a C string buffer: its bytes up to the first NUL (or all of them), as UTF-8. */
export function decodeCString(bytes: Uint8Array): string {
  const nul = bytes.indexOf(0);
  return decodeUtf8(nul < 0 ? bytes : bytes.subarray(0, nul));
}
