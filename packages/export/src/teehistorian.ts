import { DDNET_0_6, layoutNamed } from '@twcodec/snapshot';
import { type ByteSource, decodeClientMessage, MESSAGE_IDS, MESSAGE_INT_FIELDS, type ReaderOptions, scanTeehistorian, scanTeehistorianStream, statsKey, type TeehistorianEnd, type TeehistorianHeader, type TickedMessage } from '@twcodec/teehistorian';
import { type ExportTable, IntRows, rowGroupRowsOf, TableBuilder } from './table.js';

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

/** What the builder needs of a scanner: TeehistorianScanner (a file in memory) and TeehistorianStreamScanner give it. */
interface ScannedMessage {
  readonly ints: Int32Array;
  readonly tick: number;
  message(): TickedMessage;
}

/**
 * The rows of the three tables, built message by message from a scanner's state; shared by the file in memory
 * (teehistorianTables) and the stream (streamTeehistorianTables), which takes the rows out in row groups.
 */
class TeehistorianRows {
  readonly positions: IntRows;
  readonly inputs: IntRows;
  events: TableBuilder;
  private readonly wantPositions: boolean;
  private readonly wantInputs: boolean;
  private readonly wantEvents: boolean;
  // Last known state by client id: positions as [x, y], inputs as the 10 ints.
  private readonly position = new PerClient();
  private readonly input = new PerClient();

  constructor(
    readonly wanted: ReadonlySet<string>,
    capacity: { positions: number; inputs: number },
  ) {
    this.wantPositions = wanted.has('positions');
    this.wantInputs = wanted.has('inputs');
    this.wantEvents = wanted.has('events');
    this.positions = new IntRows('positions', ['tick', 'cid', 'x', 'y'], this.wantPositions ? capacity.positions : 0);
    this.inputs = new IntRows('inputs', ['tick', 'cid', ...INPUT_FIELDS], this.wantInputs ? capacity.inputs : 0);
    this.events = newEvents();
  }

  /** The scanner's current message into the rows. */
  add(s: ScannedMessage): void {
    const ints = s.ints;
    const id = ints[0]!;
    const tick = s.tick;
    switch (id) {
      case PLAYER_NEW:
      case PLAYER_DIFF: {
        const cid = ints[1]!;
        let p = this.position.get(cid);
        if (id === PLAYER_NEW) {
          if (!p) this.position.set(cid, (p = new Int32Array(2)));
          p[0] = ints[2]!;
          p[1] = ints[3]!;
        } else {
          // A diff without a PLAYER_NEW before it (DDNet never writes one) has nothing to add to: left out.
          if (!p) break;
          p[0] = (p[0]! + ints[2]!) | 0;
          p[1] = (p[1]! + ints[3]!) | 0;
        }
        if (this.wantPositions) {
          const positions = this.positions;
          const i = positions.add();
          const c = positions.columns;
          c[0]![i] = tick;
          c[1]![i] = cid;
          c[2]![i] = p[0]!;
          c[3]![i] = p[1]!;
        }
        if (id === PLAYER_NEW && this.wantEvents) this.addEvent(tick, cid, 'PLAYER_NEW', `{"x":${p[0]},"y":${p[1]}}`);
        break;
      }
      case INPUT_NEW:
      case INPUT_DIFF: {
        const cid = ints[1]!;
        let state = this.input.get(cid);
        if (id === INPUT_NEW) {
          if (!state) this.input.set(cid, (state = new Int32Array(INPUT_FIELDS.length)));
          for (let k = 0; k < state.length; k++) state[k] = ints[2 + k]!;
        } else {
          if (!state) break;
          for (let k = 0; k < state.length; k++) state[k] = (state[k]! + ints[2 + k]!) | 0;
        }
        if (this.wantInputs) {
          const inputs = this.inputs;
          const i = inputs.add();
          const c = inputs.columns;
          c[0]![i] = tick;
          c[1]![i] = cid;
          for (let k = 0; k < state.length; k++) c[2 + k]![i] = state[k]!;
        }
        break;
      }
      case PLAYER_OLD:
        this.position.delete(ints[1]!);
        if (this.wantEvents) this.addEvent(tick, ints[1]!, 'PLAYER_OLD', '{}');
        break;
      case TICK_SKIP:
      case FINISH:
        break;
      default: {
        if (!this.wantEvents) break;
        const m = s.message();
        const { kind: _kind, tick: _tick, offset: _offset, ...fields } = m as unknown as Record<string, unknown>;
        const cid = typeof fields.cid === 'number' ? fields.cid : undefined;
        delete fields.cid;
        if (m.kind === 'MESSAGE') fields.net = decodeClientMessage(m);
        this.addEvent(tick, cid, statsKey(m), toJson(fields));
      }
    }
  }

  private addEvent(tick: number, cid: number | undefined, kind: string, data: string): void {
    const [eTick, eCid, eKind, eData] = this.events.columns;
    eTick!.push(tick);
    eCid!.push(cid);
    eKind!.push(kind);
    eData!.push(data);
    this.events.rows++;
  }

