// The allocation-free scan of a teehistorian file (in memory or from a stream): message ids and int fields in
// one reused Int32Array; and the whole file as typed arrays per message kind, made with it.
import { asUint8Array, BinaryError, ByteReader } from '@twcodec/runtime';
import { MESSAGE_IDS, MESSAGE_INT_FIELDS, MESSAGE_KINDS, SCAN_INTS, scanMessage } from './generated/messages.gen.js';
import { asTeehistorianError, parseHeader, TeehistorianError, type TeehistorianHeader } from './header.js';
import { readMessage, type ReaderOptions, type TeehistorianEnd, type TickedMessage, TickTracker } from './messages.js';
import { type ByteSource, chunksOf, HeaderAccumulator, PendingBytes } from './stream.js';

const { FINISH } = MESSAGE_IDS;
const NO_BYTES = new Uint8Array(0);

/**
 * The fast path through a teehistorian file in memory: `next()` steps to the next message without
 * allocating anything, leaving its id in `ints[0]` (a MESSAGE_IDS value; MESSAGE_KINDS names it) and its int
 * fields in `ints[1]`, `ints[2]`, ... in the order MESSAGE_INT_FIELDS lists them (PLAYER_DIFF: cid, dx, dy;
 * INPUT_DIFF: cid, then the 10 input ints; ...). Strings, payloads and extension messages are not decoded
 * unless asked for with `message()`. Ticks, errors and the end of file follow the object iterator exactly.
 *
 * ```ts
 * import { MESSAGE_IDS, scanTeehistorian } from '@twcodec/teehistorian';
 *
 * const moved = new Float64Array(128); // per client id (DDNet's MAX_CLIENTS)
 * const s = scanTeehistorian(bytes);
 * while (s.next()) if (s.ints[0] === MESSAGE_IDS.PLAYER_DIFF) moved[s.ints[1]!]! += Math.abs(s.ints[2]!);
 * ```
 */
export class TeehistorianScanner {
  readonly header: TeehistorianHeader;
  readonly headerText: string;
  /** `ints[0]`: the message id; then its int fields. Overwritten by every `next()`. */
  readonly ints = new Int32Array(SCAN_INTS);
  /** The tick the current message belongs to. */
  tick = 0;
  /** The byte offset of the current message in the file. */
  offset = 0;
  /** Messages read so far. */
  count = 0;
  /** Filled when `next()` has returned false. */
  end: TeehistorianEnd | undefined;
  // Both start with a value of their final type: a field declared without one is first set to undefined
  // (class fields, ES2022), and V8 then keeps `pos` as any value, checking it is an int on every read and
  // guarding every write for the garbage collector (issue 41: 3% of the scan's instructions, callgrind).
  private readonly bytes: Uint8Array = NO_BYTES;
  private pos = 0;
  private readonly ticks = new TickTracker();
  private finished = false;

  constructor(
    bytes: Uint8Array,
    private readonly options: ReaderOptions = {},
  ) {
    this.bytes = asUint8Array(bytes);
    const parsed = parseHeader(this.bytes, true)!;
    this.header = parsed.header;
    this.headerText = parsed.headerText;
    this.pos = parsed.size;
  }

  /** The current message's kind name, as in the object iterator (`EX` for any extension message). */
  get kind(): (typeof MESSAGE_KINDS)[number] {
    return MESSAGE_KINDS[this.ints[0]!]!;
  }

  /** Steps to the next message; false at the end of the file (then `end` says how it ended). */
  next(): boolean {
    const bytes = this.bytes;
    const pos = this.pos;
    if (pos >= bytes.length) {
      if (!this.end) this.end = { finished: this.finished, truncated: false, offset: bytes.length };
      return false;
    }
    if (this.finished) throw new TeehistorianError('TRAILING_DATA', `${bytes.length - pos} bytes after FINISH`, pos, `messages[${this.count}]`);
    const ints = this.ints;
    const after = scanMessage(bytes, pos, bytes.length, ints);
    if (after < 0) return this.refused(pos);
    this.pos = after;
    this.offset = pos;
    this.count++;
    // The id read once into a local: V8 reloads a typed array element after any store in between.
    const id = ints[0]!;
    this.tick = this.ticks.advance(id, ints[1]!);
    if (id === FINISH) this.finished = true;
    return true;
  }

  /** The current message decoded in full (allocates; extension messages resolved as the object iterator does). */
  message(): TickedMessage {
    const m = readMessage(new ByteReader(this.bytes, this.offset)) as TickedMessage;
    m.tick = this.tick;
    m.offset = this.offset;
    return m;
  }

