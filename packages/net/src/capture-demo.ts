// The demo a client in a capture would have recorded: its map (from a download in the capture, or given), the
// snapshots it took at the ticks it took them, and its game messages. Facts on what a client records:
// - DDNet 16.4 src/engine/client/client.cpp (ProcessServerPacket): a snapshot whose CRC is right goes to the
//   demo, game messages (vital, and preinput) go to the demo as their packed bytes, both only from the
//   connection the player controls (g_Config.m_ClDummy: the own tee or the dummy's). Update() sends input
//   when the prediction tick advanced, then pumps the network (which records), and the key binds that switch
//   cl_dummy run after both (GameClient()->OnUpdate): so the input a frame sends tells which connection that
//   frame records from. SendInput sends the controlled connection's input first, then the other's with the
//   same prediction tick; but the controlled one's only when it changed or 40 ms passed
//   (src/game/client/components/controls.cpp, SnapInput), and the other's only when forced (after a
//   controlled one, with cl_dummy_copy_moves or every other time) or when it holds a direction, jump or hook
//   (gameclient.cpp, OnSnapInput). So many frames send nothing, and a lone input tells the controlled
//   connection only when it holds none of those three.
//   src/game/client/gameclient.cpp (16.4, OnNewSnapshot): with every new snapshot a recording client adds its
//   tuning as an sv_tune_params message when it is not the standard one.
//   map_change only counts on the main connection.
// - Teeworlds 0.7.5 src/engine/client/client.cpp and src/game/client/gameclient.cpp (OnMessage,
//   OnDemoRecSnap): game messages except sv_tune_params, sv_client_info, sv_client_drop, sv_skin_change,
//   sv_game_info and sv_server_settings are recorded; every snapshot gets the demo-only items
//   de_client_info (each active client: local, team, name, clan, country, skin parts), de_tune_params (when
//   the tuning is not the standard one) and de_game_info, built from those messages; a non-silent client info
//   of another client (once the local one is known) and a non-silent drop are recorded as de_client_enter
//   and de_client_leave.
import { demoProtocolOf, DemoWriter } from '@twcodec/demo';
import type { NetErrorCode } from './error-codes.js';
import { encodeNetMessage, netMessageDef, type Teeworlds07Message, type UnknownNetMessage } from '@twcodec/netmsg';
import { bytesEqual, crc32, encodeI32String, sha256 } from '@twcodec/runtime';
import { applyDelta, createDelta, type DecodedObject, encodeObject, Snapshot, SNAPSHOT_MAX_ITEMS, SNAPSHOT_MAX_SIZE, type SnapshotItem, type SnapshotLayout, type SnapshotProtocol } from '@twcodec/snapshot';
import { type CaptureDatagram, decodeCapture, type DecodeCaptureOptions } from './capture.js';
import { NET_VERSIONS } from './client.js';
import { NetError } from './errors.js';
import type { MapDownload } from './mapdownload.js';
import { type DecodedChunk, type NetProtocolName, PACKET_PROTOCOLS } from './packet.js';
import { ConnectionTracker, type ConnectionTrackerOptions } from './tracker.js';

/** Two inputs this close with the same prediction tick come from one SendInput call (the capture shows up to 32 ms between them on a loaded machine; a new call comes with a new prediction tick). */
const SAME_CALL_NS = 100_000_000;
/** Teeworlds 0.7.5's standard tuning (src/game/tuning.h), as the ints sv_tune_params carries (value * 100). */
const STANDARD_TUNING_07 = [1000, 200, 50, 1320, 1200, 500, 150, 95, 38000, 8000, 300, 1500, 50, 55000, 200000, 140, 125, 220000, 200, 125, 275000, 80, 20, 700, 100000, 200, 80000, 15000, 100, 0, 100, 100];
/** DDNet 16.4's standard tuning (src/game/tuning.h: Teeworlds' and DDNet's additions), as the ints sent. */
const STANDARD_TUNING_DDNET = [...STANDARD_TUNING_07.slice(0, 28), 100000, 0, 500, 100, 100, 40000, 1000, 600, 100, 125, 12500, 12500, 50000, 50000, 80000, 80000, 32000];
/** The input ints that steer (direction, jump, hook): their places in DDNet's player_input object (schemas/snapshot). */
const STEERING = ['direction', 'jump', 'hook'].map((name) => PACKET_PROTOCOLS['0.6'].snapshots.items.find((i) => i.name === 'player_input')!.fields.find((f) => f.name === name)!.offset);
/** captureDemo's demo may grow to this many times the capture's size (plus the map and 1 MiB); past that, DEMO_TOO_BIG. */
export const MAX_GROWTH = 8;
const fieldOf = (layout: SnapshotLayout, name: string) => layout.fields.find((f) => f.name === name)!;
/** The 0.7 demo-only snapshot items a recording client adds (schemas/snapshot teeworlds-0.7: ids, sizes, layouts). */
const itemType07 = (name: string) => {
  const type = PACKET_PROTOCOLS['0.7'].snapshots.items.find((i) => i.name === name)!;
  return { ...type, size: type.size! };
};
const DE_CLIENT_INFO = itemType07('de_client_info');
const DE_TUNE_PARAMS = itemType07('de_tune_params');
const DE_GAME_INFO = itemType07('de_game_info');
/** Ints of one packed skin part name in de_client_info: its skin_part_names hold one per part, as many parts as skin_part_colors has. */
const SKIN_PART_NAME_INTS = fieldOf(DE_CLIENT_INFO, 'skin_part_names').ints / fieldOf(DE_CLIENT_INFO, 'skin_part_colors').ints;

