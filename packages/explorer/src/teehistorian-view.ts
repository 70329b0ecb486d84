// The explorer's view of a teehistorian file (format: docs/formats/teehistorian.md): the header (UUID, JSON) key
// by key, then its messages with their ticks, the client messages inside them decoded when a node is expanded, the
// overview (timeline, players, positions) and what the player draws. stream-nodes.ts has the node builders it
// shares with the demo view (demo-view.ts).
import { DDNET_0_6_MESSAGES, netMessageDef } from '@twcodec/netmsg';
import { decodeClientMessage, parseHeader, PlayerTracker, readTeehistorian, TEEHISTORIAN_UUID, TeehistorianNames, type TickedMessage } from '@twcodec/teehistorian';
import { jsonNodes } from './json.js';
import { type LayoutNode, unreadNode } from './layout.js';
import { packedHslToRgb, type PlayerSpan, type RecordedTick, teehistorianPlayback } from './playback.js';
import { clip, errorMessage, errorOffset, messageSummary, netMessageNodes, show } from './stream-nodes.js';
import { type Overview, type OverviewPlayer, type StreamDocs, type StreamSession, TRACK_BREAK } from './streams.js';

/** A teehistorian file: the header (UUID, JSON) then its messages with their ticks. */
export function teehistorianSession(bytes: Uint8Array, messageDocs: Record<string, string>, docs: StreamDocs): StreamSession {
  const reader = readTeehistorian(bytes);
  const headerEnd = parseHeader(bytes, true)!.size;
  const root: LayoutNode = {
    label: 'teehistorian',
    start: 0,
    end: bytes.length,
    children: [
      { label: 'uuid', start: 0, end: 16, type: 'uuid', value: TEEHISTORIAN_UUID, description: 'Identifies a teehistorian file.' },
      { label: 'header', start: 16, end: headerEnd, type: 'json', value: `${Object.keys(reader.header).length} keys`, description: 'Server settings and map as NUL-terminated JSON.', children: headerNodes(bytes, headerEnd) },
    ],
  };
  const records: TickedMessage[] = [];
  const nodes: LayoutNode[] = [];
  const names = new TeehistorianNames();
  const tracker = new PlayerTracker();
  const open = new Map<number, OverviewPlayer>();
  const players: OverviewPlayer[] = [];
  const tracks = new Map<number, { ticks: number[]; x: number[]; y: number[] }>();
  const events: Overview['events'] = [];
  const seen = new Set<number>();
  const joinEvents = new Map<number, Overview['events'][number]>();
  const colours = new Map<number, { body?: [number, number, number]; feet?: [number, number, number] }>();
  const t0 = performance.now();
  let damaged: unknown;
  try {
    for (const m of reader) {
      const last = nodes[nodes.length - 1];
      if (last) last.end = m.offset;
      const name = m.kind.startsWith('EX:') ? m.kind.slice(3) : m.kind;
      const index = records.length;
      records.push(m);
      nodes.push({ label: `${m.tick}: ${m.kind}`, start: m.offset, end: m.offset, type: m.kind, value: summary(m), description: messageDocs[name] ?? '', lazy: `th:${index}`, tick: m.tick });

      // Players: a client id is present from its JOIN (or its first record, for players already there when the
      // file starts) to its DROP, named by the names it sends.
      const cid = 'cid' in m && typeof m.cid === 'number' ? m.cid : undefined;
      if (cid !== undefined && cid >= 0) {
        let p = open.get(cid);
        const joins = m.kind === 'JOIN' || m.kind.startsWith('EX:joinver') || (!seen.has(cid) && m.kind !== 'DROP' && m.kind !== 'PLAYER_OLD');
        if (!p && joins) {
          open.set(cid, (p = { clientId: cid, name: names.names.get(cid) ?? '', fromTick: m.tick, toTick: m.tick }));
          const event = { tick: m.tick, kind: 'join' as const, text: `#${cid} joins` };
          joinEvents.set(cid, event);
          events.push(event);
          seen.add(cid);
        }
        if (p) p.toTick = m.tick;
      }
      const net = names.update(m);
      if (cid !== undefined && open.has(cid)) {
        const p = open.get(cid)!;
        // The clan comes with the name in the client's start info and its changes.
        if (net?.kind === 'cl_start_info' || net?.kind === 'cl_change_info') {
          p.clan = net.clan;
          colours.set(cid, net.useCustomColor ? { body: packedHslToRgb(net.colorBody), feet: packedHslToRgb(net.colorFeet) } : {});
        }
        const name = names.names.get(cid);
        if (name && name !== p.name) {
          p.name = name;
          const join = joinEvents.get(cid);
          if (join) join.text = `${name} (#${cid}) joins`;
        }
        if (net?.kind === 'cl_say') events.push({ tick: m.tick, kind: 'chat', text: `${p.name || `#${cid}`}: ${String(net.message)}` });
        if (m.kind === 'DROP') {
          players.push(p);
          open.delete(cid);
          joinEvents.delete(cid);
          events.push({ tick: m.tick, kind: 'leave', text: `${p.name || `#${cid}`} (#${cid}) leaves` });
        }
      }
      if (m.kind === 'PLAYER_NEW' || m.kind === 'PLAYER_DIFF' || m.kind === 'PLAYER_OLD') {
        tracker.apply(m);
        const pos = tracker.positions.get(m.cid);
        let t = tracks.get(m.cid);
        if (!t) tracks.set(m.cid, (t = { ticks: [], x: [], y: [] }));
        t.ticks.push(m.tick);
        t.x.push(pos ? pos.x : TRACK_BREAK);
        t.y.push(pos ? pos.y : TRACK_BREAK);
      } else tracker.apply(m);
    }
  } catch (e) {
    // A damaged or cut-short file: the records read so far stay, the rest is one node saying why it was not read.
    damaged = e;
  }
  const last = nodes[nodes.length - 1];
  const readEnd = damaged ? errorOffset(damaged, last?.start ?? headerEnd, bytes.length) : (reader.end?.offset ?? bytes.length);
  if (last) last.end = readEnd;
  players.push(...open.values());
  players.sort((a, b) => a.fromTick - b.fromTick || a.clientId - b.clientId);
  root.children!.push({
    label: 'messages',
    start: nodes[0]?.start ?? headerEnd,
    end: last?.end ?? headerEnd,
    description: 'Messages, each starting with a variable-width int (a client id, or minus a message id).',
    children: nodes,
  });
  if (damaged) root.children!.push(unreadNode(damaged, readEnd, bytes.length));
  const overview: Overview = {
    firstTick: records[0]?.tick ?? 0,
    lastTick: records[records.length - 1]?.tick ?? 0,
    keyframes: [],
    markers: [],
    events,
    players,
    tracks: [...tracks].sort((a, b) => a[0] - b[0]).map(([clientId, t]) => ({ clientId, hold: true, ticks: Int32Array.from(t.ticks), x: Int32Array.from(t.x), y: Int32Array.from(t.y) })),
    ms: performance.now() - t0,
  };
  return {
    root,
    ...(damaged ? { damaged: errorMessage(damaged) } : {}),
    overview: () => overview,
    playback() {
      // The records again, through a tracker of their own: a frame per tick with the positions and inputs as of it.
      const replay = new PlayerTracker();
      const ticks: RecordedTick[] = [];
      let tick: number | undefined;
      const flush = () => {
        if (tick !== undefined) ticks.push({ tick, positions: new Map([...replay.positions].map(([id, p]) => [id, { x: p.x, y: p.y }])), inputs: new Map([...replay.inputs].map(([id, i]) => [id, Int32Array.from(i)])) });
      };
      for (const m of records) {
        if (m.tick !== tick) flush();
        tick = m.tick;
        replay.apply(m);
      }
      flush();
      const spans: PlayerSpan[] = players.map((p) => ({ ...p, ...colours.get(p.clientId) }));
      const header = reader.header as { map_name?: string; map_sha256?: string };
      return {
        playback: teehistorianPlayback(ticks, spans, events.filter((e) => e.kind === 'chat')),
        ...(header.map_sha256 ? { needsMap: { name: header.map_name ?? '', sha256: header.map_sha256 } } : {}),
      };
    },
    summary: () => undefined,
    children(key) {
      const index = Number(key.split(':')[1]);
      const m = records[index];
      const node = nodes[index];
      if (!m || !node) return [];
      const name = m.kind.startsWith('EX:') ? m.kind.slice(3) : m.kind;
      const fieldDocs = docs.teehistorianFields[name] ?? {};
      const out: LayoutNode[] = [];
      for (const [k, v] of Object.entries(m)) {
        if (k === 'kind' || k === 'offset' || k === 'tick') continue;
        const snake = k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
        out.push({ label: snake, start: node.start, end: node.end, decoded: true, type: typeof v === 'object' ? (v instanceof Uint8Array ? 'bytes' : 'array') : typeof v, value: clip(show(v), 200), description: fieldDocs[snake] ?? fieldDocs[k] ?? '' });
      }
      if (m.kind === 'MESSAGE') {
        const net = decodeClientMessage(m) as { kind: string } & Record<string, unknown>;
        const def = net.kind === 'unknown' ? undefined : netMessageDef(DDNET_0_6_MESSAGES, net.kind);
        out.push({
          label: `net message ${net.kind}`,
          start: node.start,
          end: node.end,
          decoded: true,
          type: def?.system ? 'system message' : 'game message',
          value: messageSummary(net, def),
          description: def?.description ?? 'A client message the protocol tables do not know (kept as bytes).',
          children: netMessageNodes(net, def, node.start, node.end),
        });
      }
      return out;
    },
  };
}

/** The header's JSON, key by key, then its NUL; without children when it does not scan (the value still says it). */
function headerNodes(bytes: Uint8Array, headerEnd: number): LayoutNode[] | undefined {
  try {
    const description = 'A key of the header JSON (server version, game UUID, map, config, tuning, ...).';
    return [...jsonNodes(bytes, 16, headerEnd - 1, description), { label: 'NUL', start: headerEnd - 1, end: headerEnd, type: 'u8', value: '0', description: 'Ends the header JSON.' }];
  } catch {
    return undefined;
  }
}

function summary(m: object): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(m)) {
    if (k === 'kind' || k === 'offset' || k === 'tick') continue;
    parts.push(`${k}=${v instanceof Uint8Array ? `${v.length} bytes` : typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
    if (parts.length >= 6) break;
  }
  return parts.join(' ');
}
