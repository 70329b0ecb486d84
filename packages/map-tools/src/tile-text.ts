// The text form of tile layers in a map's directory form (layers/*.txt): one line per row, each tile its bytes in
// hex, runs of equal tiles as `hex*count`; written in chunks and parsed from bytes, so that a large layer's
// text never becomes one string.
import { MapError } from '@twcodec/map';
import { plural } from './diff.js';

const utf8 = new TextEncoder();

/** `1.5 MiB`. */
export const megabytes = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/**
 * Tile bytes as text: one line per row of `width` tiles, each tile its `tileBytes` bytes in hex, a run of
 * equal tiles in a row as one token `hex*count` (`00000000*1702` is an empty row of 1702 tiles).
 */
export function tilesToText(bytes: Uint8Array, width: number, tileBytes: number): string {
  let text = '';
  for (const chunk of tileTextChunks(bytes, width, tileBytes)) text += latin1.decode(chunk);
  return text;
}

const latin1 = new TextDecoder('latin1');

/**
 * The runs of equal tiles within each row of `width` tiles (rows past the layer's height included, the last
 * one possibly short), in order: each next() moves to the next run, `first` tile, `count` tiles, `rowEnds`.
 */
class TileRuns {
  first = 0;
  count = 0;
  rowEnds = false;
  private next_ = 0;
  private rowEnd = 0;
  private readonly perRow: number;
  private readonly total: number;
  private readonly same: (a: number, b: number) => boolean;

  constructor(
    bytes: Uint8Array,
    width: number,
    private readonly tileBytes: number,
  ) {
    this.perRow = Math.max(1, width);
    this.total = Math.floor(bytes.length / tileBytes);
    // Whole tiles compared as one 32-bit or 16-bit word where the bytes allow: the 120 M tiles of a large map
    // are scanned twice, for the size and for the text.
    const words =
      tileBytes === 4 && bytes.byteOffset % 4 === 0
        ? new Uint32Array(bytes.buffer, bytes.byteOffset, this.total)
        : tileBytes === 2 && bytes.byteOffset % 2 === 0
          ? new Uint16Array(bytes.buffer, bytes.byteOffset, this.total)
          : undefined;
    this.same = words
      ? (a, b) => words[a] === words[b]
      : (a, b) => {
          for (let k = 0, i = a * tileBytes, j = b * tileBytes; k < tileBytes; k++) if (bytes[i + k] !== bytes[j + k]) return false;
          return true;
        };
  }

  next(): boolean {
    const t = this.next_;
    if (t >= this.total) return false;
    if (t >= this.rowEnd) this.rowEnd = Math.min(this.total, t + this.perRow);
    let end = t + 1;
    while (end < this.rowEnd && this.same(t, end)) end++;
    this.first = t;
    this.count = end - t;
    this.rowEnds = end === this.rowEnd;
    this.next_ = end;
    return true;
  }

  /** The bytes of the current run's token: the tile's hex, `*count` for more than one tile, a separator. */
  tokenSize(): number {
    return this.tileBytes * 2 + 1 + (this.count > 1 ? 1 + decimalDigits(this.count) : 0);
  }
}

const decimalDigits = (n: number) => {
  let digits = 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    digits++;
  }
  return digits;
};

/** The size of tilesToText's text in bytes: each token is a tile's hex, `*count` for a run, and a separator. */
export function tileTextSize(bytes: Uint8Array, width: number, tileBytes: number): number {
  let size = 0;
  for (const runs = new TileRuns(bytes, width, tileBytes); runs.next(); ) size += runs.tokenSize();
  return size;
}

/**
 * tilesToText's text as ASCII bytes, in chunks of about `chunkBytes`, so that a large layer's text is never
 * held whole (a 4096x4096 layer of tiles that all differ from their neighbours is 151 MB of text; issue 25).
 */
export function* tileTextChunks(bytes: Uint8Array, width: number, tileBytes: number, chunkBytes = 1 << 20): Generator<Uint8Array> {
  // A token is at most the hex, `*`, 10 digits and a separator.
  const room = chunkBytes + tileBytes * 2 + 12;
  let out = new Uint8Array(room);
  let o = 0;
  for (const runs = new TileRuns(bytes, width, tileBytes); runs.next(); ) {
    for (let b = runs.first * tileBytes, end = b + tileBytes; b < end; b++) {
      const v = bytes[b]!;
      out[o++] = HEX_CHARS[v >> 4]!;
      out[o++] = HEX_CHARS[v & 15]!;
    }
    if (runs.count > 1) {
      out[o++] = STAR;
      const digits = decimalDigits(runs.count);
      for (let d = digits - 1, n = runs.count; d >= 0; d--, n = Math.floor(n / 10)) out[o + d] = 48 + (n % 10);
      o += digits;
    }
    out[o++] = runs.rowEnds ? 10 : 32;
    if (o >= chunkBytes) {
      yield out.subarray(0, o);
      out = new Uint8Array(room);
      o = 0;
    }
  }
  if (o > 0) yield out.subarray(0, o);
}

const HEX_CHARS = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const STAR = 42;

/**
 * The most bytes of tiles (all tile files together, as the map holds them) packMap makes from a directory
 * form, and unpackMap unpacks: 768 MiB. A run token stands for up to a row of tiles, so a few KB of text can
 * describe hundreds of MB; the tiles are counted before anything is allocated. packMap holds them once (plus
 * about 60 MB), so whatever it accepts packs within 1 GB: a map of 35 layers of 1702x2023 is 545 MB of tiles
 * (packed at a 305 MB peak, its empty rows never touched); 1 GiB of tiles that are not zero took 1.05 GB.
 */
export const MAX_TILE_BYTES = 768 * 1024 * 1024;

