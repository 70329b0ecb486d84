import { asUint8Array, BinaryError, ByteReader, ByteWriter, CodecError, decodeUtf8Escaped, type Uuid, uuidFromBytes, uuidFromName } from '@twcodec/runtime';
import type { TeehistorianErrorCode } from './error-codes.js';
import { type CoreMessage, decodeExtension, decodeMessage, encodeExtension, type KnownExMessage, MESSAGE_IDS, MESSAGE_INT_FIELDS, MESSAGE_KINDS, SCAN_INTS, scanMessage, decodeIntMessage } from './generated/messages.gen.js';

const { PLAYER_DIFF, PLAYER_NEW, PLAYER_OLD, TICK_SKIP, FINISH } = MESSAGE_IDS;

/** Errors of teehistorian reading and writing. */
export class TeehistorianError extends CodecError<TeehistorianErrorCode> {}

/** The UUID every teehistorian file starts with. */
export const TEEHISTORIAN_UUID: Uuid = uuidFromName('teehistorian@ddnet.tw');

/** The JSON header. Values are strings except `config`/`tuning` (objects) and `uuids`; unknown keys are kept. */
export interface TeehistorianHeader {
  version?: string;
  version_minor?: string;
  game_uuid?: string;
  server_version?: string;
  start_time?: string;
  map_name?: string;
  map_sha256?: string;
  map_crc?: string;
  prng_description?: string;
  config?: Record<string, string>;
  tuning?: Record<string, string>;
  uuids?: string[];
  [key: string]: unknown;
}

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

/**
 * How deep a header's JSON may nest. DDNet writes depth 2 (`config` and `tuning` are objects); a limit keeps
 * every later step (comparing, printing) away from recursion as deep as a hostile file could make it.
 */
export const MAX_HEADER_DEPTH = 64;

/** The deepest nesting of arrays and objects in JSON text (a linear scan that skips strings). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) max = Math.max(max, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/**
 * Reads the header: UUID, then NUL-terminated JSON. Returns undefined when `bytes` may not hold it all yet;
 * `searchFrom` lets a stream reader look for the NUL only in bytes it has not searched before.
 */
export function parseHeader(
  bytes: Uint8Array,
  complete: boolean,
  searchFrom = 16,
): { header: TeehistorianHeader; headerText: string; size: number } | undefined {
  if (bytes.length < 16) {
    if (!complete) return undefined;
    throw new TeehistorianError('TRUNCATED', `file has ${bytes.length} bytes, the UUID needs 16`, bytes.length, 'header.uuid');
  }
  const uuid = uuidFromBytes(bytes);
  if (uuid !== TEEHISTORIAN_UUID) throw new TeehistorianError('BAD_MAGIC', `starts with ${uuid}, not the teehistorian UUID`, 0, 'header.uuid');
  const nul = bytes.indexOf(0, Math.max(16, searchFrom));
  if (nul < 0) {
    if (!complete) return undefined;
    throw new TeehistorianError('TRUNCATED', 'the header JSON has no NUL terminator', bytes.length, 'header.json');
  }
  const headerText = decodeUtf8Escaped(bytes.subarray(16, nul));
  const depth = jsonDepth(headerText);
  if (depth > MAX_HEADER_DEPTH) {
    throw new TeehistorianError('BAD_HEADER', `header JSON nests ${depth} deep, more than ${MAX_HEADER_DEPTH}`, 16, 'header.json');
  }
  let header: unknown;
  try {
    header = JSON.parse(headerText);
  } catch (e) {
    throw new TeehistorianError('BAD_HEADER', `header is not JSON: ${(e as Error).message}`, 16, 'header.json');
  }
  if (!header || typeof header !== 'object' || Array.isArray(header)) throw new TeehistorianError('BAD_HEADER', 'header is not a JSON object', 16, 'header.json');
  return { header: header as TeehistorianHeader, headerText, size: nul + 1 };
}

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
    const w = new ByteWriter(data.length + 8);
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

function asTeehistorianError(e: BinaryError, path: string): TeehistorianError {
  return new TeehistorianError(e.code, e.detail, e.offset, path + (e.path ? `.${e.path}` : ''), { cause: e });
}

const INCOMPLETE = Symbol('incomplete');

