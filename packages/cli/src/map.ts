import { MapError, readMap, type TwMap, writeMap } from '@twcodec/map';
import { defaultZlib, rememberingZlib } from '@twcodec/datafile';
import { nodeDeflate } from '@twcodec/datafile/zlib-node';
import { UsageError } from './io.js';
import { CodecError, errorAbout } from '@twcodec/runtime';
import {
  checkDirReference,
  convert07ToDdnetFile,
  convertDdnetTo07File,
  type ConvertTo07Result,
  diffMapFiles,
  extractImages,
  extractSounds,
  findImage,
  findSound,
  hasTeeworlds07Form,
  listImages,
  MAP_JSON,
  type MapFiles,
  type PngEncodeOptions,
  mapresFileName,
  ORIGINAL_MAP,
  renderGameLayerFile,
  renderMapFile,
  replaceImage,
  replaceSound,
} from '@twcodec/map-tools';

// map info and map validate live in map-info.ts, which batch workers load without the map tools.
export { mapInfo, mapValidate } from './map-info.js';

/** `lenient`: also maps DDNet refuses, as far as the model can hold them (validateMap says what is wrong). */
export function mapResave(bytes: Uint8Array, ddnet: boolean, lenient = false): Uint8Array {
  // The writer compares the data with what the read inflated rather than inflating it again (nothing edits it).
  return writeMap(readMap(bytes, { strict: !lenient, zlib: rememberingZlib(defaultZlib) }), { mode: ddnet ? 'ddnet' : 'lossless' });
}

/**
 * The whole model as JSON. Byte arrays (pixels, tiles, sounds) are summarised as `{ "bytes": n }`, or, with
 * `blobs`, handed to it and replaced by the name it returns.
 */
export function mapJson(bytes: Uint8Array, blobs?: (name: string, data: Uint8Array) => string): string {
  const map = readMap(bytes, { strict: false });
  const convert = (value: unknown, path: string): unknown => {
    if (value instanceof Uint8Array) return { bytes: value.length, ...(blobs ? { file: blobs(path, value) } : {}) };
    if (value && typeof value === 'object' && 'bytes' in value && value.bytes instanceof Uint8Array) {
      // Tiles views: the count and the bytes behind them.
      const tiles = value as { bytes: Uint8Array; length: number };
      return { tiles: tiles.length, bytes: tiles.bytes.length, ...(blobs ? { file: blobs(path, tiles.bytes) } : {}) };
    }
    // Other typed arrays (the ints of unknown items, ...) as JSON arrays, not {"0": ..} objects.
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return Array.from(value as unknown as ArrayLike<number>);
    if (Array.isArray(value)) return value.map((v, i) => convert(v, `${path}[${i}]`));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = convert(v, path ? `${path}.${k}` : k);
      return out;
    }
    return value;
  };
  const { datafile: _datafile, unreadData: _unreadData, ...model } = map satisfies TwMap;
  return `${JSON.stringify(convert(model, ''), null, 2)}\n`;
}


// --- map tools (@twcodec/map-tools); the commands in index.ts call these ---

/** The files of the directory form that map.json refers to, plus original.map when present. */
export async function mapPackFiles(readFile: (path: string) => Promise<Uint8Array>, dir: string): Promise<MapFiles> {
  const files: MapFiles = new Map();
  const jsonBytes = await readFile(`${dir}/${MAP_JSON}`);
  files.set(MAP_JSON, jsonBytes);
  const refs = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const key of ['png', 'opus', 'tiles'] as const) {
        const ref = (v as Record<string, unknown>)[key];
        if (typeof ref === 'string') refs.add(ref);
      }
      Object.values(v).forEach(walk);
    }
  };
  try {
    walk(JSON.parse(new TextDecoder().decode(jsonBytes)));
  } catch {
    // packMap reports the broken JSON with its file name.
  }
  for (const ref of refs) {
    checkDirReference(ref, MAP_JSON);
    files.set(ref, await readFile(`${dir}/${ref}`));
  }
  try {
    files.set(ORIGINAL_MAP, await readFile(`${dir}/${ORIGINAL_MAP}`));
  } catch {
    // Without the original the map is written afresh.
  }
  return files;
}

/**
 * How the CLI compresses the PNGs it writes (extract, unpack, render): node:zlib at level 6, libpng's default
 * and so DDNet's map_extract's. About four times as fast as the library's default (fflate at level 3) on the
 * corpus images and a tenth smaller: on the largest corpus map that took extract from 1.05x to about 0.7x
 * map_extract's CPU time (issue 28). Same pixels; the bytes are Node's bundled zlib's, not fflate's.
 */
export const CLI_PNG: PngEncodeOptions = { deflate: nodeDeflate, level: 6 };

export function mapExtract(bytes: Uint8Array) {
  // Only the embedded images' and the sounds' data are inflated (as DDNet's map_extract reads only those): the
  // items are read first to find them, which costs little beside inflating a large map's tile layers.
  // The container is opened once: the second read takes the first one's datafile, as diffMapFiles does.
  const items = readMap(bytes, { strict: false, inflateData: () => false });
  const wanted = new Set<number>([...items.images.filter((i) => !i.item.external).map((i) => i.item.data), ...items.sounds.map((s) => s.item.data)]);
  const map = readMap(items.datafile!, { strict: false, inflateData: (index) => wanted.has(index) });
  return { images: listImages(map), files: new Map([...[...extractImages(map, CLI_PNG)].map(([n, d]) => [`images/${n}`, d] as const), ...[...extractSounds(map)].map(([n, d]) => [`sounds/${n}`, d] as const)]) };
}