  /** scanMessage gave up at `pos`: decode the message the slow way for the exact error (or the truncated end). */
  private refused(pos: number): boolean {
    try {
      readMessage(new ByteReader(this.bytes, pos));
    } catch (e) {
      if (e instanceof BinaryError && e.code === 'TRUNCATED') {
        this.end = { finished: this.finished, truncated: true, offset: pos };
        this.pos = this.bytes.length;
        if ((this.options.onTruncated ?? 'throw') === 'throw') {
          throw new TeehistorianError('TRUNCATED', 'the file ends inside a message', pos, `messages[${this.count}]`);
        }
        return false;
      }
      if (e instanceof BinaryError) throw asTeehistorianError(e, `messages[${this.count}]`);
      throw e;
    }
    throw new Error(`internal: scanMessage refused the message at ${pos} that decodeMessage reads`);
  }
}

/** Opens a teehistorian file held in memory for the allocation-free scan. */
export function scanTeehistorian(bytes: Uint8Array, options: ReaderOptions = {}): TeehistorianScanner {
  return new TeehistorianScanner(bytes, options);
}

/**
 * The fast path over a stream of chunks (a file read from disk, a network stream): `visit` is called for
 * every message with the scanner's state (`ints`, `tick`, `offset`, `count`, `kind`; `message()` decodes the
 * current one in full), as TeehistorianScanner gives it for the file in memory. Nothing is allocated per
 * message, and only the bytes of one unfinished message are kept between chunks, so memory does not grow
 * with the file. Resolves to the scanner's final state (`header`, `end`, `count`).
 *
 * ```ts
 * import { createReadStream } from 'node:fs';
 * import { MESSAGE_IDS, scanTeehistorianStream } from '@twcodec/teehistorian';
 *
 * const moved = new Float64Array(128); // per client id (DDNet's MAX_CLIENTS)
 * await scanTeehistorianStream(createReadStream(path), (s) => {
 *   if (s.ints[0] === MESSAGE_IDS.PLAYER_DIFF) moved[s.ints[1]!]! += Math.abs(s.ints[2]!);
 * });
 * ```
 */
export async function scanTeehistorianStream(
  source: ByteSource,
  visit: (scanner: TeehistorianStreamScanner) => void,
  options: ReaderOptions = {},
): Promise<TeehistorianStreamScanner> {
  const scanner = new TeehistorianStreamScanner(options);
  await scanner.run(source, visit);
  return scanner;
}

/** The state scanTeehistorianStream hands to its visitor; see TeehistorianScanner for the fields. */
export class TeehistorianStreamScanner {
  header: TeehistorianHeader | undefined;
  headerText: string | undefined;
  readonly ints = new Int32Array(SCAN_INTS);
  tick = 0;
  offset = 0;
  count = 0;
  end: TeehistorianEnd | undefined;
  private readonly ticks = new TickTracker();
  private finished = false;
  /** The bytes being scanned and the file offset of their first byte (valid during a visit). */
  private bytes: Uint8Array = new Uint8Array(0);
  private base = 0;

  constructor(private readonly options: ReaderOptions = {}) {}

  get kind(): (typeof MESSAGE_KINDS)[number] {
    return MESSAGE_KINDS[this.ints[0]!]!;
  }

  /** The current message decoded in full (only during a visit: the chunk holding it is gone afterwards). */
  message(): TickedMessage {
    const m = readMessage(new ByteReader(this.bytes, this.offset - this.base, this.bytes.length, this.base)) as TickedMessage;
    m.tick = this.tick;
    m.offset = this.offset;
    return m;
  }

  /** Scans whole messages of `bytes` (at file offset `base`); returns how many bytes they took. */
  private scan(bytes: Uint8Array, base: number, visit: (scanner: TeehistorianStreamScanner) => void, last: boolean): number {
    this.bytes = bytes;
    this.base = base;
    const ints = this.ints;
    const end = bytes.length;
    let pos = 0;
    while (pos < end) {
      if (this.finished) throw new TeehistorianError('TRAILING_DATA', `${end - pos}${last ? '' : ' or more'} bytes after FINISH`, base + pos, `messages[${this.count}]`);
      const after = scanMessage(bytes, pos, end, ints);
      if (after < 0) {
        // Refused: the message is unfinished (wait for more bytes) or bad (decode it for the exact error).
        try {
          readMessage(new ByteReader(bytes, pos, end, base));
        } catch (e) {
          if (e instanceof BinaryError && e.code === 'TRUNCATED') return pos;
          if (e instanceof BinaryError) throw asTeehistorianError(e, `messages[${this.count}]`);
          throw e;
        }
        throw new Error(`internal: scanMessage refused the message at ${base + pos} that decodeMessage reads`);
      }
      this.offset = base + pos;
      this.count++;
      const id = ints[0]!;
      this.tick = this.ticks.advance(id, ints[1]!);
      if (id === FINISH) this.finished = true;
      pos = after;
      visit(this);
    }
    return pos;
  }

