// Byte layout of a capture file (pcap, pcapng): one node per UDP datagram, opened into its frame's headers and
// its Teeworlds/DDNet packet (header, control or connectionless message, chunks with their net messages), all
// from @twcodec/net, which the browser runs as it is (no Node APIs). Chunks of a Huffman-compressed packet
// have no bytes of their own in the file: they are `decoded` and point at the compressed data.
import { type CaptureDatagram, captureDemo, type DecodedPacket, decodeCapture, NetError, PACKET_PROTOCOLS, type PacketPayloadFieldDef, readCapture, udpOf } from '@twcodec/net';
import { netMessageDef } from '@twcodec/netmsg';
import type { LayoutNode } from './layout.js';
import { demoSession } from './demo-view.js';
import type { Overview, PacketDocs, PlaybackMade, StreamDocs, StreamSession } from './streams.js';

/** Where a frame and its UDP payload are in the file. */
interface FramePlace {
  /** The record's (or block's) start, the frame's bytes, and the UDP payload (-1: none in this frame). */
  record: number;
  start: number;
  end: number;
  payload: number;
  payloadEnd: number;
}

const show = (v: unknown): string => (v instanceof Uint8Array ? `${v.length} bytes` : typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? `[${v.join(', ')}]` : v && typeof v === 'object' ? JSON.stringify(v) : String(v));
const clip = (text: string, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const NO_DOCS: PacketDocs = { description: '', header: {}, packetFlags: {}, chunkHeader: {}, chunkFlags: {}, control: {}, connlessDescription: '', connlessHeaders: {}, connless: {} };

function datagramLabel(d: CaptureDatagram): string {
  const p = d.packet;
  if (!p) return `#${d.index} ${d.error?.code ?? 'error'}`;
  const what = p.kind === 'connection' ? (p.chunks ?? []).map((c) => c.message.kind).join(', ') || 'no chunks' : p.kind === 'control' ? `control ${p.control!.kind}` : `connless ${p.connless!.kind}`;
  return clip(`#${d.index} ${d.source} → ${d.destination}: ${what}`, 100);
}

/** Fields of a decoded object (a header) as nodes over the same bytes, with their schema descriptions (`docs`, by field name). */
function fieldNodes(fields: Record<string, unknown>, start: number, end: number, decoded: boolean, docs: Record<string, string>, skip: string[] = []): LayoutNode[] {
  return Object.entries(fields)
    .filter(([k]) => !skip.includes(k))
    .map(([label, v]) => ({ label, start, end, value: clip(show(v), 200), ...(docs[label] ? { description: docs[label] } : {}), ...(decoded ? { decoded: true } : {}) }));
}

/**
 * The fields of a control or connectionless message as its schema lists them (schema names, the values the
 * decoder gave, the schema's descriptions), then any other key the decoded message holds (its trailing bytes).
 */
function messageFieldNodes(m: Record<string, unknown>, defs: readonly PacketPayloadFieldDef[] | undefined, docs: Record<string, string>, start: number, end: number, decoded: boolean): LayoutNode[] {
  const known = new Set(['kind', 'id', ...(defs ?? []).map((f) => f.key)]);
  const listed = (defs ?? []).map((f) => ({ label: f.name, start, end, type: f.type, value: m[f.key] === undefined ? '(absent)' : clip(show(m[f.key]), 200), ...(docs[f.name] ? { description: docs[f.name] } : {}), ...(decoded ? { decoded: true } : {}) }));
  return [...listed, ...fieldNodes(Object.fromEntries(Object.entries(m).filter(([k]) => !known.has(k))), start, end, decoded, {})];
}

/** "name: description" of each named flag that is set. */
const flagText = (flags: readonly string[], docs: Record<string, string>) => flags.map((f) => `${f}: ${docs[f] ?? ''}`).join(' ');

/** The nodes of one packet, its payload at `at` in the file (`length` bytes); descriptions from schemas/net (`docs`). */
function packetNodes(p: DecodedPacket, at: number, length: number, packetDocs: Record<string, PacketDocs>): LayoutNode[] {
  const table = PACKET_PROTOCOLS[p.protocol];
  const docs = packetDocs[table.protocol] ?? NO_DOCS;
  const end = at + length;
  const nodes: LayoutNode[] = [];
  if (p.kind === 'connless') {
    const form = String(p.header.form);
    const headerDocs = docs.connlessHeaders[form];
    nodes.push({ label: 'connless header', start: at, end, type: form, value: clip(JSON.stringify(p.header)), description: `${headerDocs ? `${headerDocs.description} ` : ''}${docs.connlessDescription}`, children: fieldNodes(p.header, at, end, false, headerDocs?.fields ?? {}) });
    const m = p.connless!;
    const def = table.connlessMessages.find((x) => x.name === m.kind);
    const mDocs = docs.connless[m.kind];
    nodes.push({ label: `connless ${m.kind}`, start: at, end, type: 'connless message', ...(mDocs ? { description: mDocs.description } : {}), children: messageFieldNodes(m, def?.fields, mDocs?.fields ?? {}, at, end, false) });
    return nodes;
  }
  const headerEnd = at + table.headerSize;
  const headerChildren = fieldNodes(p.header, at, headerEnd, false, docs.header).map((n) => (n.label === 'flags' && p.flags.length ? { ...n, description: `${n.description ?? ''} ${flagText(p.flags, docs.packetFlags)}` } : n));
  nodes.push({ label: 'header', start: at, end: headerEnd, type: `${p.protocol} packet header`, value: p.flags.join(', ') || 'no flags', description: `The packet header of ${table.protocol} (docs/formats/network.md): ${table.headerFields.join(', ')}.`, children: headerChildren });
  const compressed = p.flags.includes('compression');
  const decoded = compressed;
  if (compressed) nodes.push({ label: 'data (Huffman-compressed)', start: headerEnd, end, type: 'bytes', value: `${end - headerEnd} bytes`, description: `${docs.packetFlags.compression ?? ''} The nodes below are decoded from it.` });
  if (p.control) {
    const c = p.control;
    const def = table.controlMessages.find((x) => x.name === c.kind);
    const cDocs = docs.control[c.kind];
    const children = [{ label: 'id', start: headerEnd, end: decoded ? end : headerEnd + 1, value: String(c.id), description: `The id of ${c.kind}.`, ...(decoded ? { decoded: true } : {}) }, ...messageFieldNodes(c, def?.fields, cDocs?.fields ?? {}, headerEnd, end, decoded)];
    nodes.push({ label: `control ${c.kind}`, start: headerEnd, end, type: 'control message', ...(cDocs ? { description: cDocs.description } : {}), ...(decoded ? { decoded: true } : {}), children });
  }
  let pos = headerEnd;
  for (const [i, c] of (p.chunks ?? []).entries()) {
    const head = c.sequence !== undefined ? table.vitalChunkHeaderSize : table.chunkHeaderSize;
    const start = decoded ? headerEnd : pos;
    const chunkEnd = decoded ? end : pos + head + c.size;
    const messageStart = decoded ? headerEnd : pos + head;
    const m = c.message as { kind: string } & Record<string, unknown>;
    const def = m.kind === 'unknown' ? undefined : netMessageDef(table.messages, m.kind);
    const headerParts = Object.entries(docs.chunkHeader).filter(([name]) => name !== 'sequence' || c.sequence !== undefined);
    const chunkHeaderText = [...headerParts.map(([name, text]) => `${name}: ${text}`), flagText(c.flags, docs.chunkFlags)].filter(Boolean).join(' ');
    const children: LayoutNode[] = [
      { label: 'chunk header', start, end: decoded ? chunkEnd : pos + head, type: 'chunk header', value: [c.flags.join('+') || 'no flags', `size ${c.size}`, ...(c.sequence !== undefined ? [`sequence ${c.sequence}`] : [])].join(', '), description: chunkHeaderText, ...(decoded ? { decoded: true } : {}) },
      ...(def
        ? def.fields.map((f) => ({ label: f.name, start: messageStart, end: chunkEnd, type: f.type, value: m[f.key] === undefined ? '(absent)' : clip(show(m[f.key]), 200), description: f.description, decoded: true }))
        : fieldNodes(m, messageStart, chunkEnd, true, {}, ['kind'])),
    ];
    nodes.push({ label: `chunk ${i}: ${m.kind}`, start, end: chunkEnd, type: def ? `${def.system ? 'system' : 'game'} message` : 'message', value: `${c.size} bytes`, description: def?.description ?? 'A message the protocol tables do not name, kept as bytes.', ...(decoded ? { decoded: true } : {}), children });
    pos += head + c.size;
  }
  if (p.securityToken !== undefined) nodes.push({ label: 'security token', start: decoded ? headerEnd : end - table.securityTokenSize, end, type: 'u32be', value: `0x${p.securityToken.toString(16).padStart(8, '0')}`, ...(docs.securityToken ? { description: docs.securityToken } : {}), ...(decoded ? { decoded: true } : {}) });
  return nodes;
}

/** A capture file: the file header, then one node per UDP datagram (opened on demand). */
export function captureSession(bytes: Uint8Array, docs: StreamDocs): StreamSession {
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
  const overviewNode = captureOverview(datagrams, places);
  root.children!.push(overviewNode);
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
    playback(options = {}): PlaybackMade {
      // The players: the names the clients sent (the overview's connections list them).
      const players = [...new Set(overviewNode.children!.flatMap((c) => c.children?.find((l) => l.label === 'players')?.value?.match(/"(?:[^"\\]|\\.)*"/g)?.map((n) => JSON.parse(n) as string) ?? []))];
      const player = options.player ?? players[0];
      if (!player) return { players, error: 'No client in this capture sent its name (start info): there is no player whose snapshots could be played.' };
      let made;
      try {
        // What the client received, as the demo it would have recorded (@twcodec/net captureDemo).
        made = captureDemo(bytes, { player, ...(options.map ? { map: options.map } : {}) });
      } catch (e) {
        const code = (e as { code?: string }).code;
        const message = e instanceof Error ? e.message : String(e);
        if (code === 'MAP_MISSING' || code === 'MAP_MISMATCH') {
          const name = /map '([^']*)'/.exec(message)?.[1] ?? /announced '([^']*)'/.exec(message)?.[1] ?? '';
          return { players, player, needsMap: { name }, error: options.map ? `That map does not fit: ${message}` : `The capture does not hold the map: ${message}` };
        }
        return { players, player, error: message };
      }
      const inner = demoSession(made.demo, docs).playback!();
      if (!inner.playback) return { players, player, error: inner.error ?? 'Nothing to play.' };
      inner.playback.source = 'capture';
      inner.playback.note = `The ${made.snapshots} snapshots ${player}'s client (${made.client}) received from ${made.server} (${made.protocol}), rebuilt from the capture's packets; the map ${made.map.from === 'capture' ? 'from its download in the capture' : 'given'}.`;
      return { playback: inner.playback, map: made.map.from === 'capture' ? inner.map : options.map, players, player };
    },
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
        return [...nodes, ...packetNodes(d.packet, place.end, 0, docs.packet).map((n) => ({ ...n, decoded: true }))];
      }
      nodes.push({ label: 'link, IP and UDP headers', start: place.start, end: place.payload, type: 'frame headers', value: `${d.source} → ${d.destination}`, description: 'The link-layer header, the IPv4 or IPv6 header and the 8-byte UDP header (ports, length).' });
      return [...nodes, ...packetNodes(d.packet, place.payload, place.payloadEnd - place.payload, docs.packet)];
    },
  };
}


