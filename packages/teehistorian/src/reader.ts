// Reading a teehistorian file held in memory, message by message (TeehistorianReader); the message stream the
// stream reader (stream.ts) shares with it.
import { asUint8Array, BinaryError, ByteReader } from '@twcodec/runtime';
import { decodeIntMessage, MESSAGE_IDS, type TickAdvance } from './generated/messages.gen.js';
import { asTeehistorianError, parseHeader, TeehistorianError, type TeehistorianHeader } from './header.js';
import { PlayerTracker, readMessage, type ReaderOptions, type TeehistorianEnd, type TeehistorianMessage, type TickedMessage, TickTracker } from './messages.js';

/**
 * What MessageStream.next returns when the bytes end inside a message. An object, not a symbol: a value that is
 * a message, undefined or this object compares with it by pointer in V8's optimized code, where a symbol among
 * them sent each compare to the generic StrictEqual (measured: 7% of the object iterator's CPU time).
 */
export const INCOMPLETE: { readonly incomplete: true } = Object.freeze({ incomplete: true });

/** Shared state of the sync and async readers: ticks, players, counting, end of file. */
export class MessageStream implements TickAdvance {
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
    // FINISH is noted by advance, which decodeIntMessage calls with the message's id, not by reading the built
    // message's kind: the messages have a dozen shapes, and that one property load, megamorphic, cost a quarter
    // of the iterator's time (measured: 324 ms of CPU time for the 64 MB bench file with it, 248 without).
    const built = decodeIntMessage(r, this) as TickedMessage | undefined;
    if (built === undefined) return this.nextSlowly(r);
    this.players?.apply(built);
    this.count++;
    return built;
  }

  /** decodeIntMessage's tick source: the tick tracker's rules, and FINISH ends the stream. */
  advance(id: number, first: number): number {
    if (id === MESSAGE_IDS.FINISH) this.finished = true;
    return this.ticks.advance(id, first);
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
    return new MessageIterator(this, new ByteReader(this.bytes, this.headerSize), this.stream);
  }
}

/**
 * TeehistorianReader's iterator: a class rather than a closure, so that its state is fields of one shape
 * rather than context slots (measured: 5% to 7% less CPU time for the object iterator).
 */
class MessageIterator implements Iterator<TickedMessage> {
  private done = false;

  constructor(
    private readonly owner: TeehistorianReader,
    private readonly r: ByteReader,
    private readonly stream: MessageStream,
  ) {}

  next(): IteratorResult<TickedMessage> {
    // One result object made at one place: when a for-of loop inlines next, V8 then does not allocate it at
    // all, which it cannot when results of several return statements merge (measured: a third of the bytes
    // allocated per message).
    let m = this.done ? undefined : this.stream.next(this.r);
    if (m === undefined || m === INCOMPLETE) {
      if (!this.done) {
        this.done = true;
        // The reader's end is the end of the file's bytes.
        const incomplete = m === INCOMPLETE ? this.r.pos : undefined;
        this.owner.end = { finished: this.stream.finished, truncated: incomplete !== undefined, offset: incomplete ?? this.r.end };
        this.stream.close(this.r.end, incomplete);
      }
      m = undefined;
    }
    return { done: m === undefined, value: m } as IteratorResult<TickedMessage>;
  }
}

/** Opens a teehistorian file held in memory. */
export function readTeehistorian(bytes: Uint8Array, options: ReaderOptions = {}): TeehistorianReader {
  return new TeehistorianReader(bytes, options);
}
