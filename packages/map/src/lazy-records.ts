/**
 * Record lists decoded on first use (issue 41): a quads layer's `quads` and a sounds layer's `sources` are
 * kept as the ints readMap took from the layer's data until something reads or assigns the property. Their
 * objects (a quad is 17 objects, 752 bytes on Node 20) were half of what readMap allocated, and V8's
 * scavenger copied them and its concurrent marker visited them while the inflated data drove collections;
 * a reader that never looks at the quads (tiles, images, info, a resave) no longer pays for them.
 *
 * The property is an own enumerable accessor until then, so Object.keys, JSON.stringify, spread,
 * structuredClone and deep equality see it where they saw the data property (in the same key order), and it
 * turns into a plain writable data property at the first get or set: the same array on every read after,
 * and assignment works as before. What tells it apart before that is its property descriptor (and
 * util.inspect, which shows `[Getter/Setter]`).
 */

/** Where writeMap finds the ints behind a property that was never read (see pendingRecords). */
const PENDING = Symbol('twcodec.pendingRecords');

interface LazyState {
  /** The records' ints while the property was neither read nor assigned; undefined after. */
  ints: Int32Array | undefined;
  value: unknown;
}

type LazyGetter = (() => unknown) & { [PENDING]?: LazyState };

/**
 * Defines `target[key]` as `decode(ints)`, decoded at the first read. `ints` must not change afterwards
 * (readMap passes a copy: the data it comes from may be the caller's input, or tiles the model lets users
 * edit).
 */
export function defineLazyRecords(target: object, key: string, ints: Int32Array, decode: (ints: Int32Array) => unknown[]): void {
  const state: LazyState = { ints, value: undefined };
  const get: LazyGetter = () => {
    const pending = state.ints;
    if (pending !== undefined) {
      state.value = decode(pending);
      state.ints = undefined;
      // A sealed or frozen object keeps the accessor; the value stays the one decoded here.
      Reflect.defineProperty(target, key, { value: state.value, writable: true, enumerable: true, configurable: true });
    }
    return state.value;
  };
  const set = (value: unknown): void => {
    state.ints = undefined;
    state.value = value;
    // As assigning to a data property of a frozen object in a module (strict mode) throws.
    if (!Reflect.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })) {
      throw new TypeError(`Cannot assign to read only property '${key}' of object`);
    }
  };
  get[PENDING] = state;
  Object.defineProperty(target, key, { get, set, enumerable: true, configurable: true });
}

/**
 * The ints behind `target[key]` when it was defined by defineLazyRecords and has been neither read nor
 * assigned since (the records are then exactly those ints, decoded), else undefined.
 */
export function pendingRecords(target: object, key: string): Int32Array | undefined {
  const get = Object.getOwnPropertyDescriptor(target, key)?.get as LazyGetter | undefined;
  return get?.[PENDING]?.ints;
}
