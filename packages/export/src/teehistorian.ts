import { DDNET_0_6, layoutNamed } from '@twcodec/snapshot';
import { decodeClientMessage, MESSAGE_IDS, MESSAGE_INT_FIELDS, type ReaderOptions, scanTeehistorian, statsKey } from '@twcodec/teehistorian';
import { type ExportTable, IntRows, TableBuilder } from './table.js';

const { PLAYER_DIFF, PLAYER_NEW, PLAYER_OLD, INPUT_DIFF, INPUT_NEW, TICK_SKIP, FINISH } = MESSAGE_IDS;

/** The tables a teehistorian file gives. */
export const TEEHISTORIAN_TABLES = ['positions', 'inputs', 'events'] as const;
export type TeehistorianTableName = (typeof TEEHISTORIAN_TABLES)[number];

// The 10 ints of INPUT_NEW/INPUT_DIFF are a CNetObj_PlayerInput: their names come from the snapshot schema's
// player_input layout, so that a schema change renames the columns too.
const INPUT_FIELDS = layoutNamed(DDNET_0_6, 'player_input')!.fields.map((f) => f.name);
if (INPUT_FIELDS.length !== MESSAGE_INT_FIELDS.INPUT_NEW.length - 1) {
  throw new Error(`internal: player_input has ${INPUT_FIELDS.length} fields, teehistorian inputs ${MESSAGE_INT_FIELDS.INPUT_NEW.length - 1}`);
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const toJson = (value: object) => JSON.stringify(value, (_key, v: unknown) => (v instanceof Uint8Array ? hex(v) : v));

/** State by client id: an array slot for the usual ids, a Map for whatever else a file holds. */
class PerClient {
  private readonly slots: (Int32Array | undefined)[] = new Array<Int32Array | undefined>(256).fill(undefined);
  private readonly others = new Map<number, Int32Array>();

  get(cid: number): Int32Array | undefined {
    return cid >= 0 && cid < 256 ? this.slots[cid] : this.others.get(cid);
  }

  set(cid: number, state: Int32Array): void {
    if (cid >= 0 && cid < 256) this.slots[cid] = state;
    else this.others.set(cid, state);
  }

  delete(cid: number): void {
    if (cid >= 0 && cid < 256) this.slots[cid] = undefined;
    else this.others.delete(cid);
  }
}

export interface TeehistorianExportOptions {
  /** Only these tables (default: all of TEEHISTORIAN_TABLES). */
  tables?: readonly string[];
  /** As for the reader; a file cut short (a crashed server) is exported up to its last whole message by default. */
  onTruncated?: ReaderOptions['onTruncated'];
}

/**
 * A teehistorian file as tables, in one pass of the allocation-free scanner:
 * - `positions`: tick, cid, x, y — each player's absolute position whenever the file records one (PLAYER_NEW,
 *   PLAYER_DIFF; DDNet writes a record only when the character moved);
 * - `inputs`: tick, cid and the 10 input fields (direction, target_x, ...) as absolute values (INPUT_NEW,
 *   INPUT_DIFF);
 * - `events`: every other message but TICK_SKIP and FINISH (JOIN, DROP, PLAYER_NEW, PLAYER_OLD, MESSAGE,
 *   CONSOLE_COMMAND, extension messages): tick, cid (null when the message has none), kind as `teehistorian
 *   stats` names it, and its other fields as JSON (bytes as hex; a MESSAGE's client message decoded as `net`).
 *
 * Every table carries the file's header as JSON in its metadata (`teehistorian.header`).
 */
export function teehistorianTables(bytes: Uint8Array, options: TeehistorianExportOptions = {}): ExportTable[] {
  const wanted = new Set(options.tables ?? TEEHISTORIAN_TABLES);
  for (const name of wanted) {
    if (!(TEEHISTORIAN_TABLES as readonly string[]).includes(name)) throw new RangeError(`a teehistorian file has no table ${name} (its tables: ${TEEHISTORIAN_TABLES.join(', ')})`);
  }
  const onTruncated = options.onTruncated ?? 'stop';
  // A first scan counts the rows, so that every column is allocated once at its size (the scan costs less
  // than growing columns of millions of rows).
  let positionRows = 0;
  let inputRows = 0;
  const count = wanted.has('positions') || wanted.has('inputs');
  for (const counter = scanTeehistorian(bytes, { onTruncated }); count && counter.next(); ) {
    const id = counter.ints[0];
    if (id === PLAYER_DIFF || id === PLAYER_NEW) positionRows++;
    else if (id === INPUT_DIFF || id === INPUT_NEW) inputRows++;
  }
  const s = scanTeehistorian(bytes, { onTruncated });
  const positions = new IntRows('positions', ['tick', 'cid', 'x', 'y'], wanted.has('positions') ? positionRows : 0);
  const inputs = new IntRows('inputs', ['tick', 'cid', ...INPUT_FIELDS], wanted.has('inputs') ? inputRows : 0);
  const events = new TableBuilder('events', [
    { name: 'tick', type: 'int32' },
    { name: 'cid', type: 'int32' },
    { name: 'kind', type: 'string', description: 'JOIN, DROP, PLAYER_NEW, ..., EX:<name> (EX:<uuid> for an unknown extension)' },
    { name: 'data', type: 'string', description: 'the other fields as JSON' },
  ]);
  const wantPositions = wanted.has('positions');
  const wantInputs = wanted.has('inputs');
  const wantEvents = wanted.has('events');
  const [eTick, eCid, eKind, eData] = events.columns;
  // Last known state by client id: positions as [x, y], inputs as the 10 ints.
  const position = new PerClient();
  const input = new PerClient();
  const ints = s.ints;
  while (s.next()) {
    const id = ints[0]!;
    const tick = s.tick;
    switch (id) {
      case PLAYER_NEW:
      case PLAYER_DIFF: {
        const cid = ints[1]!;
        let p = position.get(cid);
        if (id === PLAYER_NEW) {
          if (!p) position.set(cid, (p = new Int32Array(2)));
          p[0] = ints[2]!;
          p[1] = ints[3]!;
        } else {
          // A diff without a PLAYER_NEW before it (DDNet never writes one) has nothing to add to: left out.
          if (!p) break;
          p[0] = (p[0]! + ints[2]!) | 0;
          p[1] = (p[1]! + ints[3]!) | 0;
        }
        if (wantPositions) {
          const i = positions.add();
          const c = positions.columns;
          c[0]![i] = tick;
          c[1]![i] = cid;
          c[2]![i] = p[0]!;
          c[3]![i] = p[1]!;
        }
        if (id === PLAYER_NEW && wantEvents) addEvent(tick, cid, 'PLAYER_NEW', `{"x":${p[0]},"y":${p[1]}}`);
        break;
      }
      case INPUT_NEW:
      case INPUT_DIFF: {
        const cid = ints[1]!;
        let state = input.get(cid);
        if (id === INPUT_NEW) {
          if (!state) input.set(cid, (state = new Int32Array(INPUT_FIELDS.length)));
          for (let k = 0; k < state.length; k++) state[k] = ints[2 + k]!;
        } else {
          if (!state) break;
          for (let k = 0; k < state.length; k++) state[k] = (state[k]! + ints[2 + k]!) | 0;
        }
        if (wantInputs) {
          const i = inputs.add();
          const c = inputs.columns;
          c[0]![i] = tick;
          c[1]![i] = cid;
          for (let k = 0; k < state.length; k++) c[2 + k]![i] = state[k]!;
        }
        break;
      }
      case PLAYER_OLD:
        position.delete(ints[1]!);
        if (wantEvents) addEvent(tick, ints[1]!, 'PLAYER_OLD', '{}');
        break;
      case TICK_SKIP:
      case FINISH:
        break;
      default: {
        if (!wantEvents) break;
        const m = s.message();
        const { kind: _kind, tick: _tick, offset: _offset, ...fields } = m as unknown as Record<string, unknown>;
        const cid = typeof fields.cid === 'number' ? fields.cid : undefined;
        delete fields.cid;
        if (m.kind === 'MESSAGE') fields.net = decodeClientMessage(m);
        addEvent(tick, cid, statsKey(m), toJson(fields));
      }
    }
  }
  function addEvent(tick: number, cid: number | undefined, kind: string, data: string) {
    eTick!.push(tick);
    eCid!.push(cid);
    eKind!.push(kind);
    eData!.push(data);
    events.rows++;
  }
  const metadata = { 'teehistorian.header': JSON.stringify(s.header), 'teehistorian.end': JSON.stringify(s.end) };
  const descriptions = { cid: 'client id', x: 'world units (32 per tile)' };
  return [positions.finish(metadata, descriptions), inputs.finish(metadata, descriptions), events.finish(metadata)].filter((t) => wanted.has(t.name));
}
