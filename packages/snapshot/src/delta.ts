import { emptyObjectArray } from '@twcodec/runtime';
import type { SnapshotErrorCode } from './error-codes.js';
import { type SnapshotProtocol } from './generated/tables.gen.js';
import { itemKey, Snapshot, SnapshotError, type SnapshotItem, SNAPSHOT_MAX_ID, SNAPSHOT_MAX_ITEMS, SNAPSHOT_MAX_SIZE, SNAPSHOT_MAX_TYPE } from './snapshot.js';

/** Types below this can have a pre-agreed size (DDNet's MAX_NETOBJSIZES). */
const MAX_NETOBJSIZES = 64;

/** The pre-agreed sizes of a protocol, by type id (0 = none). */
export function sizeTable(protocol: SnapshotProtocol): Int16Array {
  const sizes = new Int16Array(MAX_NETOBJSIZES);
  for (const item of protocol.items) if (item.size !== undefined && !item.sizeInDelta && item.typeId < MAX_NETOBJSIZES) sizes[item.typeId] = item.size;
  return sizes;
}

const tables = new WeakMap<SnapshotProtocol, Int16Array>();
/**
 * The last protocol's table, found without the WeakMap: a capture's or a demo's deltas are all of one protocol,
 * and a WeakMap look-up per delta was a tenth of applyDelta's own time in `net pcap` (issue 41, node --cpu-prof).
 */
let lastProtocol: SnapshotProtocol | undefined;
let lastSizes: Int16Array | undefined;
function sizesOf(protocol: SnapshotProtocol): Int16Array {
  if (protocol === lastProtocol) return lastSizes!;
  let t = tables.get(protocol);
  if (!t) tables.set(protocol, (t = sizeTable(protocol)));
  lastProtocol = protocol;
  lastSizes = t;
  return t;
}

/** Whether an update of this type carries its size (DDNet: type >= 64, or no pre-agreed size). */
const carriesSize = (sizes: Int16Array, type: number) => type >= MAX_NETOBJSIZES || !sizes[type];

/**
 * Applies a delta to `old`, as DDNet's CSnapshotDelta::UnpackDelta does: old items minus the deleted ones
 * in their order, updates added onto old items (wrapping), new items appended. Unlike DDNet, every doubtful
 * case is an error (deleting an absent key, an update of another size, trailing ints), and nothing is
 * changed before the whole delta has been checked: `old` is never modified.
 */
export interface ApplyDeltaOptions {
  /**
   * Item order of the result. `ddnet` (default): as DDNet's UnpackDelta — old items in their order, new ones
   * appended. `hint`: the order the sender most likely had: the delta lists changed and new items in the new
   * snapshot's order, so new items go before the next listed old item (servers build snapshots in entity
   * order, so new entities often sit before existing ones). Used to follow a recording's own order, which
   * createDelta needs to reproduce its deltas.
   */
  order?: 'ddnet' | 'hint';
  path?: string;
}

/**
 * Throws the SnapshotError of a delta at int `at`. A function of the module, not a closure per call over
 * `path`: applyDelta runs for every snapshot of a capture (issue 41).
 */
function fail(path: string, code: SnapshotErrorCode, message: string, at: number): never {
  throw new SnapshotError(code, message, at * 4, path);
}

/** Checks the delta's counts (deleted items, updated items) against its length. */
function checkDeltaHeader(delta: Int32Array, path: string): void {
  if (delta.length < 3) fail(path, 'TRUNCATED', `${delta.length} ints, the delta header needs 3`, delta.length);
  const numDeleted = delta[0]!;
  const numUpdates = delta[1]!;
  if (numDeleted < 0 || numDeleted > delta.length - 3) fail(path, 'BAD_COUNT', `${numDeleted} deleted items in ${delta.length} ints`, 0);
  if (numUpdates < 0 || numUpdates > delta.length) fail(path, 'BAD_COUNT', `${numUpdates} updated items`, 1);
}

/** The size (in ints) of the update readUpdateHeader read last: a module-level slot, so the hot loop allocates nothing. */
let updateSize = 0;

/**
 * Checks update `i`'s header at `p` (type, id, and the size when the protocol does not fix it) and that its
 * data fits; sets `updateSize` and returns where the data starts.
 */
