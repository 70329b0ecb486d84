import { int32sFromBytes } from '@twcodec/runtime';

/**
 * How DDNet's client uses the records behind a layer's count field:
 * - `all`: quads are drawn only when the data holds all num_quads of them, else the layer is skipped
 *   (src/game/map/render_layer.cpp, checked at DDNet master 28baa427);
 * - `min`: min(num_sources, whole records in the data) sound sources play (src/game/client/components/mapsounds.cpp).
 */
export type RecordCountRule = 'all' | 'min';

export interface UsedRecords {
  /** The ints of the records the model holds: the first `count` records, or every whole record when there are fewer. */
  ints: Int32Array;
  /** What disagrees between the data and the count, for a read warning; undefined when they agree. */
  mismatch: string | undefined;
}

/** The records of a layer's data that the model holds, given the item's count field. */
export function usedRecords(bytes: Uint8Array, recordInts: number, count: number, rule: RecordCountRule): UsedRecords {
  const recordBytes = recordInts * 4;
  const whole = Math.floor(bytes.length / recordBytes);
  const used = Math.min(whole, Math.max(0, count));
  const ints = int32sFromBytes(bytes.subarray(0, used * recordBytes));
  if (whole === count && bytes.length % recordBytes === 0) return { ints, mismatch: undefined };
  // DDNet's editor stores an empty layer as one zeroed record with count 0 (see recordData).
  if (count === 0 && bytes.length === recordBytes && bytes.every((b) => b === 0)) return { ints, mismatch: undefined };
  const partial = bytes.length % recordBytes ? ` and ${bytes.length % recordBytes} bytes` : '';
  const effect =
    count > whole ? (rule === 'all' ? 'DDNet skips the layer' : `DDNet uses ${whole}`) : `DDNet uses the first ${Math.max(0, count)}`;
  return { ints, mismatch: `data holds ${whole} records${partial}, the count says ${count}: ${effect}` };
}

/** An element's record data as DDNet's editor stores it: an empty list is one zeroed record (the count stays 0). */
export function recordData(ints: Int32Array, recordInts: number): Int32Array {
  return ints.length ? ints : new Int32Array(recordInts);
}