/** Shared state of the sync and async readers: ticks, players, counting, end of file. */
class MessageStream {
  readonly ticks = new TickTracker();
  readonly players: PlayerTracker | undefined;
  count = 0;
  finished = false;
  end: TeehistorianEnd | undefined;

  constructor(readonly options: ReaderOptions) {
    this.players = options.trackPlayers ? new PlayerTracker() : undefined;
  }

  /**
   * Reads the next message of `r`. Returns undefined at the end of `r`'s bytes, or INCOMPLETE (with `r.pos`
   * left at the message's start) when the bytes end inside a message.
   */
  next(r: ByteReader): TickedMessage | typeof INCOMPLETE | undefined {
    if (this.finished) return this.nextSlowly(r);
    // Fast path, kept apart from the rest so that it stays small (about 5% faster object iterator than one
    // method holding every path, measured A/B): messages of ints only, read straight from the bytes into
    // their object (decodeIntMessage leaves r and the ticks alone when it declines a message).
    const built = decodeIntMessage(r, this.ticks) as TickedMessage | undefined;
    if (built === undefined) return this.nextSlowly(r);
    this.players?.apply(built);
    this.count++;
    if (built.kind === 'FINISH') this.finished = true;
    return built;
  }

  /** Everything but the fast path: the end of the bytes, data after FINISH, messages with strings or payloads, and what the fast path refused. */
  private nextSlowly(r: ByteReader): TickedMessage | typeof INCOMPLETE | undefined {
    if (r.remaining <= 0) return undefined;
    const start = r.pos;
    const offset = r.offset;
    if (this.finished) throw new TeehistorianError('TRAILING_DATA', `${r.remaining} bytes after FINISH`, offset, `messages[${this.count}]`);
    let m: TeehistorianMessage;
    try {
      m = readMessage(r);
    } catch (e) {
      if (e instanceof BinaryError && e.code === 'TRUNCATED') {
        r.pos = start;
        return INCOMPLETE;
      }
      if (e instanceof BinaryError) throw asTeehistorianError(e, `messages[${this.count}]`);
      throw e;
    }
    const tickedMessage = m as TickedMessage;
    tickedMessage.tick = this.ticks.apply(m);
    tickedMessage.offset = offset;
    this.players?.apply(m);
    this.count++;
    if (m.kind === 'FINISH') this.finished = true;
    return tickedMessage;
  }

  close(offset: number, incompleteAt: number | undefined): void {
    this.end = { finished: this.finished, truncated: incompleteAt !== undefined, offset: incompleteAt ?? offset };
    if (incompleteAt !== undefined && (this.options.onTruncated ?? 'throw') === 'throw') {
      throw new TeehistorianError('TRUNCATED', 'the file ends inside a message', incompleteAt, `messages[${this.count}]`);
    }
  }
}

/** A teehistorian file in memory: the header, then its messages by iteration. */
export class TeehistorianReader implements Iterable<TickedMessage> {
  readonly header: TeehistorianHeader;
  /** The header JSON exactly as stored. */
  readonly headerText: string;
  /** Filled when the messages have been read to the end. */
  end: TeehistorianEnd | undefined;
  /** Player positions and inputs, with `trackPlayers`. */
  readonly players: PlayerTracker | undefined;
  private readonly stream: MessageStream;
  private readonly headerSize: number;

  private readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array, options: ReaderOptions = {}) {
    this.bytes = asUint8Array(bytes);
    const parsed = parseHeader(this.bytes, true)!;
    this.header = parsed.header;
    this.headerText = parsed.headerText;
    this.headerSize = parsed.size;
    this.stream = new MessageStream(options);
    this.players = this.stream.players;
  }

  /** The messages; a hand-written iterator, as generator machinery costs as much as decoding here. */
  [Symbol.iterator](): Iterator<TickedMessage> {
    const r = new ByteReader(this.bytes, this.headerSize);
    const stream = this.stream;
    let done = false;
    return {
      next: (): IteratorResult<TickedMessage> => {
        // One result object made at one place: when a for-of loop inlines next, V8 then does not allocate it
        // at all, which it cannot when results of several return statements merge (measured: a third of
        // the bytes allocated per message).
        let m = done ? undefined : stream.next(r);
        if (m === undefined || m === INCOMPLETE) {
          if (!done) {
            done = true;
            const incomplete = m === INCOMPLETE ? r.pos : undefined;
            this.end = { finished: stream.finished, truncated: incomplete !== undefined, offset: incomplete ?? this.bytes.length };
            stream.close(this.bytes.length, incomplete);
          }
          m = undefined;
        }
        return { done: m === undefined, value: m } as IteratorResult<TickedMessage>;
      },
    };
  }
}