function readUpdateHeader(delta: Int32Array, p: number, sizes: Int16Array, i: number, numUpdates: number, path: string): number {
  if (p + 2 > delta.length) fail(path, 'TRUNCATED', `update ${i} of ${numUpdates} runs past the end`, p);
  const type = delta[p]!;
  const id = delta[p + 1]!;
  if (type < 0 || type > SNAPSHOT_MAX_TYPE || id < 0 || id > SNAPSHOT_MAX_ID) fail(path, 'BAD_KEY', `type ${type}, id ${id}`, p);
  p += 2;
  let size: number;
  if (carriesSize(sizes, type)) {
    if (p + 1 > delta.length) fail(path, 'TRUNCATED', `update ${i} has no size`, p);
    size = delta[p++]!;
    if (size < 0 || size > SNAPSHOT_MAX_SIZE / 4) fail(path, 'BAD_SIZE', `size ${size}`, p - 1);
  } else {
    size = sizes[type]!;
  }
  if (p + size > delta.length) fail(path, 'TRUNCATED', `update ${i} needs ${size} ints, ${delta.length - p} left`, p);
  updateSize = size;
  return p;
}

// Item data made by applyDelta is carved out of shared chunks. A typed array over 64 bytes gets a backing
// store of its own, and allocating and collecting one per updated item was most of applyDelta's time (Node 20:
// ~440 ns for a 22-int character, ~20 ns for a view on a chunk). A chunk lives while any of its items does:
// at most one chunk per live item, 16 KiB each.
const CHUNK_INTS = 4096;
let chunk = new ArrayBuffer(CHUNK_INTS * 4);
let chunkUsed = 0;

/** Room for `size` ints; with `from`, a copy of `from[at]` onwards. */
function newItemData(size: number, from?: Int32Array, at = 0): Int32Array {
  let data: Int32Array;
  if (size > CHUNK_INTS / 4) data = new Int32Array(size);
  else {
    if (chunkUsed + size > CHUNK_INTS) {
      chunk = new ArrayBuffer(CHUNK_INTS * 4);
      chunkUsed = 0;
    }
    data = new Int32Array(chunk, chunkUsed * 4, size);
    chunkUsed += size;
  }
  // A loop rather than set(from.subarray()): a new item is a few dozen ints, and subarray makes a view for them.
  if (from) for (let k = 0; k < size; k++) data[k] = from[at + k]!;
  return data;
}

/**
 * applyDelta's old positions -> new positions when items are deleted, kept between calls: a typed array of
 * over 64 bytes made per call gets a backing store outside V8's heap, which took as long as the rest of a
 * delta with a deletion (issue 41, node --cpu-prof). Only applyDelta uses it, and only while it runs.
 */
let moved0 = new Int32Array(SNAPSHOT_MAX_ITEMS);
/** `moved0` for `n` items, zeroed. */
function movedScratch(n: number): Int32Array {
  if (moved0.length < n) moved0 = new Int32Array(n);
  moved0.fill(0, 0, n);
  return moved0;
}

/** applyDelta's options when none are given (no object made per call). */
const NO_OPTIONS: ApplyDeltaOptions = Object.freeze({});

