// The directory form of a map as one fuzz input (the map-pack target; seeds.mjs makes its seeds with it).
import { concatBytes } from '@twcodec/runtime';

/**
 * A directory form as one input: `@@ name` lines start each file (map.json, layers/*.txt, images/*.png, ...).
 * The fuzzer mutates the text and the PNG bytes between them; seeds are the fixture maps unpacked.
 */
const DIR_MARK = '\n@@ ';

export function dirToInput(files) {
  const parts = [];
  for (const [name, data] of files) parts.push(new TextEncoder().encode(`${DIR_MARK}${name}\n`), data);
  return concatBytes(parts);
}

export function inputToDir(bytes) {
  const files = new Map();
  const text = new TextDecoder('latin1').decode(bytes);
  let at = text.indexOf(DIR_MARK);
  while (at >= 0) {
    const nameEnd = text.indexOf('\n', at + DIR_MARK.length);
    if (nameEnd < 0) break;
    const next = text.indexOf(DIR_MARK, nameEnd);
    files.set(text.slice(at + DIR_MARK.length, nameEnd), bytes.slice(nameEnd + 1, next < 0 ? bytes.length : next));
    at = next;
  }
  return files;
}

/** Run counts worth trying: none, one, byte and 16-bit edges, past 2^31 and 2^32, 10 and 11 digits. */
const RUN_COUNTS = [0, 1, 2, 3, 255, 256, 65535, 65536, 0x7fffffff, 0x80000000, 0xffffffff, 9999999999, 99999999999];

/**
 * A mutation of the tile text in a directory-form input (issue 36 row 14): one tile token of a `layers/` file
 * gets a run count of an edge size, one a few off (a run past its row's end, a row short), its run written as
 * one tile or a tile as a run, a `*` without a count, or copies of it on lines past the layer's end. Bytes
 * elsewhere are left alone; an input without tile text comes back as it is.
 */
export function mutateTileRuns(rng, bytes) {
  const text = new TextDecoder('latin1').decode(bytes);
  const files = [];
  for (let at = text.indexOf(DIR_MARK); at >= 0; ) {
    const nameEnd = text.indexOf('\n', at + DIR_MARK.length);
    if (nameEnd < 0) break;
    const next = text.indexOf(DIR_MARK, nameEnd);
    if (text.slice(at + DIR_MARK.length, nameEnd).startsWith('layers/')) files.push([nameEnd + 1, next < 0 ? text.length : next]);
    at = next;
  }
  if (!files.length) return bytes;
  const [start, end] = rng.pick(files);
  const tokens = [...text.slice(start, end).matchAll(/[0-9a-fA-F]+(?:\*(\d*))?/g)];
  if (!tokens.length) return bytes;
  const token = rng.pick(tokens);
  const [whole, count] = token;
  const hex = whole.split('*')[0];
  let from = start + token.index;
  let to = from + whole.length;
  let replacement;
  switch (rng.int(6)) {
    case 0:
      replacement = `${hex}*${rng.pick(RUN_COUNTS)}`;
      break;
    case 1:
      replacement = `${hex}*${Math.max(0, Number(count || 1) + rng.int(5) - 2)}`;
      break;
    case 2:
      replacement = count !== undefined ? hex : `${hex}*2`;
      break;
    case 3:
      replacement = `${hex}*`;
      break;
    case 4:
      // Lines past the layer's end: after the file's last line.
      from = to = end;
      replacement = `${text[end - 1] === '\n' ? '' : '\n'}${Array.from({ length: 1 + rng.int(4) }, () => whole).join('\n')}\n`;
      break;
    default:
      replacement = `${whole} ${whole}`;
  }
  const piece = new TextEncoder().encode(replacement);
  const out = new Uint8Array(bytes.length - (to - from) + piece.length);
  out.set(bytes.subarray(0, from));
  out.set(piece, from);
  out.set(bytes.subarray(to), from + piece.length);
  return out;
}
