import {
  bytesEqual,
  bytesFromInt32s,
  Datafile,
  DatafileData,
  decodeCString,
  deepEqual,
  type DatafileItem,
  type DatafileWriteOptions,
  encodeUtf8,
  ITEMTYPE_EX,
  type Uuid,
} from '@twcodec/datafile';
import { concatBytes } from '@twcodec/runtime';
import {
  decodeEnvelopeItem,
  decodeGroupItem,
  decodeImageItem,
  decodeInfoItem,
  decodeLayerItem,
  decodeQuadArray,
  decodeSoundItem,
  decodeSoundSourceArray,
  decodeSoundSourceDeprecatedArray,
  decodeVersionItem,
  encodeEnvelopeItem,
  encodeEnvelopePointArray,
  encodeEnvelopePointBezier07Array,
  encodeEnvelopePointBezierArray,
  encodeGroupItem,
  encodeImageItem,
  encodeInfoItem,
  encodeLayerItem,
  encodeQuadArray,
  encodeSoundItem,
  encodeSoundSourceArray,
  encodeSoundSourceDeprecatedArray,
  encodeVersionItem,
  type EnvelopePointBezier,
  type LayerItem,
  MAP_ITEM_TYPES,
  type MapItemName,
  type MapItemTypeInfo,
  QUAD_INTS,
  SOUND_SOURCE_DEPRECATED_INTS,
  SOUND_SOURCE_INTS,
  TILE_TILE_BYTES,
  TILEMAP_KINDS,
  tilemapKind,
  TilemapLayerVersion,
} from './generated/index.gen.js';
import { soundSourceToDeprecated, type MapLayer, type TwMap } from './model.js';
import { decodeCStringList, envelopePointsFromInts, isCollectedItemType, mapItemTypeOf } from './read.js';
import { recordData, type RecordCountRule, usedRecords } from './records.js';
import { compressSkippedTiles, expandSkippedTiles } from './tilemap.js';
import { writerDeflate } from '#deflate';

export type WriteMapOptions = DatafileWriteOptions;

const ZERO_BEZIER: EnvelopePointBezier = { inTangentDx: [0, 0, 0, 0], inTangentDy: [0, 0, 0, 0], outTangentDx: [0, 0, 0, 0], outTangentDy: [0, 0, 0, 0] };

const encodeCString = (text: string) => {
  const bytes = encodeUtf8(text);
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  return out;
};

const encodeCStringList = (list: string[]) => concatBytes(list.map(encodeCString));

/**
 * Writes a map. Items and data that did not change (compared by value with what was read) keep their
 * original ints and stored bytes, so an unchanged map comes back byte for byte; changed data replaces its
 * data item in place (compressed as DDNet does), new data is appended. `mode: 'ddnet'` then lays the file
 * out as DDNet's writer does.
 */
export function writeMap(map: TwMap, options: WriteMapOptions = {}): Uint8Array {
  if (map.dataSkipped) throw new TypeError('writeMap: the map was read with skipData (its tiles, pixels and sounds are missing)');
  const df = new MapWriter(map).build();
  // Browser codecs carry no deflater (so that read-only bundles leave pako out); writing brings its own (in
  // Node none: the datafile's Node default deflates, see deflate-node.ts). A codec that has one keeps using it.
  const hasDeflate = options.deflate !== undefined || (options.zlib ?? df.zlib).deflate !== undefined;
  return df.write(hasDeflate || !writerDeflate ? options : { ...options, deflate: writerDeflate });
}

/**
 * A changed item's ints, with the ints of each string field that did not change copied from the original
 * item: a name is held as text, and bytes that are not UTF-8 (read as U+FFFD) or follow its NUL cannot be
 * encoded back from it, so an item changed elsewhere (a count, a data index) would otherwise get another name
 * (fuzzer finding: a layer named "Quad" and four invalid bytes came back with three U+FFFD). Where a field's
 * ints are is found by encoding it with two different texts; it is copied only when it takes the same ints
 * in both items.
 */