export function applyDelta(old: Snapshot, delta: Int32Array, protocol: SnapshotProtocol, options: ApplyDeltaOptions = NO_OPTIONS): Snapshot {
  const oldIndex = old.keyIndex();
  // Repeated keys (only in snapshots built by hand; fromInts refuses them) take the general path.
  if (oldIndex.size !== old.items.length) return applyDeltaByKeys(old, delta, protocol, options);
  const path = options.path ?? 'delta';
  const sizes = sizesOf(protocol);
  checkDeltaHeader(delta, path);
  const numDeleted = delta[0]!;
  const numUpdates = delta[1]!;
  const oldItems = old.items;
  const n = oldItems.length;
  let p = 3;
  // Old positions -> positions in `items` (-1: deleted); only needed when something was deleted.
  let moved: Int32Array | undefined;
  let items: SnapshotItem[];
  let dataSize = old.dataSize;
  // The checksum (the wrapping sum of every item's ints) goes on from the base's when that is known: less the
  // deleted items' ints, plus every int the updates add (an updated item's sum grows by its diff's, a new one's
  // is its ints', a re-added one's its old item's plus the diff's). The tracker of a capture checks every
  // rebuilt snapshot's CRC: summing all the new snapshot's ints again was a sixth of rebuilding it (issue 41).
  const baseCrc = old.knownChecksum;
  let crc = baseCrc ?? 0;
  if (numDeleted) {
    // -1 for the deleted ones first, then every kept one's new position.
    moved = movedScratch(n);
    for (let i = 0; i < numDeleted; i++, p++) {
      const key = delta[p]!;
      const at = oldIndex.get(key);
      if (at === undefined) fail(path, 'DELETE_ABSENT', `deleted key ${key >>> 16}:${key & 0xffff} is not in the old snapshot`, p);
      moved[at!] = -1;
    }
    items = emptyObjectArray();
    for (let i = 0; i < n; i++) {
      if (moved[i]! < 0) {
        const dropped = oldItems[i]!.data;
        dataSize -= 4 + dropped.length * 4;
        if (baseCrc !== undefined) for (let k = 0; k < dropped.length; k++) crc = (crc - dropped[k]!) | 0;
        continue;
      }
      moved[i] = items.length;
      items.push(oldItems[i]!);
    }
  } else {
    // (An empty base's list may be one of small integers: see emptyObjectArray.)
    items = n ? oldItems.slice() : emptyObjectArray();
  }
  let added: Map<number, number> | undefined; // keys of new items -> their position in `items`
  const listed: number[] | undefined = options.order === 'hint' ? [] : undefined;
  for (let i = 0; i < numUpdates; i++) {
    const type = delta[p]!;
    const id = delta[p + 1]!;
    // Int32 positions and sizes (`| 0`): a call's result and a module variable are any value to V8, which then
    // checked and untagged them at every int of the loops below (issue 41, callgrind).
    p = readUpdateHeader(delta, p, sizes, i, numUpdates, path) | 0;
    const size = updateSize | 0;
    const key = itemKey(type, id);
    listed?.push(key);
    let oldAt = oldIndex.get(key);
    // Deleted, then sent again (DDNet's CreateDelta does so for a key past a full bucket of the new snapshot's
    // lookup): appended as a new item, but its data is still a diff against the old item, as DDNet 16.4's
    // UnpackDelta adds it to the old snapshot's item of that key.
    let readdedFrom: Int32Array | undefined;
    if (oldAt !== undefined && moved && moved[oldAt]! < 0) {
      readdedFrom = oldItems[oldAt]!.data;
      oldAt = undefined;
    }
    if (oldAt !== undefined) {
      const at = moved ? moved[oldAt]! : oldAt;
      // An item still the old one's object has not been updated yet.
      if (items[at] !== oldItems[oldAt]) fail(path, 'DUPLICATE_UPDATE', `item ${type}:${id} is updated twice`, p);
      const past = items[at]!.data;
      if (past.length !== size) fail(path, 'SIZE_MISMATCH', `update of ${type}:${id} has ${size} ints, the item ${past.length}`, p);
      const data = newItemData(size);
      for (let k = 0; k < size; k = (k + 1) | 0) {
        const d = delta[(p + k) | 0]!;
        data[k] = (past[k]! + d) | 0;
        crc = (crc + d) | 0;
      }
      items[at] = { type, id, data };
    } else {
      if (added?.has(key)) fail(path, 'DUPLICATE_UPDATE', `item ${type}:${id} is updated twice`, p);
      (added ??= new Map()).set(key, items.length);
      let data: Int32Array;
      if (readdedFrom) {
        if (readdedFrom.length !== size) fail(path, 'SIZE_MISMATCH', `update of ${type}:${id} has ${size} ints, the item ${readdedFrom.length}`, p);
        data = newItemData(size);
        for (let k = 0; k < size; k++) data[k] = (readdedFrom[k]! + delta[p + k]!) | 0;
      } else data = newItemData(size, delta, p);
      for (let k = 0; k < size; k++) crc = (crc + data[k]!) | 0;
      items.push({ type, id, data });
      dataSize += 4 + size * 4;
    }
    p = (p + size) | 0;
  }
  if (p !== delta.length) fail(path, 'TRAILING_DATA', `${delta.length - p} ints after the last update`, p);
  if (items.length > SNAPSHOT_MAX_ITEMS || dataSize > SNAPSHOT_MAX_SIZE) fail(path, 'LIMIT', `${items.length} items, ${dataSize} bytes: over DDNet's limits`, p);
  if (listed) {
    const index = new Map<number, number>();
    items.forEach((item, i) => index.set(itemKey(item.type, item.id), i));
    return new Snapshot(hintOrder(items, index, listed, old), undefined, dataSize, baseCrc === undefined ? undefined : crc);
  }
  // Nothing deleted or added: the same keys in the same order, so the old key index serves the new snapshot.
  return new Snapshot(items, numDeleted === 0 && !added ? oldIndex : undefined, dataSize, baseCrc === undefined ? undefined : crc);
}

