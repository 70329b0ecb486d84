// The client's side of a map download (ClientOptions.downloadMap): which chunks it asks for and when, and whether
// what arrived is the map that was announced. mapdownload.ts reassembles the chunks (and has the facts); this
// module only drives it, apart from the connection (client.ts), so that the client's handshake reads as steps.
// The request pattern is the captured DDNet 16.4 client's: chunk 0 on map_change, then chunk k + 1 for each chunk
// k taken; Teeworlds 0.7.5 asks for the next `chunksPerRequest` chunks each time that many arrived.
import type { AnyNetMessage } from '@twcodec/netmsg';
import { NetError } from './errors.js';
import { MapDownloader } from './mapdownload.js';
import type { NetProtocolName } from './packet.js';

export class MapRequest {
  /** A download is under way: map_data counts. */
  active = false;
  private chunksPerRequest = 1;
  private readonly downloader: MapDownloader;

  constructor(
    private readonly protocol: NetProtocolName,
    maxMapSize: number,
    /** Sends a message (request_map_data) to the server. */
    private readonly send: (message: { kind: string; [field: string]: unknown }) => void,
  ) {
    this.downloader = new MapDownloader(maxMapSize);
  }

  /** DDNet's map_details: the SHA-256 the map_change after it counts on. */
  details(m: AnyNetMessage, vital: boolean): void {
    this.downloader.message(this.protocol, m, vital);
  }

  /** A vital map_change: asks for the first chunk, or the reason the map is refused (too big). */
  start(m: AnyNetMessage): NetError | undefined {
    const refused = this.downloader.message(this.protocol, m, true);
    if (refused?.error) return refused.error;
    this.active = true;
    this.chunksPerRequest = Math.max(1, Number(m.chunksPerRequest) | 0);
    this.request(0);
    return undefined;
  }

  /** A map_data: undefined while the download goes on, else the map's bytes or why they are not the map announced. */
  data(m: AnyNetMessage, vital: boolean): { data: Uint8Array } | { error: NetError } | undefined {
    const before = this.downloader.chunks;
    const done = this.downloader.message(this.protocol, m, vital);
    if (!done) {
      const taken = this.downloader.chunks;
      if (taken > before && (this.protocol === '0.6' || taken % this.chunksPerRequest === 0)) this.request(taken);
      return undefined;
    }
    this.active = false;
    const error =
      done.error ??
      (!done.crcOk ? new NetError('MAP_CRC_MISMATCH', `map '${done.name}': the downloaded data's CRC is not the announced ${done.crc.toString(16).padStart(8, '0')}`, -1, 'map_data') : undefined) ??
      (done.sha256Ok === false ? new NetError('MAP_SHA256_MISMATCH', `map '${done.name}': the downloaded data's SHA-256 is not the announced one`, -1, 'map_data') : undefined);
    return error ? { error } : { data: done.data! };
  }

  private request(chunk: number): void {
    this.send(this.protocol === '0.7' ? { kind: 'request_map_data' } : { kind: 'request_map_data', chunk });
  }
}
