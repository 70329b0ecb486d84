// The player input a client sends in its input messages, kept as the ints of the snapshot schema's player_input
// object, apart from the connection (client.ts) so that the field logic of the input helpers (move, fire, aim)
// is in one place. Field meanings from DDNet 16.4 src/game/client/components/controls.cpp (wanted weapon is the
// weapon + 1; the fire field counts presses and releases) and src/game/server/entities/character.cpp.
import type { PlayerInput } from './client-api.js';
import { type NetProtocolName, PACKET_PROTOCOLS } from './packet.js';

/** The client's input before setInput: aiming right (target (1, 0)), playing (player flags 1). */
const DEFAULT_INPUT: PlayerInput = { targetX: 1, playerFlags: 1 };

/** The input message's data is the snapshot schema's player_input object: its ints, and each field's place by its camelCase name. */
function inputLayoutOf(protocol: NetProtocolName): { size: number; offsets: Map<string, number> } {
  const layout = PACKET_PROTOCOLS[protocol].snapshots.items.find((i) => i.name === 'player_input')!;
  return { size: layout.size!, offsets: new Map(layout.fields.map((f) => [f.name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), f.offset])) };
}

/** The input that goes out with the next input message, field by field. */
export class ClientInput {
  private readonly offsets: Map<string, number>;
  private readonly values: number[];

  constructor(protocol: NetProtocolName) {
    const layout = inputLayoutOf(protocol);
    this.offsets = layout.offsets;
    this.values = new Array<number>(layout.size).fill(0);
    this.put(DEFAULT_INPUT);
  }

  /** Sets the fields given (fields not given keep their value); fields the protocol's input lacks are ignored. */
  put(input: PlayerInput): void {
    for (const [field, v] of Object.entries(input)) {
      const offset = this.offsets.get(field);
      if (offset !== undefined && v !== undefined) this.values[offset] = (v as number) | 0;
    }
  }

  /** The input by field. */
  get current(): Required<PlayerInput> {
    return Object.fromEntries([...this.offsets].map(([field, offset]) => [field, this.values[offset]!])) as Required<PlayerInput>;
  }

  /** The input message's ints (a copy). */
  words(): number[] {
    return [...this.values];
  }

  /** The input message's data size in bytes. */
  get byteSize(): number {
    return this.values.length * 4;
  }
}

/** The direction field for a direction by word or number. */
export function directionInput(direction: 'left' | 'right' | 'none' | -1 | 0 | 1): PlayerInput {
  return { direction: direction === 'left' ? -1 : direction === 'right' ? 1 : direction === 'none' ? 0 : direction };
}

/**
 * The fire field that holds (true) or lets go of (false) fire, from its value now; undefined when it already
 * does. The field counts presses and releases (odd: held), as the game client's; the server fires for each press it counts.
 */
export function fireInput(fire: number, hold: boolean): PlayerInput | undefined {
  if ((fire & 1) === (hold ? 1 : 0)) return undefined;
  return { fire: (fire + 1) & 0x3f };
}

/** The target fields that aim at a point relative to the own character (world units). */
export function aimInput(x: number, y: number): PlayerInput {
  // (0, 0) has no direction: the game client never sends it.
  return x === 0 && y === 0 ? { targetX: 1, targetY: 0 } : { targetX: Math.round(x), targetY: Math.round(y) };
}
