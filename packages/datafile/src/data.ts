import { bytesEqual } from '@twcodec/runtime';
import { DatafileError } from './errors.js';
import { InflateLimitError, maxInflatedSize, type ZlibCodec } from './zlib/types.js';

/**
 * One data item. Its bytes are inflated on first access and checked against the declared size; until it is
 * replaced, the original stored bytes are kept so that writing gives them back unchanged.
 */
export class DatafileData {
  /** Uncompressed size: declared in the file (v4) or the stored size (v3). */
  size: number;
  /** The bytes as stored in the file (a zlib stream for v4, raw for v3), while unchanged. */
  stored: Uint8Array | undefined;
  /** Whether `stored` is a zlib stream. */
  storedCompressed: boolean;
  /** Absolute offset of the stored bytes in the file they came from, for errors; -1 for new data. */
  readonly fileOffset: number;
  readonly index: number;
  private raw: Uint8Array | undefined;
  private readonly zlib: ZlibCodec;

  constructor(init: {
    index: number;
    size: number;
    stored?: Uint8Array | undefined;
    storedCompressed?: boolean;
    raw?: Uint8Array | undefined;
    fileOffset?: number;
    zlib: ZlibCodec;
  }) {
    this.index = init.index;
    this.size = init.size;
    this.stored = init.stored;
    this.storedCompressed = init.storedCompressed ?? false;
    this.raw = init.raw;
    this.fileOffset = init.fileOffset ?? -1;
    this.zlib = init.zlib;
  }

  /** Whether the uncompressed bytes were produced already (by access or because they were set). */
  get loaded(): boolean {
    return this.raw !== undefined;
  }

  /** The uncompressed bytes. Inflates on first call; throws DatafileError on corrupt or lying data. */
  bytes(): Uint8Array {
    if (this.raw) return this.raw;
    const stored = this.stored!;
    const path = `data[${this.index}]`;
    if (!this.storedCompressed) {
      this.raw = stored;
      return stored;
    }
    if (this.size === 0) {
      // DDNet loads such files but refuses to load this data item.
      throw new DatafileError('DATA_SIZE_ZERO', 'data item has uncompressed size 0', this.fileOffset, path);
    }
    if (this.size > maxInflatedSize(stored.length)) {
      throw new DatafileError(
        'DATA_SIZE_IMPOSSIBLE',
        `declared size ${this.size} cannot come from ${stored.length} compressed bytes`,
        this.fileOffset,
        path,
      );
    }
    let out: Uint8Array;
    try {
      out = this.zlib.inflate(stored, this.size);
    } catch (e) {
      if (e instanceof InflateLimitError) {
        throw new DatafileError('DATA_SIZE_MISMATCH', `inflates to more than the declared ${this.size} bytes`, this.fileOffset, path);
      }
      throw new DatafileError('INFLATE_FAILED', `zlib: ${(e as Error).message}`, this.fileOffset, path, { cause: e });
    }
    if (out.length !== this.size) {
      throw new DatafileError(
        'DATA_SIZE_MISMATCH',
        out.length > this.size
          ? `inflates to more than the declared ${this.size} bytes`
          : `inflates to ${out.length} bytes, declared ${this.size}`,
        this.fileOffset,
        path,
      );
    }
    this.raw = out;
    return out;
  }

  /**
   * Inflates ahead of access with the codec's `inflateAsync`, when it has one (the browser codec: the
   * platform's DecompressionStream for large items), so that `bytes()` finds the data ready. Never rejects:
   * whatever the async path cannot inflate to exactly the declared size is left for `bytes()`, which
   * inflates it with the sync codec and reports it as a sync read always does.
   */
  async preload(): Promise<void> {
    const stored = this.stored;
    if (this.raw || !stored || !this.storedCompressed || !this.zlib.inflateAsync) return;
    if (this.size === 0 || this.size > maxInflatedSize(stored.length)) return;
    try {
      const out = await this.zlib.inflateAsync(stored, this.size);
      // Unless the item was replaced or read meanwhile.
      if (out.length === this.size && this.stored === stored && this.raw === undefined) this.raw = out;
    } catch {
      // Left for bytes().
    }
  }

  /**
   * Whether the uncompressed bytes equal `expected`, without keeping them: with the codec's inflateEquals
   * when the item is not inflated, so that no copy of its size is made. False for data that does not
   * inflate (where bytes() throws).
   */
  equals(expected: Uint8Array): boolean {
    const stored = this.stored;
    if (this.raw || !stored || !this.storedCompressed || !this.zlib.inflateEquals) {
      try {
        return bytesEqual(this.bytes(), expected);
      } catch {
        return false;
      } finally {
        this.unload();
      }
    }
    // What bytes() refuses is unequal to anything.
    if (this.size !== expected.length || this.size === 0 || this.size > maxInflatedSize(stored.length)) return false;
    return this.zlib.inflateEquals(stored, expected);
  }

  /** Replaces the content; the item will be compressed again on write. */
  set(bytes: Uint8Array): void {
    this.raw = bytes;
    this.size = bytes.length;
    this.stored = undefined;
    this.storedCompressed = false;
  }

  /** Drops the inflated copy of unchanged data to save memory; it is inflated again on next access. */
  unload(): void {
    if (this.stored) this.raw = undefined;
  }
}
