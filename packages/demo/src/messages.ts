// The net messages a demo records (message chunks), decoded with @twcodec/netmsg's generated tables, and
// what users want from them together with the snapshots: who was called what, and who said what.
import { CodecError, decodeI32String, deepEqual } from '@twcodec/runtime';
import { decodeNetMessage, type Ddnet06Message, type Ddnet06MessageOf, type Teeworlds07Message, Teeworlds07ChatMode, type UnknownNetMessage } from '@twcodec/netmsg';
import { DDNET_0_6, type Ddnet06Objects, type ObjectView, Snapshot, snapshotObjects, TEEWORLDS_0_7 } from '@twcodec/snapshot';
import { DemoError, type DemoProtocol, type DemoReader } from './demo.js';

interface DemoMessageBase {
  tick: number;
  /** Byte offset of its chunk in the file. */
  offset: number;
}

/**
 * One recorded message with the tick it was recorded at, decoded with the table of the demo's protocol (its
 * header's net version, `demo.protocol`: "0.7 ..." is Teeworlds 0.7, anything else 0.6/DDNet). Message chunks are zero-padded to
 * 4 bytes: the padding is in `trailing`, so encoding `message` gives the chunk's bytes back exactly. A known
 * message that does not read as its schema says is kept as `kind: 'unknown'` with `error` (or throws with
 * `strict`).
 */
export type DemoMessage =
  | (DemoMessageBase & { protocol: 'ddnet-0.6'; message: Ddnet06Message | UnknownNetMessage })
  | (DemoMessageBase & { protocol: 'teeworlds-0.7'; message: Teeworlds07Message | UnknownNetMessage });

/**
 * Every message chunk of the demo, decoded, with its tick (the first tick for those before the first tick marker).
 * A server demo records a message once for every client it was sent to: it comes once per receiver, in a row
 * (demoChat gives each chat line once).
 */
export function* demoMessages(demo: DemoReader, options: { strict?: boolean } = {}): Generator<DemoMessage> {
  const { name: protocol, messages: table } = demo.protocol;
  // Messages recorded before the first tick marker (a recording that starts between ticks) get the first
  // tick: they are held back until it is known (0 when the demo has no tick marker at all).
  let tick: number | undefined;
  let early: DemoMessage[] | undefined = [];
  for (const chunk of demo.chunks()) {
    if (chunk.kind === 'tick') {
      tick = chunk.tick;
      if (early) for (const m of early) yield { ...m, tick };
      early = undefined;
    }
    if (chunk.kind !== 'message') continue;
    let message: Ddnet06Message | Teeworlds07Message | UnknownNetMessage;
    try {
      message = decodeNetMessage(table, chunk.data, { lenient: !options.strict, padded: true }) as Ddnet06Message | Teeworlds07Message | UnknownNetMessage;
    } catch (e) {
      if (e instanceof CodecError) throw new DemoError(e.code, e.detail, chunk.offset, `message.${e.path}`, { cause: e });
      throw e;
    }
    const m = { tick: tick ?? 0, offset: chunk.offset, protocol, message } as DemoMessage;
    if (early) early.push(m);
    else yield m;
  }
  if (early) yield* early;
}

interface DemoPlayerBase {
  clientId: number;
  name: string;
  clan: string;
  /** ISO 3166-1 numeric, -1 none. */
  country: number;
}

/**
 * What a 0.6 / DDNet client-info snapshot item says about a player (item `client_info`, id = client id): the
 * fields of the start info the client sent, as the server passes them on.
 */
export type DemoPlayerInfo06 = DemoPlayerBase & Pick<Ddnet06MessageOf<'cl_start_info'>, 'skin' | 'useCustomColor' | 'colorBody' | 'colorFeet'>;

/**
 * What a Teeworlds 0.7 demo-only client-info item says about a player (item `de_client_info`, id = client id;
 * 0.7 servers send player info as messages, and the recorder writes these items into every demo snapshot so a
 * demo names its players: CGameClient::OnDemoRecSnap / CGameContext::OnSnap at Teeworlds 0.7.5).
 */