export interface CaptureDemoOptions extends DecodeCaptureOptions, ConnectionTrackerOptions {
  /** The player whose client's demo is written: the name its start info carries. */
  player: string;
  /** The map file, when the capture holds no download of it. */
  map?: Uint8Array;
}

export interface CaptureDemo {
  /** The demo file. */
  demo: Uint8Array;
  protocol: NetProtocolName;
  /** The client's endpoint, its dummy's (DDNet) and the server's. */
  client: string;
  dummy?: string;
  server: string;
  map: { name: string; size: number; crc: number; sha256: Uint8Array; from: 'capture' | 'option' };
  /** Snapshots and messages written, and how many snapshots came from the dummy's connection. */
  snapshots: number;
  messages: number;
  dummySnapshots: number;
  /**
   * Every tick whose snapshot may be the other connection's (DDNet with a dummy), where which of the two the
   * client recorded is a guess:
   * - it arrived while the client switched between its own connection and its dummy's (after the last input of
   *   one, before the first of the other) and was taken in by a frame that sent no input (when the next input
   *   does not acknowledge the snapshot yet, its frame took the snapshot in, and that frame tells the
   *   connection: no guess);
   * - it arrived around a lone input of the other connection that is taken for no switch (cl_dummy_hammer's,
   *   or the second of a call whose first the capture lost);
   * - it is main's and arrived between the dummy's con_ready and the client's answer (recorded: the frame that
   *   switched may have taken it in first).
   */
  switchTicks: number[];
}

interface Input {
  index: number;
  time: number;
  tick: number;
  ack: number;
  steering: boolean;
}

interface Connection {
  client: string;
  server: string;
  protocol: NetProtocolName;
  names: string[];
  /**
   * Capture index, time in ns, prediction tick and acknowledged snapshot tick of each input the client sent;
   * `steering`: it holds a direction, jump or hook.
   */
  inputs: Input[];
  mapChange?: { name: string; crc: number; size: number };
  /** DDNet's map_details (counts for the map_change of the same name) or 0.7's map_change. */
  mapDetails?: { name: string; sha256: Uint8Array };
  mapSha256?: Uint8Array;
  /** When the server's con_ready reached the client (DDNet switches to a dummy when its con_ready comes). */
  conReady?: { index: number; time: number };
  /** The first datagram with a vital chunk the client sent after con_ready: its answer, made in the frame that took con_ready in. */
  conReadyAnswer?: number;
  /** The datagram that brought the client its first snapshot (the demo's timestamp). */
  firstSnapshot?: CaptureDatagram;
}

const fail = (code: NetErrorCode, message: string, path: string): never => {
  throw new NetError(code, message, -1, path);
};
const timeOf = (d: CaptureDatagram) => d.seconds * 1e9 + d.nanoseconds;
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

function isSystem(protocol: NetProtocolName, chunk: DecodedChunk): boolean {
  const m = chunk.message as { kind: string; system?: boolean };
  if (m.kind === 'unknown') return m.system === true;
  return PACKET_PROTOCOLS[protocol].messages.messages.find((d) => d.name === m.kind)?.system ?? false;
}