function keepStringInts<T>(
  ints: Int32Array,
  item: T,
  positional: { read: T; ints: Int32Array } | undefined,
  others: () => { read: T; ints: Int32Array }[],
  encode: (item: T) => Int32Array,
): Int32Array {
  const fields = Object.entries(item as object).filter(([, value]) => typeof value === 'string');
  let out = ints;
  let candidates: { read: T; ints: Int32Array }[] | undefined;
  for (const [key, value] of fields) {
    const same = (c: { read: T }) => (c.read as Record<string, unknown>)[key] === value;
    let source = positional && same(positional) ? positional : undefined;
    // Only text that cannot be encoded back is worth a search among the other items.
    if (!source && (value as string).includes('\uFFFD')) source = (candidates ??= others()).find(same);
    if (!source) continue;
    const now = firstStringInt(item, key, encode);
    const before = firstStringInt(source.read, key, encode);
    if (now === undefined || before === undefined) continue;
    const span = stringSpan(item, key, encode, now);
    if (span === 0 || stringSpan(source.read, key, encode, before) !== span) continue;
    if (out === ints) out = ints.slice();
    out.set(source.ints.subarray(before, before + span), now);
  }
  return out;
}

/** The first int of string field `key` in `value`'s encoding: the one int two one-byte texts differ in. */
function firstStringInt<T>(value: T, key: string, encode: (item: T) => Int32Array): number | undefined {
  try {
    const a = encode({ ...value, [key]: '\u0001' });
    const b = encode({ ...value, [key]: '\u0002' });
    if (a.length !== b.length) return undefined;
    const at: number[] = [];
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) at.push(i);
    return at.length === 1 ? at[0] : undefined;
  } catch {
    return undefined;
  }
}

/** How many ints the string field `key` starting at int `at` takes: the run that a long text changes. */
function stringSpan<T>(value: T, key: string, encode: (item: T) => Int32Array, at: number): number {
  try {
    const empty = encode({ ...value, [key]: '' });
    const full = encode({ ...value, [key]: '\u0001'.repeat(4096) });
    if (empty.length !== full.length) return 0;
    let n = 0;
    while (at + n < empty.length && empty[at + n] !== full[at + n]) n++;
    return n;
  } catch {
    return 0;
  }
}

class MapWriter {
  private readonly src: Datafile | undefined;
  private readonly out: Datafile;
  /** Source data items already given to an element; a second user gets a new data item. */
  private readonly claimed = new Set<number>();
  /** The regenerated blocks of item ints, by map item type name. */
  private readonly blocks = new Map<MapItemName, Int32Array[]>();
  private readonly srcItems = new Map<MapItemName, DatafileItem[]>();
  /** The item ids of each collected type's block, once worked out (see itemId). */
  private readonly collectedIds = new Map<MapItemName, number[]>();
  /** Unknown items written as part of a block (layers no group uses). */
  private readonly absorbed = new Set<DatafileItem>();

  constructor(private readonly map: TwMap) {
    this.src = map.datafile;
    this.out = new Datafile({ zlib: this.src?.zlib });
    if (this.src) {
      this.out.magic = this.src.magic;
      this.out.version = this.src.version;
      this.out.legacySize = this.src.legacySize;
      this.out.legacySwaplen = this.src.legacySwaplen;
      this.out.data = this.src.data.slice();
      for (const item of this.src.items) {
        const info = mapItemTypeOf(item);
        if (!info) continue;
        let list = this.srcItems.get(info.name);
        if (!list) this.srcItems.set(info.name, (list = []));
        // As readMap reads them: a second item of a one-per-map type (info, version) is an unknown item, kept
        // with its id; the first keeps its own (issue 36: it was numbered 0 beside a second one of id 0, and
        // the file had two info items of id 0, which readers refuse). DDNet's map_resave copies every item with
        // its id (DDNet 16.4 src/tools/map_resave.cpp).
        if (info.oneItem && list.length > 0) continue;
        list.push(item);
      }
    }
  }

