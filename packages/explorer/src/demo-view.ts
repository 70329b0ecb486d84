// The explorer's view of a demo (format: docs/formats/demo.md): its byte layout from the reader's chunk offsets
// (header, timeline markers, map, the chunks by tick), the snapshots and net messages inside the compressed chunks
// built when a node is expanded, the overview (timeline, players, positions) and what the player draws. One
// module per stream format, so that each reads as that format's walk; stream-nodes.ts has the node builders they share.
import { type DemoChunk, type DemoReader, readDemo, snapshotPlayers } from '@twcodec/demo';
import { decodeNetMessage, netMessageDef, type NetProtocolDef, peekNetMessage, type UnknownNetMessage } from '@twcodec/netmsg';
import { type Snapshot, snapshotObjects, type SnapshotProtocol } from '@twcodec/snapshot';
import { type LayoutNode, unreadNode } from './layout.js';
import { demoPlayback, type Playback } from './playback.js';
import { errorMessage, errorOffset, messageSummary, netMessageNodes, snapshotNodes } from './stream-nodes.js';
import type { Overview, OverviewPlayer, StreamDocs, StreamSession } from './streams.js';

/** A demo: header, timeline markers, map, then the chunks by tick (format: docs/formats/demo.md). */
export function demoSession(bytes: Uint8Array, docs: StreamDocs): StreamSession {
  const demo = readDemo(bytes);
  const h = demo.header;
  // The demo's protocol, from its net version: 0.7 demos have other object and message tables.
  const netTable: NetProtocolDef = demo.protocol.messages;
  const snapProtocol: SnapshotProtocol = demo.protocol.snapshots;
  const header: LayoutNode = {
    label: 'header',
    start: 0,
    end: 180,
    description: 'Fixed 180-byte header; integers are big-endian.',
    children: [
      { label: 'marker', start: 0, end: 7, type: 'char[7]', value: '"TWDEMO\\0"', description: 'Identifies a demo.' },
      { label: 'version', start: 7, end: 8, type: 'u8', value: String(h.version), description: 'Demo format version: 6 in current DDNet, 3 to 5 in older recorders.' },
      { label: 'net_version', start: 8, end: 72, type: 'char[64]', value: JSON.stringify(h.netVersion), description: 'Network protocol of the recording.' },
      { label: 'map_name', start: 72, end: 136, type: 'char[64]', value: JSON.stringify(h.mapName), description: 'Name of the map played.' },
      { label: 'map_size', start: 136, end: 140, type: 'u32be', value: String(h.mapSize), description: 'Bytes of the embedded map (0: not embedded).' },
      { label: 'map_crc', start: 140, end: 144, type: 'u32be', value: h.mapCrc, description: 'CRC32 of the map file.' },
      { label: 'type', start: 144, end: 152, type: 'char[8]', value: JSON.stringify(h.type), description: '"client" or "server" recording.' },
      { label: 'length', start: 152, end: 156, type: 'u32be', value: `${h.length} s`, description: 'Length in seconds, filled in when recording stops.' },
      { label: 'timestamp', start: 156, end: 176, type: 'char[20]', value: JSON.stringify(h.timestamp), description: 'When recording started.' },
      { label: 'reserved', start: 176, end: 180, type: 'bytes', description: 'Unused.' },
    ],
  };
  const root: LayoutNode = { label: 'demo', start: 0, end: bytes.length, children: [header] };
  let at = 180;
  if (h.version > 3) {
    root.children!.push({ label: 'timeline_markers', start: at, end: at + 260, type: 'i32be[65]', value: h.timelineMarkers.join(', ') || 'none', description: 'Number of markers, then 64 marker ticks.' });
    at += 260;
  }
  if (h.mapSha256) {
    root.children!.push({ label: 'map_sha256', start: at, end: at + 48, type: 'uuid + 32 bytes', value: h.mapSha256, description: 'DDNet extension: a UUID saying a SHA-256 of the map follows, then the hash.' });
    at += 48;
  }
  if (demo.map) root.children!.push({ label: 'map', start: at, end: at + demo.map.length, type: 'datafile', value: `${demo.map.length} bytes`, description: 'The embedded map file (open it on its own to see its items).' });

  const messages = new Map<number, { data: Uint8Array; end: number }>();
  const chat: { tick: number; clientId: number; team: number; text: string }[] = [];
  const kills: Playback['kills'] = [];
  const ticks: LayoutNode[] = [];
  let current: LayoutNode | undefined;
  let previous: LayoutNode | undefined;
  // Chunks before the first tick marker (a server demo's first messages) have no tick.
  let tick: number | undefined;
  let lastMessage: { offset: number } | undefined;
  const finishPrevious = (end: number) => {
    if (!previous) return;
    previous.end = end;
    const m = lastMessage && messages.get(lastMessage.offset);
    if (m) m.end = end;
    lastMessage = undefined;
  };
  // The decompressed chunks are kept until the overview is built, which replays them instead of decompressing
  // the file a second time.
  let decoded: DemoChunk[] | undefined = [];
  let damaged: unknown;
  try {
    for (const c of demo.chunks()) {
      decoded.push(c);
      finishPrevious(c.offset);
      let node: LayoutNode;
      if (c.kind === 'tick') {
        tick = c.tick;
        node = { label: c.keyframe ? 'tick marker (keyframe)' : 'tick marker', start: c.offset, end: c.offset, type: 'chunk', value: String(c.tick), description: 'Starts a tick: a compressed tick delta in the flag byte, or a 4-byte absolute tick.' };
        current = { label: `tick ${c.tick}`, start: c.offset, end: c.offset, tick: c.tick, children: [node] };
        ticks.push(current);
      } else if (c.kind === 'message') {
        const { def, id } = peekNetMessage(netTable, c.data);
        messages.set(c.offset, { data: c.data, end: c.offset });
        lastMessage = { offset: c.offset };
        let value = `${c.storedSize} bytes stored, ${c.data.length} bytes`;
        if (def?.name === 'sv_kill_msg') {
          const message = decodeNetMessage(netTable, c.data, { lenient: true }) as { kind: string } & Record<string, unknown>;
          if (message.kind === 'sv_kill_msg') kills.push({ tick: tick ?? -1, killer: Number(message.killer), victim: Number(message.victim), weapon: Number(message.weapon) });
        }
        if (def?.name === 'sv_chat') {
          const message = decodeNetMessage(netTable, c.data, { lenient: true }) as { kind: string } & Record<string, unknown>;
          if (message.kind === 'sv_chat') {
            // 0.7 chat modes are 1 everyone, 2 team, 3 whisper; 0.6 teams 0, 1, 2.
            const team = demo.protocol.name === 'teeworlds-0.7' ? Math.max(0, Number(message.mode) - 1) : Number(message.team);
            chat.push({ tick: tick ?? -1, clientId: Number(message.clientId), team, text: String(message.message) });
            value = messageSummary(message, def);
          }
        }
        node = {
          label: `message ${def ? def.name : `(unknown id ${id})`}`,
          start: c.offset,
          end: c.offset,
          type: `chunk: ${def?.system ? 'system' : 'game'} message`,
          value,
          description: def?.description ?? 'A network message the client received, of a kind the protocol tables do not know (kept as bytes).',
          lazy: `msg:${c.offset}`,
          tick,
        };
      } else {
        const what = c.kind === 'snapshot' ? 'Full snapshot (keyframe): Huffman-compressed, variable-width ints.' : 'Snapshot delta against the previous recorded snapshot; expand it for the snapshot it gives.';
        const value = c.kind === 'snapshot' ? `${c.storedSize} bytes stored, ${c.ints[1] ?? 0} items` : `${c.storedSize} bytes stored, ${c.ints[0] ?? 0} deleted, ${c.ints[1] ?? 0} changed items`;
        node = { label: c.kind, start: c.offset, end: c.offset, type: 'chunk', value, description: what, lazy: `snap:${c.offset}`, tick };
      }
      if (current && node !== current.children![0]) current.children!.push(node);
      else if (!current) ticks.push(node);
      previous = node;
    }
  } catch (e) {
    // A damaged or cut-short demo: the chunks read so far stay, the rest is one node saying why it was not read.
    damaged = e;
  }
  const readEnd = damaged ? errorOffset(damaged, decoded[decoded.length - 1]?.offset ?? at, bytes.length) : bytes.length;
  finishPrevious(readEnd);
  for (const t of ticks) if (t.children?.length) t.end = t.children[t.children.length - 1]!.end;
  const first = ticks[0]?.start ?? bytes.length;
  root.children!.push({ label: 'chunks', start: first, end: ticks[ticks.length - 1]?.end ?? first, description: 'Chunks by tick: tick markers, snapshots or deltas, messages.', children: ticks });
  if (damaged) root.children!.push(unreadNode(damaged, readEnd, bytes.length));

  // Full snapshots by the offset of their chunk, and the overview, are built on the first request for either.
  let snapshots: Map<number, Snapshot> | undefined;
  let overview: Overview | undefined;
  const byTick: { tick: number; snapshot: Snapshot }[] = [];
  let playback: Playback | undefined;
  const build = () => {
    const t0 = performance.now();
    snapshots = new Map();
    const replay = Object.create(demo) as DemoReader;
    const chunks = decoded ?? [];
    replay.chunks = function* () {
      yield* chunks;
    };
    decoded = undefined;
    overview = demoOverview(chunks.length ? replay : demo, snapProtocol, snapshots, chat, ticks, byTick);
    overview.ms = performance.now() - t0;
  };
  return {
    root,
    ...(damaged ? { damaged: errorMessage(damaged) } : {}),
    overview() {
      if (!overview) build();
      return overview!;
    },
    playback() {
      if (!overview) build();
      // Chat lines as the overview shows them (a server demo's copies once, with the sender's name), without those
      // DDNet's client would not show (from a client it does not know yet).
      playback ??= demoPlayback(byTick, demo.protocol, overview!.events.filter((e) => e.kind === 'chat' && !e.unknownSender), kills, h.type === 'server' ? 'server' : 'client');
      return { playback, ...(demo.map ? { map: demo.map } : {}) };
    },
    summary(key) {
      const [kind, offsetText] = key.split(':');
      const m = kind === 'msg' ? messages.get(Number(offsetText)) : undefined;
      if (!m) return undefined;
      const message = decodeNetMessage(netTable, m.data, { lenient: true }) as { kind: string } & Record<string, unknown>;
      if (message.kind === 'unknown') return `${m.data.length} bytes${(message as unknown as UnknownNetMessage).error ? ' (kept raw: does not read as its schema says)' : ''}`;
      return messageSummary(message, netMessageDef(netTable, message.kind));
    },
    children(key) {
      const [kind, offsetText] = key.split(':');
      const offset = Number(offsetText);
      if (kind === 'msg') {
        const m = messages.get(offset);
        if (!m) return [];
        const message = decodeNetMessage(netTable, m.data, { lenient: true }) as { kind: string } & Record<string, unknown>;
        const def = message.kind === 'unknown' ? undefined : netMessageDef(netTable, message.kind);
        return netMessageNodes(message, def, offset, m.end);
      }
      if (!snapshots) build();
      const snapshot = snapshots!.get(offset);
      const end = findChunkEnd(ticks, offset);
      return snapshot ? snapshotNodes(snapshot, snapProtocol, docs, offset, end) : [];
    },
  };
}