/** applyDelta for an old snapshot with repeated keys: a deletion reaches every item of its key, an update the last one. */
function applyDeltaByKeys(old: Snapshot, delta: Int32Array, protocol: SnapshotProtocol, options: ApplyDeltaOptions): Snapshot {
  const path = options.path ?? 'delta';
  const sizes = sizesOf(protocol);
  checkDeltaHeader(delta, path);
  const numDeleted = delta[0]!;
  const numUpdates = delta[1]!;
  let p = 3;
  const deleted = new Set<number>();
  for (let i = 0; i < numDeleted; i++, p++) {
    const key = delta[p]!;
    if (old.indexOf(key) < 0) fail(path, 'DELETE_ABSENT', `deleted key ${key >>> 16}:${key & 0xffff} is not in the old snapshot`, p);
    deleted.add(key);
  }
  const items: SnapshotItem[] = [];
  const index = new Map<number, number>();
  for (const item of old.items) {
    const key = itemKey(item.type, item.id);
    if (deleted.has(key)) continue;
    index.set(key, items.length);
    items.push(item);
  }
  const updated = new Set<number>();
  const listed: number[] = [];
  let dataSize = items.reduce((s, item) => s + 4 + item.data.length * 4, 0);
  for (let i = 0; i < numUpdates; i++) {
    const type = delta[p]!;
    const id = delta[p + 1]!;
    p = readUpdateHeader(delta, p, sizes, i, numUpdates, path);
    const size = updateSize;
    const key = itemKey(type, id);
    if (updated.has(key)) fail(path, 'DUPLICATE_UPDATE', `item ${type}:${id} is updated twice`, p);
    updated.add(key);
    listed.push(key);
    const at = index.get(key);
    if (at !== undefined) {
      const past = items[at]!.data;
      if (past.length !== size) fail(path, 'SIZE_MISMATCH', `update of ${type}:${id} has ${size} ints, the item ${past.length}`, p);
      const data = newItemData(size);
      for (let k = 0; k < size; k++) data[k] = (past[k]! + delta[p + k]!) | 0;
      items[at] = { type, id, data };
    } else {
      index.set(key, items.length);
      // Deleted, then sent again: still a diff against the old item (see applyDelta).
      const past = deleted.has(key) ? old.items[old.indexOf(key)]!.data : undefined;
      if (past && past.length !== size) fail(path, 'SIZE_MISMATCH', `update of ${type}:${id} has ${size} ints, the item ${past.length}`, p);
      const data = newItemData(size, past ? undefined : delta, p);
      if (past) for (let k = 0; k < size; k++) data[k] = (past[k]! + delta[p + k]!) | 0;
      items.push({ type, id, data });
      dataSize += 4 + size * 4;
    }
    p += size;
  }
  if (p !== delta.length) fail(path, 'TRAILING_DATA', `${delta.length - p} ints after the last update`, p);
  if (items.length > SNAPSHOT_MAX_ITEMS || dataSize > SNAPSHOT_MAX_SIZE) fail(path, 'LIMIT', `${items.length} items, ${dataSize} bytes: over DDNet's limits`, p);
  return new Snapshot(options.order === 'hint' ? hintOrder(items, index, listed, old) : items, undefined, dataSize);
}

/**
 * Interleaves the listed items (in delta order) with the unlisted kept ones (in old order): each old item is
 * placed by its old position, each new one just before the next listed old item (or after the previous one).
 */
function hintOrder(items: SnapshotItem[], index: Map<number, number>, listed: number[], old: Snapshot): SnapshotItem[] {
  if (!listed.length) return items;
  const pos = listed.map((key) => old.indexOf(key));
  const want = new Array<number>(listed.length);
  for (let i = listed.length - 1, next = Infinity; i >= 0; i--) {
    if (pos[i]! >= 0) next = pos[i]!;
    want[i] = pos[i]! >= 0 ? pos[i]! : next - 0.5;
  }
  for (let i = 0, prev = -1; i < listed.length; i++) {
    if (pos[i]! >= 0) prev = pos[i]!;
    else if (want[i] === Infinity) want[i] = prev + 0.5;
  }
  const isListed = new Set(listed);
  const unlisted = items.filter((item) => !isListed.has(itemKey(item.type, item.id)));
  const out: SnapshotItem[] = [];
  let a = 0;
  let b = 0;
  while (a < listed.length || b < unlisted.length) {
    const u = unlisted[b];
    const uPos = u ? old.indexOf(itemKey(u.type, u.id)) : Infinity;
    if (a < listed.length && want[a]! <= uPos) out.push(items[index.get(listed[a++]!)!]!);
    else out.push(unlisted[b++]!);
  }
  return out;
}