  /** @internal */
  async run(source: ByteSource, visit: (scanner: TeehistorianStreamScanner) => void): Promise<void> {
    const maxPending = this.options.maxMessageSize ?? 16 * 1024 * 1024;
    const pending = new PendingBytes();
    let inHeader = true;
    const header = new HeaderAccumulator(maxPending);
    let retryAt = 0;
    for await (const chunk of chunksOf(source)) {
      if (inHeader) {
        const parsed = header.feed(pending, chunk);
        if (!parsed) continue;
        this.header = parsed.header;
        this.headerText = parsed.headerText;
        inHeader = false;
        pending.consume(parsed.size);
      } else if (pending.length === 0) {
        const used = this.scan(chunk, pending.base, visit, false);
        pending.base += used;
        if (used < chunk.length) {
          pending.append(chunk.subarray(used));
          retryAt = 2 * pending.length;
        }
        continue;
      } else {
        pending.append(chunk);
        if (pending.length < retryAt) continue;
      }
      if (pending.length > maxPending) {
        throw new TeehistorianError('MESSAGE_TOO_LARGE', `a message is longer than ${maxPending} bytes`, pending.base, `messages[${this.count}]`);
      }
      pending.consume(this.scan(pending.view(), pending.base, visit, false));
      retryAt = 2 * pending.length;
    }
    if (inHeader) parseHeader(pending.view(), true);
    if (pending.length) pending.consume(this.scan(pending.view(), pending.base, visit, true));
    this.bytes = new Uint8Array(0);
    const incomplete = pending.length ? pending.base : undefined;
    this.end = { finished: this.finished, truncated: incomplete !== undefined, offset: incomplete ?? pending.base };
    if (incomplete !== undefined && (this.options.onTruncated ?? 'throw') === 'throw') {
      throw new TeehistorianError('TRUNCATED', 'the file ends inside a message', incomplete, `messages[${this.count}]`);
    }
  }
}

/** One message kind's messages, column by column. */
export interface MessageColumns {
  count: number;
  tick: Int32Array;
  /** Byte offset of each message in the file: `readMessage(new ByteReader(bytes, offset))` decodes one in full. */
  offset: Float64Array;
  /** Each int field (names as in MESSAGE_INT_FIELDS, e.g. `cid`, `dx`, `input[3]`). */
  ints: Record<string, Int32Array>;
}

export interface TeehistorianColumns {
  header: TeehistorianHeader;
  headerText: string;
  end: TeehistorianEnd;
  /** By kind name; kinds that do not occur are absent. */
  kinds: Partial<Record<(typeof MESSAGE_KINDS)[number] & string, MessageColumns>>;
}

/**
 * Decodes a whole file into typed arrays per message kind (tick, offset and every int field), for analysis:
 * e.g. `kinds.PLAYER_DIFF.ints.dx`. Strings and payloads are not decoded; `offset` finds them.
 */
export function teehistorianColumns(bytes: Uint8Array, options: ReaderOptions = {}): TeehistorianColumns {
  // Two passes, so that every column is allocated once at its final size: counting is a scan with no stores.
  const kindCount = MESSAGE_KINDS.length;
  const counts = new Float64Array(kindCount);
  const counter = new TeehistorianScanner(bytes, options);
  while (counter.next()) counts[counter.ints[0]!]! += 1;
  const ticks: Int32Array[] = [];
  const offsets: Float64Array[] = [];
  const fields: Int32Array[][] = [];
  for (let id = 0; id < kindCount; id++) {
    const kind = MESSAGE_KINDS[id];
    const n = counts[id]!;
    ticks.push(new Int32Array(n));
    offsets.push(new Float64Array(n));
    fields.push(kind ? MESSAGE_INT_FIELDS[kind].map(() => new Int32Array(n)) : []);
  }
  const filled = new Float64Array(kindCount);
  const s = new TeehistorianScanner(bytes, options);
  const ints = s.ints;
  while (s.next()) {
    const id = ints[0]!;
    const i = filled[id]!;
    filled[id] = i + 1;
    ticks[id]![i] = s.tick;
    offsets[id]![i] = s.offset;
    const columns = fields[id]!;
    for (let k = 0; k < columns.length; k++) columns[k]![i] = ints[k + 1]!;
  }
  const kinds: TeehistorianColumns['kinds'] = {};
  for (let id = 0; id < kindCount; id++) {
    const kind = MESSAGE_KINDS[id];
    if (!kind || !counts[id]) continue;
    const names = MESSAGE_INT_FIELDS[kind];
    kinds[kind] = { count: counts[id]!, tick: ticks[id]!, offset: offsets[id]!, ints: Object.fromEntries(names.map((name, k) => [name, fields[id]![k]!])) };
  }
  return { header: s.header, headerText: s.headerText, end: s.end!, kinds };
}