export function mapDiffCommand(a: Uint8Array, b: Uint8Array) {
  // Errors say which of the two maps they are about (the arguments A and B).
  // Data whose stored bytes equal its counterpart's is not inflated (diffMapFiles).
  return diffMapFiles(a, b, (input, options, which) => {
    try {
      return readMap(input, options);
    } catch (e) {
      throw e instanceof CodecError ? errorAbout(e, which) : e;
    }
  });
}

/** The targets of `map convert --to`: `ddnet` (a 0.7 map to DDNet) and `0.7` (a DDNet map for 0.7, as map_convert_07). */
export const CONVERT_TARGETS = ['ddnet', '0.7'] as const;

/**
 * `note`: the input is already in the target form. It is still written (as `map resave --ddnet` writes it, for
 * --to ddnet; as map_convert_07 writes it, for --to 0.7), so that converting a folder of mixed maps works,
 * and the note says that nothing was converted.
 */
export function mapConvert(
  bytes: Uint8Array,
  to: string,
  mapres?: (name: string) => Uint8Array | undefined,
): { bytes: Uint8Array; report?: ConvertTo07Result['notes']; ok: boolean; note?: string } {
  if (to === 'ddnet') {
    const already = !hasTeeworlds07Form(readMap(bytes, { strict: false, skipData: true }));
    return { bytes: convert07ToDdnetFile(bytes), ok: true, ...(already ? { note: 'the map has no Teeworlds 0.7 images or skip-compressed layers: nothing to convert; written as `map resave --ddnet` writes it' } : {}) };
  }
  if (to === '0.7' || to === '07') {
    const already = hasTeeworlds07Form(readMap(bytes, { strict: false, skipData: true }));
    const result = convertDdnetTo07File(bytes, { mapres });
    return { bytes: result.bytes, report: result.notes, ok: result.ok, ...(already ? { note: 'the map already has Teeworlds 0.7 images or skip-compressed layers; converted as map_convert_07 would' } : {}) };
  }
  throw new MapError('cli.convert', `--to ${to} is not supported; use --to ddnet (0.7 to DDNet) or --to 0.7 (DDNet to 0.7)`);
}

export function mapRender(bytes: Uint8Array, what: string, tileSize: number | undefined, mapres: Map<string, Uint8Array> | undefined): Uint8Array {
  const options = { ...(tileSize ? { tileSize } : {}), mapres: (name: string) => mapres?.get(name), png: CLI_PNG };
  // From the file: layers are inflated as they are drawn, not held whole (an 8192x8192 layer is 256 MiB).
  return what === 'game' ? renderGameLayerFile(bytes, options) : renderMapFile(bytes, options);
}

/**
 * The external images a render or a conversion looks up in a mapres directory: name and relative file
 * (`<name>.png`). Refuses (MapError `mapres.name`, naming the image) a name that would leave the directory.
 */
export function mapresFiles(bytes: Uint8Array): { name: string; file: string }[] {
  return listImages(readMap(bytes, { strict: false }))
    .filter((i) => i.external && i.name !== undefined)
    .map((i) => ({ name: i.name!, file: mapresFileName(i.name!, i.index) }));
}

/** An image or sound as the command line names it: by index, by name, or `auto` (digits: an index, else a name). */
export type ItemChoice = { index: number } | { name: string } | { auto: string };

/** The index of the item `which` names among `names`; an `auto` choice of digits that is also a name is refused. */
function resolveItem(names: (string | undefined)[], which: ItemChoice, kind: 'image' | 'sound'): number | string {
  if ('index' in which) return which.index;
  if ('name' in which) return which.name;
  if (!/^\d+$/.test(which.auto)) return which.auto;
  const index = Number(which.auto);
  const named = names.indexOf(which.auto);
  if (named >= 0 && named !== index) {
    throw new UsageError(`${kind} "${which.auto}" is ambiguous: ${kind} ${named} is named "${which.auto}"; say --index ${which.auto} or --name ${which.auto}`);
  }
  return index;
}

export function mapReplaceImage(bytes: Uint8Array, which: ItemChoice, png: Uint8Array, source?: string): Uint8Array {
  const map = readMap(bytes, { strict: false });
  replaceImage(map, findImage(map, resolveItem(map.images.map((i) => i.name), which, 'image')), png, { source });
  // The new image is compressed natively: pako took 4.8 of the 7 CPU seconds an 8192x8192 image cost (DDNet's
  // map_replace_image: 2.1, bench/large-layer.mjs). Its bytes may differ from what DDNet's zlib would store,
  // which nothing promises for new data; the rest of the map keeps its stored bytes.
  return writeMap(map, { deflate: nodeDeflate });
}

export function mapReplaceSound(bytes: Uint8Array, which: ItemChoice, opus: Uint8Array, source?: string): Uint8Array {
  const map = readMap(bytes, { strict: false });
  replaceSound(map, findSound(map, resolveItem(map.sounds.map((s) => s.name), which, 'sound')), opus, { source });
  return writeMap(map);
}