// DDNet finds items through a hash of 256 buckets of at most 64 keys (snapshot.cpp); keys past a full
// bucket are not found, which changes what CreateDelta sends.
const HASHLIST_SIZE = 256;
const HASHLIST_BUCKET_SIZE = 64;

// A delta is built in a scratch buffer kept between calls and copied out at its real size.
let scratch = new Int32Array(1024);

/** The scratch buffer, grown to hold `before` ints and then an update of every item of `next`. */
function scratchFor(before: number, next: Snapshot): Int32Array {
  // An update takes at most 3 + size ints; dataSize / 4 (kept by the snapshot) counts 1 + size per item.
  const capacity = before + next.dataSize / 4 + 2 * next.items.length;
  if (scratch.length < capacity) scratch = new Int32Array(Math.max(capacity, 2 * scratch.length));
  return scratch;
}

function hashId(key: number): number {
  let hash = 5381;
  for (let shift = 0; shift < 4; shift++) hash = (Math.imul(hash, 33) + ((key >> (shift * 8)) & 0xff)) >>> 0;
  return hash % HASHLIST_SIZE;
}

/** DDNet's hashed lookup: a key is found only if it was among the first 64 keys of its bucket. */
function hashedIndex(snapshot: Snapshot): Map<number, number> {
  const counts = new Uint8Array(HASHLIST_SIZE);
  const found = new Map<number, number>();
  snapshot.items.forEach((item, i) => {
    const key = itemKey(item.type, item.id);
    const bucket = hashId(key);
    if (counts[bucket]! < HASHLIST_BUCKET_SIZE) {
      counts[bucket]!++;
      if (!found.has(key)) found.set(key, i);
    }
  });
  return found;
}

/**
 * DDNet's lookup for a snapshot: its plain key index when no bucket can hold more than 64 keys (always with
 * at most 64 items), which finds the same items; the hashed lookup otherwise.
 */
function lookupOf(snapshot: Snapshot): Map<number, number> {
  if (snapshot.items.length <= HASHLIST_BUCKET_SIZE) return snapshot.keyIndex();
  // Kept per snapshot like its key index: a stream of deltas looks each snapshot up twice (as next, then as old).
  let lookup = lookups.get(snapshot);
  if (!lookup) lookups.set(snapshot, (lookup = computeLookup(snapshot)));
  return lookup;
}

const lookups = new WeakMap<Snapshot, Map<number, number>>();

function computeLookup(snapshot: Snapshot): Map<number, number> {
  const items = snapshot.items;
  if (items.length > HASHLIST_BUCKET_SIZE) {
    const counts = new Uint8Array(HASHLIST_SIZE);
    for (let i = 0; i < items.length; i++) {
      const bucket = hashId(itemKey(items[i]!.type, items[i]!.id));
      if (++counts[bucket]! > HASHLIST_BUCKET_SIZE) return hashedIndex(snapshot);
    }
  }
  return snapshot.keyIndex();
}

/**
 * Writes the update of `item` at `out[p]`, against `past` (its data in the old snapshot; undefined for a new
 * item), and returns the position after it; returns `p` itself, having written nothing, when the item did not
 * change.
 */
function writeUpdate(out: Int32Array, p: number, item: SnapshotItem, past: Int32Array | undefined, sizes: Int16Array): number {
  const withSize = carriesSize(sizes, item.type);
  const data = item.data;
  const size = data.length;
  // An update without a size is read back with the protocol's size: any other size cannot be applied.
  if (!withSize && size !== sizes[item.type]) {
    throw new SnapshotError('SIZE_MISMATCH', `item ${item.type}:${item.id} has ${size} ints, its type has ${sizes[item.type]} in this protocol`, -1, 'createDelta');
  }
  let same = 0;
  if (past !== undefined) {
    // Snapshots share the data of unchanged items (applyDelta keeps them): nothing to compare.
    if (past === data) return p;
    if (past.length !== size) throw new SnapshotError('SIZE_MISMATCH', `item ${item.type}:${item.id} changed size from ${past.length} to ${size}`, -1, 'createDelta');
    // Most items do not change between snapshots: compare first (reads only), write the differences after.
    while (same < size && data[same] === past[same]) same++;
    if (same === size) return p;
  }
  out[p++] = item.type;
  out[p++] = item.id;
  if (withSize) out[p++] = size;
  if (past === undefined) out.set(data, p);
  else {
    for (let k = 0; k < same; k++) out[p + k] = 0;
    for (let k = same; k < size; k++) out[p + k] = (data[k]! - past[k]!) | 0;
  }
  return p + size;
}

