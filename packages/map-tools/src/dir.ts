import { MapError, readMap, TILEMAP_KINDS, type TileView, type TwMap, writeMap } from '@twcodec/map';
import { imageToPng, listImages, pngToRgba } from './images.js';
import { readPngHeader } from './png.js';
import { soundFileNames } from './sounds.js';

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

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Tile bytes as text: one line per row of `width` tiles, each tile its `tileBytes` bytes in hex. */
export function tilesToText(bytes: Uint8Array, width: number, tileBytes: number): string {
  const rowBytes = Math.max(1, width) * tileBytes;
  const lines: string[] = [];
  for (let row = 0; row * rowBytes < bytes.length; row++) {
    const tiles: string[] = [];
    for (let o = row * rowBytes; o < Math.min(bytes.length, (row + 1) * rowBytes); o += tileBytes) {
      let t = '';
      for (let b = 0; b < tileBytes; b++) t += HEX[bytes[o + b]!];
      tiles.push(t);
    }
    lines.push(tiles.join(' '));
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** Parses tilesToText's form back into bytes (tiles separated by any white space). */
export function textToTiles(text: string, tileBytes: number, file = 'tiles'): Uint8Array {
  const out = new Uint8Array(Math.ceil(text.length / 2));
  let n = 0;
  let tileStart = -1;
  const bad = (at: number) => {
    const token = text.slice(tileStart, at).split(/\s/)[0];
    return new MapError('mapdir.tile', `tile ${Math.floor(n / tileBytes)} "${token}" is not ${tileBytes} bytes in hex`, -1, file);
  };
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) {
      if (tileStart >= 0 && n % tileBytes !== 0) throw bad(i);
      tileStart = -1;
      i++;
      continue;
    }
    if (tileStart < 0) tileStart = i;
    else if (n % tileBytes === 0) throw bad(i + tileBytes * 2);
    const hi = HEX_VALUE[c] ?? -1;
    const lo = HEX_VALUE[text.charCodeAt(i + 1)] ?? -1;
    if (hi < 0 || lo < 0) throw bad(i + 2);
    out[n++] = (hi << 4) | lo;
    i += 2;
    if (n % tileBytes === 0 && i < text.length) {
      const next = text.charCodeAt(i);
      if (next !== 32 && next !== 10 && next !== 13 && next !== 9) throw bad(i + 1);
    }
  }
  if (n % tileBytes !== 0) throw bad(text.length);
  return out.slice(0, n);
}

const HEX_VALUE: (number | undefined)[] = [];
for (let i = 0; i < 16; i++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(i)] = i;
}

const tileTypeOf = (view: TileView) => TILEMAP_KINDS.find((k) => k.view(new Uint8Array(0)).constructor === view.constructor)!;

/** Unpacks a map into its directory form (see MapFiles). */
export function unpackMap(bytes: Uint8Array): MapFiles {
  const map = readMap(bytes, { strict: false });
  const files: MapFiles = new Map();
  const imageNames = listImages(map);
  const soundNames = soundFileNames(map);
  const convert = (value: unknown, path: (string | number)[], width: number): unknown => {
    if (value instanceof Uint8Array) {
      const [top, index, field] = path;
      if (top === 'images' && field === 'pixels' && typeof index === 'number') {
        try {
          const file = `images/${imageNames[index]!.fileName}`;
          files.set(file, imageToPng(map.images[index]!));
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
      files.set(file, utf8.encode(tilesToText(value.bytes, width, info.tileBytes)));
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
  return files;
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
  let model: Record<string, unknown>;
  try {
    model = JSON.parse(fromUtf8.decode(need(MAP_JSON)));
  } catch (e) {
    if (e instanceof MapError) throw e;
    throw new MapError('mapdir.json', `map.json is not valid JSON: ${(e as Error).message}`, -1, MAP_JSON);
  }
  const revive = (value: unknown, path: string, channels: number): unknown => {
    if (Array.isArray(value)) return value.map((v, i) => revive(v, `${path}[${i}]`, channels));
    if (!value || typeof value !== 'object') return value;
    const o = value as Record<string, unknown>;
    if (typeof o.png === 'string') return pngPixels(need(o.png), channels, o.png);
    if (typeof o.opus === 'string') return need(o.opus);
    if (typeof o.base64 === 'string') return fromBase64(o.base64);
    if (Array.isArray(o.int32)) return Int32Array.from(o.int32 as number[]);
    if (typeof o.tiles === 'string' && typeof o.tile === 'string') {
      const info = TILEMAP_KINDS.find((k) => k.tile === o.tile);
      if (!info) throw new MapError('mapdir.tile_type', `unknown tile type "${o.tile}"`, -1, path);
      const text = new TextDecoder().decode(need(o.tiles));
      return info.view(textToTiles(text, info.tileBytes, o.tiles));
    }
    let ch = channels;
    const item = o.item as { version?: number; format?: number; width?: number; height?: number } | undefined;
    if (path.startsWith('images[') && item) ch = item.version !== undefined && item.version >= 2 && item.format === 0 ? 3 : 4;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) out[k] = revive(v, path ? `${path}.${k}` : k, ch);
    // An image's size is the size of its PNG: a PNG replaced by one of another size resizes the image.
    const png = (o.pixels as { png?: unknown } | undefined)?.png;
    if (/^images\[\d+\]$/.test(path) && item && typeof png === 'string') {
      const { width, height } = pngSize(need(png), png);
      out.item = { ...(out.item as object), width, height };
    }
    return out;
  };
  const revived = revive(model, '', 4) as Omit<TwMap, 'datafile' | 'unreadData'>;
  const originalBytes = files.get(ORIGINAL_MAP);
  const original = originalBytes ? readMap(originalBytes, { strict: false }) : undefined;
  const map: TwMap = { ...revived, datafile: original?.datafile, unreadData: original?.unreadData } as TwMap;
  map.items ??= {};
  map.unknownItems ??= [];
  map.readIssues ??= [];
  return writeMap(map);
}