function chunkBytes(protocol: NetProtocolName, chunk: DecodedChunk): Uint8Array {
  return chunk.unframed ? (chunk.message as UnknownNetMessage).data : encodeNetMessage(PACKET_PROTOCOLS[protocol].messages, chunk.message);
}

/** First pass: every connection with its player names, inputs and map; every map downloaded. */
function survey(capture: Uint8Array, options: CaptureDemoOptions): { connections: Map<string, Connection>; maps: MapDownload[] } {
  const connections = new Map<string, Connection>();
  const maps: MapDownload[] = [];
  const tracker = new ConnectionTracker(options);
  const connection = (client: string, server: string, protocol: NetProtocolName) => {
    const key = `${client} ${server}`;
    let c = connections.get(key);
    if (!c) connections.set(key, (c = { client, server, protocol, names: [], inputs: [] }));
    return c;
  };
  for (const d of decodeCapture(capture, options)) {
    const tracked = tracker.feed(d);
    maps.push(...tracked.maps.filter((m) => m.data));
    const p = d.packet;
    if (!p?.chunks) continue;
    if (tracked.snapshots.some((s) => s.crcOk)) connection(d.destination, d.source, p.protocol).firstSnapshot ??= d;
    const sender = connections.get(`${d.source} ${d.destination}`);
    if (sender?.conReady && sender.conReadyAnswer === undefined && p.chunks.some((c) => c.sequence !== undefined)) sender.conReadyAnswer = d.index;
    p.chunks.forEach((chunk, i) => {
      if (tracked.delivery[i] !== 'delivered') return;
      const m = chunk.message as { kind: string; name?: string; predictionTick?: number; ackGameTick?: number; data?: number[]; mapName?: string; mapCrc?: number; mapSize?: number; mapSha256?: Uint8Array };
      if (m.kind === 'cl_start_info') connection(d.source, d.destination, p.protocol).names.push(m.name!);
      else if (m.kind === 'input') connection(d.source, d.destination, p.protocol).inputs.push({ index: d.index, time: timeOf(d), tick: m.predictionTick!, ack: m.ackGameTick!, steering: STEERING.some((k) => (m.data![k] ?? 0) !== 0) });
      else if (m.kind === 'con_ready') connection(d.destination, d.source, p.protocol).conReady ??= { index: d.index, time: timeOf(d) };
      else if (m.kind === 'map_change') {
        const c = connection(d.destination, d.source, p.protocol);
        // The demo is of the first map: a client stops recording when the server changes the map.
        if (c.mapChange) return;
        c.mapChange = { name: m.mapName!, crc: m.mapCrc! >>> 0, size: m.mapSize! };
        if (p.protocol === '0.7') c.mapSha256 = m.mapSha256;
        else if (c.mapDetails && c.mapDetails.name === m.mapName) c.mapSha256 = c.mapDetails.sha256;
        else delete c.mapSha256;
        delete c.mapDetails;
      } else if (m.kind === 'map_details') connection(d.destination, d.source, p.protocol).mapDetails = { name: m.mapName!, sha256: m.mapSha256! };
    });
  }
  return { connections, maps };
}

/** One input a client with a dummy sent, with the connection it controlled then when its call shows that. */
interface SentInput {
  index: number;
  time: number;
  ack: number;
  controlled?: Connection;
}

interface ControlStart {
  index: number;
  time: number;
  connection: Connection;
  /** Told by both inputs of one call, by one input alone, or by the dummy's con_ready. */
  by: 'call' | 'lone' | 'con_ready';
  /** Its input (calls: the first of the two) in `inputs`. */
  input?: number;
}

/**
 * The SendInput calls of a client with a dummy, each with the connection it sent input for first: the one
 * the client controlled then (a call's inputs: the controlled connection's first, then the other's with the
 * same prediction tick); and every input in capture order, with that connection where its call tells it.
 * `unsure`: capture index ranges in which the controlled connection is a guess.
 */
