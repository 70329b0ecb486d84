import { bytesEqual } from '@twcodec/runtime';
import type { ZlibCodec } from './types.js';

/**
 * `zlib` remembering what it inflated: a stream equal to one inflated before (with the same size limit) gives
 * the same output again without inflating. For one pass that meets the same data several times: `map fix`
 * reads a map, compares it with what it writes and reads the result back, which inflated every data item
 * four times (issue 28); resave and convert inflate each twice. The outputs are shared and kept until the
 * codec is dropped: whoever gets one must not change it, so this is not for models that are edited in place.
 * Errors are not remembered (a stream that fails, fails again).
 */
export function rememberingZlib(zlib: ZlibCodec): ZlibCodec {
  // By compressed length, then compared byte for byte (cheap next to inflating).
  const seen = new Map<number, { compressed: Uint8Array; maxSize: number; output: Uint8Array }[]>();
  const find = (compressed: Uint8Array, maxSize: number) => seen.get(compressed.length)?.find((e) => e.maxSize === maxSize && bytesEqual(e.compressed, compressed))?.output;
  const codec: ZlibCodec = {
    ...zlib,
    name: zlib.name,
    inflate(compressed, maxSize) {
      const known = find(compressed, maxSize);
      if (known) return known;
      const output = zlib.inflate(compressed, maxSize);
      let list = seen.get(compressed.length);
      if (!list) seen.set(compressed.length, (list = []));
      list.push({ compressed, maxSize, output });
      return output;
    },
    // A stream met before is compared with its output; others as the codec compares them (without a copy).
    inflateEquals(compressed, expected) {
      const known = find(compressed, expected.length);
      if (known) return bytesEqual(known, expected);
      if (zlib.inflateEquals) return zlib.inflateEquals(compressed, expected);
      try {
        return bytesEqual(codec.inflate(compressed, expected.length), expected);
      } catch {
        return false;
      }
    },
  };
  return codec;
}
