// Teeworlds sessions written in code for the net tests: a server and its clients exchanging 0.6 packets
// (connects, vital messages numbered per direction, snapshots as deltas), and the pcap file that captured them,
// so that a capture with any player name, dummy, lost packet or hostile snapshot is rebuilt from scratch.
import { encodePacket, type DecodedChunk, type DecodedPacket, LINKTYPE } from '@twcodec/net';
import { concatBytes, crc32, packVarInt, sha256 } from '@twcodec/runtime';
import { createDelta, DDNET_0_6, Snapshot, TEEWORLDS_0_7 } from '@twcodec/snapshot';

export interface Sent {
  from: string;
  to: string;
  bytes: Uint8Array;
  ms: number;
}

export const SERVER = '10.0.0.1:8303';
export const CLIENT = '10.0.0.2:50000';
export const DUMMY = '10.0.0.2:50001';

const ip = (endpoint: string) => endpoint.split(':')[0]!.split('.').map(Number);
const port = (endpoint: string) => Number(endpoint.split(':')[1]);

/** A classic pcap of raw IPv4/UDP frames (LINKTYPE_RAW). */
export function pcapOf(datagrams: Sent[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const head = new DataView(new ArrayBuffer(24));
  head.setUint32(0, 0xa1b2c3d4, true);
  head.setUint16(4, 2, true);
  head.setUint16(6, 4, true);
  head.setUint32(16, 65535, true);
  head.setUint32(20, LINKTYPE.raw, true);
  parts.push(new Uint8Array(head.buffer));
  for (const d of datagrams) {
    const frame = new Uint8Array(28 + d.bytes.length);
    const v = new DataView(frame.buffer);
    frame[0] = 0x45;
    v.setUint16(2, frame.length);
    frame[8] = 64;
    frame[9] = 17;
    frame.set(ip(d.from), 12);
    frame.set(ip(d.to), 16);
    v.setUint16(20, port(d.from));
    v.setUint16(22, port(d.to));
    v.setUint16(24, 8 + d.bytes.length);
    frame.set(d.bytes, 28);
    const rec = new DataView(new ArrayBuffer(16));
    rec.setUint32(0, 1_800_000_000 + Math.floor(d.ms / 1000), true);
    rec.setUint32(4, Math.round((d.ms % 1000) * 1000), true);
    rec.setUint32(8, frame.length, true);
    rec.setUint32(12, frame.length, true);
    parts.push(new Uint8Array(rec.buffer), frame);
  }
  return concatBytes(parts);
}

export function packed(ints: Int32Array): Uint8Array {
  const out = new Uint8Array(ints.length * 5);
  let n = 0;
  for (const v of ints) n = packVarInt(v, out, n);
  return out.slice(0, n);
}

/**
 * A session builder (0.6, or 0.7 with tokens in every header): connects clients, sends their messages and the
 * server's, numbers vital chunks.
 */
export class Session {
  readonly sent: Sent[] = [];
  private readonly sequences = new Map<string, number>();
  /** The capture time of the last datagram, in ms (each datagram 5 ms after the one before unless `wait` says more). */
  ms = 0;

  constructor(
    readonly server: string,
    readonly protocol: '0.6' | '0.7' = '0.6',
  ) {}

  private packet(p: Omit<DecodedPacket, 'protocol'>): Uint8Array {
    const packet = { protocol: this.protocol, ...p } as DecodedPacket;
    // 0.7: every packet carries the token of its receiver (the tests use one token for everyone).
    if (this.protocol === '0.7') packet.header = { ...packet.header, token: 0x1234 };
    return encodePacket(packet);
  }

  /** Lets `ms` pass before the next datagram. */
  wait(ms: number) {
    this.ms += ms;
  }

  send(from: string, to: string, bytes: Uint8Array) {
    this.sent.push({ from, to, bytes, ms: (this.ms += 5) });
  }

  connect(client: string) {
    if (this.protocol === '0.6') {
      this.send(client, this.server, Uint8Array.of(0x10, 0, 0, 1));
      this.send(this.server, client, Uint8Array.of(0x10, 0, 0, 2));
      return;
    }
    const control = (c: Record<string, unknown>) => this.packet({ kind: 'control', header: { flags: 1, ack: 0, num_chunks: 0 }, flags: ['control'], control: c as unknown as DecodedPacket['control'] });
    this.send(client, this.server, control({ kind: 'connect', id: 1, responseToken: 0x1234 }));
    this.send(this.server, client, control({ kind: 'accept', id: 2 }));
  }

  message(from: string, to: string, message: Record<string, unknown>, vital = true) {
    const key = `${from} ${to}`;
    const sequence = (this.sequences.get(key) ?? 0) + 1;
    if (vital) this.sequences.set(key, sequence);
    const chunk = { flags: vital ? ['vital'] : [], size: 0, ...(vital ? { sequence } : {}), message: message as unknown as DecodedChunk['message'] } as DecodedChunk;
    this.send(from, to, this.packet({ kind: 'connection', header: { flags: 0, ack: 0, num_chunks: 1 }, flags: [], chunks: [chunk] }));
  }

  /** The snapshot of `tick` to `client`, as a delta from `base` (none: a full snapshot), in parts of 900 bytes when bigger. */
  snapshot(client: string, tick: number, snapshot: Snapshot, base?: { tick: number; snapshot: Snapshot }) {
    const data = packed(createDelta(base?.snapshot ?? new Snapshot([]), snapshot, this.protocol === '0.6' ? DDNET_0_6 : TEEWORLDS_0_7));
    const deltaTick = base ? tick - base.tick : tick + 1;
    if (data.length <= 900) return this.message(this.server, client, { kind: 'snap_single', tick, deltaTick, crc: snapshot.checksum(), partSize: data.length, data }, false);
    const numParts = Math.ceil(data.length / 900);
    for (let part = 0; part < numParts; part++) {
      const piece = data.subarray(part * 900, (part + 1) * 900);
      this.message(this.server, client, { kind: 'snap', tick, deltaTick, numParts, part, crc: snapshot.checksum(), partSize: piece.length, data: piece }, false);
    }
  }

  /** Several non-vital messages in one packet. */
  messages(from: string, to: string, messages: Record<string, unknown>[]) {
    const chunks = messages.map((message) => ({ flags: [], size: 0, message: message as unknown as DecodedChunk['message'] }) as DecodedChunk);
    this.send(from, to, this.packet({ kind: 'connection', header: { flags: 0, ack: 0, num_chunks: chunks.length }, flags: [], chunks }));
  }
}

export const snapshotOf = (n: number, salt: number) => new Snapshot(Array.from({ length: n }, (_, i) => ({ type: 100, id: i, data: Int32Array.of(i, salt, -i) })));
export const startInfo = (name: string) => ({ kind: 'cl_start_info', name, clan: '', country: -1, skin: 'default', useCustomColor: false, colorBody: 0, colorFeet: 0 });
export const input = (predictionTick: number, ackGameTick = 0) => ({ kind: 'input', ackGameTick, predictionTick, size: 40, data: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] });