/** Opens a teehistorian file held in memory. */
export function readTeehistorian(bytes: Uint8Array, options: ReaderOptions = {}): TeehistorianReader {
  return new TeehistorianReader(bytes, options);
}

export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

async function* chunksOf(source: ByteSource): AsyncGenerator<Uint8Array> {
  if (typeof (source as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (source as ReadableStream<Uint8Array>).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (value?.length) yield asUint8Array(value);
      }
    } finally {
      reader.releaseLock();
    }
  } else {
    for await (const chunk of source as AsyncIterable<Uint8Array>) if (chunk.length) yield asUint8Array(chunk);
  }
}

/**
 * A teehistorian file read from a stream of chunks, split anywhere. Only the bytes of one unfinished message
 * are kept between chunks, so memory does not grow with the file.
 */
export class TeehistorianStreamReader implements AsyncIterable<TickedMessage> {
  header: TeehistorianHeader | undefined;
  headerText: string | undefined;
  end: TeehistorianEnd | undefined;
  readonly players: PlayerTracker | undefined;
  private readonly stream: MessageStream;

  constructor(
    private readonly source: ByteSource,
    options: ReaderOptions = {},
  ) {
    this.stream = new MessageStream(options);
    this.players = this.stream.players;
  }

  /**
   * Linear in the file for any chunking: bytes are copied into the pending buffer once (it grows by
   * doubling), the header's NUL is searched for only in new bytes, and after a message was found unfinished
   * it is decoded again only once the pending bytes have doubled (or the stream has ended).
   *
   * A hand-written iterator rather than an async generator: messages already in a chunk are handed out
   * without the generator's queueing, which cost more than decoding them (a 200 MB file from disk: 16 s
   * against 39 s); only a call that needs another chunk waits for the source.
   */
  [Symbol.asyncIterator](): AsyncIterator<TickedMessage> {
    const maxPending = this.stream.options.maxMessageSize ?? 16 * 1024 * 1024;
    const chunks = chunksOf(this.source);
    const pending = new PendingBytes();
    let inHeader = true;
    const header = new HeaderAccumulator(maxPending);
    let retryAt = 0; // pending size at which an unfinished message is worth decoding again
    // The bytes being decoded: a chunk where it is (`chunk`) or the pending bytes (`chunk` undefined).
    let r: ByteReader | undefined;
    let chunk: Uint8Array | undefined;
    let sourceDone = false;
    let done = false;
    let filling: Promise<void> | undefined;

    /** The next message of `r`; when it has none, settles the bytes it used and returns undefined. */
    const take = (): TickedMessage | undefined => {
      const m = this.stream.next(r!);
      if (m !== undefined && m !== INCOMPLETE) return m;
      const used = m === INCOMPLETE ? r!.pos : r!.end;
      r = undefined;
      if (chunk) {
        // The common case: nothing was left over, so the chunk was decoded where it is and only its tail is copied.
        pending.base += used;
        if (used < chunk.length) {
          pending.append(chunk.subarray(used));
          retryAt = 2 * pending.length;
        }
        chunk = undefined;
      } else {
        pending.consume(used);
        retryAt = 2 * pending.length;
      }
      return undefined;
    };

    const decodePending = () => {
      if (pending.length > maxPending) {
        throw new TeehistorianError('MESSAGE_TOO_LARGE', `a message is longer than ${maxPending} bytes`, pending.base, `messages[${this.stream.count}]`);
      }
      r = new ByteReader(pending.view(), 0, pending.length, pending.base);
    };

    /** Reads chunks until there are bytes worth decoding in `r`, or the source has ended. */
    const fill = async (): Promise<void> => {
      for (;;) {
        const next = await chunks.next();
        if (next.done) {
          sourceDone = true;
          if (inHeader) parseHeader(pending.view(), true);
          // Bytes held back by the doubling rule may still hold whole messages.
          if (pending.length) r = new ByteReader(pending.view(), 0, pending.length, pending.base);
          return;
        }
        const value = next.value;
        if (inHeader) {
          const parsed = header.feed(pending, value);
          if (!parsed) continue;
          this.header = parsed.header;
          this.headerText = parsed.headerText;
          inHeader = false;
          pending.consume(parsed.size);
          return decodePending();
        }
        if (pending.length === 0) {
          chunk = value;
          r = new ByteReader(value, 0, value.length, pending.base);
          return;
        }
        pending.append(value);
        if (pending.length >= retryAt) return decodePending();
      }
    };

    const finish = (): IteratorResult<TickedMessage> => {
      done = true;
      const incomplete = pending.length ? pending.base : undefined;
      this.end = { finished: this.stream.finished, truncated: incomplete !== undefined, offset: incomplete ?? pending.base };
      this.stream.close(pending.base, incomplete);
      return { done: true, value: undefined };
    };

    const stop = async (): Promise<IteratorResult<TickedMessage>> => {
      done = true;
      r = undefined;
      await chunks.return(undefined);
      return { done: true, value: undefined };
    };

    return {
      next: async (): Promise<IteratorResult<TickedMessage>> => {
        try {
          for (;;) {
            if (done) return { done: true, value: undefined };
            if (r) {
              const m = take();
              if (m) return { done: false, value: m };
            }
            if (sourceDone) return finish();
            // Calls made before the last one settled wait for the same chunk rather than read past it.
            filling ??= fill().finally(() => (filling = undefined));
            await filling;
          }
        } catch (e) {
          if (!done) await stop();
          throw e;
        }
      },
      return: stop,
    };
  }
}