  /**
   * The data index for an element whose content is `bytes()`: its original data item when the content did
   * not change (`same` decides, given the original data item), else that item replaced, else a new one.
   */
  private dataIndex(original: number | undefined, bytes: () => Uint8Array, same: (orig: DatafileData) => boolean): number {
    const src = this.src;
    if (original !== undefined && this.unreadable(original) && bytes().length === 0) return original;
    if (src && original !== undefined && original >= 0 && original < src.data.length && !this.claimed.has(original)) {
      this.claimed.add(original);
      const srcData = src.data[original]!;
      let unchanged = false;
      try {
        unchanged = same(srcData);
      } catch {
        unchanged = false; // corrupt original data: write the element's content instead
      } finally {
        srcData.unload();
      }
      if (!unchanged) {
        const raw = bytes();
        this.out.data[original] = new DatafileData({ index: original, size: raw.length, raw, zlib: this.out.zlib });
      }
      return original;
    }
    // A second element read from the same data item (DDNet refuses this for tiles): it shares the item
    // while both are unchanged, and gets its own data item once it differs.
    if (src && original !== undefined && this.claimed.has(original) && this.out.data[original] === src.data[original]) {
      const srcData = src.data[original]!;
      try {
        if (same(srcData)) return original;
      } catch {
        // corrupt original data: written as a new data item below
      } finally {
        srcData.unload();
      }
    }
    return this.out.addData(bytes());
  }

  /**
   * Whether `index` is a data reference readMap could not follow (out of range, or data that does not
   * inflate): an element read from it is empty, and while it stays empty the reference is written back as
   * it was, so that maps DDNet loads despite such references keep their bytes.
   */
  private unreadable(index: number): boolean {
    const src = this.src;
    if (!src || index === -1) return false;
    if (!Number.isInteger(index) || index < 0 || index >= src.data.length || this.map.unreadData?.has(index)) return true;
    // readMap listed every reference it could not follow: the others need not be inflated to know (a 256 MB
    // layer was inflated once more here on every resave, issue 25).
    if (this.map.unreadData) return false;
    try {
      src.data[index]!.bytes();
      return false;
    } catch {
      return true;
    } finally {
      src.data[index]!.unload();
    }
  }

  /** Whether the source's image `i` was external with data reference `data` (so the reference is not a leftover of an edit). */
  private sourceImageKeeps(i: number, data: number): boolean {
    const original = this.srcItems.get('image')?.[i];
    if (!original) return false;
    try {
      const item = decodeImageItem(original.data);
      return item.external && item.data === data;
    } catch {
      return false;
    }
  }

  /** Bytes of an element whose data may be missing (undefined): such a reference is kept when it was unreadable. */
  private optionalBytes(original: number, bytes: Uint8Array | undefined): number {
    if (bytes === undefined) return this.unreadable(original) ? original : -1;
    return this.bytesData(original, bytes);
  }

  private bytesData(original: number | undefined, bytes: Uint8Array): number {
    // Compared as the original inflates, without a copy of its size (see DatafileData#equals).
    return this.dataIndex(original, () => bytes, (orig) => orig.equals(bytes));
  }

  private stringData(original: number | undefined, text: string): number {
    return this.dataIndex(original, () => encodeCString(text), (orig) => decodeCString(orig.bytes()) === text);
  }

  private optionalString(original: number, text: string | undefined): number {
    if (text === undefined) return this.unreadable(original) ? original : -1;
    return this.stringData(original, text);
  }

  /** Adds an item's ints to its block, reusing the original ints when the item decodes to the same value. */
  private emit<T>(name: MapItemName, item: T, encode: (item: T) => Int32Array, decode: (d: Int32Array) => T): void {
    let block = this.blocks.get(name);
    if (!block) this.blocks.set(name, (block = []));
    const original = this.srcItems.get(name)?.[block.length];
    let ints: Int32Array | undefined;
    let read: T | undefined;
    if (original) {
      try {
        read = decode(original.data);
        if (deepEqual(read, item)) ints = original.data;
      } catch {
        ints = undefined;
      }
    }
    if (ints) return void block.push(ints);
    // The items this one may have been read from: the one at its position, else (layers written in another
    // order than read) any of its type with the same text in a field that cannot be encoded back.
    const others = () =>
      (this.srcItems.get(name) ?? []).flatMap((raw) => {
        try {
          return [{ read: decode(raw.data), ints: raw.data }];
        } catch {
          return [];
        }
      });
    block.push(keepStringInts(encode(item), item, original && read !== undefined ? { read, ints: original.data } : undefined, others, encode));
  }

