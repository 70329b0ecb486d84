// What the player (player.ts) draws at each recorded tick, read from a demo's snapshots in the worker: the
// tees (position, aim, hook, weapon), projectiles, lasers, pickups and flags, who is who (names and body
// colours), and chat and kill lines. The page interpolates between two recorded ticks as the game does.
import { type DemoProtocol, snapshotPlayers } from '@twcodec/demo';
import { type Snapshot, snapshotObjects, type SnapshotProtocol } from '@twcodec/snapshot';

export interface PlayTee {
  id: number;
  x: number;
  y: number;
  /** Aim angle in radians. */
  angle: number;
  direction: number;
  weapon: number;
  /** DDNet's HOOK_* state: -1 retracted, 0 idle, 1-3 retracting, 4 flying, 5 grabbed. */
  hookState: number;
  hookX: number;
  hookY: number;
  hookedPlayer: number;
  emote: number;
  /** In a solo part (DDNet's ddnet_character flag): DDNet draws such tees, or all others when the player's own is solo, see-through. */
  solo?: boolean;
}

export interface PlayFrame {
  tick: number;
  tees: PlayTee[];
  projectiles: { x: number; y: number; vx: number; vy: number; type: number; startTick: number }[];
  lasers: { x: number; y: number; fromX: number; fromY: number; startTick: number }[];
  pickups: { x: number; y: number; type: number; subtype: number }[];
  flags: { x: number; y: number; team: number }[];
  /** The players at this tick: an index into `Playback.rosters`. */
  roster: number;
  /** The recording client's own id (a client demo), else -1. */
  local: number;
}

export interface PlayPlayer {
  id: number;
  name: string;
  clan: string;
  /** Body colour, rgb 0-255. */
  body: [number, number, number];
  feet: [number, number, number];
  team: number;
}

export interface Playback {
  source: 'demo' | 'teehistorian' | 'capture';
  frames: PlayFrame[];
  rosters: PlayPlayer[][];
  chat: { tick: number; text: string }[];
  kills: { tick: number; killer: number; victim: number; weapon: number }[];
  /** What the positions come from, said under the view. */
  note: string;
}

/**
 * A tee's body and feet colours when the recording gives none: those of DDNet's default skin (data/skins/
 * default.png as DDNet 16.4 draws it: body #c3a267, feet #533f19).
 */
export const DEFAULT_BODY: [number, number, number] = [195, 162, 103];
export const DEFAULT_FEET: [number, number, number] = [83, 63, 25];

/**
 * A packed HSL colour (0xHHSSLL) as rgb: DDNet 16.4 src/base/color.h ColorHSLA(int) reads hue, saturation and
 * lightness as bytes / 255, and tee bodies are drawn with the lightness raised above DARKEST_LGT (0.5):
 * l = 0.5 + l * 0.5 (UnclampLighting).
 */
