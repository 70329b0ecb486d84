// A scripted game server for the live client's tests (packages/net/src/client.test.ts, record.test.ts): the
// packets a DDNet 16.4 or Teeworlds 0.7.5 server sends, built with encodePacket, handed to NetClient.receive.
import { packVarInt } from '@twcodec/runtime';
import { createDelta, DDNET_0_6, Snapshot, TEEWORLDS_0_7 } from '@twcodec/snapshot';
import { type ClientClose, type ClientOptions, type DecodedChunk, type DecodedPacket, decodePacket, encodePacket, NetClient, type NetProtocolName } from '@twcodec/net';

/** The security token the scripted DDNet server hands out in connect_accept. */
export const TOKEN = 0x94dba809;
export type Msg = { kind: string; [field: string]: unknown };

/**
 * A scripted server for NetClient: the test says what the server sends (control packets, vital and plain
 * chunks, snapshots), the client's datagrams are kept in `raw` (decoded: `sent`, `chunks`). No socket; the
 * client runs on the clock `options.clock` gives, the system's (fake timers) by default.
 */
export class Script {
  readonly raw: Uint8Array[] = [];
  readonly client: NetClient;
  closed: ClientClose | undefined;
  private seq = 0;
  constructor(
    readonly protocol: NetProtocolName = '0.6',
    options: Partial<ClientOptions> = {},
  ) {
    this.client = new NetClient({ protocol, name: 'bot', connectTimeout: 5000, timeout: 3000, ...options }, (b) => this.raw.push(b));
    this.client.on('close', (c) => (this.closed = c));
  }
  get sent(): DecodedPacket[] {
    return this.raw.map((b) => decodePacket(b, { protocol: this.protocol }));
  }
  get chunks(): DecodedChunk[] {
    return this.sent.flatMap((p) => p.chunks ?? []);
  }
  packet(p: Omit<DecodedPacket, 'protocol'>): void {
    const packet = { protocol: this.protocol, ...p } as DecodedPacket;
    if (this.protocol === '0.6') packet.securityToken = TOKEN;
    else packet.header = { ...packet.header, token: this.clientToken() };
    this.client.receive(encodePacket(packet));
  }
  control(control: Msg): void {
    this.packet({ kind: 'control', header: { flags: this.protocol === '0.6' ? 4 : 1, ack: 0, num_chunks: 0 }, flags: ['control'], control: { id: 0, ...control } });
  }
  /** Vital chunks with the next sequences (or `sequence` given), header ack `ack`. */
  vital(messages: Msg[], options: { ack?: number; sequence?: number; flags?: number } = {}): void {
    const chunks = messages.map((message) => ({ flags: ['vital'], size: 0, sequence: options.sequence ?? (this.seq = this.seq + 1), message }));
    this.packet({ kind: 'connection', header: { flags: options.flags ?? 0, ack: options.ack ?? 0, num_chunks: chunks.length }, flags: [], chunks });
  }
  plain(messages: Msg[]): void {
    this.packet({ kind: 'connection', header: { flags: 0, ack: 0, num_chunks: messages.length }, flags: [], chunks: messages.map((message) => ({ flags: [], size: 0, message })) });
  }
  clientToken(): number {
    const first = decodePacket(this.raw[0]!, { protocol: '0.7' });
    return first.control!.responseToken as number;
  }
  /** Handshake and game handshake up to the first snapshot. */
  toIngame(): void {
    this.client.start();
    if (this.protocol === '0.6') this.control({ kind: 'connect_accept', tokenMagic: true });
    else {
      this.control({ kind: 'token', responseToken: 0x1234 });
      this.control({ kind: 'accept' });
    }
    this.vital([{ kind: 'map_change', mapName: 'ctf2', mapCrc: 0x27bc5eac, mapSize: 25626, ...(this.protocol === '0.7' ? { chunksPerRequest: 8, chunkSize: 1384, mapSha256: new Uint8Array(32) } : {}) }, { kind: 'con_ready' }]);
    if (this.protocol === '0.7') this.vital([{ kind: 'sv_ready_to_enter' }]);
    this.emptySnap(100, -1);
  }
  /** A snapshot with no items: delta [0 removed, 0 updated, 0] of the empty snapshot, CRC 0. */
  emptySnap(tick: number, deltaTick: number, crc = 0): void {
    this.plain([{ kind: 'snap_single', tick, deltaTick: tick - deltaTick, crc, partSize: 3, data: new Uint8Array(3) }]);
  }
  /**
   * The snapshot `next` of `tick` as the server sends it: the delta from `base` (the snapshot of `baseTick`,
   * none: a full one) packed as variable-width ints, with next's CRC, as snap_single or in 900-byte `snap` parts.
   */
  snapshot(tick: number, next: Snapshot, base?: { tick: number; snapshot: Snapshot }): void {
    const delta = createDelta(base?.snapshot ?? new Snapshot([]), next, this.protocol === '0.7' ? TEEWORLDS_0_7 : DDNET_0_6);
    const packed = new Uint8Array(delta.length * 5);
    let size = 0;
    for (const v of delta) size = packVarInt(v, packed, size);
    const data = packed.subarray(0, size);
    const deltaTick = base ? tick - base.tick : tick + 1;
    const crc = next.checksum();
    const numParts = Math.max(1, Math.ceil(size / 900));
    if (numParts === 1) return this.plain([{ kind: 'snap_single', tick, deltaTick, crc, partSize: size, data }]);
    for (let part = 0; part < numParts; part++) {
      const bytes = data.subarray(part * 900, (part + 1) * 900);
      this.plain([{ kind: 'snap', tick, deltaTick, numParts, part, crc, partSize: bytes.length, data: bytes }]);
    }
  }
}