function controlTimeline(main: Connection, dummy: Connection): { starts: ControlStart[]; inputs: SentInput[]; unsure: [number, number][] } {
  const all = [...main.inputs.map((x) => ({ ...x, connection: main })), ...dummy.inputs.map((x) => ({ ...x, connection: dummy }))];
  all.sort((a, b) => a.index - b.index);
  let starts: ControlStart[] = [];
  const inputs: SentInput[] = all.map(({ index, time, ack }) => ({ index, time, ack }));
  // The dummy's con_ready switches the client to it (client.cpp: g_Config.m_ClDummy = 1) before it sends input.
  if (dummy.conReady) starts.push({ ...dummy.conReady, connection: dummy, by: 'con_ready' });
  for (let i = 0; i < all.length; i++) {
    const x = all[i]!;
    const next = all[i + 1];
    if (next && next.connection !== x.connection && next.tick === x.tick && next.time - x.time < SAME_CALL_NS) {
      // Both inputs of one call: the first is the controlled connection's.
      starts.push({ index: x.index, time: x.time, connection: x.connection, by: 'call', input: i });
      inputs[i]!.controlled = inputs[i + 1]!.controlled = x.connection;
      i++;
    } else if (!x.steering) {
      // A lone input without direction, jump or hook is the controlled connection's (the other one's goes
      // alone only while it steers), but for two exceptions: DDNet's cl_dummy_hammer sends the other's
      // hammer input alone every 25th call (gameclient.cpp, OnSnapInput), and a capture that lost the first
      // input of a call keeps the second alone.
      starts.push({ index: x.index, time: x.time, connection: x.connection, by: 'lone', input: i });
      inputs[i]!.controlled = x.connection;
    }
    // A lone steering input may be the other connection's, sent while the controlled one had nothing new.
  }
  starts.sort((a, b) => a.index - b.index);
  // So a lone input that says the other connection between two that say the same one is no switch (a player
  // who switches stays a while: the controlled connection sends at least every 40 ms), but where it lies
  // the controlled connection is a guess.
  const unsure: [number, number][] = [];
  starts = starts.filter((x, k) => {
    const before = starts[k - 1];
    const after = starts[k + 1];
    if (x.by !== 'lone' || !before || !after || before.connection !== after.connection || x.connection === before.connection) return true;
    delete inputs[x.input!]!.controlled;
    unsure.push([before.index, after.index]);
    return false;
  });
  return { starts, inputs, unsure };
}

/** The connection that most often sends its input in the same SendInput call as `main`'s: its dummy. */
function findDummy(main: Connection, connections: Iterable<Connection>): Connection | undefined {
  const host = (endpoint: string) => endpoint.slice(0, endpoint.lastIndexOf(':'));
  let best: Connection | undefined;
  let bestPairs = 0;
  for (const c of connections) {
    if (c === main || c.server !== main.server || host(c.client) !== host(main.client) || c.protocol !== '0.6') continue;
    const ticks = new Map<number, number>();
    for (const x of main.inputs) ticks.set(x.tick, x.time);
    let pairs = 0;
    for (const x of c.inputs) {
      const t = ticks.get(x.tick);
      if (t !== undefined && Math.abs(t - x.time) < SAME_CALL_NS) pairs++;
    }
    if (pairs > bestPairs) (best = c), (bestPairs = pairs);
  }
  // A few coincidences are not a dummy: most of the dummy's inputs pair up with the player's.
  return best && bestPairs >= 10 && bestPairs * 2 >= best.inputs.length ? best : undefined;
}

type Message07<K extends Teeworlds07Message['kind']> = Extract<Teeworlds07Message, { kind: K }>;
/** A client as the 0.7 client keeps it: what its last sv_client_info (and later sv_team, sv_skin_change) said. */
type Client07 = Pick<Message07<'sv_client_info'>, 'team' | 'name' | 'clan' | 'country' | 'skinPartNames' | 'useCustomColors' | 'skinPartColors'>;
const skinOf = (m: Message07<'sv_client_info' | 'sv_skin_change'>) => ({ skinPartNames: m.skinPartNames.slice(), useCustomColors: m.useCustomColors.map(Number), skinPartColors: m.skinPartColors.slice() });

/** What a Teeworlds 0.7 client keeps from the messages it does not record, for the demo-only items. */
export class DemoState07 {
  clients = new Map<number, Client07>();
  local = -1;
  tuning: number[] | undefined;
  /** The last sv_game_info: de_game_info's fields are its fields. */
  gameInfo: DecodedObject | undefined;

  /**
   * A game message as the 0.7.5 client records it: the bytes to record (`own`, the message's own bytes, or a
   * de_client_enter/leave it makes of it), or undefined for one it only applies to the demo-only items
   * (`recorded: false` in schemas/netmsg). sv_team is both applied and recorded.
   */
  received(m: Teeworlds07Message, own: () => Uint8Array): Uint8Array | undefined {
    if (netMessageDef(PACKET_PROTOCOLS['0.7'].messages, m.kind)?.recorded === false) {
      const demoMessage = this.apply(m);
      return demoMessage && encodeNetMessage(PACKET_PROTOCOLS['0.7'].messages, demoMessage);
    }
    if (m.kind === 'sv_team') this.apply(m);
    return own();
  }

