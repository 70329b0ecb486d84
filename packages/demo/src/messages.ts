// The net messages a demo records (message chunks), decoded with @twcodec/netmsg's generated tables, and
// what users want from them together with the snapshots: who was called what, and who said what.
import { CodecError, decodeI32String } from '@twcodec/runtime';
import { type ClStartInfoMessage, DDNET_0_6_MESSAGES, decodeNetMessage, type Ddnet06Message, TEEWORLDS_0_7_MESSAGES, type Teeworlds07Message, type UnknownNetMessage } from '@twcodec/netmsg';
import { DemoError, type DemoReader } from './demo.js';

interface DemoMessageBase {
  tick: number;
  /** Byte offset of its chunk in the file. */
  offset: number;
}

/**
 * One recorded message with the tick it was recorded at, decoded with the table of the demo's protocol (its
 * header's net version: "0.7 ..." is Teeworlds 0.7, anything else 0.6/DDNet). Message chunks are zero-padded to
 * 4 bytes: the padding is in `trailing`, so encoding `message` gives the chunk's bytes back exactly. A known
 * message that does not read as its schema says is kept as `kind: 'unknown'` with `error` (or throws with
 * `strict`).
 */
export type DemoMessage =
  | (DemoMessageBase & { protocol: 'ddnet-0.6'; message: Ddnet06Message | UnknownNetMessage })
  | (DemoMessageBase & { protocol: 'teeworlds-0.7'; message: Teeworlds07Message | UnknownNetMessage });

/** Every message chunk of the demo, decoded, with its tick. */
export function* demoMessages(demo: DemoReader, options: { strict?: boolean } = {}): Generator<DemoMessage> {
  const seven = demo.header.netVersion.startsWith('0.7');
  const table = seven ? TEEWORLDS_0_7_MESSAGES : DDNET_0_6_MESSAGES;
  let tick = 0;
  for (const chunk of demo.chunks()) {
    if (chunk.kind === 'tick') tick = chunk.tick;
    if (chunk.kind !== 'message') continue;
    let message: Ddnet06Message | Teeworlds07Message | UnknownNetMessage;
    try {
      message = decodeNetMessage(table, chunk.data, { lenient: !options.strict }) as Ddnet06Message | Teeworlds07Message | UnknownNetMessage;
    } catch (e) {
      if (e instanceof CodecError) throw new DemoError(e.code, e.detail, chunk.offset, `message.${e.path}`, { cause: e });
      throw e;
    }
    yield (seven ? { tick, offset: chunk.offset, protocol: 'teeworlds-0.7', message } : { tick, offset: chunk.offset, protocol: 'ddnet-0.6', message }) as DemoMessage;
  }
}

/**
 * What a client-info snapshot item says about a player (0.6 / DDNet, item type 11, id = client id): the
 * fields of the start info the client sent, as the server passes them on.
 */
export type DemoPlayerInfo = { clientId: number } & Pick<ClStartInfoMessage, 'name' | 'clan' | 'country' | 'skin' | 'useCustomColor' | 'colorBody' | 'colorFeet'>;

/** A player's info as it was from `fromTick` to `toTick` (both recorded ticks, inclusive). */
export interface DemoPlayer extends DemoPlayerInfo {
  fromTick: number;
  toTick: number;
}

// Layout of CNetObj_ClientInfo, checked against DDNet datasrc/network.py (commit 28baa427): name 4 ints,
// clan 3, country, skin 6, use_custom_color, color_body, color_feet; strings packed 4 bytes per int.
const CLIENT_INFO = 11;
const CLIENT_INFO_SIZE = 17;

/** Decodes a 0.6 client-info item's ints (17 of them); undefined when the item is shorter. */
export function decodeClientInfo(clientId: number, data: ArrayLike<number>): DemoPlayerInfo | undefined {
  if (data.length < CLIENT_INFO_SIZE) return undefined;
  return {
    clientId,
    name: decodeI32String(data, 0, 4),
    clan: decodeI32String(data, 4, 3),
    country: data[7]!,
    skin: decodeI32String(data, 8, 6),
    useCustomColor: data[14] === 1,
    colorBody: data[15]!,
    colorFeet: data[16]!,
  };
}

/**
 * The players of the demo from its client-info snapshot items: one entry per client id and name, clan,
 * skin... as long as they stay the same (a rename or a new player on the same id starts a new entry).
 */
export function demoPlayers(demo: DemoReader): DemoPlayer[] {
  const done: DemoPlayer[] = [];
  const open = new Map<number, DemoPlayer>();
  for (const { tick, snapshot } of demo.snapshots()) {
    const seen = new Set<number>();
    for (const item of snapshot.items) {
      if (item.type !== CLIENT_INFO) continue;
      const info = decodeClientInfo(item.id, item.data);
      if (!info) continue;
      seen.add(item.id);
      const current = open.get(item.id);
      if (current && sameInfo(current, info)) {
        current.toTick = tick;
        continue;
      }
      if (current) done.push(current);
      open.set(item.id, { ...info, fromTick: tick, toTick: tick });
    }
    for (const [id, player] of open) {
      if (seen.has(id)) continue;
      done.push(player);
      open.delete(id);
    }
  }
  done.push(...open.values());
  return done.sort((a, b) => a.fromTick - b.fromTick || a.clientId - b.clientId);
}

const INFO_KEYS = ['name', 'clan', 'country', 'skin', 'useCustomColor', 'colorBody', 'colorFeet'] as const;
const sameInfo = (a: DemoPlayerInfo, b: DemoPlayerInfo) => INFO_KEYS.every((k) => a[k] === b[k]);

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
  const players = demoPlayers(demo);
  const nameAt = (clientId: number, tick: number) => {
    let best: DemoPlayer | undefined;
    for (const p of players) if (p.clientId === clientId && p.fromTick <= tick && (!best || p.fromTick > best.fromTick)) best = p;
    // A line sent before the sender's first snapshot (joining messages) takes the name it will have.
    best ??= players.find((p) => p.clientId === clientId && p.fromTick > tick);
    return best?.name;
  };
  const lines: DemoChatLine[] = [];
  // Teeworlds 0.7 sends names in sv_client_info messages rather than snapshot items.
  const sevenNames = new Map<number, string>();
  for (const m of demoMessages(demo)) {
    let line: DemoChatLine | undefined;
    if (m.protocol === 'teeworlds-0.7') {
      const message = m.message;
      if (message.kind === 'sv_client_info') sevenNames.set(message.clientId, message.name);
      // 0.7 chat modes: 1 everyone, 2 team, 3 whisper; as 0.6 teams: 0, 1, 2.
      if (message.kind === 'sv_chat') line = { tick: m.tick, clientId: message.clientId, name: sevenNames.get(message.clientId), team: Math.max(0, message.mode - 1), text: message.message };
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
