/**
 * Parts of the model built on first use (issue 41): a quads layer's `quads`, a sounds layer's `sources` and
 * the map's `envelopes` (with their points) are kept as the ints readMap took from the file until something
 * reads or assigns the property. Their objects (a quad is 17 objects, 752 bytes on Node 20) were most of what
 * readMap allocated (16.6 MB a pass over the 80 corpus maps, 6.4 MB without them), which V8's scavenger copied
 * and its concurrent marker visited while the inflated data drove collections; a reader that never looks at
 * them (tiles, images, info, a resave) no longer pays for them.
 *
 * The property is an own enumerable accessor until then, so Object.keys, JSON.stringify, spread,
 * structuredClone and deep equality see it where they saw the data property (in the same key order), and it
 * turns into a plain writable data property at the first get or set: the same array on every read after,
 * and assignment works as before. What tells it apart before that is its property descriptor (and
 * util.inspect, which shows `[Getter/Setter]`). The getter and setter are closures over their object, not
 * functions shared through a side table, so that a read through a Proxy (a reactive wrapper) or an object
 * inheriting from the model still finds its data; the object's properties go to V8's dictionary mode, which
 * costs nothing measurable for the few hundred layers and one map object a read makes.
 */

/** Where writeMap finds what a property that was never read would be built from (see pendingSource). */
const PENDING = Symbol('twcodec.pendingRecords');

interface LazyState {
  /** What the value is built from while the property was neither read nor assigned; undefined after. */
  source: unknown;
  value: unknown;
}

type LazyGetter = (() => unknown) & { [PENDING]?: LazyState };

/**
 * Defines `target[key]` as `build(source)`, built at the first read. `source` must not change afterwards
 * (readMap passes copies of ints: the data they come from may be the caller's input, or tiles the model lets
 * users edit).
 */
export function defineLazyValue<S>(target: object, key: string, source: S, build: (source: S) => unknown): void {
  const state: LazyState = { source, value: undefined };
  const get: LazyGetter = () => {
    const pending = state.source as S | undefined;
    if (pending !== undefined) {
      state.value = build(pending);
      state.source = undefined;
      // A sealed or frozen object keeps the accessor; the value stays the one built here.
      Reflect.defineProperty(target, key, { value: state.value, writable: true, enumerable: true, configurable: true });
    }
    return state.value;
  };
  const set = (value: unknown): void => {
    state.source = undefined;
    state.value = value;
    // As assigning to a data property of a frozen object in a module (strict mode) throws.
    if (!Reflect.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })) {
      throw new TypeError(`Cannot assign to read only property '${key}' of object`);
    }
  };
  get[PENDING] = state;
  Object.defineProperty(target, key, { get, set, enumerable: true, configurable: true });
}

/** A list of records decoded from `ints` at the first read (see defineLazyValue). */
export function defineLazyRecords(target: object, key: string, ints: Int32Array, decode: (ints: Int32Array) => unknown[]): void {
  defineLazyValue(target, key, ints, decode);
}

/**
 * What `target[key]` would be built from, when it was defined by defineLazyValue and has been neither read
 * nor assigned since, else undefined.
 */
export function pendingSource(target: object, key: string): unknown {
  const get = Object.getOwnPropertyDescriptor(target, key)?.get as LazyGetter | undefined;
  return get?.[PENDING]?.source;
}

/** The ints behind `target[key]` when it was defined by defineLazyRecords and has been neither read nor assigned. */
export function pendingRecords(target: object, key: string): Int32Array | undefined {
  const source = pendingSource(target, key);
  return source instanceof Int32Array ? source : undefined;
}