  /** Applies a message; returns the demo message (de_client_enter/leave) the client records for it, if any. */
  apply(m: Teeworlds07Message): Message07<'de_client_enter' | 'de_client_leave'> | undefined {
    switch (m.kind) {
      case 'sv_tune_params':
        this.tuning = m.params.slice();
        return undefined;
      case 'sv_game_info':
        this.gameInfo = { ...m, trailing: undefined } as DecodedObject;
        return undefined;
      case 'sv_client_info': {
        let enter: Message07<'de_client_enter'> | undefined;
        if (m.local) {
          if (this.local !== -1) return undefined;
          this.local = m.clientId;
        } else {
          if (this.clients.has(m.clientId)) return undefined;
          if (this.local !== -1 && !m.silent) enter = { kind: 'de_client_enter', name: m.name, clientId: m.clientId, team: m.team };
        }
        this.clients.set(m.clientId, { team: m.team, name: m.name, clan: m.clan, country: m.country, ...skinOf(m) });
        return enter;
      }
      case 'sv_client_drop': {
        const c = this.clients.get(m.clientId);
        if (this.local === m.clientId || !c) return undefined;
        this.clients.delete(m.clientId);
        return m.silent ? undefined : { kind: 'de_client_leave', name: c.name, clientId: m.clientId, reason: m.reason };
      }
      case 'sv_skin_change': {
        const c = this.clients.get(m.clientId);
        if (c) Object.assign(c, skinOf(m));
        return undefined;
      }
      case 'sv_team': {
        const c = this.clients.get(m.clientId);
        if (c) c.team = m.team;
        return undefined;
      }
    }
    return undefined;
  }

  /**
   * The snapshot with the demo-only items appended, in OnDemoRecSnap's order, as many as the client's snapshot
   * builder takes: Teeworlds 0.7.5 src/engine/shared/snapshot.cpp (CSnapshotBuilder::NewItem) refuses an item
   * once the snapshot would reach MAX_ITEMS (1,024) items or its size limit, and OnDemoRecSnap
   * (src/game/client/gameclient.cpp) stops at the first refusal, so the items after it are not recorded
   * either. (A snapshot that already holds 1,024 items fails an assert there; it is recorded without them.)
   */
  decorate(snapshot: Snapshot): Snapshot {
    const extra: SnapshotItem[] = [];
    let items = snapshot.items.length;
    let dataSize = snapshot.items.reduce((n, item) => n + 4 + item.data.length * 4, 0);
    const fits = (ints: number) => {
      // NewItem: data, the snapshot header (2 ints), the new item's key, its data, and a key and offset per item.
      if (dataSize + 8 + 4 + ints * 4 + (items + 1) * 8 >= SNAPSHOT_MAX_SIZE || items + 1 >= SNAPSHOT_MAX_ITEMS) return false;
      items++;
      dataSize += 4 + ints * 4;
      return true;
    };
    const done = () => new Snapshot([...snapshot.items, ...extra]);
    for (const id of [...this.clients.keys()].sort((a, b) => a - b)) {
      const c = this.clients.get(id)!;
      if (!fits(DE_CLIENT_INFO.size)) return done();
      const parts = fieldOf(DE_CLIENT_INFO, 'skin_part_colors').ints;
      const data = encodeObject(DE_CLIENT_INFO, {
        local: id === this.local,
        team: c.team,
        name: c.name,
        clan: c.clan,
        country: c.country,
        skinPartNames: Array.from({ length: parts }, (_, p) => [...encodeI32String(c.skinPartNames[p] ?? '', SKIN_PART_NAME_INTS)]).flat(),
        useCustomColors: Array.from({ length: parts }, (_, p) => c.useCustomColors[p] ?? 0),
        skinPartColors: Array.from({ length: parts }, (_, p) => c.skinPartColors[p] ?? 0),
      });
      extra.push({ type: DE_CLIENT_INFO.typeId, id, data });
    }
    if (this.tuning && this.tuning.some((v, i) => v !== STANDARD_TUNING_07[i])) {
      if (!fits(DE_TUNE_PARAMS.size)) return done();
      const data = new Int32Array(DE_TUNE_PARAMS.size);
      data.set(this.tuning.slice(0, DE_TUNE_PARAMS.size));
      extra.push({ type: DE_TUNE_PARAMS.typeId, id: 0, data });
    }
    if (fits(DE_GAME_INFO.size)) {
      const data = new Int32Array(DE_GAME_INFO.size);
      if (this.gameInfo) data.set(encodeObject(DE_GAME_INFO, this.gameInfo));
      extra.push({ type: DE_GAME_INFO.typeId, id: 0, data });
    }
    return done();
  }
}