function findChunkEnd(ticks: LayoutNode[], offset: number): number {
  let lo = 0;
  let hi = ticks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ticks[mid]!.start <= offset) lo = mid;
    else hi = mid - 1;
  }
  return ticks[lo]?.children?.find((c) => c.start === offset)?.end ?? offset;
}

/**
 * One pass over the demo's snapshots: the players from their client-info objects (0.6 client_info, 0.7's
 * demo-only de_client_info: snapshotPlayers), character positions per client id.
 */
function demoOverview(demo: DemoReader, protocol: SnapshotProtocol, snapshots: Map<number, Snapshot>, chat: { tick: number; clientId: number; team: number; text: string }[], ticks: LayoutNode[], byTick: { tick: number; snapshot: Snapshot }[]): Overview {
  const players: OverviewPlayer[] = [];
  const open = new Map<number, OverviewPlayer>();
  const tracks = new Map<number, { ticks: number[]; x: number[]; y: number[] }>();
  const keyframes: number[] = [];
  for (const { tick, snapshot, offset, source } of demo.snapshots(protocol)) {
    snapshots.set(offset, snapshot);
    byTick.push({ tick, snapshot });
    if (source === 'keyframe') keyframes.push(tick);
    const objects = snapshotObjects(snapshot, protocol as SnapshotProtocol<Record<string, unknown>>);
    const seen = new Set<number>();
    for (const info of snapshotPlayers(snapshot, demo.protocol)) {
      const id = info.clientId;
      const skin = 'skin' in info ? info.skin : info.skinParts.join('/');
      seen.add(id);
      const p = open.get(id);
      if (p && p.name === info.name && p.clan === info.clan && p.skin === skin) {
        p.toTick = tick;
        continue;
      }
      if (p) players.push(p);
      open.set(id, { clientId: id, name: info.name, clan: info.clan, skin, fromTick: tick, toTick: tick });
    }
    for (const [id, p] of open) {
      if (seen.has(id)) continue;
      players.push(p);
      open.delete(id);
    }
    for (const c of objects.items('character') as unknown as { item: { id: number }; x: number; y: number }[]) {
      let t = tracks.get(c.item.id);
      if (!t) tracks.set(c.item.id, (t = { ticks: [], x: [], y: [] }));
      t.ticks.push(tick);
      t.x.push(c.x);
      t.y.push(c.y);
    }
  }
  players.push(...open.values());
  players.sort((a, b) => a.fromTick - b.fromTick || a.clientId - b.clientId);
  const nameAt = (clientId: number, tick: number) =>
    players.find((p) => p.clientId === clientId && p.fromTick <= tick && tick <= p.toTick)?.name ?? players.find((p) => p.clientId === clientId && p.fromTick > tick)?.name;
  const events: Overview['events'] = [];
  for (const line of chat) {
    const text = `${line.clientId < 0 ? '*** ' : `${nameAt(line.clientId, line.tick) ?? `#${line.clientId}`}: `}${line.text}`;
    const last = events[events.length - 1];
    // A server demo records a message once per client it was sent to.
    if (demo.header.type === 'server' && last && last.tick === line.tick && last.text === text) continue;
    // DDNet 16.4 src/game/client/components/chat.cpp AddLine: a line from a client whose name the client does not
    // know yet (not in the snapshots at that moment) is not shown.
    const known = line.clientId < 0 || players.some((p) => p.clientId === line.clientId && p.fromTick <= line.tick && line.tick <= p.toTick);
    events.push({ tick: line.tick, kind: 'chat', text, ...(known ? {} : { unknownSender: true as const }) });
  }
  for (const p of players) {
    events.push({ tick: p.fromTick, kind: 'join', text: `${p.name} (#${p.clientId}) appears` });
    events.push({ tick: p.toTick, kind: 'leave', text: `${p.name} (#${p.clientId}) last seen` });
  }
  events.sort((a, b) => a.tick - b.tick);
  const tickNumbers = ticks.filter((t) => t.tick !== undefined).map((t) => t.tick!);
  for (const e of events) e.tick = Math.max(e.tick, tickNumbers[0] ?? 0);
  return {
    firstTick: tickNumbers[0] ?? 0,
    lastTick: tickNumbers[tickNumbers.length - 1] ?? 0,
    keyframes,
    markers: demo.header.timelineMarkers,
    events,
    players,
    tracks: [...tracks].sort((a, b) => a[0] - b[0]).map(([clientId, t]) => ({ clientId, ticks: Int32Array.from(t.ticks), x: Int32Array.from(t.x), y: Int32Array.from(t.y) })),
    ms: 0,
  };
}
