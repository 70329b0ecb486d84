// The per-tile scans of validateMap (padding and skip bytes, tile ids), and a memo of their results for a caller
// that validates the same unchanged tiles twice (fixMap; issue 41).
import { firstNonZeroPerOffset, recordsNotIn } from '@twcodec/runtime';

/**
 * What validateMap's scans of tile bytes found, kept by the memory they read (the buffer, the byte offset and
 * length of the tiles), for calls that see the same unchanged tiles again. fixMap validates a map, fixes copies
 * of the tiles it changes, writes the result and reads it back with the data it inflated the first time (the
 * same memory, for every layer the fix left alone) and validates that: with one TileScans given to both
 * validations, the second scans only the tiles the fix changed, a third of its run on a small map of many tiles
 * (issue 41; docs/performance.md). The findings are the same as without it as long as no byte a scan read has
 * changed since: give one only to calls over tiles nobody writes to in between.
 */
export class TileScans {
  private readonly byBuffer = new WeakMap<ArrayBufferLike, Map<string, unknown>>();

  /**
   * For each of `offsets`, the first whole `size`-byte tile of `bytes` whose byte at that offset is not 0, or
   * -1; scanned once per memory and offset.
   */
  firstNonZero(bytes: Uint8Array, size: number, offsets: readonly number[]): number[] {
    return firstNonZeroTiles(bytes, size, offsets, this);
  }

  /** @internal The results kept for `bytes`' memory. */
  resultsFor(bytes: Uint8Array): Map<string, unknown> {
    let results = this.byBuffer.get(bytes.buffer);
    if (!results) this.byBuffer.set(bytes.buffer, (results = new Map()));
    return results;
  }
}

/**
 * For each of `offsets`, the first whole `size`-byte tile of `bytes` whose byte at that offset is not 0, or -1
 * (one pass for all of them; with `scans`, none for the offsets it has seen in these bytes).
 */
export function firstNonZeroTiles(bytes: Uint8Array, size: number, offsets: readonly number[], scans?: TileScans): number[] {
  if (!scans) return firstNonZeroPerOffset(bytes, size, offsets);
  const results = scans.resultsFor(bytes);
  const keyOf = (z: number) => `${bytes.byteOffset} ${bytes.length} ${size} zero ${z}`;
  const missing = offsets.filter((z) => !results.has(keyOf(z)));
  if (missing.length) firstNonZeroPerOffset(bytes, size, missing).forEach((first, k) => results.set(keyOf(missing[k]!), first));
  return offsets.map((z) => results.get(keyOf(z)) as number);
}

/** The tiles of a scan for ids a layer does not accept: the first `cap` indices and how many in all. */
export interface InvalidTiles {
  readonly listed: readonly number[];
  readonly total: number;
}

/**
 * The tiles among the first `count` of `bytes` (`size` bytes each, the id at `idOffset`) whose id is not marked
 * 1 in `accepted`: the first `cap` indices and how many in all. `key` names `accepted` and `cap` for `scans`.
 */
export function invalidTileIds(
  bytes: Uint8Array,
  size: number,
  idOffset: number,
  count: number,
  accepted: Uint8Array,
  cap: number,
  key: string,
  scans?: TileScans,
): InvalidTiles {
  const results = scans?.resultsFor(bytes);
  const memoKey = results && `${bytes.byteOffset} ${bytes.length} ${size} ids ${idOffset} ${count} ${cap} ${key}`;
  const known = memoKey === undefined ? undefined : (results!.get(memoKey) as InvalidTiles | undefined);
  if (known) return known;
  const found = recordsNotIn(bytes, size, idOffset, count, accepted, cap);
  if (memoKey !== undefined) results!.set(memoKey, found);
  return found;
}
