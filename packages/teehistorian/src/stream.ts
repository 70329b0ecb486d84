// Reading a teehistorian file from a stream of chunks split anywhere (TeehistorianStreamReader), and the
// buffering both stream readers share (this one and scanTeehistorianStream).
import { asUint8Array, ByteReader } from '@twcodec/runtime';
import { parseHeader, TeehistorianError, type TeehistorianHeader } from './header.js';
import type { PlayerTracker, ReaderOptions, TeehistorianEnd, TickedMessage } from './messages.js';
import { INCOMPLETE, MessageStream } from './reader.js';

export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** The chunks of a stream or async iterable, empty ones skipped. */
export async function* chunksOf(source: ByteSource): AsyncGenerator<Uint8Array> {
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
      if (m !== undefined && m !== INCOMPLETE) return m as TickedMessage;
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

/** Gathers a stream's first chunks until the header's end is among them (both stream readers start so). */
export class HeaderAccumulator {
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

/** The bytes a stream reader holds back: a buffer that grows by doubling and is compacted only when half used. */
export class PendingBytes {
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
