// Bundled by treeshake.test.ts: a page that reads and writes maps.
import { readMap, writeMap } from '@twcodec/map';

export function rewrite(bytes) {
  return writeMap(readMap(bytes));
}