/**
 * The delta from `old` to `next`, int for int what DDNet's CSnapshotDelta::CreateDelta produces (including
 * its hashed lookup). An empty array means nothing changed (DDNet then sends no delta).
 */
export function createDelta(old: Snapshot, next: Snapshot, protocol: SnapshotProtocol): Int32Array {
  const sizes = sizesOf(protocol);
  const inNext = lookupOf(next);
  const inOld = lookupOf(old);
  // With unique keys on both sides and the plain key index as DDNet's lookup, an item's past is usually the
  // old item at the walk's current position: the walk avoids two map lookups per item.
  if (inOld === old.keyIndex() && inNext === next.keyIndex() && inOld.size === old.items.length && inNext.size === next.items.length) {
    return createDeltaByWalk(old, next, sizes, inOld);
  }
  const out = scratchFor(3 + old.items.length, next);
  let p = 3;
  let numDeleted = 0;
  for (const item of old.items) {
    const key = itemKey(item.type, item.id);
    if (!inNext.has(key)) {
      out[p++] = key;
      numDeleted++;
    }
  }
  let numUpdates = 0;
  for (const item of next.items) {
    const pastIndex = inOld.get(itemKey(item.type, item.id));
    const after = writeUpdate(out, p, item, pastIndex === undefined ? undefined : old.items[pastIndex]!.data, sizes);
    if (after !== p) {
      p = after;
      numUpdates++;
    }
  }
  if (numDeleted === 0 && numUpdates === 0) return new Int32Array(0);
  out[0] = numDeleted;
  out[1] = numUpdates;
  return out.slice(0, p);
}

let matchedScratch = new Uint8Array(256);

/** createDelta for snapshots with unique keys: walks both item lists, looking a key up only where they differ. */
function createDeltaByWalk(old: Snapshot, next: Snapshot, sizes: Int16Array, inOld: Map<number, number>): Int32Array {
  const oldItems = old.items;
  const nextItems = next.items;
  const numOld = oldItems.length;
  if (matchedScratch.length < numOld) matchedScratch = new Uint8Array(Math.max(numOld, 2 * matchedScratch.length));
  const matched = matchedScratch;
  matched.fill(0, 0, numOld);
  // Updates are written after room for every old key (the deletions, counted only at the end).
  const updatesAt = 3 + numOld;
  const out = scratchFor(updatesAt, next);
  let p = updatesAt;
  let numUpdates = 0;
  let j = 0;
  for (let i = 0; i < nextItems.length; i++) {
    const item = nextItems[i]!;
    const type = item.type;
    const id = item.id;
    let pastIndex: number | undefined;
    const guess = j < numOld ? oldItems[j]! : undefined;
    if (guess !== undefined && guess.type === type && guess.id === id) pastIndex = j;
    else pastIndex = inOld.get(itemKey(type, id));
    if (pastIndex !== undefined) {
      matched[pastIndex] = 1;
      j = pastIndex + 1;
    }
    const after = writeUpdate(out, p, item, pastIndex === undefined ? undefined : oldItems[pastIndex]!.data, sizes);
    if (after !== p) {
      p = after;
      numUpdates++;
    }
  }
  let numDeleted = 0;
  for (let k = 0; k < numOld; k++) if (!matched[k]) numDeleted++;
  if (numDeleted === 0 && numUpdates === 0) return new Int32Array(0);
  const result = new Int32Array(3 + numDeleted + (p - updatesAt));
  result[0] = numDeleted;
  result[1] = numUpdates;
  let d = 3;
  for (let k = 0; k < numOld; k++) {
    if (!matched[k]) {
      const item = oldItems[k]!;
      result[d++] = itemKey(item.type, item.id);
    }
  }
  result.set(out.subarray(updatesAt, p), d);
  return result;
}
