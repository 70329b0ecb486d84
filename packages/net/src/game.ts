// What a bot or watcher wants of a live connection, the same for 0.6/DDNet and 0.7 (`client.game`): typed
// events (chat with its author, join, leave, kill, broadcast, vote, map change, rcon line) and the game state
// (the own client id, the own character, the players by id and by name), made from the messages and snapshots
// the client receives. Where the protocols differ:
// - players: 0.6/DDNet names them in snapshot items (client_info, id = client id; player_info with `local` for
//   the own one); 0.7 in sv_client_info messages (`local` for the own one) and sv_client_drop when one leaves
//   (Teeworlds 0.7.5 src/game/server/gamecontext.cpp), so 0.6 joins and leaves are told from the items that
//   appear and go away between snapshots;
// - chat: 0.6 `team` (0 all, 1 team, 2/3 whispers), 0.7 `mode` (1 all, 2 team, 3 whisper);
// - votes: sv_vote_set with a timeout starts one, with timeout 0 ends it (both protocols).
import { type AnyNetMessage, netMessageDef, netMessageValueNames } from '@twcodec/netmsg';
import { type Snapshot, snapshotObjects } from '@twcodec/snapshot';
import type { ClientMap } from './client-api.js';
import type { NetProtocolName } from './packet.js';
import { PACKET_PROTOCOLS } from './packet.js';

/** A player as the server described them. */
export interface GamePlayer {
  clientId: number;
  name: string;
  clan: string;
  /** ISO 3166-1 numeric, -1 none. */
  country: number;
  /** From player_info items, once one was seen. */
  score?: number;
}

/**
 * The own character in the last snapshot (absent while dead or spectating): its core (position, velocity) as of
 * `tick`, which may be older than the snapshot. DDNet 16.4 sends the core each snapshot; Teeworlds 0.7.5 sends a
 * new one only when the dead reckoning from the last one would be wrong (a new input, a collision) and at least
 * every 3 s (src/game/server/entities/character.cpp, CCharacter::TickDefered), and the game client predicts the
 * ticks between: a character walking steadily on a 0.7.5 server keeps a core up to 150 ticks old.
 */
export interface GameCharacter {
  /** The tick the core is of. */
  tick: number;
  /** Position in world units (32 a tile). */
  x: number;
  y: number;
  /** Velocity in world units per tick. */
  velX: number;
  velY: number;
  /** -1 left, 0 none, 1 right. */
  direction: number;
  health: number;
  armor: number;
  weapon: number;
  weaponName?: string;
}

/** Every event of client.game, by its `type`. */
export type GameEvent =
  | { type: 'chat'; clientId: number; name?: string; team: 'all' | 'team' | 'whisper'; text: string }
  | { type: 'join'; clientId: number; name: string; clan: string }
  | { type: 'leave'; clientId: number; name: string; reason?: string }
  | { type: 'kill'; killer: number; killerName?: string; victim: number; victimName?: string; weapon: number; weaponName?: string }
  | { type: 'broadcast'; text: string }
  | { type: 'vote'; phase: 'start' | 'end'; description: string; reason: string; seconds: number }
  | { type: 'mapchange'; map: string; crc: number; size: number; sha256?: string }
  | { type: 'rcon'; line: string };

export type GameEventType = GameEvent['type'];
type EventOf<T extends GameEventType> = Extract<GameEvent, { type: T }>;

/** At most this many players are kept (0.6/DDNet ids go to 127; a lying server cannot grow the table further). */
const MAX_PLAYERS = 256;

/**
 * 0.6: after a map change every client loads the map again and is missing from the snapshots until it is back in
 * the game (DDNet 16.4 snaps client_info only for clients in game): for this many snapshots after the change
 * (10 s at DDNet's 25 a second) a player missing is not a leave yet, unless they were back already.
 */
const MAP_CHANGE_GRACE_SNAPSHOTS = 250;

