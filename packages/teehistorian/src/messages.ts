// What the readers give: messages (extension payloads resolved to their known form where they parse), the
// tick each belongs to and the players' positions and inputs, by DDNet's rules (src/game/server/teehistorian.cpp).
import { ByteReader, ByteWriter, CodecError, type Uuid } from '@twcodec/runtime';
import { type CoreMessage, decodeExtension, decodeMessage, encodeExtension, type KnownExMessage, MESSAGE_IDS } from './generated/messages.gen.js';

const { PLAYER_DIFF, PLAYER_NEW, PLAYER_OLD, TICK_SKIP } = MESSAGE_IDS;

/** An extension message nobody here knows, or a known one whose payload did not parse: kept as it is. */
export interface UnknownExMessage {
  kind: 'EX';
  uuid: Uuid;
  data: Uint8Array;
}

export type TeehistorianMessage = Exclude<CoreMessage, { kind: 'EX' }> | KnownExMessage | UnknownExMessage;

/** A message as read: with the tick it belongs to and its byte offset in the file. */
export type TickedMessage = TeehistorianMessage & { tick: number; offset: number };

export interface TeehistorianEnd {
  /** The file ended with FINISH. */
  finished: boolean;
  /** The file ended inside a message (a server that crashed while writing); `offset` is where it starts. */
  truncated: boolean;
  /** Offset after the last whole message. */
  offset: number;
}

export interface ReaderOptions {
  /** Keep each player's position and input up to date in `players` (costs a little per message). */
  trackPlayers?: boolean;
  /** `throw` (default): a file that ends inside a message throws TRUNCATED after its whole messages. `stop`: it just ends. */
  onTruncated?: 'throw' | 'stop';
  /** Stream reading: the largest message to wait for before giving up (default 16 MiB). */
  maxMessageSize?: number;
}

export interface PlayerState {
  x: number;
  y: number;
}

/** Positions (from PLAYER_NEW/DIFF/OLD) and inputs (from INPUT_NEW/DIFF) of the players, as of the last message read. */
export class PlayerTracker {
  readonly positions = new Map<number, PlayerState>();
  readonly inputs = new Map<number, Int32Array>();

  apply(m: TeehistorianMessage): void {
    switch (m.kind) {
      case 'PLAYER_NEW':
        this.positions.set(m.cid, { x: m.x, y: m.y });
        break;
      case 'PLAYER_DIFF': {
        const p = this.positions.get(m.cid);
        if (p) {
          p.x = (p.x + m.dx) | 0;
          p.y = (p.y + m.dy) | 0;
        }
        break;
      }
      case 'PLAYER_OLD':
        this.positions.delete(m.cid);
        break;
      case 'INPUT_NEW':
        this.inputs.set(m.cid, Int32Array.from(m.input));
        break;
      case 'INPUT_DIFF': {
        const input = this.inputs.get(m.cid);
        if (input) for (let i = 0; i < input.length; i++) input[i] = (input[i]! + (m.input[i] ?? 0)) | 0;
        break;
      }
      default:
    }
  }
}

/**
 * Reconstructs ticks (DDNet's rules, teehistorian.cpp): the file starts at tick 0; TICK_SKIP(dt) moves to
 * last + dt + 1 and the next player record does not start another tick; otherwise a player record whose
 * client id is not greater than the previous player record's starts the next tick.
 */
export class TickTracker {
  tick = 0;
  // Above any client id (ints are 32-bit), so the first player record starts a tick. An int rather than
  // Infinity keeps the field a small integer for V8, which the scan's per-message compare notices.
  private lastCid = 0x7fffffff;

  apply(m: TeehistorianMessage): number {
    switch (m.kind) {
      case 'TICK_SKIP':
        this.tick += m.dt + 1;
        this.lastCid = -1;
        break;
      case 'PLAYER_DIFF':
      case 'PLAYER_NEW':
      case 'PLAYER_OLD':
        if (m.cid <= this.lastCid) this.tick++;
        this.lastCid = m.cid;
        break;
      default:
    }
    return this.tick;
  }

  /** The same rules on what scanMessage read: the message id in `ints[0]`, the client id or dt in `ints[1]`. */
  applyScanned(ints: Int32Array): number {
    return this.advance(ints[0]!, ints[1]!);
  }

  /** The same rules on a message id and the message's first int field (the client id or dt). */
  advance(id: number, first: number): number {
    switch (id) {
      case PLAYER_DIFF:
      case PLAYER_NEW:
      case PLAYER_OLD:
        if (first <= this.lastCid) this.tick++;
        this.lastCid = first;
        break;
      case TICK_SKIP:
        this.tick += first + 1;
        this.lastCid = -1;
        break;
      default:
    }
    return this.tick;
  }
}

/** Payloads up to this size are written back into scratchWriter (which then holds at most about this much). */
const SCRATCH_MAX = 1024;
const scratchWriter = new ByteWriter(SCRATCH_MAX + 8);

/** Turns an EX message into its known form when its payload parses completely and writes back the same. */
function resolveExtension(uuid: Uuid, data: Uint8Array, offset: number): TeehistorianMessage {
  let known: KnownExMessage | undefined;
  try {
    const r = new ByteReader(data, 0, data.length, offset);
    known = decodeExtension(uuid, r);
    if (known && r.remaining !== 0) known = undefined;
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    known = undefined;
  }
  if (known) {
    // One writer for the small payloads (nearly all: a writer each was an allocation per extension message;
    // issue 41), a writer of its own for large ones, so that no large buffer stays behind.
    const w = data.length <= SCRATCH_MAX ? scratchWriter : new ByteWriter(data.length + 8);
    w.pos = 0;
    encodeExtension(known, w);
    if (w.equals(data)) return known;
  }
  return { kind: 'EX', uuid, data };
}

/** Decodes one message at `r.pos`; EX payloads are resolved to known extension messages where possible. */
export function readMessage(r: ByteReader): TeehistorianMessage {
  const m = decodeMessage(r);
  if (m.kind !== 'EX') return m;
  return resolveExtension(m.uuid, m.data, r.offset - m.data.length);
}
