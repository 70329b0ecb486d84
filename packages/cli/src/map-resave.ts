import { readMap, type TwMap, writeMap } from '@twcodec/map';
import { defaultZlib, rememberingZlib } from '@twcodec/datafile';

// map resave and map json: the map model alone (@twcodec/map), without the map tools (start-up, issue 28:
// each map command loads the modules it uses; docs/performance.md).

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
