// Byte layouts of the stream formats (demos and teehistorian files), from the readers' chunk and message offsets,
// and what the page shows beside them: a timeline, the players and their positions over time. What lives inside
// compressed chunks (snapshot items, net messages) is built when a node is expanded (`lazy`), so that a large file
// opens quickly; those nodes carry `decoded` and the byte range of their chunk.
import { type DemoChunk, type DemoReader, readDemo, snapshotPlayers } from '@twcodec/demo';
import { DDNET_0_6_MESSAGES, decodeNetMessage, type NetFieldDef, type NetMessageDef, netMessageDef, type NetProtocolDef, netValueName, peekNetMessage, type UnknownNetMessage } from '@twcodec/netmsg';
import { decodeObject, fieldValueText, type Snapshot, type SnapshotField, snapshotObjects, type SnapshotProtocol } from '@twcodec/snapshot';
import { decodeClientMessage, parseHeader, PlayerTracker, readTeehistorian, TEEHISTORIAN_UUID, TeehistorianNames, type TickedMessage } from '@twcodec/teehistorian';
import { uuidFromInts } from '@twcodec/runtime';
import { jsonNodes } from './json.js';
import { type LayoutNode, unreadNode } from './layout.js';
import { demoPlayback, packedHslToRgb, type Playback, type PlayerSpan, type RecordedTick, teehistorianPlayback } from './playback.js';

/** Schema descriptions the page needs for decoded insides (built from the YAML by vite.config.mjs). */
export interface StreamDocs {
  /** protocol -> snapshot object name -> its description and its fields' descriptions. */
  snapshot: Record<string, Record<string, { description: string; fields: Record<string, string> }>>;
  /** teehistorian message (or extension) name -> field name -> description. */
  teehistorianFields: Record<string, Record<string, string>>;
  /** packet protocol (ddnet-0.6, teeworlds-0.7) -> what schemas/net says of its parts. */
  packet: Record<string, PacketDocs>;
}

/** Descriptions of a packet protocol's parts, by schema name (what capture.ts shows beside each byte range). */
export interface PacketDocs {
  description: string;
  header: Record<string, string>;
  packetFlags: Record<string, string>;
  chunkHeader: Record<string, string>;
  chunkFlags: Record<string, string>;
  securityToken?: string;
  control: Record<string, { description: string; fields: Record<string, string> }>;
  connlessDescription: string;
  connlessHeaders: Record<string, { description: string; fields: Record<string, string> }>;
  connless: Record<string, { description: string; fields: Record<string, string> }>;
}

/** One player's presence: a client id and what it was called, from one tick to another. */
export interface OverviewPlayer {
  clientId: number;
  name: string;
  clan?: string;
  skin?: string;
  fromTick: number;
  toTick: number;
}

/** x of a track point that is not a position but a break (the character disappeared). */
export const TRACK_BREAK = -2147483648;

/** A client id's positions: parallel arrays of tick, x and y (world units, 32 per tile). */
export interface Track {
  clientId: number;
  /**
   * Positions hold until the next point (teehistorian records only changes; breaks are marked by TRACK_BREAK);
   * otherwise a point per recorded snapshot, and a gap in the ticks is a gap in the line.
   */
  hold?: boolean;
  ticks: Int32Array<ArrayBuffer>;
  x: Int32Array<ArrayBuffer>;
  y: Int32Array<ArrayBuffer>;
}

/** What the page draws above the tree for a demo or teehistorian file. */
export interface Overview {
  firstTick: number;
  lastTick: number;
  /** Demo keyframes (full snapshots). */
  keyframes: number[];
  /** Demo timeline markers (ticks). */
  markers: number[];
  /** Chat lines, joins and leaves. */
  events: { tick: number; kind: 'chat' | 'join' | 'leave'; text: string }[];
  players: OverviewPlayer[];
  tracks: Track[];
  /** How long computing it took in the worker (ms). */
  ms: number;
}

/** A decoded file the worker keeps so that the page can ask for the insides of chunks and records. */
export interface StreamSession {
  root: LayoutNode;
  /** Why reading stopped before the end (a damaged or cut-short file): the tree holds what was read before. */
  damaged?: string;
  children(key: string): LayoutNode[];
  /** A one-line summary of a lazy node (a demo message's fields), for the tree rows in view; undefined: keep. */
  summary(key: string): string | undefined;
  overview(): Overview;
  /**
   * What the player draws at each recorded tick, and the map bytes it is drawn on (a demo's embedded map), or
   * the map it needs (a teehistorian file's header names it and its SHA-256).
   */
  playback?(options?: PlaybackOptions): PlaybackMade;
}

/** For a capture: whose received snapshots to play, and the map when the capture holds no download of it. */
export interface PlaybackOptions {
  player?: string;
  map?: Uint8Array;
}

export interface PlaybackMade {
  /** Undefined when nothing can be played without a map (`needsMap`, `error`). */
  playback?: Playback;
  map?: Uint8Array;
  /** The map the recording names (teehistorian: with its SHA-256, which the worker checks a given map against). */
  needsMap?: { name: string; sha256?: string };
  /** Captures: the players whose clients' snapshots can be played, and the one played. */
  players?: string[];
  player?: string;
  error?: string;
}

const errorMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));
/** Where reading stopped: the error's byte offset (a CodecError's), at least `from`. */
const errorOffset = (e: unknown, from: number, length: number) => {
  const offset = (e as { offset?: unknown }).offset;
  return typeof offset === 'number' && offset >= from ? Math.min(offset, length) : from;
};

