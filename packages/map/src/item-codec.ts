// The fixed code the generated item decoders (generated/items.gen.ts) call beside @twcodec/runtime: written
// here once, not emitted by the generator as text. Internal: not exported from the package.
import { MapError } from './errors.js';

/**
 * Throws when an item has fewer ints than a field needs. `offset` is the item's byte offset in the file (or -1),
 * `path` the field.
 */
export function need(d: Int32Array, ints: number, path: string, offset: number): void {
  if (d.length < ints) {
    throw new MapError('ITEM_TOO_SHORT', `item has ${d.length} ints, ${path} needs ${ints}`, offset < 0 ? -1 : offset + d.length * 4, path);
  }
}