  build(): Datafile {
    const map = this.map;
    if (map.version) this.emit('version', map.version, encodeVersionItem, decodeVersionItem);
    if (map.info) {
      const { info } = map;
      const item = {
        ...info.item,
        author: this.optionalString(info.item.author, info.author),
        mapVersion: this.optionalString(info.item.mapVersion, info.mapVersion),
        credits: this.optionalString(info.item.credits, info.credits),
        license: this.optionalString(info.item.license, info.license),
      };
      if (info.settings !== undefined) {
        const settings = info.settings;
        item.settings = this.dataIndex(info.item.settings, () => encodeCStringList(settings), (orig) => deepEqual(decodeCStringList(orig.bytes()), settings));
      } else if (info.item.settings !== undefined) {
        // No settings read: a reference readMap could not follow stays as it was (as for the strings above;
        // fuzzer finding: a lenient resave turned settings -129 into -1).
        item.settings = this.unreadable(info.item.settings) ? info.item.settings : -1;
      }
      this.emit('info', item, encodeInfoItem, decodeInfoItem);
    }
    map.images.forEach((image, i) => {
      const item = { ...image.item, name: this.optionalString(image.item.name, image.name) };
      // DDNet never reads the data of an external image; a file that has some keeps its reference as it was.
      const keptExternal = image.pixels === undefined && image.item.external && this.sourceImageKeeps(i, image.item.data);
      if (!keptExternal) item.data = this.optionalBytes(image.item.data, image.pixels);
      this.emit('image', item, encodeImageItem, decodeImageItem);
    });
    this.buildEnvelopes();
    this.buildGroups();
    map.sounds.forEach((sound) => {
      const item = { ...sound.item, name: this.optionalString(sound.item.name, sound.name), data: this.optionalBytes(sound.item.data, sound.data) };
      if (sound.data) item.dataSize = sound.data.length;
      this.emit('sound', item, encodeSoundItem, decodeSoundItem);
    });
    this.buildCollected();
    this.assemble();
    return this.out;
  }

  /** Items of the non-structure types, through the generated registry's codecs. */
  private buildCollected(): void {
    const items = this.map.items as Record<string, unknown[] | undefined>;
    for (const info of MAP_ITEM_TYPES) {
      if (!isCollectedItemType(info.name)) continue;
      const type = info as MapItemTypeInfo;
      for (const item of items[info.name] ?? []) this.emit(info.name, item, (v) => type.encode(v as never), (d) => type.decode(d));
    }
    for (const name of Object.keys(items)) {
      if (!MAP_ITEM_TYPES.some((t) => t.name === name)) throw new TypeError(`map.items.${name}: no such map item type in the schemas`);
    }
  }

  /**
   * Keeps the envelope items' point ranges and the points items as they were read when every envelope
   * still has the points it was read with (also when the ranges overlap, leave points unused, or point
   * outside the item, which DDNet loads). Returns false when the points must be regenerated.
   */
  private keepEnvelopeLayout(): boolean {
    const src = this.src;
    const map = this.map;
    if (!src) return false;
    const pointsItem = this.srcItems.get('envelope_points')?.[0];
    const bezierItem = this.srcItems.get('envelope_points_bezier')?.[0];
    const layout = (this.srcItems.get('envelope') ?? []).some((raw) => raw.data[0]! >= 3) ? 'teeworlds07' : 'ddnet';
    if (layout !== map.envelopePointLayout) return false;
    const { points, bezierUsed } = envelopePointsFromInts(layout, pointsItem?.data ?? new Int32Array(), bezierItem?.data);
    for (const envelope of map.envelopes) {
      const { startPoint: start, numPoints: num } = envelope.item;
      const valid = start >= 0 && num >= 0 && start + num <= points.length;
      if (!valid ? envelope.points.length !== 0 : !deepEqual(points.slice(start, start + num), envelope.points)) return false;
    }
    for (const envelope of map.envelopes) this.emit('envelope', envelope.item, encodeEnvelopeItem, decodeEnvelopeItem);
    if (pointsItem) this.emitRaw('envelope_points', pointsItem.data);
    if (bezierItem && bezierUsed) this.emitRaw('envelope_points_bezier', bezierItem.data);
    return true;
  }