const CHAT_TEAMS_06 = ['all', 'team', 'whisper', 'whisper'] as const;
const CHAT_MODES_07 = [undefined, 'all', 'team', 'whisper'] as const;

export class ClientGame {
  /** The own client id, once the server told (0.6: player_info with `local`; 0.7: sv_client_info with `local`). */
  ownClientId: number | undefined;
  /** The own character in the last snapshot, or undefined (dead, spectating, before the first snapshot). */
  character: GameCharacter | undefined;
  /** The players the server told of, by client id. */
  readonly players = new Map<number, GamePlayer>();
  /** The last snapshot's tick. */
  tick = -1;
  private readonly listeners: { type: GameEventType | '*'; listener: (e: GameEvent) => void }[] = [];
  /** Snapshots since the last map change (the grace for players still loading). */
  private sinceMapChange = Infinity;
  /** The players seen in a snapshot since the last map change: back in the game, so no grace when they go. */
  private readonly backSinceMapChange = new Set<number>();

  constructor(private readonly protocol: NetProtocolName) {}

  /** The player called `name` (the first by client id when several are). */
  player(name: string): GamePlayer | undefined {
    for (const p of [...this.players.values()].sort((a, b) => a.clientId - b.clientId)) if (p.name === name) return p;
    return undefined;
  }

