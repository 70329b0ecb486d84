import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crc32, sha256 } from '@twcodec/runtime';
import { corpusDir, hasCorpus, readBytes } from '../../../test/corpus.js';
import { type CaptureDatagram, ConnectionTracker, decodeCapture, type DecodedChunk, type NetProtocolName } from './index.js';

let sequence = 0;
const datagram = (protocol: NetProtocolName, message: Record<string, unknown>): CaptureDatagram => ({
  index: 0,
  seconds: 0,
  nanoseconds: 0,
  source: 's:1',
  destination: 'c:2',
  packet: { protocol, kind: 'connection', header: {}, flags: [], chunks: [{ flags: ['vital'], sequence: ++sequence, size: 0, message: message as unknown as DecodedChunk['message'] }] },
});

const map = Uint8Array.from({ length: 2000 }, (_, i) => (i * 31) & 0xff);
const crc = crc32(map) | 0;

function feedAll(t: ConnectionTracker, protocol: NetProtocolName, messages: Record<string, unknown>[]) {
  sequence = 0;
  return messages.flatMap((m) => t.feed(datagram(protocol, m)).maps);
}

const ddnetChunks = (bytes: Uint8Array, mapCrc = crc) =>
  Array.from({ length: Math.ceil(bytes.length / 900) }, (_, i) => {
    const data = bytes.subarray(i * 900, (i + 1) * 900);
    return { kind: 'map_data', last: (i + 1) * 900 >= bytes.length, mapCrc, chunk: i, chunkSize: data.length, data };
  });

describe('map download', () => {
  it('reassembles a DDNet download, skips chunks out of turn, checks CRC and the SHA-256 of map_details', () => {
    const [c0, c1, c2] = ddnetChunks(map);
    const maps = feedAll(new ConnectionTracker(), '0.6', [
      { kind: 'map_details', mapName: 'm', mapSha256: sha256(map), mapCrc: crc, mapSize: map.length, mapUrl: '' },
      { kind: 'map_change', mapName: 'm', mapCrc: crc, mapSize: map.length },
      c0!,
      { ...c2!, chunk: 5 },
      { ...c1!, mapCrc: crc ^ 1 },
      c1!,
      c2!,
    ]);
    expect(maps).toHaveLength(1);
    expect(maps[0]).toMatchObject({ name: 'm', size: 2000, crc: crc >>> 0, crcOk: true, sha256Ok: true });
    expect(maps[0]!.data).toEqual(map);
  });

  it('says when the data is not what map_change announced; map_details for another map give no SHA-256', () => {
    const other = map.slice();
    other[7]! ^= 1;
    const maps = feedAll(new ConnectionTracker(), '0.6', [
      { kind: 'map_details', mapName: 'other', mapSha256: sha256(map), mapCrc: crc, mapSize: map.length },
      { kind: 'map_change', mapName: 'm', mapCrc: crc, mapSize: map.length },
      ...ddnetChunks(other),
    ]);
    expect(maps).toHaveLength(1);
    expect(maps[0]!.crcOk).toBe(false);
    expect(maps[0]!.sha256Ok).toBeUndefined();
  });

  it('reassembles a Teeworlds 0.7 download: each chunk is min(chunk size, bytes missing) of the data', () => {
    const chunks = Array.from({ length: 3 }, (_, i) => ({ kind: 'map_data', data: map.subarray(i * 900, (i + 1) * 900) }));
    const maps = feedAll(new ConnectionTracker(), '0.7', [{ kind: 'map_change', mapName: 'm', mapCrc: crc, mapSize: map.length, chunksPerRequest: 2, chunkSize: 900, mapSha256: sha256(map) }, ...chunks]);
    expect(maps).toHaveLength(1);
    expect(maps[0]).toMatchObject({ crcOk: true, sha256Ok: true });
    expect(maps[0]!.data).toEqual(map);
  });

  it('refuses a map size over the cap and chunks beyond the announced size (typed errors, nothing kept)', () => {
    const big = feedAll(new ConnectionTracker({ maxMapSize: 1000 }), '0.6', [{ kind: 'map_change', mapName: 'm', mapCrc: crc, mapSize: map.length }, ...ddnetChunks(map)]);
    expect(big.map((m) => m.error?.code)).toEqual(['MAP_TOO_BIG']);
    const lying = feedAll(new ConnectionTracker(), '0.6', [{ kind: 'map_change', mapName: 'm', mapCrc: crc, mapSize: 1000 }, ...ddnetChunks(map)]);
    expect(lying.map((m) => m.error?.code)).toEqual(['MAP_DATA_OVERFLOW']);
    expect(lying[0]!.data).toBeUndefined();
    const short = feedAll(new ConnectionTracker(), '0.6', [{ kind: 'map_change', mapName: 'm', mapCrc: crc, mapSize: 3000 }, ...ddnetChunks(map)]);
    expect(short.map((m) => m.error?.code)).toEqual(['MAP_SIZE_MISMATCH']);
  });

  it.skipIf(!hasCorpus)('rebuilds the map Bravo downloaded in the DDNet capture: ctf2, CRC and SHA-256 right', () => {
    const t = new ConnectionTracker();
    const maps = [...decodeCapture(readBytes(join(corpusDir, 'net', 'ddnet-0.6-session.pcap')))].flatMap((d) => t.feed(d).maps);
    expect(maps.map((m) => [m.name, m.size, m.crcOk, m.sha256Ok])).toEqual([['ctf2', 25626, true, true]]);
  });
});