/** A 1500-byte map file (not a real map: captureDemo takes the bytes the server sent). */
export const testMap = Uint8Array.from({ length: 1500 }, (_, i) => (i * 7) & 0xff);

/** CLIENT connects as `name`, downloads `map` as 'tiny' in two parts and gets the server's motd. */
export function mapDownloadSession(map = testMap, name = 'Tee'): Session {
  const mapCrc = crc32(map) | 0;
  const s = new Session(SERVER);
  s.connect(CLIENT);
  s.message(CLIENT, SERVER, startInfo(name));
  s.message(SERVER, CLIENT, { kind: 'map_details', mapName: 'tiny', mapSha256: sha256(map), mapCrc, mapSize: map.length, mapUrl: '' });
  s.message(SERVER, CLIENT, { kind: 'map_change', mapName: 'tiny', mapCrc, mapSize: map.length });
  s.message(SERVER, CLIENT, { kind: 'map_data', last: false, mapCrc, chunk: 0, chunkSize: 1000, data: map.subarray(0, 1000) });
  s.message(SERVER, CLIENT, { kind: 'map_data', last: true, mapCrc, chunk: 1, chunkSize: map.length - 1000, data: map.subarray(1000) });
  s.message(SERVER, CLIENT, { kind: 'sv_motd', message: 'welcome' });
  return s;
}