/**
 * Parses tilesToText's form back into bytes: tiles separated by spaces or tabs, rows by line breaks, a run of
 * `count` equal tiles as `hex*count` (text without runs, as unpack wrote it before runs, reads as it always
 * did). With `size`, the first `size.height` lines must hold `size.width` tiles each (lines after them are
 * tiles past the layer's size, which DDNet ignores and resaves keep, at most `size.width` a line): a row one
 * tile short, a run past the row's end, or a width changed in map.json, is refused here with the line and
 * column rather than packed into a map the reader refuses. At most `maxTiles` tiles (default: MAX_TILE_BYTES of them), counted before
 * anything is allocated (`mapdir.too_large`).
 */
export function textToTiles(
  input: string | Uint8Array,
  tileBytes: number,
  file = 'tiles',
  size?: { width: number; height: number },
  maxTiles = Math.floor(MAX_TILE_BYTES / tileBytes),
): Uint8Array {
  // Parsed as bytes (ASCII): the text of a large layer is never made a string.
  const text = typeof input === 'string' ? utf8.encode(input) : input;
  // Twice over the text: checked and counted, then the tiles made, so that nothing is allocated for text
  // that is refused and the tiles are allocated once at their size.
  const count = scanTileText(text, tileBytes, file, size, maxTiles);
  const out = new Uint8Array(count * tileBytes);
  scanTileText(text, tileBytes, file, size, maxTiles, out);
  return out;
}

/** textToTiles' pass over the text: checks it and returns the number of tiles; with `out`, writes them there. */
function scanTileText(text: Uint8Array, tileBytes: number, file: string, size: { width: number; height: number } | undefined, maxTiles: number, out?: Uint8Array): number {
  let n = 0;
  let line = 1;
  let lineStart = 0;
  let rowTiles = 0;
  const tile = new Uint8Array(tileBytes);
  const at = (i: number) => `${file}:${line}:${i - lineStart + 1}`;
  const bad = (start: number) => {
    let end = start;
    while (end < text.length && end - start < 40 && !isSeparator(text[end]!)) end++;
    const token = new TextDecoder().decode(text.subarray(start, end));
    return new MapError('mapdir.tile', `"${token}" is not a tile of ${tileBytes} bytes in hex, nor a run of one (${'00'.repeat(tileBytes)}*count)`, -1, at(start));
  };
  const endRow = (i: number) => {
    if (size && line <= size.height && rowTiles !== size.width) {
      throw new MapError('mapdir.tile_row', `row ${line - 1} has ${plural(rowTiles, 'tile')}; the layer is ${plural(size.width, 'tile')} wide (map.json)`, -1, at(i));
    }
  };
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === 10) {
      endRow(i);
      line++;
      lineStart = ++i;
      rowTiles = 0;
      continue;
    }
    if (c === 32 || c === 13 || c === 9) {
      i++;
      continue;
    }
    const start = i;
    let zero = true;
    for (let b = 0; b < tileBytes; b++, i += 2) {
      const hi = HEX_VALUE[text[i]!] ?? -1;
      const lo = HEX_VALUE[text[i + 1]!] ?? -1;
      if (hi < 0 || lo < 0) throw bad(start);
      tile[b] = (hi << 4) | lo;
      if (hi | lo) zero = false;
    }
    let run = 1;
    if (text[i] === STAR) {
      const digits = ++i;
      run = 0;
      // At most 10 digits: no row is wider than 2^31 tiles, and the count stays an exact integer.
      while (i < text.length && i - digits < 10 && text[i]! >= 48 && text[i]! <= 57) run = run * 10 + text[i++]! - 48;
      if (i === digits || run === 0) throw bad(start);
    }
    if (i < text.length && !isSeparator(text[i]!)) throw bad(start);
    // Lines past the layer's height (tiles past its size) hold at most a row each too, as unpack writes them:
    // a run there costs text for every row of tiles it stands for.
    if (size && rowTiles + run > size.width) {
      const row = line <= size.height ? `row ${line - 1}` : `line ${line} (tiles past the layer's ${plural(size.height, 'row')})`;
      const what = run > 1 ? `a run of ${run} tiles after ${plural(rowTiles, 'tile')} goes past the end of ${row}` : `${row} has more than ${plural(size.width, 'tile')}`;
      throw new MapError('mapdir.tile_row', `${what}; the layer is ${plural(size.width, 'tile')} wide (map.json)`, -1, at(start));
    }
    if (run > maxTiles - n) {
      throw new MapError('mapdir.too_large', `the tiles come to more than ${plural(maxTiles, 'tile')} (${megabytes(maxTiles * tileBytes)}), the most a map directory's tiles may take together`, -1, at(start));
    }
    // The array is new: zero tiles are there already, and their pages are never touched (an empty layer of
    // a large map costs no memory). A run repeats its first tile, copied in doubling blocks.
    if (out && !zero) {
      const first = n * tileBytes;
      out.set(tile, first);
      const end = (n + run) * tileBytes;
      for (let filled = first + tileBytes; filled < end; filled += Math.min(filled - first, end - filled)) out.copyWithin(filled, first, first + Math.min(filled - first, end - filled));
    }
    n += run;
    rowTiles += run;
  }
  // The last line, unless the text ended with its line break.
  if (lineStart < text.length) endRow(text.length);
  else line--;
  if (size && line < size.height && size.width > 0) {
    throw new MapError('mapdir.tile_row', `${plural(line, 'row')}; the layer is ${plural(size.height, 'tile')} high (map.json)`, -1, `${file}:${line + 1}:1`);
  }
  return n;
}

const isSeparator = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/** The value of each hex digit's char code; -1 for every other byte. */
const HEX_VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(i)] = i;
}
