import { Datafile } from '@twcodec/datafile';
import { concatBytes } from '@twcodec/runtime';
import { CodecError, type ImageItem, imagePixelBytes, MapError, type MapErrorCode, MAX_SKIP_EXPANDED_TILES, readMap, TILEMAP_KINDS, type TilemapLayer, TILE_TILE_BYTES, tilemapKind, TilemapLayerVersion, type TileView, type TwMap, writeMap } from '@twcodec/map';
import { describeValue, firstDifference, type JsonPath, jsonLocation, jsonTextLocation, pathText, readBackError } from './dir-check.js';
import { imageToPng } from './image-files.js';
import type { PngEncodeOptions } from './png-encode.js';
import { listImages, pngToRgba } from './images.js';
import { readPngHeader } from './png.js';
import { soundFileNames } from './sounds.js';
import { MAX_TILE_BYTES, megabytes, textToTiles, tileTextChunks, tileTextSize } from './tile-text.js';

/**
 * The editable directory form of a map, as files by relative path (`/`-separated), so that it works the same
 * in Node (written to disk by the CLI) and in the browser (e.g. zipped):
 *
 * - `map.json`: the whole model (items, groups, layers, quads, envelopes, ...), with byte contents moved out:
 *   `{ "png": "images/x.png" }` for embedded image pixels, `{ "opus": "sounds/x.opus" }` for sounds,
 *   `{ "tiles": "layers/....txt", "tile": "tile" }` for tile data; other bytes inline as `{ "base64": ... }`,
 *   item ints as `{ "int32": [...] }`.
 * - `layers/*.txt`: one text line per tile row, each tile its bytes in hex (e.g. `01000000` = index 1, flags 0),
 *   so a line diff shows exactly the rows that changed.
 * - `original.map`: the map as it was unpacked. packMap keeps what did not change byte for byte from it (stored
 *   compression, item order); delete it to write the map afresh.
 */
export type MapFiles = Map<string, Uint8Array>;

export const MAP_JSON = 'map.json';
export const ORIGINAL_MAP = 'original.map';

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true });

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * The most bytes unpackMap writes (its files together) unless told otherwise: 512 MiB. With runs of equal
 * tiles as one token, only a layer of mostly different neighbours comes near it (a 4096x4096 one is 151 MB
 * of text); a directory form of more is refused before anything is written: no longer a thing to edit by hand.
 */
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;

/** One file of the directory form: its size, and its bytes as chunks made on demand. */
export interface MapDirEntry {
  name: string;
  size: number;
  chunks(): Iterable<Uint8Array>;
}

export interface UnpackOptions {
  /** Refuse (MapError `mapdir.too_large`) when the files would be larger together; default MAX_UNPACKED_BYTES. */
  maxBytes?: number;
  /** How the images' PNG files are compressed (default: encodePng's). */
  png?: PngEncodeOptions;
}

/**
 * unpackMap's files, with the tile text made on demand in chunks: writing them one at a time keeps memory at
 * the map's own size, whatever the text's.
 */
export function unpackMapEntries(bytes: Uint8Array, options: UnpackOptions = {}): MapDirEntry[] {
  // What packMap would refuse is not unpacked: checked on the declared sizes before the layers are inflated,
  // and on the tiles read.
  const tooManyTiles = (tileBytes: number) => {
    if (tileBytes <= MAX_TILE_BYTES) return;
    throw new MapError('mapdir.too_large', `the layers' tiles are ${megabytes(tileBytes)} together, over the ${megabytes(MAX_TILE_BYTES)} a map directory's tiles may take`, -1, 'map');
  };
  tooManyTiles(declaredTileBytes(bytes));
  const { files, tileTexts } = unpack(bytes, options.png);
  tooManyTiles([...tileTexts.values()].reduce((sum, t) => sum + t.tileBytes, 0));
  const entries: MapDirEntry[] = [...files].map(([name, data]) => {
    const text = tileTexts.get(name);
    return text ? { name, size: text.size, chunks: text.chunks } : { name, size: data.length, chunks: () => [data] };
  });
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  const max = options.maxBytes ?? MAX_UNPACKED_BYTES;
  if (total > max) {
    const largest = entries.reduce((a, b) => (b.size > a.size ? b : a));
    throw new MapError('mapdir.too_large', `the directory form would be ${megabytes(total)} (${largest.name}: ${megabytes(largest.size)}), over the limit of ${megabytes(max)}`, -1, largest.name);
  }
  return entries;
}