  /** Calls `listener` with each event of `type` (or every event with '*'); returns the function that stops it. */
  on<T extends GameEventType>(type: T, listener: (e: EventOf<T>) => void): () => void;
  on(type: '*', listener: (e: GameEvent) => void): () => void;
  on(type: GameEventType | '*', listener: (e: never) => void): () => void {
    const entry = { type, listener: listener as (e: GameEvent) => void };
    this.listeners.push(entry);
    return () => {
      const i = this.listeners.indexOf(entry);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  private emit(e: GameEvent): void {
    for (const l of [...this.listeners]) if (l.type === '*' || l.type === e.type) l.listener(e);
  }

  private nameOf(id: number): string | undefined {
    return this.players.get(id)?.name;
  }

  /** @internal Each message the server sent. */
  message(m: AnyNetMessage, system: boolean): void {
    if (system) {
      if (m.kind === 'rcon_line') this.emit({ type: 'rcon', line: String(m.line) });
      return;
    }
    switch (m.kind) {
      case 'sv_chat': {
        const clientId = Number(m.clientId);
        const team = this.protocol === '0.7' ? (CHAT_MODES_07[Number(m.mode)] ?? 'all') : (CHAT_TEAMS_06[Number(m.team)] ?? 'all');
        const name = clientId >= 0 ? this.nameOf(clientId) : undefined;
        this.emit({ type: 'chat', clientId, ...(name !== undefined ? { name } : {}), team, text: String(m.message) });
        break;
      }
      case 'sv_kill_msg': {
        const killer = Number(m.killer);
        const victim = Number(m.victim);
        const def = netMessageDef(PACKET_PROTOCOLS[this.protocol].messages, 'sv_kill_msg');
        const weaponName = def ? netMessageValueNames(def.fields, m).weapon : undefined;
        const killerName = this.nameOf(killer);
        const victimName = this.nameOf(victim);
        this.emit({ type: 'kill', killer, ...(killerName !== undefined ? { killerName } : {}), victim, ...(victimName !== undefined ? { victimName } : {}), weapon: Number(m.weapon), ...(weaponName ? { weaponName } : {}) });
        break;
      }
      case 'sv_broadcast':
        this.emit({ type: 'broadcast', text: String(m.message) });
        break;
      case 'sv_vote_set': {
        const seconds = Number(m.timeout);
        this.emit({ type: 'vote', phase: seconds > 0 ? 'start' : 'end', description: String(m.description), reason: String(m.reason), seconds });
        break;
      }
      case 'sv_client_info': {
        const clientId = Number(m.clientId);
        if (!(clientId >= 0 && clientId < MAX_PLAYERS)) break;
        if (m.local === true) this.ownClientId = clientId;
        const known = this.players.get(clientId);
        const player: GamePlayer = { clientId, name: String(m.name), clan: String(m.clan), country: Number(m.country), ...(known?.score !== undefined ? { score: known.score } : {}) };
        this.players.set(clientId, player);
        if (!known) this.emit({ type: 'join', clientId, name: player.name, clan: player.clan });
        break;
      }
      case 'sv_client_drop': {
        const clientId = Number(m.clientId);
        const known = this.players.get(clientId);
        if (!known) break;
        this.players.delete(clientId);
        this.emit({ type: 'leave', clientId, name: known.name, ...(m.reason ? { reason: String(m.reason) } : {}) });
        break;
      }
    }
  }

  /** @internal The server changed map (the client has loaded the new one). */
  mapChange(map: ClientMap): void {
    this.character = undefined;
    this.sinceMapChange = 0;
    this.backSinceMapChange.clear();
    this.emit({ type: 'mapchange', map: map.name, crc: map.crc, size: map.size, ...(map.sha256 ? { sha256: map.sha256 } : {}) });
  }

  /** @internal Each snapshot. */
  snapshot(tick: number, snapshot: Snapshot): void {
    this.tick = tick;
    this.sinceMapChange++;
    const objects = snapshotObjects(snapshot, PACKET_PROTOCOLS[this.protocol].snapshots);
    type View = { item: { id: number } } & Record<string, unknown>;
    const items = (name: string) => (objects as unknown as { items(n: string): View[] }).items(name);
    for (const info of items('player_info')) {
      // 0.6 names the client in a field (and marks the own one); 0.7's item id is the client id.
      const clientId = this.protocol === '0.6' ? Number(info.clientId) : info.item.id;
      if (this.protocol === '0.6' && (info.local === true || info.local === 1)) this.ownClientId = clientId;
      const p = this.players.get(clientId);
      if (p) p.score = Number(info.score);
    }
    if (this.protocol === '0.6') {
      const seen = new Set<number>();
      for (const info of items('client_info')) {
        const clientId = info.item.id;
        if (!(clientId >= 0 && clientId < MAX_PLAYERS)) continue;
        seen.add(clientId);
        this.backSinceMapChange.add(clientId);
        let known = this.players.get(clientId);
        const name = String(info.name);
        // Another name on the id: the player before left and another took the id between two snapshots (seen on
        // DDNet-Server 16.4 on 127.0.0.1: a client leaving and the next connecting within 40 ms), or in a map
        // change. A player who changes name looks the same in the snapshots, so it is a leave and a join too.
        if (known && known.name !== name) {
          this.emit({ type: 'leave', clientId, name: known.name });
          known = undefined;
        }
        const player: GamePlayer = { clientId, name, clan: String(info.clan), country: Number(info.country), ...(known?.score !== undefined ? { score: known.score } : {}) };
        this.players.set(clientId, player);
        if (!known) this.emit({ type: 'join', clientId, name: player.name, clan: player.clan });
      }
      for (const [clientId, p] of [...this.players]) {
        // Seen since the change and gone: a leave at once (seen on DDNet-Server 16.4: a client entering the new map
        // and leaving a second later was told 4 s late, when another took its id).
        if (seen.has(clientId) || (this.sinceMapChange <= MAP_CHANGE_GRACE_SNAPSHOTS && !this.backSinceMapChange.has(clientId))) continue;
        this.players.delete(clientId);
        this.emit({ type: 'leave', clientId, name: p.name });
      }
    }
    const own = this.ownClientId === undefined ? undefined : items('character').find((c) => c.item.id === this.ownClientId);
    this.character = own && {
      tick: Number(own.tick),
      x: Number(own.x),
      y: Number(own.y),
      velX: Number(own.velX),
      velY: Number(own.velY),
      direction: Number(own.direction),
      health: Number(own.health),
      armor: Number(own.armor),
      weapon: Number(own.weapon),
    };
  }
}