  /** The rows so far of the wanted tables, in TEEHISTORIAN_TABLES' order. */
  tables(metadata: Record<string, string>): ExportTable[] {
    return [this.positions.finish(metadata, DESCRIPTIONS), this.inputs.finish(metadata, DESCRIPTIONS), this.events.finish(metadata)].filter((t) => this.wanted.has(t.name));
  }

  /**
   * Hands each wanted table that holds `rows` rows or more to `emit` and starts it over (the positions' and
   * inputs' arrays are reused: `emit` must be done with them when it returns).
   */
  takeFull(rows: { positions: number; inputs: number; events: number }, metadata: Record<string, string>, emit: (table: ExportTable) => void): void {
    if (this.wantPositions && this.positions.rows >= rows.positions) (emit(this.positions.finish(metadata, DESCRIPTIONS)), this.positions.clear());
    if (this.wantInputs && this.inputs.rows >= rows.inputs) (emit(this.inputs.finish(metadata, DESCRIPTIONS)), this.inputs.clear());
    if (this.wantEvents && this.events.rows >= rows.events) (emit(this.events.finish(metadata)), (this.events = newEvents()));
  }
}

const DESCRIPTIONS = { cid: 'client id', x: 'world units (32 per tile)' };

function newEvents(): TableBuilder {
  return new TableBuilder('events', [
    { name: 'tick', type: 'int32' },
    // Nullable whatever the rows hold: a table's schema must not depend on its data (a streamed export fixes it
    // with its first row group, before a later message without a client id, such as EX:antibot, comes).
    { name: 'cid', type: 'int32', nullable: true },
    { name: 'kind', type: 'string', description: 'JOIN, DROP, PLAYER_NEW, ..., EX:<name> (EX:<uuid> for an unknown extension)' },
    { name: 'data', type: 'string', description: 'the other fields as JSON' },
  ]);
}

function wantedTables(options: TeehistorianExportOptions): Set<string> {
  const wanted = new Set(options.tables ?? TEEHISTORIAN_TABLES);
  for (const name of wanted) {
    if (!(TEEHISTORIAN_TABLES as readonly string[]).includes(name)) throw new RangeError(`a teehistorian file has no table ${name} (its tables: ${TEEHISTORIAN_TABLES.join(', ')})`);
  }
  return wanted;
}

const metadataOf = (header: unknown, end: unknown) => ({ 'teehistorian.header': JSON.stringify(header), 'teehistorian.end': JSON.stringify(end) });

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
 * Every table carries the file's header as JSON in its metadata (`teehistorian.header`). The tables hold
 * about 5 bytes per byte of the file; streamTeehistorianTables gives them in row groups from a stream instead.
 */
export function teehistorianTables(bytes: Uint8Array, options: TeehistorianExportOptions = {}): ExportTable[] {
  const wanted = wantedTables(options);
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
  const rows = new TeehistorianRows(wanted, { positions: positionRows, inputs: inputRows });
  while (s.next()) rows.add(s);
  return rows.tables(metadataOf(s.header, s.end));
}

export interface TeehistorianStreamExportOptions extends TeehistorianExportOptions {
  /** Rows per batch handed on (default: each table's rows per row group, rowGroupRowsOf, as toParquet writes them). */
  rowGroupRows?: number;
}

/**
 * The tables of a teehistorian file read from a stream (a file on disk of any size, a network stream), in
 * batches: `onTable` gets each table's next `rowGroupRows` rows as soon as it has them, and each table's last
 * rows (maybe none) with `last` set and the final metadata (where reading ended). Memory stays at one batch
 * per table whatever the file's size. The batches' arrays are reused once `onTable` returns: encode or copy
 * them there (ParquetTableWriter.write does). The rows are those of teehistorianTables on the same file.
 */
export async function streamTeehistorianTables(
  source: ByteSource,
  onTable: (table: ExportTable, last: boolean) => void,
  options: TeehistorianStreamExportOptions = {},
): Promise<{ header: TeehistorianHeader | undefined; end: TeehistorianEnd | undefined }> {
  const wanted = wantedTables(options);
  // Columns grow (doubling) up to a batch: a small file allocates little.
  const rows = new TeehistorianRows(wanted, { positions: 4096, inputs: 4096 });
  const batch = {
    positions: options.rowGroupRows ?? rowGroupRowsOf(rows.positions.finish({}).columns),
    inputs: options.rowGroupRows ?? rowGroupRowsOf(rows.inputs.finish({}).columns),
    events: options.rowGroupRows ?? rowGroupRowsOf(rows.events.finish({}).columns),
  };
  let partial: Record<string, string> | undefined;
  const scanner = await scanTeehistorianStream(
    source,
    (s) => {
      rows.add(s);
      if (rows.positions.rows >= batch.positions || rows.inputs.rows >= batch.inputs || rows.events.rows >= batch.events) rows.takeFull(batch, (partial ??= metadataOf(s.header, undefined)), (t) => onTable(t, false));
    },
    { onTruncated: options.onTruncated ?? 'stop' },
  );
  for (const table of rows.tables(metadataOf(scanner.header, scanner.end))) onTable(table, true);
  return { header: scanner.header, end: scanner.end };
}