export type DemoPlayerInfo07 = DemoPlayerBase & {
  /** -1 spectators, 0 red (or everyone without teams), 1 blue. */
  team: number;
  /** Skin part names: body, marking, decoration, hands, feet, eyes. */
  skinParts: string[];
  useCustomColors: boolean[];
  skinPartColors: number[];
};

/** A player as the demo's client-info items describe them, in the demo's protocol. */
export type DemoPlayerInfo = DemoPlayerInfo06 | DemoPlayerInfo07;

/** A player's info as it was from `fromTick` to `toTick` (both recorded ticks, inclusive). */
export type DemoPlayer = DemoPlayerInfo & {
  fromTick: number;
  toTick: number;
};

/** Decodes a 0.6 client-info item's ints (its schema's 17); undefined when the item is shorter. */
export function decodeClientInfo(clientId: number, data: Int32Array): DemoPlayerInfo06 | undefined {
  if (data.length < CLIENT_INFO_06.size!) return undefined;
  const [view] = snapshotObjects(new Snapshot([{ type: CLIENT_INFO_06.typeId, id: clientId, data }]), DDNET_0_6).items('client_info');
  return view && playerOf06(view);
}

const CLIENT_INFO_06 = DDNET_0_6.items.find((t) => t.name === 'client_info')!;

function playerOf06(view: ObjectView<Ddnet06Objects['client_info']>): DemoPlayerInfo06 {
  return { clientId: view.item.id, name: view.name, clan: view.clan, country: view.country, skin: view.skin, useCustomColor: view.useCustomColor, colorBody: view.colorBody, colorFeet: view.colorFeet };
}
// de_client_info's skin_part_names holds `strings` packed names of the same width (its schema's field).
const SKIN_PART_NAMES = TEEWORLDS_0_7.items.find((t) => t.name === 'de_client_info')!.fields.find((f) => f.name === 'skin_part_names')!;
const SKIN_PART_INTS = SKIN_PART_NAMES.ints / SKIN_PART_NAMES.strings!;

/** The client-info items of one snapshot (0.6 `client_info`, 0.7 `de_client_info`), as players, in the demo's protocol. */
export function* snapshotPlayers(snapshot: Snapshot, protocol: DemoProtocol): Generator<DemoPlayerInfo> {
  if (protocol.name === 'teeworlds-0.7') {
    for (const view of snapshotObjects(snapshot, TEEWORLDS_0_7).items('de_client_info')) {
      const names = view.skinPartNames;
      yield {
        clientId: view.item.id,
        name: view.name,
        clan: view.clan,
        country: view.country,
        team: view.team,
        skinParts: Array.from({ length: names.length / SKIN_PART_INTS }, (_, i) => decodeI32String(names, i * SKIN_PART_INTS, SKIN_PART_INTS)),
        useCustomColors: Array.from(view.useCustomColors, (v) => v === 1),
        skinPartColors: Array.from(view.skinPartColors),
      };
    }
    return;
  }
  for (const view of snapshotObjects(snapshot, DDNET_0_6).items('client_info')) {
    if (view.item.data.length >= CLIENT_INFO_06.size!) yield playerOf06(view);
  }
}

/**
 * The players of the demo from its client-info snapshot items (0.6 `client_info`, 0.7 `de_client_info`): one
 * entry per client id and name, clan, skin... as long as they stay the same (a rename or a new player on the
 * same id starts a new entry).
 */
export function demoPlayers(demo: DemoReader): DemoPlayer[] {
  return playersAndTicks(demo).players;
}

/** demoPlayers, and the ticks of the snapshots they come from (ascending). */
function playersAndTicks(demo: DemoReader): { players: DemoPlayer[]; ticks: number[] } {
  const done: DemoPlayer[] = [];
  const open = new Map<number, DemoPlayer>();
  const ticks: number[] = [];
  for (const { tick, snapshot } of demo.snapshots()) {
    ticks.push(tick);
    const seen = new Set<number>();
    for (const info of snapshotPlayers(snapshot, demo.protocol)) {
      seen.add(info.clientId);
      const current = open.get(info.clientId);
      if (current && sameInfo(current, info)) {
        current.toTick = tick;
        continue;
      }
      if (current) done.push(current);
      open.set(info.clientId, { ...info, fromTick: tick, toTick: tick });
    }
    for (const [id, player] of open) {
      if (seen.has(id)) continue;
      done.push(player);
      open.delete(id);
    }
  }
  done.push(...open.values());
  return { players: done.sort((a, b) => a.fromTick - b.fromTick || a.clientId - b.clientId), ticks };
}

