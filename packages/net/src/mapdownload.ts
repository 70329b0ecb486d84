// The map a client downloads over UDP, reassembled from the server's map_data chunks and checked against what
// the map-change message promised. Facts:
// - DDNet 16.4 (src/engine/client/client.cpp, NETMSG_MAP_DETAILS / NETMSG_MAP_CHANGE / NETMSG_MAP_DATA; server.cpp
//   SendMapData): map_details (name, SHA-256, CRC, size) comes before map_change (name, CRC, size) and counts only
//   when name, size and CRC match it; each map_data carries last, CRC, chunk index and size, and the client takes
//   a chunk only when its CRC is the map's and its index is the next one; the chunk flagged last ends it. The
//   client asks for chunks by index (request_map_data), several ahead; the server answers each request.
// - Teeworlds 0.7.5 (src/engine/client/client.cpp): map_change adds chunks per request, chunk size and SHA-256;
//   map_data is bare data, of which the client takes min(chunk size, bytes still missing); the download ends when
//   all bytes arrived. Only vital map_data counts.
// DDNet refuses map sizes over 1 GiB; a capture's reader holds the whole map, so it refuses far less (maxMapSize).
import { bytesEqual, concatBytes, crc32, sha256 } from '@twcodec/runtime';
import { NetError } from './errors.js';
import type { NetProtocolName } from './packet.js';

/** The default cap on a downloaded map's size (DDNet's own is 1 GiB; its biggest maps are a few MiB). */
export const DEFAULT_MAX_MAP_SIZE = 64 * 1024 * 1024;

/** A map download that ended: complete (its bytes, checked) or refused (`error`). */
export interface MapDownload {
  name: string;
  /** The CRC and size the map-change message announced. */
  crc: number;
  size: number;
  /** The SHA-256 announced (DDNet's map_details, 0.7's map_change); undefined when the server sent none. */
  sha256?: Uint8Array;
  /** The map file, when the download completed. */
  data?: Uint8Array;
  /** Whether the CRC-32 of the data is the announced one. */
  crcOk?: boolean;
  /** Whether the SHA-256 of the data is the announced one (undefined: none announced). */
  sha256Ok?: boolean;
  /** Why the download was refused or abandoned (MAP_TOO_BIG, MAP_DATA_OVERFLOW, MAP_SIZE_MISMATCH). */
  error?: NetError;
}

interface Pending {
  name: string;
  crc: number;
  size: number;
  sha256?: Uint8Array;
  /** 0.7: bytes per chunk. */
  chunkSize: number;
  nextChunk: number;
  amount: number;
  chunks: Uint8Array[];
}

interface MapMessage {
  kind: string;
  mapName?: string;
  mapCrc?: number;
  mapSize?: number;
  mapSha256?: Uint8Array;
  chunkSize?: number;
  last?: boolean;
  chunk?: number;
  data?: Uint8Array;
}

/** The map download of one connection, as its client follows it. */
export class MapDownloader {
  private details: { name: string; crc: number; size: number; sha256: Uint8Array } | undefined;
  private pending: Pending | undefined;

  constructor(private readonly maxMapSize = DEFAULT_MAX_MAP_SIZE) {}

  /** Chunks taken of the download under way (0 when none is). */
  get chunks(): number {
    return this.pending?.nextChunk ?? 0;
  }

  /** Takes a map_details, map_change or map_data the client received; returns the download it ended, if any. */
  message(protocol: NetProtocolName, m: MapMessage, vital: boolean): MapDownload | undefined {
    if (m.kind === 'map_details') {
      if (vital) this.details = { name: m.mapName!, crc: m.mapCrc!, size: m.mapSize!, sha256: m.mapSha256! };
      return undefined;
    }
    if (m.kind === 'map_change') return vital ? this.change(protocol, m) : undefined;
    if (m.kind === 'map_data' && this.pending && (vital || protocol === '0.6')) return this.data(protocol, m);
    return undefined;
  }

  private change(protocol: NetProtocolName, m: MapMessage): MapDownload | undefined {
    const details = this.details;
    this.details = undefined;
    this.pending = undefined;
    const name = m.mapName!;
    const crc = m.mapCrc! >>> 0;
    const size = m.mapSize!;
    let sha: Uint8Array | undefined;
    if (protocol === '0.7') sha = m.mapSha256;
    else if (details && details.name === name && details.size === size && details.crc >>> 0 === crc) sha = details.sha256;
    const announced: MapDownload = { name, crc, size, ...(sha ? { sha256: sha } : {}) };
    if (size < 0 || size > this.maxMapSize) {
      return { ...announced, error: new NetError('MAP_TOO_BIG', `map '${name}' of ${size} bytes, at most ${this.maxMapSize} are taken`, -1, 'map_change.map_size') };
    }
    const chunkSize = protocol === '0.7' ? m.chunkSize! : 0;
    // A 0.7 server that announces no chunk size sends nothing the client could take.
    if (protocol === '0.7' && chunkSize <= 0) return undefined;
    this.pending = { name, crc, size, ...(sha ? { sha256: sha } : {}), chunkSize, nextChunk: 0, amount: 0, chunks: [] };
    return undefined;
  }

  private data(protocol: NetProtocolName, m: MapMessage): MapDownload | undefined {
    const p = this.pending!;
    let bytes = m.data ?? new Uint8Array(0);
    let last: boolean;
    if (protocol === '0.7') {
      const take = Math.min(p.chunkSize, p.size - p.amount);
      if (bytes.length < take) return undefined;
      bytes = bytes.subarray(0, take);
      last = p.amount + take === p.size;
    } else {
      if (bytes.length <= 0 || m.mapCrc! >>> 0 !== p.crc || m.chunk !== p.nextChunk) return undefined;
      last = m.last!;
    }
    if (p.amount + bytes.length > p.size) {
      this.pending = undefined;
      return this.result(p, new NetError('MAP_DATA_OVERFLOW', `map '${p.name}': chunk ${p.nextChunk} brings ${p.amount + bytes.length} bytes, ${p.size} were announced`, -1, 'map_data.data'));
    }
    p.chunks.push(bytes.slice());
    p.amount += bytes.length;
    p.nextChunk++;
    if (!last) return undefined;
    this.pending = undefined;
    if (p.amount !== p.size) return this.result(p, new NetError('MAP_SIZE_MISMATCH', `map '${p.name}': the last chunk ends at ${p.amount} bytes, ${p.size} were announced`, -1, 'map_data.last'));
    const data = concatBytes(p.chunks);
    const out = this.result(p);
    out.data = data;
    out.crcOk = crc32(data) === p.crc;
    if (p.sha256) out.sha256Ok = bytesEqual(sha256(data), p.sha256);
    return out;
  }

  private result(p: Pending, error?: NetError): MapDownload {
    return { name: p.name, crc: p.crc, size: p.size, ...(p.sha256 ? { sha256: p.sha256 } : {}), ...(error ? { error } : {}) };
  }
}