  private buildEnvelopes(): void {
    if (this.keepEnvelopeLayout()) return;
    const map = this.map;
    const points = map.envelopes.flatMap((e) => e.points);
    let start = 0;
    map.envelopes.forEach((envelope) => {
      const item = { ...envelope.item, startPoint: start, numPoints: envelope.points.length };
      start += envelope.points.length;
      this.emit('envelope', item, encodeEnvelopeItem, decodeEnvelopeItem);
    });
    // The points item exists in every map DDNet writes, even without envelopes.
    const hadPoints = this.src ? this.srcItems.has('envelope_points') : true;
    if (!hadPoints && points.length === 0) return;
    let ints: Int32Array;
    if (map.envelopePointLayout === 'teeworlds07') {
      ints = encodeEnvelopePointBezier07Array(points.map(({ bezier, ...p }) => ({ ...p, ...(bezier ?? ZERO_BEZIER) })));
    } else {
      ints = encodeEnvelopePointArray(points.map(({ time, curveType, values }) => ({ time, curveType, values })));
      if (points.some((p) => p.bezier)) {
        this.emitRaw('envelope_points_bezier', encodeEnvelopePointBezierArray(points.map((p) => p.bezier ?? ZERO_BEZIER)));
      }
    }
    this.emitRaw('envelope_points', ints);
  }

  /** Array items: their ints are compared directly. */
  private emitRaw(name: MapItemName, ints: Int32Array): void {
    const original = this.srcItems.get(name)?.[0]?.data;
    const same = original && original.length === ints.length && original.every((v, i) => v === ints[i]);
    this.blocks.set(name, [same ? original : ints]);
  }

  private buildGroups(): void {
    let layerIndex = 0;
    const srcLayerItems = this.srcItems.get('layer') ?? [];
    const srcLayers = this.src ? srcLayerItems.length : undefined;
    // Layers no group used (kept in unknownItems) go back to their slots, so that the groups' ranges stay and
    // the layer block keeps its count, and with it the source's ids (see itemId). map pack revives unknown
    // items from map.json as new objects: an equal copy stands for its source item (fuzzer finding of
    // map-unpack: found by identity only, a pack renumbered a layer read with id 1280).
    const orphans = new Map<number, DatafileItem>();
    for (const item of this.map.unknownItems) {
      const position = srcLayerItems.findIndex((src) => sameItem(src, item));
      if (position >= 0 && !orphans.has(position)) orphans.set(position, item);
    }
    const totalLayers = this.map.groups.reduce((n, g) => n + g.layers.length, 0) + orphans.size;
    const layerBlock = () => this.blocks.get('layer') ?? (this.blocks.set('layer', []), this.blocks.get('layer')!);
    const placeOrphans = (upTo: number) => {
      while (orphans.has(layerIndex) && layerIndex < upTo) {
        const item = orphans.get(layerIndex)!;
        layerBlock().push(item.data);
        this.absorbed.add(item);
        orphans.delete(layerIndex++);
      }
    };
    const slots = this.layerSlotsAsRead(orphans, totalLayers, srcLayers);
    if (slots) {
      // Groups keep the layer ranges they were read with (DDNet does not need them in order; fuzzer finding).
      for (const group of this.map.groups) {
        this.emit('group', group.layers.length ? { ...group.item, numLayers: group.layers.length } : group.item, encodeGroupItem, decodeGroupItem);
      }
      for (const slot of slots) {
        if ('orphan' in slot) {
          layerBlock().push(slot.orphan.data);
          this.absorbed.add(slot.orphan);
        } else this.emit('layer', this.layerItem(slot.layer), encodeLayerItem, decodeLayerItem);
      }
      return;
    }
    this.map.groups.forEach((group) => {
      const { startLayer: start, numLayers: num } = group.item;
      if (srcLayers !== undefined && group.layers.length === 0 && (start < 0 || num < 0 || start + num > srcLayers)) {
        // Read with a layer range past the layers (DDNet refuses the map; a lenient read gives no layers):
        // written back as it was while it stays empty.
        this.emit('group', group.item, encodeGroupItem, decodeGroupItem);
        return;
      }
      // An empty group's range says where it stood among orphan layers: those after its start stay after it.
      placeOrphans(group.layers.length === 0 && num === 0 ? start : Infinity);
      // An empty group's start means nothing to DDNet; one read from a file keeps it, so that the file resaves
      // byte for byte even where it does not match the group's position (fuzzer finding).
      const keepStart = srcLayers !== undefined && group.layers.length === 0 && num === 0 && start >= 0 && start <= Math.min(srcLayers, totalLayers);
      const item = { ...group.item, startLayer: keepStart ? start : layerIndex, numLayers: group.layers.length };
      layerIndex += group.layers.length;
      this.emit('group', item, encodeGroupItem, decodeGroupItem);
      for (const layer of group.layers) this.emit('layer', this.layerItem(layer), encodeLayerItem, decodeLayerItem);
    });
    placeOrphans(Infinity);
    // Orphans past the end stay in their order after the group's layers.
    for (const position of [...orphans.keys()].sort((a, b) => a - b)) {
      const item = orphans.get(position)!;
      layerBlock().push(item.data);
      this.absorbed.add(item);
    }
  }

