import { Datafile, type DatafileItem, type DatafileWriteOptions } from '@twcodec/datafile';
import { bytesEqual, bytesFromInt32s, deepEqual } from '@twcodec/runtime';
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
  EnvelopeVersion,
  type EnvelopePointBezier,
  type LayerItem,
  MAP_ITEM_TYPES,
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
import { decodeCStringList, envelopePointsFromInts, isCollectedItemType } from './read.js';
import { recordData, type RecordCountRule, usedRecords } from './records.js';
import { compressSkippedTiles, expandSkippedTiles } from './tilemap.js';
import { encodeCStringList, MapItemWriter, sameItem } from './write-items.js';
import { writerDeflate } from '#deflate';

export type WriteMapOptions = DatafileWriteOptions;

const ZERO_BEZIER: EnvelopePointBezier = { inTangentDx: [0, 0, 0, 0], inTangentDy: [0, 0, 0, 0], outTangentDx: [0, 0, 0, 0], outTangentDy: [0, 0, 0, 0] };

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
 * The map's structure as items: info and images with their data, envelopes with their points item, groups with
 * their layer ranges and layers with their tiles, quads and sources, then the collected items. Which source
 * items and data each keeps, their ids and their order are MapItemWriter's.
 */
class MapWriter extends MapItemWriter {
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
    const layout = (this.srcItems.get('envelope') ?? []).some((raw) => raw.data[0]! >= EnvelopeVersion.BezierPoints) ? 'teeworlds07' : 'ddnet';
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
}