const clip = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function show(v: unknown): string {
  if (v instanceof Uint8Array) return `${v.length} bytes`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return `[${Array.from(v as ArrayLike<unknown>).join(', ')}]`;
  if (v && typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A net message's fields as nodes (all inside the chunk or record that holds the message). */
function netMessageNodes(message: { kind: string } & Record<string, unknown>, def: NetMessageDef | undefined, start: number, end: number): LayoutNode[] {
  if (!def) {
    const m = message as unknown as UnknownNetMessage;
    return [
      { label: 'id', start, end, decoded: true, type: m.system ? 'system message id' : 'game message id', value: String(m.id), description: 'A message id the protocol tables do not know; its bytes are kept.' },
      ...(m.uuid ? [{ label: 'uuid', start, end, decoded: true, type: 'uuid', value: String(m.uuid), description: 'The UUID of an extended (NETMSG_EX) message.' }] : []),
      { label: 'data', start, end, decoded: true, type: 'bytes', value: `${m.data.length} bytes`, description: m.error ? `Kept raw: ${m.error}` : 'The message body, kept as bytes.' },
    ];
  }
  return def.fields.map((f) => ({
    label: f.name,
    start,
    end,
    decoded: true,
    type: f.type + (f.values ? ` (${f.values.kind} ${f.values.name})` : '') + (f.optional ? ' (optional)' : ''),
    value: message[f.key] === undefined ? '(absent)' : clip(fieldText(f, message[f.key]), 200),
    description: f.description,
  }));
}

/** A field's value as text; an enum or flags value with its name(s) from the schema's set (`4 (laser)`). */
function fieldText(f: NetFieldDef, value: unknown): string {
  const name = f.values && typeof value === 'number' ? netValueName(f.values, value) : undefined;
  return name ? `${value} (${name})` : show(value);
}

function messageSummary(message: { kind: string } & Record<string, unknown>, def: NetMessageDef | undefined): string {
  if (!def) return `unknown id ${(message as unknown as UnknownNetMessage).id}`;
  return clip(def.fields.slice(0, 4).map((f) => `${f.name}=${fieldText(f, message[f.key])}`).join(' '));
}

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function fieldType(f: SnapshotField): string {
  let t: string = f.kind;
  if (f.ints > 1) t += ` (${f.ints} ints)`;
  if (f.scale) t += `, value × ${f.scale} stored`;
  if (f.min !== undefined || f.max !== undefined) t += `, ${f.min ?? '…'}..${f.max ?? '…'}`;
  return t;
}

/** The items of a snapshot with their named fields (from the protocol's layouts and the schemas' descriptions). */
function snapshotNodes(snapshot: Snapshot, protocol: SnapshotProtocol, docs: StreamDocs, start: number, end: number): LayoutNode[] {
  const items = docs.snapshot[protocol.name] ?? {};
  const out: LayoutNode[] = [];
  for (const entry of snapshotObjects(snapshot, protocol).entries()) {
    if (!entry.known) {
      const { item } = entry;
      out.push({
        label: `type ${item.type} id ${item.id}`,
        start,
        end,
        decoded: true,
        type: entry.uuid ? `uuid ${entry.uuid}` : entry.reason,
        value: `${item.data.length} ints: ${clip(Array.from(item.data).join(', '))}`,
        description: entry.reason === 'unknown_uuid' ? 'An item of a UUID type this protocol does not know; its ints are kept.' : 'An item type this protocol does not know; its ints are kept.',
      });
      continue;
    }
    const { layout, item } = entry.view;
    const doc = items[layout.name];
    const decoded = decodeObject(layout, item.data);
    const fields: LayoutNode[] = [];
    for (const f of layout.fields) {
      const key = camel(f.name);
      if (!(key in decoded)) continue;
      // Enum values and flag bits by their schema names beside the number: `2 (happy)`, `17 (playing|aim)`.
      const named = typeof decoded[key] === 'number' ? fieldValueText(f, decoded[key] as number) : undefined;
      fields.push({ label: f.name, start, end, decoded: true, type: fieldType(f), value: clip(`${show(decoded[key])}${named ? ` (${named})` : ''}`, 200), description: doc?.fields[f.name] ?? `Field of ${layout.name}: ${doc?.description ?? ''}` });
    }
    if (decoded.extra) fields.push({ label: 'extra', start, end, decoded: true, type: `int[${decoded.extra.length}]`, value: decoded.extra.join(', '), description: 'Ints after the fields the schema knows (a newer server); kept unchanged.' });
    let value: string;
    if (layout.name === 'ex' && item.data.length >= 4) {
      // A UUID type declaration: the UUID, and the object it stands for when the protocol knows it.
      const uuid = uuidFromInts(item.data);
      value = `${uuid}${protocol.uuidItems.find((u) => u.uuid === uuid) ? ` (${protocol.uuidItems.find((u) => u.uuid === uuid)!.name})` : ''}`;
    } else if (typeof decoded.name === 'string') value = JSON.stringify(decoded.name);
    else if (typeof decoded.x === 'number' && typeof decoded.y === 'number') value = `x=${decoded.x} y=${decoded.y}`;
    else value = clip(fields.slice(0, 3).map((f) => `${f.label}=${f.value}`).join(' '));
    out.push({ label: `${layout.name} ${item.id}`, start, end, decoded: true, type: `${layout.event ? 'event' : 'object'} type ${item.type}`, value, description: doc?.description ?? '', children: fields });
  }
  return out;
}

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
      // Chat lines as the overview shows them (a server demo's copies once, with the sender's name).
      playback ??= demoPlayback(byTick, demo.protocol, overview!.events.filter((e) => e.kind === 'chat'), kills, h.type === 'server' ? 'server' : 'client');
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
    events.push({ tick: line.tick, kind: 'chat', text });
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