  /**
   * The layer item at each position when every group still has the layers its range covered when read (same
   * count, ranges inside the layers and disjoint) and the orphan layers fill exactly the positions left over:
   * then the groups' ranges can stay as they were, in whatever order they use the layers. Undefined when the
   * groups changed or the map was not read from a file: the layers are then written in group order.
   */
  private layerSlotsAsRead(
    orphans: Map<number, DatafileItem>,
    total: number,
    srcLayers: number | undefined,
  ): ({ layer: MapLayer } | { orphan: DatafileItem })[] | undefined {
    if (srcLayers === undefined) return undefined;
    const slots = new Array<{ layer: MapLayer } | { orphan: DatafileItem } | undefined>(total);
    for (const [position, orphan] of orphans) {
      if (position >= total) return undefined;
      slots[position] = { orphan };
    }
    for (const group of this.map.groups) {
      const { startLayer: start, numLayers: num } = group.item;
      if (group.layers.length === 0) {
        // Empty groups are written as they were read; one whose range has since been emptied is a change.
        if (num !== 0 && !(start < 0 || num < 0 || start + num > srcLayers)) return undefined;
        if (num === 0 && (start < 0 || start > total)) return undefined;
        continue;
      }
      if (num !== group.layers.length || start < 0 || start + num > total) return undefined;
      for (let l = 0; l < num; l++) {
        if (slots[start + l] !== undefined) return undefined;
        slots[start + l] = { layer: group.layers[l]! };
      }
    }
    for (let i = 0; i < total; i++) if (slots[i] === undefined) return undefined;
    return slots as ({ layer: MapLayer } | { orphan: DatafileItem })[];
  }

  /**
   * A quads or sounds layer's item and data. While the records are those readMap took from the original data
   * (see usedRecords), data and count stay as they were, whatever extra records or count the file had;
   * otherwise the records are written with their count, and an empty list as DDNet's editor writes it.
   */
  private recordLayer<I extends LayerItem & { data: number }, R>(
    item: I,
    countField: keyof I & string,
    records: readonly R[],
    recordInts: number,
    rule: RecordCountRule,
    encode: (records: readonly R[]) => Int32Array,
    decode: (ints: Int32Array) => R[],
  ): I {
    const count = item[countField] as number;
    // No records behind no (or an unreadable) data reference: DDNet skips such a layer; it stays as it was.
    if (records.length === 0 && (item.data === -1 || this.unreadable(item.data))) return item;
    let unchanged = false;
    const data = this.dataIndex(
      item.data,
      () => bytesFromInt32s(recordData(encode(records), recordInts)),
      (orig) => (unchanged = deepEqual(decode(usedRecords(orig.bytes(), recordInts, count, rule).ints), records)),
    );
    return { ...item, [countField]: unchanged ? count : records.length, data };
  }

