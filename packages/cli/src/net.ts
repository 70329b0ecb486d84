// `net pcap`: the UDP datagrams of a capture file, decoded by @twcodec/net, one JSON line each.
import { type CaptureDatagram, ConnectionTracker, decodeCapture, type NetProtocolName, type TrackedDatagram } from '@twcodec/net';
import { type CliIo, UsageError } from './io.js';
import { messageJson } from './teehistorian.js';

/** ISO 8601 UTC with the capture's fraction: 6 digits, or 9 when the nanoseconds need them. */
function isoTime(seconds: number, nanoseconds: number): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  const fraction = nanoseconds % 1000 === 0 ? String(nanoseconds / 1000).padStart(6, '0') : String(nanoseconds).padStart(9, '0');
  return `${base}.${fraction}Z`;
}

/**
 * The JSON line of one datagram: messages as `demo messages` prints them (message kind, fields); with what the
 * connection tracker made of it, vital chunks the receiver already had (or drops) marked and the snapshots the
 * datagram completed.
 */
export function datagramJson(d: CaptureDatagram, tracked?: TrackedDatagram): string {
  const line: Record<string, unknown> = { index: d.index, time: isoTime(d.seconds, d.nanoseconds), source: d.source, destination: d.destination };
  if (d.error) return messageJson({ ...line, error: d.error.message });
  const p = d.packet!;
  Object.assign(line, { protocol: p.protocol, kind: p.kind, header: p.header, flags: p.flags });
  if (p.securityToken !== undefined) line.securityToken = p.securityToken;
  if (p.control) line.control = p.control;
  if (p.connless) {
    const { kind, ...fields } = p.connless;
    line.connless = { message: kind, fields };
  }
  if (p.chunks)
    line.chunks = p.chunks.map((c, i) => {
      const { kind, trailing, ...fields } = c.message as typeof c.message & { trailing?: Uint8Array };
      const delivery = tracked?.delivery[i];
      return { flags: c.flags, ...(c.sequence !== undefined ? { sequence: c.sequence } : {}), ...(delivery && delivery !== 'delivered' ? { delivery } : {}), size: c.size, message: kind, fields, ...(trailing?.length ? { trailing } : {}) };
    });
  if (tracked?.snapshots.length)
    line.snapshots = tracked.snapshots.map((s) => ({
      tick: s.tick,
      deltaTick: s.deltaTick,
      ...(s.crc !== undefined ? { crc: s.crc } : {}),
      ...(s.crcOk !== undefined ? { crcOk: s.crcOk } : {}),
      ...(s.snapshot ? { items: s.snapshot.items.length } : {}),
      ...(s.error ? { error: s.error } : {}),
    }));
  return messageJson(line);
}

export const NET_COMMANDS = {
  'net pcap': {
    args: ['FILE'],
    flags: { protocol: { type: 'string' as const, value: '0.6|0.7', help: 'the protocol of flows the capture holds no handshake of (default: told from their packets, else 0.6)' } },
    summary: 'NDJSON: one line per UDP datagram of a pcap/pcapng capture: time, source, destination, protocol, header, chunks with their messages',
    details:
      'Messages carry the names and fields of `demo messages` (https://github.com/twcodec/twcodec/blob/main/docs/formats/net-messages.md); control and connectionless packets (server info) are named as in https://github.com/twcodec/twcodec/blob/main/docs/formats/network.md. A datagram that does not decode gets its line with "error" and the rest go on. Each flow takes its protocol from its handshake (0.7 token/connect, 0.6 connect). Vital chunks the receiver already had carry "delivery": "duplicate" (out of order: "out_of_order"); each snapshot a datagram completes (snap parts of a tick, the delta applied to the snapshot of the delta tick) is listed under "snapshots" with its tick, item count and "crcOk". Not yet: the map download. FILE may be - to read standard input.',
    async run(io: CliIo, [file]: string[], flags: Record<string, boolean | string | undefined>) {
      const protocol = flags.protocol;
      if (protocol !== undefined && protocol !== '0.6' && protocol !== '0.7') throw new UsageError(`--protocol is 0.6 or 0.7, not '${String(protocol)}'`);
      const options = protocol ? { protocol: protocol as NetProtocolName } : {};
      const tracker = new ConnectionTracker();
      for (const d of decodeCapture(await io.readFile(file!), options)) await io.stdout(`${datagramJson(d, tracker.feed(d))}\n`);
    },
  },
};