/**
 * What a capture holds, before its datagrams: each connection (client and server endpoints, protocol, how many
 * datagrams each way, the time it spans, the names its client sent, the snapshot ticks the server sent, its
 * messages by kind), then the connectionless traffic. A view: its nodes point at the first datagram of what they
 * count.
 */
function captureOverview(datagrams: CaptureDatagram[], places: FramePlace[]): LayoutNode {
  interface Connection {
    client: string;
    server: string;
    protocol: string;
    toServer: number;
    toClient: number;
    first: CaptureDatagram;
    last: CaptureDatagram;
    names: Set<string>;
    firstTick?: number;
    lastTick?: number;
    snapshots: number;
    messages: Map<string, number>;
  }
  const connections = new Map<string, Connection>();
  const connless = new Map<string, number>();
  let errors = 0;
  const at = (d: CaptureDatagram) => ({ start: places[d.index]?.record ?? 0, end: places[d.index]?.end ?? 0 });
  for (const d of datagrams) {
    const p = d.packet;
    if (!p) {
      errors++;
      continue;
    }
    if (p.kind === 'connless') {
      connless.set(p.connless!.kind, (connless.get(p.connless!.kind) ?? 0) + 1);
      continue;
    }
    const kinds = (p.chunks ?? []).map((c) => c.message.kind);
    const key = [d.source, d.destination].sort().join(' ');
    let c = connections.get(key);
    // Which end is the server: the one a connect goes to, or that sends server messages.
    // The schemas say which way each message goes (`direction`).
    const table = PACKET_PROTOCOLS[p.protocol].messages;
    const directions = kinds.map((k) => (k === 'unknown' ? undefined : netMessageDef(table, k)?.direction));
    const fromServer = directions.includes('server') || p.control?.kind === 'connect_accept';
    const toServer = directions.includes('client') || p.control?.kind === 'connect';
    if (!c) {
      const [client, server] = fromServer ? [d.destination, d.source] : [d.source, d.destination];
      c = { client, server, protocol: p.protocol, toServer: 0, toClient: 0, first: d, last: d, names: new Set(), snapshots: 0, messages: new Map() };
      connections.set(key, c);
    } else if ((fromServer && c.server !== d.source) || (toServer && c.server !== d.destination && !fromServer)) {
      [c.client, c.server] = [c.server, c.client];
    }
    c.last = d;
    if (d.destination === c.server) c.toServer++;
    else c.toClient++;
    for (const chunk of p.chunks ?? []) {
      const m = chunk.message as { kind: string } & Record<string, unknown>;
      c.messages.set(m.kind, (c.messages.get(m.kind) ?? 0) + 1);
      if ((m.kind === 'cl_start_info' || m.kind === 'cl_change_info') && typeof m.name === 'string') c.names.add(m.name);
      if (m.kind.startsWith('snap') && typeof m.tick === 'number') {
        c.snapshots++;
        c.firstTick = Math.min(c.firstTick ?? m.tick, m.tick);
        c.lastTick = Math.max(c.lastTick ?? m.tick, m.tick);
      }
    }
  }
  const time = (d: CaptureDatagram) => d.seconds + d.nanoseconds / 1e9;
  const children: LayoutNode[] = [...connections.values()].map((c, i) => {
    const { start, end } = at(c.first);
    const seconds = time(c.last) - time(c.first);
    const messages = [...c.messages].sort((a, b) => b[1] - a[1]);
    const line = (label: string, value: string, description?: string): LayoutNode => ({ label, start, end, view: true, value, ...(description ? { description } : {}) });
    return {
      label: `connection ${i + 1}: ${c.client} → ${c.server}`,
      start,
      end,
      view: true,
      open: i < 4,
      value: `${c.protocol}${c.names.size ? `, ${[...c.names].map((n) => JSON.stringify(n)).join(', ')}` : ''}`,
      description: 'A client and the server it talks to; the node points at its first datagram.',
      children: [
        line('protocol', c.protocol),
        line('client', c.client),
        line('server', c.server),
        line('players', [...c.names].map((n) => JSON.stringify(n)).join(', ') || '(no start info in the capture)', 'The names the client sent in its start or change info.'),
        line('traffic', `${c.toServer} datagrams to the server, ${c.toClient} to the client, over ${seconds.toFixed(1)} s`),
        line('snapshots', c.snapshots ? `${c.snapshots}, ticks ${c.firstTick}–${c.lastTick} (${(((c.lastTick ?? 0) - (c.firstTick ?? 0)) / 50).toFixed(1)} s of game)` : 'none'),
        { label: 'messages', start, end, view: true, value: `${messages.reduce((n, [, k]) => n + k, 0)} of ${messages.length} kinds`, children: messages.map(([kind, n]) => line(kind, String(n))) },
      ],
    };
  });
  if (connless.size) {
    const first = datagrams.find((d) => d.packet?.kind === 'connless')!;
    children.push({ label: 'connectionless', ...at(first), view: true, value: [...connless].map(([k, n]) => `${k} ${n}`).join(', '), description: 'Packets outside a connection (server info requests, master server traffic, ...).' });
  }
  if (errors) children.push({ label: 'not decoded', start: 0, end: 0, view: true, value: `${errors} datagrams`, description: 'Datagrams that are not Teeworlds/DDNet packets or do not decode (see their rows).' });
  return {
    label: 'overview',
    start: 0,
    end: 0,
    view: true,
    open: true,
    value: `${connections.size} connection${connections.size === 1 ? '' : 's'}, ${datagrams.length} datagrams`,
    description: 'What the capture holds: its connections (client, server, protocol, players, snapshots, messages) and connectionless traffic.',
    children,
  };
}