  private layerItem(layer: MapLayer): LayerItem {
    switch (layer.kind) {
      case 'tilemap': {
        const item = { ...layer.item };
        const kind = TILEMAP_KINDS.find((k) => k.kind === tilemapKind(item.tilemapFlags))!;
        const skip = item.version >= TilemapLayerVersion.SkipCompressed && kind.field === 'data';
        const tiles = layer.tiles.bytes;
        // A physics layer's Teeworlds tiles read as none (DDNet never reads them; readMap warns
        // PHYSICS_COMPAT_DATA): the reference stays as it was, -1 for a map built afresh; an empty data item
        // is something no reader takes (DATA_EMPTY: writeMap failed on such a map, which DDNet loads).
        const compatMissing = kind.field !== 'data' && tiles.length === 0;
        const srcData = this.src?.data.length ?? 0;
        if (compatMissing && (item.data === -1 || !Number.isInteger(item.data) || item.data < 0 || item.data >= srcData)) {
          if (!this.src) item.data = -1;
        } else item.data = this.dataIndex(
          item.data,
          () => (skip ? compressSkippedTiles(tiles) : tiles),
          // Compared expanded: another editor may have grouped the runs differently.
          (orig) => (skip ? bytesEqual(expandSkippedTiles(orig.bytes(), tiles.length / TILE_TILE_BYTES, 'data'), tiles) : orig.equals(tiles)),
        );
        // The tiles of the layer's own kind, when they are not those behind `data`.
        for (const k of TILEMAP_KINDS) {
          const view = k.property && (layer as unknown as Record<string, { bytes: Uint8Array } | undefined>)[k.property];
          if (view) (item[k.field] as number) = this.bytesData(item[k.field] as number | undefined, view.bytes);
        }
        return item;
      }
      case 'quads':
        return this.recordLayer(layer.item, 'numQuads', layer.quads, QUAD_INTS, 'all', encodeQuadArray, decodeQuadArray);
      case 'sounds':
        return this.recordLayer(layer.item, 'numSources', layer.sources, SOUND_SOURCE_INTS, 'min', encodeSoundSourceArray, decodeSoundSourceArray);
      case 'sounds_deprecated':
        return this.recordLayer(
          layer.item,
          'numSources',
          layer.sources.map(soundSourceToDeprecated),
          SOUND_SOURCE_DEPRECATED_INTS,
          'min',
          encodeSoundSourceDeprecatedArray,
          decodeSoundSourceDeprecatedArray,
        );
      default:
        return layer.item;
    }
  }