/** The bytes of tiles a map's layers declare (their data items' sizes), from its items only; 0 for a file that does not open. */
function declaredTileBytes(bytes: Uint8Array): number {
  let map: TwMap;
  try {
    map = readMap(bytes, { strict: false, skipData: true });
  } catch (e) {
    if (e instanceof CodecError) return 0; // refused by the full read as always
    throw e;
  }
  let sum = 0;
  for (const layer of map.groups.flatMap((g) => g.layers)) {
    if (layer.kind !== 'tilemap') continue;
    for (const { index, plain } of tileData(layer)) {
      const { width, height } = layer.item;
      // A skip-compressed layer expands to width x height tiles, unless readMap refuses it (TILEMAP_TOO_LARGE).
      const expanded = Number.isInteger(width * height) && width > 0 && height > 0 && width * height <= MAX_SKIP_EXPANDED_TILES ? width * height * TILE_TILE_BYTES : 0;
      sum += plain ? (map.datafile!.data[index]?.size ?? 0) : expanded;
    }
  }
  return sum;
}

const tileTypeOf = (view: TileView) => TILEMAP_KINDS.find((k) => k.view(new Uint8Array(0)).constructor === view.constructor)!;

/** Unpacks a map into its directory form (see MapFiles); unpackMapEntries makes the same files in chunks. */
export function unpackMap(bytes: Uint8Array, options: UnpackOptions = {}): MapFiles {
  const files: MapFiles = new Map();
  for (const entry of unpackMapEntries(bytes, options)) files.set(entry.name, concatBytes([...entry.chunks()], entry.size));
  return files;
}

/** A tile file of the directory form: its text's size, made on demand, and the bytes of tiles it holds. */
type TileText = Omit<MapDirEntry, 'name'> & { tileBytes: number };

function unpack(bytes: Uint8Array, png?: PngEncodeOptions): { files: MapFiles; tileTexts: Map<string, TileText> } {
  const map = readMap(bytes, { strict: false });
  const files: MapFiles = new Map();
  const tileTexts = new Map<string, TileText>();
  const imageNames = listImages(map);
  const soundNames = soundFileNames(map);
  const convert = (value: unknown, path: (string | number)[], width: number): unknown => {
    if (value instanceof Uint8Array) {
      const [top, index, field] = path;
      if (top === 'images' && field === 'pixels' && typeof index === 'number') {
        try {
          const file = `images/${imageNames[index]!.fileName}`;
          files.set(file, imageToPng(map.images[index]!, png));
          return { png: file };
        } catch {
          // Pixels that do not fit the image's size stay inline, so they survive unchanged.
        }
      }
      if (top === 'sounds' && field === 'data' && typeof index === 'number') {
        const file = `sounds/${soundNames[index]!}`;
        files.set(file, value);
        return { opus: file };
      }
      return { base64: toBase64(value) };
    }
    if (value instanceof Int32Array) return { int32: [...value] };
    if (value && typeof value === 'object' && 'bytes' in value && value.bytes instanceof Uint8Array) {
      const info = tileTypeOf(value as TileView);
      const [, g, , l] = path;
      const layerName = safeName(String((map.groups[g as number]?.layers[l as number]?.item as { name?: string } | undefined)?.name ?? ''));
      const file = `layers/g${g}-l${l}${layerName ? `-${layerName}` : ''}.${path.at(-1)}.txt`;
      const tiles = value.bytes;
      files.set(file, new Uint8Array(0)); // its place in the order; the text is made on demand
      tileTexts.set(file, { size: tileTextSize(tiles, width, info.tileBytes), tileBytes: tiles.length, chunks: () => tileTextChunks(tiles, width, info.tileBytes) });
      return { tiles: file, tile: info.tile };
    }
    if (Array.isArray(value)) return value.map((v, i) => convert(v, [...path, i], width));
    if (value && typeof value === 'object') {
      const w = 'item' in value && (value.item as { kind?: string }).kind === 'tilemap' ? (value.item as { width: number }).width : width;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = convert(v, [...path, k], w);
      return out;
    }
    return value;
  };
  const { datafile: _datafile, unreadData: _unreadData, ...model } = map;
  files.set(MAP_JSON, utf8.encode(`${JSON.stringify(convert(model, [], 0), null, 2)}\n`));
  files.set(ORIGINAL_MAP, bytes);
  return { files, tileTexts };
}

const safeName = (name: string) => name.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 40);

