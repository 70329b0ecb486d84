// The directory form of a map as one fuzz input (the map-pack target; seeds.mjs makes its seeds with it).
import { concatBytes } from '@twcodec/map';

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
