// readMapAsync with the browser codec (fflate, and DecompressionStream for items of 64 KB and more; Node 20
// has the same DecompressionStream as browsers): the same model as readMap, written back to the same bytes,
// and the same errors on corrupt data.
import { Datafile } from '@twcodec/datafile';
import { fflateZlib } from '@twcodec/datafile/zlib-fflate';
import { MapError, readMap, readMapAsync, writeMap } from '@twcodec/map';
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { fixtureMaps, mapCases, readBytes } from '../corpus.js';
import { countDecompressionStreams } from '../decompression-streams.js';

// toEqual on the 100 MB writes of the largest maps takes seconds; Buffer#equals compares them natively.
const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);

describe('readMapAsync', () => {
  const cases = [...new Map([...fixtureMaps(), ...mapCases()].map((c) => [c.path, c])).values()];
  it.each(cases.map((c) => [c.name, c.path]))('%s: the same map as readMap, written back to the same bytes', async (_name, path) => {
    const bytes = readBytes(path);
    const viaAsync = await readMapAsync(bytes, { zlib: fflateZlib });
    const viaSync = readMap(bytes, { zlib: fflateZlib });
    expect(sameBytes(writeMap(viaAsync), writeMap(viaSync))).toBe(true);
    expect(viaAsync.groups.flatMap((g) => g.layers.map((l) => l.kind))).toEqual(viaSync.groups.flatMap((g) => g.layers.map((l) => l.kind)));
    expect(viaAsync.images.map((i) => i.name)).toEqual(viaSync.images.map((i) => i.name));
  });

  it('inflates the large items of a map through DecompressionStream and reports corrupt data as readMap does', async () => {
    const bytes = readBytes(fixtureMaps().find((c) => c.name === 'dm7-legacy-size.map')!.path);
    const large = Datafile.read(bytes).data.filter((d) => d.size >= 65536).length;
    expect(large).toBeGreaterThan(0);
    expect(await countDecompressionStreams(() => readMapAsync(bytes, { zlib: fflateZlib }))).toBe(large);

    // The last data item's stream corrupted: both readers refuse it with the same MapError.
    const corrupt = bytes.slice();
    corrupt[corrupt.length - 6]! ^= 0xff;
    const refusal = async (read: () => unknown) => {
      try {
        await read();
      } catch (e) {
        return e instanceof MapError ? `${e.code} ${e.message}` : `not a MapError: ${String(e)}`;
      }
      return 'accepted';
    };
    const sync = await refusal(() => readMap(corrupt, { zlib: fflateZlib }));
    expect(sync).not.toBe('accepted');
    expect(await refusal(() => readMapAsync(corrupt, { zlib: fflateZlib }))).toBe(sync);
  });
});