/** The bytes a stream reader holds back: a buffer that grows by doubling and is compacted only when half used. */
/** Gathers a stream's first chunks until the header's end is among them (both stream readers start so). */
class HeaderAccumulator {
  /** Bytes already searched for the header's end, so each chunk is searched once. */
  private searched = 16;

  constructor(private readonly maxPending: number) {}

  /** Adds `chunk` to `pending`; once the header is complete, returns it parsed (its bytes are still in `pending`). */
  feed(pending: PendingBytes, chunk: Uint8Array): ReturnType<typeof parseHeader> {
    pending.append(chunk);
    const bytes = pending.view();
    const parsed = parseHeader(bytes, false, this.searched);
    if (!parsed) {
      if (bytes.length > this.maxPending) throw new TeehistorianError('HEADER_TOO_LARGE', `no header end in ${bytes.length} bytes`, 0, 'header.json');
      this.searched = bytes.length;
    }
    return parsed;
  }
}

class PendingBytes {
  private buf = new Uint8Array(0);
  private start = 0;
  private end = 0;
  /** The file offset of the first pending byte. */
  base = 0;

  get length(): number {
    return this.end - this.start;
  }

  view(): Uint8Array {
    return this.buf.subarray(this.start, this.end);
  }

  append(bytes: Uint8Array): void {
    if (this.end + bytes.length > this.buf.length) {
      const length = this.length;
      if (length + bytes.length <= this.buf.length / 2) {
        this.buf.copyWithin(0, this.start, this.end);
      } else {
        const grown = new Uint8Array(Math.max(2 * this.buf.length, length + bytes.length, 256));
        grown.set(this.buf.subarray(this.start, this.end));
        this.buf = grown;
      }
      this.start = 0;
      this.end = length;
    }
    this.buf.set(bytes, this.end);
    this.end += bytes.length;
  }

  consume(n: number): void {
    this.start += n;
    this.base += n;
    if (this.start === this.end) this.start = this.end = 0;
  }
}

/** Opens a teehistorian file read from a ReadableStream or any AsyncIterable of chunks. */
export function readTeehistorianStream(source: ByteSource, options: ReaderOptions = {}): TeehistorianStreamReader {
  return new TeehistorianStreamReader(source, options);
}


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
  private readonly bytes: Uint8Array;
  private pos: number;
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
    this.tick = this.ticks.applyScanned(ints);
    if (ints[0] === FINISH) this.finished = true;
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
      this.tick = this.ticks.applyScanned(ints);
      if (ints[0] === FINISH) this.finished = true;
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
