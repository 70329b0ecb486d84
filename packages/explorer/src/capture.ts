// Byte layout of a capture file (pcap, pcapng): one node per UDP datagram, opened into its frame's headers and
// its Teeworlds/DDNet packet (header, control or connectionless message, chunks with their net messages), all
// from @twcodec/net, which the browser runs as it is (no Node APIs). Chunks of a Huffman-compressed packet
// have no bytes of their own in the file: they are `decoded` and point at the compressed data.
import { type CaptureDatagram, type DecodedPacket, decodeCapture, NetError, PACKET_PROTOCOLS, readCapture, udpOf } from '@twcodec/net';
import { DDNET_0_6_MESSAGES, netMessageDef, TEEWORLDS_0_7_MESSAGES } from '@twcodec/netmsg';
import type { LayoutNode } from './layout.js';
import type { Overview, StreamSession } from './streams.js';

/** Where a frame and its UDP payload are in the file. */
interface FramePlace {
  /** The record's (or block's) start, the frame's bytes, and the UDP payload (-1: none in this frame). */
  record: number;
  start: number;
  end: number;
  payload: number;
  payloadEnd: number;
}

const MESSAGE_TABLES = { '0.6': DDNET_0_6_MESSAGES, '0.7': TEEWORLDS_0_7_MESSAGES } as const;
const show = (v: unknown): string => (v instanceof Uint8Array ? `${v.length} bytes` : typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? `[${v.join(', ')}]` : v && typeof v === 'object' ? JSON.stringify(v) : String(v));
const clip = (text: string, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function datagramLabel(d: CaptureDatagram): string {
  const p = d.packet;
  if (!p) return `#${d.index} ${d.error?.code ?? 'error'}`;
  const what = p.kind === 'connection' ? (p.chunks ?? []).map((c) => c.message.kind).join(', ') || 'no chunks' : p.kind === 'control' ? `control ${p.control!.kind}` : `connless ${p.connless!.kind}`;
  return clip(`#${d.index} ${d.source} → ${d.destination}: ${what}`, 100);
}

/** Fields of a decoded object (a control or connectionless message, a header) as nodes over the same bytes. */
function fieldNodes(fields: Record<string, unknown>, start: number, end: number, decoded: boolean, skip: string[] = []): LayoutNode[] {
  return Object.entries(fields)
    .filter(([k]) => !skip.includes(k))
    .map(([label, v]) => ({ label, start, end, value: clip(show(v), 200), ...(decoded ? { decoded: true } : {}) }));
}

/** The nodes of one packet, its payload at `at` in the file (`length` bytes). */
function packetNodes(p: DecodedPacket, at: number, length: number): LayoutNode[] {
  const table = PACKET_PROTOCOLS[p.protocol];
  const end = at + length;
  const nodes: LayoutNode[] = [];
  if (p.kind === 'connless') {
    nodes.push({ label: 'connless header', start: at, end, type: String(p.header.form), value: clip(JSON.stringify(p.header)), description: 'A connectionless packet (server info, token requests): no connection, no chunks.', children: fieldNodes(p.header, at, end, false) });
    const m = p.connless!;
    nodes.push({ label: `connless ${m.kind}`, start: at, end, type: 'connless message', children: fieldNodes(m, at, end, false, ['kind']) });
    return nodes;
  }
  const headerEnd = at + table.headerSize;
  nodes.push({ label: 'header', start: at, end: headerEnd, type: `${p.protocol} packet header`, value: p.flags.join(', ') || 'no flags', description: `Flags, the ack of the last vital chunk received and the number of chunks (docs/formats/network.md).`, children: fieldNodes(p.header, at, headerEnd, false) });
  const compressed = p.flags.includes('compression');
  const decoded = compressed;
  if (compressed) nodes.push({ label: 'data (Huffman-compressed)', start: headerEnd, end, type: 'bytes', value: `${end - headerEnd} bytes`, description: "The packet's data, Huffman-compressed: the nodes below are decoded from it." });
  if (p.control) {
    nodes.push({ label: `control ${p.control.kind}`, start: headerEnd, end, type: 'control message', ...(decoded ? { decoded: true } : {}), children: fieldNodes(p.control, headerEnd, end, decoded, ['kind']) });
  }
  let pos = headerEnd;
  for (const [i, c] of (p.chunks ?? []).entries()) {
    const head = c.sequence !== undefined ? table.vitalChunkHeaderSize : table.chunkHeaderSize;
    const start = decoded ? headerEnd : pos;
    const chunkEnd = decoded ? end : pos + head + c.size;
    const messageStart = decoded ? headerEnd : pos + head;
    const m = c.message as { kind: string } & Record<string, unknown>;
    const def = m.kind === 'unknown' ? undefined : netMessageDef(MESSAGE_TABLES[p.protocol], m.kind);
    const children: LayoutNode[] = [
      { label: 'chunk header', start, end: decoded ? chunkEnd : pos + head, type: 'chunk header', value: [c.flags.join('+') || 'no flags', `size ${c.size}`, ...(c.sequence !== undefined ? [`sequence ${c.sequence}`] : [])].join(', '), description: 'Flags (vital, resend), the size of the message and, for a vital chunk, its sequence number.', ...(decoded ? { decoded: true } : {}) },
      ...(def
        ? def.fields.map((f) => ({ label: f.name, start: messageStart, end: chunkEnd, type: f.type, value: m[f.key] === undefined ? '(absent)' : clip(show(m[f.key]), 200), description: f.description, decoded: true }))
        : fieldNodes(m, messageStart, chunkEnd, true, ['kind'])),
    ];
    nodes.push({ label: `chunk ${i}: ${m.kind}`, start, end: chunkEnd, type: def ? `${def.system ? 'system' : 'game'} message` : 'message', value: `${c.size} bytes`, description: def?.description ?? 'A message the protocol tables do not name, kept as bytes.', ...(decoded ? { decoded: true } : {}), children });
    pos += head + c.size;
  }
  if (p.securityToken !== undefined) nodes.push({ label: 'security token', start: decoded ? headerEnd : end - 4, end, type: 'u32be', value: `0x${p.securityToken.toString(16).padStart(8, '0')}`, description: "DDNet's security token, agreed in the connect handshake, at the end of every packet's data.", ...(decoded ? { decoded: true } : {}) });
  return nodes;
}

/** A capture file: the file header, then one node per UDP datagram (opened on demand). */
export function captureSession(bytes: Uint8Array): StreamSession {
  const places: FramePlace[] = [];
  const pcapng = bytes.length >= 4 && bytes[0] === 0x0a && bytes[1] === 0x0d && bytes[2] === 0x0d && bytes[3] === 0x0a;
  let damaged: unknown;
  try {
    for (const f of readCapture(bytes)) {
      let payload = -1;
      let payloadEnd = -1;
      try {
        const udp = udpOf(f);
        if (udp) {
          payload = udp.payload.byteOffset - bytes.byteOffset;
          payloadEnd = payload + udp.payload.length;
        }
      } catch {
        // A fragment, or a frame cut short: the datagram's line says so.
      }
      places[f.index] = { record: pcapng ? f.offset : f.offset - 16, start: f.offset, end: f.offset + f.data.length, payload, payloadEnd };
    }
  } catch (e) {
    damaged = e;
  }
  const datagrams: CaptureDatagram[] = [];
  try {
    for (const d of decodeCapture(bytes)) datagrams.push(d);
  } catch (e) {
    damaged ??= e;
  }
  const root: LayoutNode = { label: pcapng ? 'capture (pcapng)' : 'capture (pcap)', start: 0, end: bytes.length, children: [] };
  if (!pcapng && bytes.length >= 24) {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, 24);
    const little = dv.getUint32(0, false) === 0xd4c3b2a1 || dv.getUint32(0, false) === 0x4d3cb2a1;
    root.children!.push({
      label: 'file header',
      start: 0,
      end: 24,
      description: 'The pcap file header (24 bytes): magic (byte order, micro- or nanoseconds), version, snapshot length, link type.',
      children: [
        { label: 'magic', start: 0, end: 4, type: 'u32', value: `0x${dv.getUint32(0, false).toString(16)}`, description: 'a1b2c3d4 (microseconds) or a1b23c4d (nanoseconds), in the writer\'s byte order.' },
        { label: 'version', start: 4, end: 8, type: 'u16 u16', value: `${dv.getUint16(4, little)}.${dv.getUint16(6, little)}`, description: 'Format version, 2.4.' },
        { label: 'snaplen', start: 16, end: 20, type: 'u32', value: String(dv.getUint32(16, little)), description: 'The most bytes of a frame the capture keeps.' },
        { label: 'link_type', start: 20, end: 24, type: 'u32', value: String(dv.getUint32(20, little) & 0x0fffffff), description: 'LINKTYPE of the frames (1 Ethernet, 0/108 loopback, 101 raw IP, 113/276 Linux SLL).' },
      ],
    });
  }
  const byIndex = new Map<number, CaptureDatagram>();
  const rows: LayoutNode[] = datagrams.map((d) => {
    byIndex.set(d.index, d);
    const place = places[d.index];
    const start = place?.record ?? 0;
    const end = place?.end ?? start;
    return { label: datagramLabel(d), start, end, type: d.packet ? `${d.packet.protocol} ${d.packet.kind}` : 'error', value: d.packet ? `${d.packet.flags.join(', ') || 'no flags'}` : d.error?.message ?? '', description: d.error ? `This datagram does not decode: ${d.error.message}` : 'One UDP datagram: the frame (record header, link, IP and UDP headers) and its packet.', lazy: `dgram:${d.index}` };
  });
  root.children!.push({ label: 'datagrams', start: rows[0]?.start ?? 0, end: rows[rows.length - 1]?.end ?? 0, value: `${rows.length}`, description: 'Every UDP datagram of the capture, in file order; open one for its headers and packet.', children: rows });
  if (damaged) {
    const at = damaged instanceof NetError && damaged.offset >= 0 ? damaged.offset : (rows[rows.length - 1]?.end ?? 0);
    root.children!.push({ label: 'not read', start: at, end: bytes.length, type: 'error', value: damaged instanceof Error ? damaged.message : String(damaged), description: 'Reading stopped here; the nodes above are what was read before.' });
  }
  const empty: Overview = { firstTick: 0, lastTick: 0, keyframes: [], markers: [], events: [], players: [], tracks: [], ms: 0 };
  return {
    root,
    ...(damaged ? { damaged: damaged instanceof Error ? damaged.message : String(damaged) } : {}),
    overview: () => empty,
    summary: () => undefined,
    children(key) {
      const index = Number(key.split(':')[1]);
      const d = byIndex.get(index);
      const place = places[index];
      if (!d || !place) return [];
      const nodes: LayoutNode[] = [];
      if (place.record < place.start) nodes.push({ label: 'record header', start: place.record, end: place.start, type: 'pcap record', value: new Date(d.seconds * 1000 + d.nanoseconds / 1e6).toISOString(), description: 'Time (seconds, fraction), captured and original length.' });
      if (!d.packet) {
        nodes.push({ label: 'error', start: place.start, end: place.end, type: d.error?.code ?? 'error', value: d.error?.message ?? '', description: 'Why this datagram does not decode; the capture goes on after it.' });
        return nodes;
      }
      if (place.payload < 0) {
        // Put together from IP fragments: its bytes are spread over frames.
        nodes.push({ label: 'frame (last IP fragment)', start: place.start, end: place.end, type: 'frame', description: 'The datagram was put together from IP fragments; this frame holds its last one.' });
        return [...nodes, ...packetNodes(d.packet, place.end, 0).map((n) => ({ ...n, decoded: true }))];
      }
      nodes.push({ label: 'link, IP and UDP headers', start: place.start, end: place.payload, type: 'frame headers', value: `${d.source} → ${d.destination}`, description: 'The link-layer header, the IPv4 or IPv6 header and the 8-byte UDP header (ports, length).' });
      return [...nodes, ...packetNodes(d.packet, place.payload, place.payloadEnd - place.payload)];
    },
  };
}