export function packedHslToRgb(packed: number): [number, number, number] {
  const h = ((packed >> 16) & 0xff) / 255;
  const s = ((packed >> 8) & 0xff) / 255;
  const l = 0.5 + ((packed & 0xff) / 255) * 0.5;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const hp = h * 6;
  const x = c * (1 - Math.abs((hp % 2) - 1));
  const [r, g, b] = hp < 1 ? [c, x, 0] : hp < 2 ? [x, c, 0] : hp < 3 ? [0, c, x] : hp < 4 ? [0, x, c] : hp < 5 ? [x, 0, c] : [c, 0, x];
  const m = l - c / 2;
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

type Obj = Record<string, number> & { item: { id: number } };

/** One pass over a demo's snapshots (tick order). */
export function demoPlayback(snapshots: readonly { tick: number; snapshot: Snapshot }[], protocol: DemoProtocol, chat: { tick: number; text: string }[], kills: Playback['kills'], recorder: string): Playback {
  const snap = protocol.snapshots as SnapshotProtocol<Record<string, unknown>>;
  const rosters: PlayPlayer[][] = [];
  const rosterKeys = new Map<string, number>();
  const frames: PlayFrame[] = [];
  for (const { tick, snapshot } of snapshots) {
    const objects = snapshotObjects(snapshot, snap);
    const items = (name: string) => {
      try {
        return objects.items(name) as unknown as Obj[];
      } catch {
        return [];
      }
    };
    const players: PlayPlayer[] = [];
    const teams = new Map<number, number>();
    let local = -1;
    for (const p of items('player_info')) {
      const id = protocol.name === 'teeworlds-0.7' ? p.item.id : p.clientId!;
      teams.set(id, p.team ?? 0);
      if (p.local) local = id;
    }
    // Teeworlds 0.7 marks the recording player in the demo-only de_client_info (schemas/snapshot/teeworlds-0.7.yaml).
    for (const d of items('de_client_info')) if (d.local) local = d.item.id;
    for (const info of snapshotPlayers(snapshot, protocol)) {
      let body = DEFAULT_BODY;
      let feet = DEFAULT_FEET;
      if ('useCustomColor' in info) {
        if (info.useCustomColor) {
          body = packedHslToRgb(info.colorBody);
          feet = packedHslToRgb(info.colorFeet);
        }
      } else if (info.useCustomColors[0]) {
        body = packedHslToRgb(info.skinPartColors[0] ?? 0);
        feet = packedHslToRgb(info.skinPartColors[4] ?? info.skinPartColors[0] ?? 0);
      }
      players.push({ id: info.clientId, name: info.name, clan: info.clan, body, feet, team: 'team' in info ? info.team : (teams.get(info.clientId) ?? 0) });
    }
    const key = JSON.stringify(players);
    let roster = rosterKeys.get(key);
    if (roster === undefined) {
      rosterKeys.set(key, (roster = rosters.length));
      rosters.push(players);
    }
    // DDNet's solo flag (schemas/snapshot/ddnet-0.6.yaml character_flags: solo is bit 0).
    const solo = new Set(items('ddnet_character').filter((d) => (d.flags ?? 0) & 1).map((d) => d.item.id));
    frames.push({
      tick,
      tees: items('character').map((c) => ({
        id: c.item.id,
        x: c.x!,
        y: c.y!,
        // Radians times 256 in the snapshot (schemas/snapshot): the views give the value divided.
        angle: c.angle!,
        direction: c.direction ?? 0,
        weapon: c.weapon ?? 0,
        hookState: c.hookState ?? 0,
        hookX: c.hookX ?? 0,
        hookY: c.hookY ?? 0,
        hookedPlayer: c.hookedPlayer ?? -1,
        emote: c.emote ?? 0,
        ...(solo.has(c.item.id) ? { solo: true } : {}),
      })),
      projectiles: items('projectile').map((p) => ({ x: p.x!, y: p.y!, vx: p.velX!, vy: p.velY!, type: p.type ?? 0, startTick: p.startTick ?? tick })),
      lasers: items('laser').map((l) => ({ x: l.x!, y: l.y!, fromX: l.fromX!, fromY: l.fromY!, startTick: l.startTick ?? tick })),
      pickups: items('pickup').map((p) => ({ x: p.x!, y: p.y!, type: p.type ?? 0, subtype: p.subtype ?? 0 })),
      flags: items('flag').map((f) => ({ x: f.x!, y: f.y!, team: f.team ?? 0 })),
      roster,
      local,
    });
  }
  return { source: 'demo', frames, rosters, chat, kills, note: `From the ${frames.length} snapshots the ${recorder} recorded.` };
}

/** A player's names and colours over time (teehistorian: from their start and change info). */
export interface PlayerSpan {
  clientId: number;
  name: string;
  clan?: string;
  fromTick: number;
  toTick: number;
  body?: [number, number, number];
  feet?: [number, number, number];
}

/** One tick of a teehistorian file: the positions and inputs recorded up to it. */
export interface RecordedTick {
  tick: number;
  positions: Map<number, { x: number; y: number }>;
  inputs: Map<number, Int32Array>;
}

/**
 * Frames from teehistorian ticks: each player where its last PLAYER_NEW/DIFF put it, aiming at its input's
 * target (player_input's target_x, target_y, relative to the tee), with the weapon it last asked for
 * (wanted_weapon, 1-based) and its hook button (the hook's end is not recorded: a hook held is drawn as a short
 * line along the aim).
 */
export function teehistorianPlayback(ticks: readonly RecordedTick[], players: readonly PlayerSpan[], chat: { tick: number; text: string }[]): Playback {
  const rosters: PlayPlayer[][] = [];
  const rosterKeys = new Map<string, number>();
  const weapons = new Map<number, number>();
  const frames: PlayFrame[] = [];
  for (const { tick, positions, inputs } of ticks) {
    const roster = players
      .filter((p) => p.fromTick <= tick && tick <= p.toTick)
      .map((p): PlayPlayer => ({ id: p.clientId, name: p.name, clan: p.clan ?? '', body: p.body ?? DEFAULT_BODY, feet: p.feet ?? DEFAULT_FEET, team: 0 }));
    const key = JSON.stringify(roster);
    let index = rosterKeys.get(key);
    if (index === undefined) {
      rosterKeys.set(key, (index = rosters.length));
      rosters.push(roster);
    }
    const tees: PlayTee[] = [];
    for (const [id, pos] of positions) {
      const input = inputs.get(id);
      // player_input (schemas/snapshot): direction, target_x, target_y, jump, fire, hook, player_flags, wanted_weapon, ...
      const [direction = 0, tx = 1, ty = 0, , , hook = 0, , wanted = 0] = input ?? [];
      if (wanted > 0) weapons.set(id, wanted - 1);
      const angle = Math.atan2(ty, tx);
      const held = hook !== 0;
      tees.push({ id, x: pos.x, y: pos.y, angle, direction, weapon: weapons.get(id) ?? 1, hookState: held ? 4 : 0, hookX: pos.x + Math.cos(angle) * 90, hookY: pos.y + Math.sin(angle) * 90, hookedPlayer: -1, emote: 0 });
    }
    frames.push({ tick, tees, projectiles: [], lasers: [], pickups: [], flags: [], roster: index, local: -1 });
  }
  return {
    source: 'teehistorian',
    frames,
    rosters,
    chat,
    kills: [],
    note: `From the positions and inputs the server recorded (${frames.length} ticks): aim from the input's target, the weapon last asked for, a hook held drawn as a short line (its end is not recorded); no projectiles, pickups or flags (teehistorian does not record them).`,
  };
}