/**
 * `snapshot` with its items in the order a demo reader gives them after `last`: a demo stores the recorder's
 * item order only at keyframes, and between them a reader follows it from what each delta lists (DemoReader's
 * snapshots). A client's snapshots whose order changes otherwise (the other connection's after a switch to or
 * from the dummy, a server that reorders its items) made deltas that, read back and written again, were other
 * deltas: the demo did not resave to itself. The items and their data (so the checksum) are the same.
 */
function inReaderOrder(last: Snapshot | undefined, snapshot: Snapshot, protocol: SnapshotProtocol): Snapshot {
  if (!last) return snapshot;
  const delta = createDelta(last, snapshot, protocol);
  return delta.length ? applyDelta(last, delta, protocol, { order: 'hint' }) : last;
}

function demoTimestamp(d: CaptureDatagram): string {
  const iso = new Date(d.seconds * 1000).toISOString();
  return `${iso.slice(0, 10)}_${iso.slice(11, 13)}-${iso.slice(14, 16)}-${iso.slice(17, 19)}`;
}

/**
 * The demo the client of `options.player` would have recorded from the session in `capture` (pcap/pcapng):
 * from its first snapshot to its last, with the messages that came from then on (none from before the first snapshot,
 * as no client records those).
 */
export function captureDemo(capture: Uint8Array, options: CaptureDemoOptions): CaptureDemo {
  const { connections, maps } = survey(capture, options);
  const named = [...connections.values()].filter((c) => c.names.includes(options.player));
  if (!named.length) {
    const names = [...new Set([...connections.values()].flatMap((c) => c.names))];
    fail('PLAYER_NOT_FOUND', `no client in the capture sent start info with the name '${options.player}' (names: ${names.map((n) => `'${n}'`).join(', ') || 'none'})`, 'player');
  }
  // The same name on several connections (reconnects): the one that sent the most input played longest.
  const main = named.sort((a, b) => b.inputs.length - a.inputs.length)[0]!;
  const protocol = main.protocol;
  const change = main.mapChange ?? fail('NO_MAP_CHANGE', `the server never told ${main.client} which map to load`, 'map');

  let mapBytes: Uint8Array;
  let from: 'capture' | 'option';
  if (options.map) {
    mapBytes = options.map;
    from = 'option';
    if (mapBytes.length !== change.size || crc32(mapBytes) !== change.crc)
      fail('MAP_MISMATCH', `the map given has ${mapBytes.length} bytes and CRC ${crc32(mapBytes).toString(16).padStart(8, '0')}; the server announced '${change.name}' with ${change.size} bytes and CRC ${change.crc.toString(16).padStart(8, '0')}`, 'map');
  } else {
    const download = maps.find((m) => m.name === change.name && m.size === change.size && m.crc === change.crc && m.crcOk);
    if (!download) fail('MAP_MISSING', `the capture holds no download of map '${change.name}' (${change.size} bytes, CRC ${change.crc.toString(16).padStart(8, '0')}): pass the map file (CLI: --map FILE; library: options.map)`, 'map');
    mapBytes = download!.data!;
    from = 'capture';
  }
  const mapSha256 = sha256(mapBytes);
  if (main.mapSha256 && !bytesEqual(main.mapSha256, mapSha256)) fail('MAP_MISMATCH', `the map's SHA-256 is ${hex(mapSha256)}, the server announced ${hex(main.mapSha256)}`, 'map');

  const dummy = protocol === '0.6' ? findDummy(main, connections.values()) : undefined;
  const { starts: timeline, inputs, unsure } = dummy ? controlTimeline(main, dummy) : { starts: [], inputs: [], unsure: [] };
  // Between the dummy's con_ready and the client's answer to it, the frame that took con_ready in (and
  // switched to the dummy) came: main's datagrams processed before it in that frame (DDNet's PumpNetwork takes
  // in the main connection's first) were recorded from main. Whether one that arrived in between was is a
  // guess: it is recorded, and its tick listed in switchTicks.
  const readyWindow = dummy?.conReady ? ([dummy.conReady.index, dummy.conReadyAnswer ?? dummy.conReady.index] as const) : undefined;
  if (readyWindow) unsure.push([readyWindow[0], readyWindow[1]]);
  unsure.sort((a, b) => a[0] - b[0]);
  // Merged (they may overlap), so that one pointer walks them as the capture goes on.
  const unsureRanges: [number, number][] = [];
  for (const [a, b] of unsure) {
    const last = unsureRanges.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else unsureRanges.push([a, b]);
  }
  let nextUnsure = 0;
  let next = 0;
  let nextInput = 0;
  let switching = false;
  /**
   * The connection the client controlled when it took in datagram `d`, which brought the snapshot of `tick`
   * if any (`switching`: the client switched about then and which side took `d` in is a guess, see switchTicks).
   */
  const controlled = (d: CaptureDatagram, tick: number | undefined): Connection => {
    while (next < timeline.length && timeline[next]!.index < d.index) next++;
    while (nextInput < inputs.length && inputs[nextInput]!.index < d.index) nextInput++;
    const before = timeline[next - 1];
    const after = timeline[next];
    // The dummy's con_ready is what switches the client to it: whatever came before it (its own datagram
    // included, which the frame takes in before it switches) was taken in for the connection controlled
    // before. The middle-of-the-window guess below put main's last snapshot before the dummy's con_ready on
    // the dummy's side when it came late in that window (a DDNet 16.4 session recorded for issue 36: the
    // client's demo has it, ours lacked it, and held the motd of the dummy's con_ready datagram instead).
    if (after?.by === 'con_ready') {
      switching = false;
      return before?.connection ?? main;
    }
    switching = !!before && !!after && before.connection !== after.connection;
    if (!before || !after || before.connection === after.connection) return (after ?? before)?.connection ?? main;
    // Between the last call of one connection and the first of the other the client switched, in a frame
    // the capture does not show (frames without input exist). A frame sends its input before it takes in what
    // arrived (Update: SendInput, then PumpNetwork), and an input acknowledges the last snapshot taken in
    // (client.cpp: m_aAckGameTick, set as a snapshot is taken in). So when the first input after `d` does not
    // acknowledge its snapshot yet, that input's frame took `d` in, and the connection that frame sent for
    // first is the one that recorded it.
    const first = inputs[nextInput];
    if (tick !== undefined && first?.controlled && first.ack < tick) {
      switching = false;
      return first.controlled;
    }
    // Otherwise a frame that sent nothing took it in, and whether before or after the switch the capture cannot
    // tell: take the side of the window's middle that `d` arrived on. In the corpus's DDNet capture the inputs
    // place 6 of the 20 snapshots that arrived in such windows, all as the clients recorded them; of the other
    // 14, 11 fall on the side the client recorded. (The middle of `d`'s arrival and that input, a guess at when
    // the frame took it in, places 8 of 14.)
    return timeOf(d) < (before.time + after.time) / 2 ? before.connection : after.connection;
  };

  const writer = new DemoWriter(
    { version: protocol === '0.6' ? 6 : 4, netVersion: NET_VERSIONS[protocol], mapName: change.name, mapCrc: change.crc.toString(16).padStart(8, '0'), type: 'client', timestamp: main.firstSnapshot ? demoTimestamp(main.firstSnapshot) : '', ...(protocol === '0.6' ? { mapSha256: hex(mapSha256) } : {}) },
    mapBytes,
    // Not a keyframe every 5 s for a snapshot that hardly changes: a server (or a capture) that sends one big
    // snapshot and then empty ones 251 ticks apart made DDNet's recorder rule write 262 MB from 90 KB.
    { keyframes: 'bounded' },
  );
  // An honest session's demo is smaller than its capture (the capture also holds headers, every other client
  // and resent packets); a hostile one can still make deltas of whole snapshots from tiny packets (empty
  // snapshots against bases that alternate between a big snapshot and none), so the demo is held to this.
  const maxSize = mapBytes.length + MAX_GROWTH * capture.length + 1024 * 1024;
  const checkSize = () => {
    if (writer.size > maxSize) fail('DEMO_TOO_BIG', `the demo passed ${writer.size} bytes, more than ${MAX_GROWTH} times the capture's ${capture.length} (and the map's ${mapBytes.length}, and 1 MiB): the server's snapshots change far more than the capture's packets carry`, 'snapshots');
  };
  const state07 = protocol === '0.7' ? new DemoState07() : undefined;
  /** The last tuning each of the client's connections received. */
  const tuning = new Map<Connection, number[]>();
  let lastTick = -1;
  let lastWritten: Snapshot | undefined;
  const demoSnapshots = demoProtocolOf(NET_VERSIONS[protocol]).snapshots;
  let snapshots = 0;
  let messages = 0;
  let dummySnapshots = 0;
  const switchTicks: number[] = [];
  // A message that came before the first snapshot is not recorded: the clients start a demo only once they are
  // online, after their second snapshot (DDNet 16.4 client.cpp: DemoRecorder_HandleAutoStart when
  // m_aReceivedSnapshots reaches 2, and `record` refuses before; Teeworlds 0.7.5 client.cpp: OnClientOnline), so
  // no client's demo holds the motd or sv_ready_to_enter. `net record` records live by the same rule.
  const record = (bytes: Uint8Array) => {
    if (lastTick >= 0) (writer.message(bytes), messages++, checkSize());
  };
  const tracker = new ConnectionTracker(options);
  let mapChanges = 0;
  for (const d of decodeCapture(capture, options)) {
    const tracked = tracker.feed(d);
    if (d.source === main.server && d.destination === main.client && d.packet?.chunks?.some((c, i) => c.message.kind === 'map_change' && tracked.delivery[i] === 'delivered') && ++mapChanges > 1) break;
    const from = d.source === main.server ? (d.destination === main.client ? main : d.destination === dummy?.client ? dummy : undefined) : undefined;
    if (!from || !d.packet?.chunks) continue;
    const inReadyWindow = readyWindow !== undefined && d.index > readyWindow[0] && d.index < readyWindow[1];
    const recording = from === controlled(d, tracked.snapshots.find((s) => s.crcOk && s.snapshot)?.tick) || (inReadyWindow && from === main);
    while (nextUnsure < unsureRanges.length && unsureRanges[nextUnsure]![1] <= d.index) nextUnsure++;
    const guessed = switching || inReadyWindow || (nextUnsure < unsureRanges.length && unsureRanges[nextUnsure]![0] < d.index);
    d.packet.chunks.forEach((chunk, i) => {
      if (tracked.delivery[i] !== 'delivered' || isSystem(protocol, chunk)) return;
      const m = chunk.message as Record<string, unknown> & { kind: string };
      if (chunk.sequence === undefined && m.kind !== 'sv_pre_input') return;
      if (m.kind === 'sv_tune_params') tuning.set(from, m.params as number[]);
      if (!recording) return;
      const own = () => chunkBytes(protocol, chunk);
      const bytes = state07 ? state07.received(m as unknown as Teeworlds07Message, own) : own();
      if (bytes) record(bytes);
    });
    if (!recording) continue;
    for (const s of tracked.snapshots) {
      if (!s.crcOk || !s.snapshot || s.tick <= lastTick) continue;
      const snapshot = inReaderOrder(lastWritten, state07 ? state07.decorate(s.snapshot) : s.snapshot, demoSnapshots);
      writer.snapshot(s.tick, snapshot);
      lastWritten = snapshot;
      checkSize();
      lastTick = s.tick;
      // DDNet records its tuning with every new snapshot when it is not the standard one.
      const tune = tuning.get(from);
      if (protocol === '0.6' && tune && tune.some((v, k) => v !== STANDARD_TUNING_DDNET[k])) record(encodeNetMessage(PACKET_PROTOCOLS['0.6'].messages, { kind: 'sv_tune_params', params: tune } as { kind: string }));
      snapshots++;
      if (from === dummy) dummySnapshots++;
      if (guessed) switchTicks.push(s.tick);
    }
  }
  if (!snapshots) fail('NO_SNAPSHOTS', `the capture holds no snapshot ${main.client} received with its CRC right`, 'snapshots');
  const demo = writer.finish();
  return { demo, protocol, client: main.client, ...(dummy ? { dummy: dummy.client } : {}), server: main.server, map: { name: change.name, size: change.size, crc: change.crc, sha256: mapSha256, from }, snapshots, messages, dummySnapshots, switchTicks };
}