/** Whether an open player still says what `info` says: each of the info's fields compared by value (deepEqual). */
const sameInfo = (player: DemoPlayer, info: DemoPlayerInfo) => (Object.keys(info) as (keyof DemoPlayerInfo)[]).every((key) => deepEqual(player[key], info[key]));

/** One chat line. */
export interface DemoChatLine {
  tick: number;
  /** Sender's client id; -1 for the server. */
  clientId: number;
  /** The sender's name at that tick (from the client-info items), `undefined` for the server or an unknown id. */
  name: string | undefined;
  /** 0 everyone, 1 team (or spectators), DDNet's whispers: 2 sent, 3 received. */
  team: number;
  text: string;
}

/**
 * The chat lines of the demo (sv_chat messages) with the sender's name at that tick. A server demo records a
 * message once for every client it was sent to; those copies (same tick, sender, team and text) are one line.
 */
export function demoChat(demo: DemoReader): DemoChatLine[] {
  const server = demo.header.type === 'server';
  const { players, ticks } = playersAndTicks(demo);
  const nameAt = (clientId: number, tick: number) => {
    let best: DemoPlayer | undefined;
    for (const p of players) if (p.clientId === clientId && p.fromTick <= tick && (!best || p.fromTick > best.fromTick)) best = p;
    // A line sent in the tick a player joins is recorded before the snapshot that first shows them: it takes
    // the name of a player who is in the next snapshot, never of one who joins later (the id may be another
    // player's by then, or nobody's).
    if (!best || best.toTick < tick) {
      const next = ticks[upperBound(ticks, tick)];
      const joining = next === undefined ? undefined : players.find((p) => p.clientId === clientId && p.fromTick > tick && p.fromTick <= next);
      if (joining || best) best = joining ?? (best!.toTick >= previousTick(ticks, tick) ? best : undefined);
    }
    return best?.name;
  };
  const lines: DemoChatLine[] = [];
  // Teeworlds 0.7 sends names in sv_client_info messages (recorded when a player joins during the recording);
  // a recording that starts later has them only in its de_client_info items.
  const sevenNames = new Map<number, string>();
  for (const m of demoMessages(demo)) {
    let line: DemoChatLine | undefined;
    if (m.protocol === 'teeworlds-0.7') {
      const message = m.message;
      if (message.kind === 'sv_client_info') sevenNames.set(message.clientId, message.name);
      // 0.7's chat modes (all, team, whisper after none) as 0.6 teams: 0 everyone, 1 team, 2 whisper.
      if (message.kind === 'sv_chat') line = { tick: m.tick, clientId: message.clientId, name: message.clientId < 0 ? undefined : (sevenNames.get(message.clientId) ?? nameAt(message.clientId, m.tick)), team: Math.max(0, message.mode - Teeworlds07ChatMode.All), text: message.message };
    } else if (m.message.kind === 'sv_chat') {
      const message = m.message;
      line = { tick: m.tick, clientId: message.clientId, name: message.clientId < 0 ? undefined : nameAt(message.clientId, m.tick), team: message.team, text: message.message };
    }
    if (!line) continue;
    const last = lines[lines.length - 1];
    if (server && last && last.tick === line.tick && last.clientId === line.clientId && last.team === line.team && last.text === line.text) continue;
    lines.push(line);
  }
  return lines;
}

/** The index of the first of the ascending `ticks` that is greater than `tick`. */
function upperBound(ticks: number[], tick: number): number {
  let lo = 0;
  let hi = ticks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ticks[mid]! <= tick) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The last of the ascending `ticks` at or before `tick` (-Infinity when none). */
function previousTick(ticks: number[], tick: number): number {
  const at = upperBound(ticks, tick) - 1;
  return at >= 0 ? ticks[at]! : -Infinity;
}