/** Decodes a PNG to the channel count the image is stored with (3 for 0.7's RGB images, else 4). */
function pngPixels(png: Uint8Array, channels: number, file: string): Uint8Array {
  try {
    const rgba = pngToRgba(png, file).pixels;
    if (channels === 4) return rgba;
    const rgb = new Uint8Array((rgba.length / 4) * 3);
    for (let i = 0, o = 0; i < rgba.length; i += 4, o += 3) rgb.set(rgba.subarray(i, i + 3), o);
    return rgb;
  } catch (e) {
    // PNG errors are typed and name the file already.
    if (e instanceof MapError) throw e;
    throw new MapError('mapdir.png', (e as Error).message, -1, file);
  }
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Uint8Array, file: string): { width: number; height: number } {
  return readPngHeader(png, file);
}

/** Packs a directory form (as unpackMap makes it, possibly edited) back into a map file. */
export function packMap(files: MapFiles): Uint8Array {
  const need = (file: string) => {
    const bytes = files.get(file);
    if (!bytes) throw new MapError('mapdir.missing', `${file} is missing from the map directory`, -1, file);
    return bytes;
  };
  let jsonText: string;
  let model: Record<string, unknown>;
  try {
    jsonText = fromUtf8.decode(need(MAP_JSON));
    model = JSON.parse(jsonText);
  } catch (e) {
    if (e instanceof MapError) throw e;
    // JSON.parse says where as a character position ("... at position 51"): give it as line:column of map.json.
    const position = /position (\d+)/.exec((e as Error).message)?.[1];
    const where = position === undefined ? MAP_JSON : jsonTextLocation(MAP_JSON, fromUtf8.decode(need(MAP_JSON)), Number(position));
    throw new MapError('mapdir.json', `map.json is not valid JSON: ${(e as Error).message}`, -1, where);
  }
  const json = jsonText;
  const fail = (code: MapErrorCode, path: JsonPath, message: string) => new MapError(code, `${pathText(path)}: ${message}`, -1, jsonLocation(MAP_JSON, json, path));
  // Layers the unpacked map already had broken (a read issue on the layer) are packed as they are.
  const brokenLayers = new Set(
    (Array.isArray(model.readIssues) ? model.readIssues : []).flatMap((i: { severity?: unknown; path?: unknown }) =>
      i && i.severity === 'error' && typeof i.path === 'string' ? [/^groups\[\d+\]\.layers\[\d+\]/.exec(i.path)?.[0] ?? ''] : [],
    ),
  );
  // What is left of MAX_TILE_BYTES for the tile files not read yet.
  let tileBudget = MAX_TILE_BYTES;
  /** The layer's size, and whether it is a physics layer (whose `tiles` are zeroed tiles for Teeworlds). */
  type Size = { width: number; height: number; physics: boolean } | undefined;
  const revive = (value: unknown, path: JsonPath, channels: number, size: Size): unknown => {
    // Deeper than any model (the unpacked form nests 8 levels): refused before it costs stack.
    if (path.length > MAX_JSON_DEPTH) throw fail('mapdir.json', path, `nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (Array.isArray(value)) return value.map((v, i) => revive(v, [...path, i], channels, size));
    if (!value || typeof value !== 'object') return value;
    const o = value as Record<string, unknown>;
    const ref = (key: string) => {
      if (typeof o[key] !== 'string') throw fail('mapdir.value', [...path, key], `expected a file name, found ${describeValue(o[key])}`);
      return o[key] as string;
    };
    if ('png' in o) return pngPixels(need(ref('png')), channels, ref('png'));
    if ('opus' in o) return need(ref('opus'));
    if ('base64' in o) {
      const text = o.base64;
      if (typeof text === 'string' && BASE64.test(text)) {
        try {
          return fromBase64(text);
        } catch {
          // refused below, as any other text that is not base64
        }
      }
      throw fail('mapdir.base64', [...path, 'base64'], `${describeValue(text)} is not base64`);
    }
    if ('int32' in o) {
      const ints = o.int32;
      if (!Array.isArray(ints)) throw fail('mapdir.value', [...path, 'int32'], `expected an array of ints, found ${describeValue(ints)}`);
      const bad = ints.findIndex((v) => !Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff);
      if (bad >= 0) throw fail('mapdir.value', [...path, 'int32', bad], `${describeValue(ints[bad])} is not a 32-bit int`);
      return Int32Array.from(ints as number[]);
    }
    if ('tiles' in o && 'tile' in o) {
      const info = TILEMAP_KINDS.find((k) => k.tile === o.tile);
      if (!info) throw fail('mapdir.tile_type', [...path, 'tile'], `unknown tile type ${describeValue(o.tile)}`);
      const file = ref('tiles');
      const text = need(file);
      // A physics layer's Teeworlds tiles may be missing (DDNet never reads them): empty text stays empty.
      const compatMissing = size?.physics && path.at(-1) === 'tiles' && text.length === 0;
      const tiles = textToTiles(text, info.tileBytes, file, compatMissing ? undefined : size, Math.floor(tileBudget / info.tileBytes));
      tileBudget -= tiles.length;
      return info.view(tiles);
    }
    let ch = channels;
    let sz = size;
    const item = o.item as { version?: number; format?: number; width?: unknown; height?: unknown; kind?: unknown } | undefined;
    if (path[0] === 'images' && path.length === 2 && item) ch = imagePixelBytes(item as unknown as ImageItem);
    if (item && item.kind === 'tilemap' && path[0] === 'groups') {
      const { width, height } = item;
      const valid = Number.isInteger(width) && Number.isInteger(height) && (width as number) > 0 && (height as number) > 0;
      const physics = !['tiles', 'game'].includes(tilemapKind(Number((item as { tilemapFlags?: unknown }).tilemapFlags) | 0));
      sz = valid && !brokenLayers.has(pathText(path)) ? { width: width as number, height: height as number, physics } : undefined;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) out[k] = revive(v, [...path, k], ch, sz);
    // An image's size is the size of its PNG: a PNG replaced by one of another size resizes the image.
    const png = (o.pixels as { png?: unknown } | undefined)?.png;
    if (path[0] === 'images' && path.length === 2 && item && typeof png === 'string') {
      const { width, height } = pngSize(need(png), png);
      out.item = { ...(out.item as object), width, height };
    }
    return out;
  };
  checkShape(model, fail);
  const revived = revive(model, [], 4, undefined) as Omit<TwMap, 'datafile' | 'unreadData'>;
  const originalBytes = files.get(ORIGINAL_MAP);
  const original = originalBytes ? readOriginal(originalBytes) : undefined;
  const map: TwMap = { ...revived, datafile: original?.datafile, unreadData: original?.unreadData } as TwMap;
  map.items ??= {};
  map.unknownItems ??= [];
  map.readIssues ??= [];
  let packed: Uint8Array;
  try {
    packed = writeMap(map);
  } catch (e) {
    if (e instanceof CodecError) throw e;
    // A value of a type the model does not have somewhere checkShape does not look.
    throw new MapError('mapdir.value', `map.json describes no map the writer can write: ${(e as Error).message}`, -1, MAP_JSON);
  }
  // The fixed point: what is written reads back as map.json says (a name too long for its item, a number
  // where a string belongs, a fraction where an int belongs would otherwise change silently).
  const difference = firstDifference(map, readBack(packed, map));
  if (difference) throw readBackError(MAP_JSON, json, difference);
  return packed;
}

/**
 * Reads a map leaving out the tiles that are stored as they are (not skip-compressed) in data items nothing
 * else reads: `skipped` lists those data items. Their bytes are the layer's tiles, so they can be compared and
 * checked as they inflate rather than held (a map of 35 layers of 1702x2023 holds 545 MB of tiles; packMap
 * held them three times, 1.3 GB).
 */
function readWithoutPlainTiles(df: Datafile): { map: TwMap; skipped: Set<number> } {
  // Which elements ask for each data item (tiles, pixels, sounds: what readMap's inflateData decides).
  const wanted = new Map<number, number>();
  const items = readMap(df, { strict: false, inflateData: (i) => (wanted.set(i, (wanted.get(i) ?? 0) + 1), false) });
  const plain = new Map<number, number>();
  for (const layer of items.groups.flatMap((g) => g.layers)) {
    if (layer.kind !== 'tilemap') continue;
    for (const { index, plain: isPlain } of tileData(layer)) if (isPlain) plain.set(index, (plain.get(index) ?? 0) + 1);
  }
  // A reference past the data items is refused by readMap as always.
  const skipped = new Set([...plain].filter(([i, n]) => i < df.data.length && wanted.get(i) === n).map(([i]) => i));
  return { map: readMap(df, { strict: false, inflateData: (i) => !skipped.has(i) }), skipped };
}

/** The data items of a tilemap layer's tiles: the field's model property, and whether they are stored as they are. */
function tileData(layer: TilemapLayer): { index: number; property: string; plain: boolean }[] {
  const info = TILEMAP_KINDS.find((k) => k.kind === layer.tilemapKind)!;
  const item = layer.item as unknown as Record<string, unknown>;
  const fields = info.field === 'data' ? [{ field: 'data', property: 'tiles' }] : [{ field: 'data', property: 'tiles' }, { field: info.field, property: info.property! }];
  return fields.flatMap(({ field, property }) => {
    const index = item[field];
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) return [];
    // Skip compression (version 4) is for the `data` of tiles and game layers only (see readMap).
    return [{ index, property, plain: !(field === 'data' && info.field === 'data' && layer.item.version >= TilemapLayerVersion.SkipCompressed) }];
  });
}

/** original.map as packMap needs it: its container, and the data items readMap could not read. */
function readOriginal(bytes: Uint8Array): { datafile: Datafile; unreadData: Set<number> } {
  const df = openDatafile(bytes);
  const { map, skipped } = readWithoutPlainTiles(df);
  const unreadData = new Set(map.unreadData);
  // What readMap would have found unreadable among the tiles left out: data that does not inflate. Each is
  // inflated and dropped in turn.
  for (const index of skipped) {
    const data = df.data[index];
    if (!data) continue;
    try {
      data.bytes();
    } catch {
      unreadData.add(index);
    } finally {
      data.unload();
    }
  }
  return { datafile: df, unreadData };
}

/** Datafile.read, its errors as readMap gives them (MapError, the DatafileError as cause). */
function openDatafile(bytes: Uint8Array): Datafile {
  try {
    return Datafile.read(bytes);
  } catch (e) {
    if (e instanceof CodecError && !(e instanceof MapError)) throw new MapError(e.code, e.detail, e.offset, e.path, { cause: e });
    throw e;
  }
}

/**
 * readMap of the packed map, for the comparison with `wanted`: the tiles stored as they are are compared
 * with wanted's as they inflate, and where they are equal the read map gets wanted's tiles, so that the
 * map packed is never held twice.
 */
function readBack(packed: Uint8Array, wanted: TwMap): TwMap {
  const df = openDatafile(packed);
  let equal = true;
  const { map, skipped } = readWithoutPlainTiles(df);
  delete map.dataSkipped;
  map.groups.forEach((group, g) =>
    group.layers.forEach((layer, l) => {
      const other = wanted.groups[g]?.layers[l];
      if (layer.kind !== 'tilemap' || other?.kind !== 'tilemap' || other.tilemapKind !== layer.tilemapKind) return;
      for (const { index, property } of tileData(layer)) {
        const view = (other as unknown as Record<string, TileView | undefined>)[property];
        if (!skipped.has(index)) continue;
        if (view && df.data[index]!.equals(view.bytes)) (layer as unknown as Record<string, TileView>)[property] = view;
        else equal = false;
      }
    }),
  );
  // Tiles that differ: the whole map read, for firstDifference to say where (a map that is refused anyway).
  return equal ? map : readMap(packed, { strict: false });
}

/** map.json nests 8 levels deep (groups[].layers[].quads[].topLeft.x); far more is not a map. */
const MAX_JSON_DEPTH = 32;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The model's lists and their elements' items are where map.json says; a clear error with the path if not. */
function checkShape(model: Record<string, unknown>, fail: (code: MapErrorCode, path: JsonPath, message: string) => MapError): void {
  const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(model)) throw fail('mapdir.value', [], `expected an object, found ${describeValue(model)}`);
  const list = (v: unknown, path: JsonPath, element: (e: Record<string, unknown>, p: JsonPath) => void) => {
    if (!Array.isArray(v)) throw fail('mapdir.value', path, `expected an array, found ${describeValue(v)}`);
    v.forEach((e, i) => {
      if (!isObject(e)) throw fail('mapdir.value', [...path, i], `expected an object, found ${describeValue(e)}`);
      element(e, [...path, i]);
    });
  };
  const withItem = (e: Record<string, unknown>, p: JsonPath) => {
    if (!isObject(e.item)) throw fail('mapdir.value', [...p, 'item'], `expected an object, found ${describeValue(e.item)}`);
  };
  for (const key of ['images', 'envelopes', 'sounds'] as const) list(model[key], [key], withItem);
  list(model.groups, ['groups'], (g, gp) => {
    withItem(g, gp);
    list(g.layers, [...gp, 'layers'], (l, lp) => {
      withItem(l, lp);
      if (typeof l.kind !== 'string') throw fail('mapdir.value', [...lp, 'kind'], `expected a string, found ${describeValue(l.kind)}`);
    });
  });
  if (model.items !== undefined && !isObject(model.items)) throw fail('mapdir.value', ['items'], `expected an object, found ${describeValue(model.items)}`);
  if (model.unknownItems !== undefined) {
    list(model.unknownItems, ['unknownItems'], (u, up) => {
      for (const key of ['type', 'id'] as const) {
        if (!Number.isInteger(u[key])) throw fail('mapdir.value', [...up, key], `expected an int, found ${describeValue(u[key])}`);
      }
    });
  }
}