  /**
   * Lays the items out in the source file's order: each regenerated block where its type was, unknown items
   * where they were, the UUID index as it was; blocks of types the source did not have go last.
   */
  private assemble(): void {
    const out = this.out;
    const unknown = new Set(this.map.unknownItems.filter((item) => !this.absorbed.has(item)));
    const placed = new Set<string>();
    const blockItems = (name: MapItemName, internalType: number, uuid: Uuid | undefined): DatafileItem[] =>
      (this.blocks.get(name) ?? []).map((data, i) => ({ type: internalType, id: this.itemId(name, i), uuid, data }));
    // The unknown item that stands for a source item: the item itself, or (map pack revives the model from
    // map.json, as new objects) one of the same type, id and ints, which then keeps its place too.
    const unknownFor = (item: DatafileItem): DatafileItem | undefined => {
      if (unknown.has(item)) return item;
      for (const other of unknown) if (sameItem(other, item)) return other;
      return undefined;
    };
    for (const item of this.src?.items ?? []) {
      const info = mapItemTypeOf(item); // undefined for the UUID index, which is kept as it is
      const kept = item.type === ITEMTYPE_EX ? undefined : unknownFor(item);
      if (item.type === ITEMTYPE_EX) out.items.push(item);
      else if (kept) {
        out.items.push(kept);
        unknown.delete(kept);
      } else if (info && !placed.has(info.name)) {
        placed.add(info.name);
        out.items.push(...blockItems(info.name, item.type, item.uuid));
      }
    }
    // Unknown items the source did not have (added by the caller), then new blocks in type order. A new block
    // of a one-per-map type goes before unknown items of its type: readMap takes the first such item as the
    // map's, the others as unknown items (a map packed without original.map whose second info item is kept
    // as unknown, issue 36).
    const addBlock = (info: (typeof MAP_ITEM_TYPES)[number]) => {
      if (placed.has(info.name) || !this.blocks.get(info.name)?.length) return;
      placed.add(info.name);
      this.blocks.get(info.name)!.forEach((data, i) => out.addItem(info.typeId ?? info.uuid!, this.itemId(info.name, i), data));
    };
    for (const info of MAP_ITEM_TYPES) if (info.oneItem && [...unknown].some((item) => item.type === info.typeId && item.uuid === undefined)) addBlock(info);
    for (const item of unknown) out.items.push(item);
    for (const info of MAP_ITEM_TYPES) addBlock(info);
  }

  /**
   * The item id of the `i`th item of a type. Structure items are numbered by position (DDNet refers to them
   * by index) unless the source's ids are kept (see below); items in `map.items` keep the ids they were read
   * with (DDNet's group extension uses the id as the group's index), new ones count on from the largest. Ids
   * stay unique within the type: items read from two internal types the UUID index gives one UUID (read as
   * one type, written as one) can carry the same id, and a later one gets the next free id (issue 26).
   */
  private itemId(name: MapItemName, i: number): number {
    const src = this.srcItems.get(name) ?? [];
    if (!isCollectedItemType(name)) {
      // Ids out of order are kept while the type has as many items as it was read with: DDNet sees the same file.
      const count = this.blocks.get(name)?.length ?? 0;
      if (count === src.length && new Set(src.map((item) => item.id)).size === count) return src[i]!.id;
      return this.positionalIds(name, count)[i]!;
    }
    let ids = this.collectedIds.get(name);
    if (!ids) {
      const count = this.blocks.get(name)?.length ?? 0;
      const used = new Set<number>();
      // Fresh ids count on from past every id read, so that they meet none of them.
      let next = Math.max(src.length, ...src.map((item) => item.id + 1));
      ids = [];
      for (let k = 0; k < count; k++) {
        let id = k < src.length ? src[k]!.id : next++;
        if (used.has(id)) id = next++;
        used.add(id);
        ids.push(id);
      }
      this.collectedIds.set(name, ids);
    }
    return ids[i]!;
  }

  /**
   * Ids by position (0, 1, ...) for a structure block written afresh, past the ids of unknown items of the same
   * type written beside it (a second info item kept as unknown with id 0 would otherwise share its id with
   * the info item: issue 36).
   */
  private positionalIds(name: MapItemName, count: number): number[] {
    let ids = this.collectedIds.get(name);
    if (!ids) {
      const typeId = MAP_ITEM_TYPES.find((t) => t.name === name)?.typeId;
      const taken = new Set(this.map.unknownItems.filter((item) => !this.absorbed.has(item) && item.uuid === undefined && item.type === typeId).map((item) => item.id));
      ids = [];
      for (let next = 0; ids.length < count; next++) if (!taken.has(next)) ids.push(next);
      this.collectedIds.set(name, ids);
    }
    return ids;
  }
}

/** Whether `a` is `b` or a copy of it: the same type, id and ints (item ids are unique within a type). */
function sameItem(a: DatafileItem, b: DatafileItem): boolean {
  return a === b || (a.type === b.type && a.id === b.id && sameInts(a.data, b.data));
}

function sameInts(a: Int32Array, b: Int32Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
