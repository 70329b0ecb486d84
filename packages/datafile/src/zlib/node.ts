import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import { constants, deflateSync, Inflate, inflateSync } from 'node:zlib';
import type { deflate as pakoDeflate } from 'pako';
import { bytesEqual } from '@twcodec/runtime';
import { type DeflateFunction, InflateLimitError, inflateSlices, initialOutputSize, type ZlibCodec } from './types.js';

/**
 * The parts of a node:zlib engine the fast path uses: its native handle and the two counters writeSync
 * leaves behind. They are not documented API (Node's own inflateSync is built on them; checked on Node 20), so
 * they are checked once, and the documented inflateSync serves when they are missing.
 */
interface NativeInflate {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  reset(): void;
  onerror: (message: string, errno: number, code?: string) => void;
}

interface ReusedEngine {
  stream: { close(): void };
  handle: NativeInflate;
  /** [avail_out, avail_in] after the last writeSync. */
  state: Uint32Array;
  error: Error | undefined;
}

let engine: ReusedEngine | undefined;
let engineUsable = true;

function newEngine(): ReusedEngine | undefined {
  const stream = new Inflate() as unknown as { _handle?: NativeInflate; _writeState?: Uint32Array; close(): void };
  const handle = stream._handle;
  const state = stream._writeState;
  if (!handle || typeof handle.writeSync !== 'function' || typeof handle.reset !== 'function' || !(state instanceof Uint32Array)) {
    stream.close();
    return undefined;
  }
  const created: ReusedEngine = { stream, handle, state, error: undefined };
  // Errors go to this engine, not to the stream's error events (nobody listens to those here).
  handle.onerror = (message, errno, code) => {
    created.error = Object.assign(new Error(message), { errno, code });
  };
  return created;
}

/** The reused engine, built on first use; undefined when node:zlib's internals are not there. */
function usableEngine(): ReusedEngine | undefined {
  if (!engineUsable) return undefined;
  engine ??= newEngine();
  if (!engine) engineUsable = false;
  return engine;
}

/**
 * Inflates into a buffer of `limit` bytes with one reused engine, avoiding the stream object, native context
 * and window that every inflateSync call builds (measured on the corpus maps: parsing the container and
 * inflating every data item this way costs what bare inflateSync calls cost). The first `firstRoom` bytes
 * are room enough for most data; only a stream that fills them gets the whole `limit` (its first part
 * copied over), so a lying size costs an allocation only after that much real output, and a large item is
 * held once rather than as chunks and their concatenation (issue 25: an 8192x8192 layer peaked at twice its
 * size). Returns the bytes written (a view of the buffer), or undefined when the engine's internals are
 * unavailable.
 */
function inflateInto(compressed: Uint8Array, limit: number, firstRoom: number): Uint8Array | undefined {
  const current = usableEngine();
  if (!current) return undefined;
  try {
    current.handle.reset();
    let out: Uint8Array = Buffer.allocUnsafe(Math.min(limit, firstRoom));
    current.handle.writeSync(constants.Z_FINISH, compressed, 0, compressed.length, out, 0, out.length);
    let produced = out.length - current.state[0]!;
    if (produced === out.length && out.length < limit && !current.error) {
      const first = out;
      out = Buffer.allocUnsafe(limit);
      out.set(first);
      const consumed = compressed.length - current.state[1]!;
      current.handle.writeSync(constants.Z_FINISH, compressed, consumed, compressed.length - consumed, out, produced, limit - produced);
      produced = limit - current.state[0]!;
    }
    if (produced === limit && !current.error) {
      // Out of room: inflate a little further, so that a corrupt stream is reported as corrupt rather than
      // as too long (as inflateSync does).
      const consumed = compressed.length - current.state[1]!;
      const scratch = new Uint8Array(Math.min(limit, 65536));
      current.handle.writeSync(constants.Z_FINISH, compressed, consumed, compressed.length - consumed, scratch, 0, scratch.length);
    }
    if (current.error) throw current.error;
    return new Uint8Array(out.buffer, out.byteOffset, produced);
  } catch (e) {
    // zlib's state after an error is not trusted: the next call builds a new engine.
    engine = undefined;
    current.stream.close();
    throw e;
  }
}

const SLICE = 1 << 20;
/** The engine of inflateSlices: its own, as onSlice may call inflate (which resets the shared one). */
let sliceEngine: ReusedEngine | undefined;
let slicing = false;

/**
 * ZlibCodec.inflateSlices with a reused engine: a slice of output at a time into one scratch buffer, handed
 * on as it comes. Undefined when the engine's internals are unavailable, or when called again from onSlice.
 */
function inflateSlicesNative(compressed: Uint8Array, maxSize: number, onSlice: (slice: Uint8Array) => void): number | undefined {
  if (slicing || !usableEngine()) return undefined;
  const current = (sliceEngine ??= newEngine());
  if (!current) return undefined;
  // One byte more room than maxSize allows: a full scratch at the limit is known to be past it.
  const scratch = new Uint8Array(Math.min(SLICE, maxSize + 1));
  let consumed = 0;
  let total = 0;
  slicing = true;
  try {
    current.handle.reset();
    for (;;) {
      current.handle.writeSync(constants.Z_FINISH, compressed, consumed, compressed.length - consumed, scratch, 0, scratch.length);
      if (current.error) throw current.error;
      const produced = scratch.length - current.state[0]!;
      consumed = compressed.length - current.state[1]!;
      if (total + produced > maxSize) throw new InflateLimitError(maxSize);
      total += produced;
      if (produced > 0) onSlice(scratch.subarray(0, produced));
      // Room left over: the stream ended (a truncated one is an error, "unexpected end of file").
      if (produced < scratch.length) return total;
    }
  } catch (e) {
    // Stopped mid-stream (or zlib's state after an error is not trusted): the next call builds a new engine.
    sliceEngine = undefined;
    current.stream.close();
    throw e;
  } finally {
    slicing = false;
  }
}

const NOT_EQUAL = Symbol('not equal');

/**
 * ZlibCodec.inflateEquals with the slice engine: a slice of output at a time, compared as it comes (stopping at
 * the first difference). Undefined when the engine is not available; false also for a corrupt stream.
 */
function inflateEquals(compressed: Uint8Array, expected: Uint8Array): boolean | undefined {
  let at = 0;
  try {
    const total = inflateSlicesNative(compressed, expected.length, (slice) => {
      if (!bytesEqual(slice, expected.subarray(at, at + slice.length))) throw NOT_EQUAL;
      at += slice.length;
    });
    return total === undefined ? undefined : total === expected.length;
  } catch {
    // Different bytes, more of them (InflateLimitError), or a corrupt stream.
    return false;
  }
}

let pako: typeof pakoDeflate | undefined;

/**
 * deflate.ts's deflater (pako 2, byte-identical to DDNet's zlib), loaded when it first deflates: pako's own
 * deflate-only build of the same code, through require. Most runs only read, and loading pako as a module with
 * the reader cost a command about a tenth of its CPU time on a small map (issue 28). Node-only, as this file is.
 */
const deflateLikeZlib: DeflateFunction = (data, level) => {
  pako ??= (createRequire(import.meta.url)('pako/dist/pako_deflate.min.js') as { deflate: typeof pakoDeflate }).deflate;
  return pako(data, { level: level as 6 });
};

/** Inflate with node:zlib (native, about 5x faster than fflate here), deflate with pako (see deflate.ts). Output is capped with maxOutputLength, so a zip bomb stops at the declared size. */
export const nodeZlib: ZlibCodec = {
  name: 'node:zlib',
  inflate(compressed, maxSize) {
    const limit = maxSize + 1;
    // Exactly limit bytes of room at most: a full buffer means the stream is longer than declared.
    const fast = inflateInto(compressed, limit, initialOutputSize(compressed.length));
    if (fast?.length === limit) throw new InflateLimitError(maxSize);
    if (fast) return fast;
    // One chunk of exactly limit bytes: zlib sees the stream end without asking for another chunk, and no
    // concatenation follows. initialOutputSize caps what a lying size field can make us allocate.
    const chunkSize = Math.max(64, Math.min(limit, initialOutputSize(compressed.length)));
    let out: Uint8Array;
    try {
      out = inflateSync(compressed, { maxOutputLength: limit, chunkSize });
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new InflateLimitError(maxSize);
      throw e;
    }
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  },
  inflateEquals(compressed, expected) {
    return inflateEquals(compressed, expected) ?? bytesEqual(nodeZlib.inflate(compressed, expected.length), expected);
  },
  inflateSlices(compressed, maxSize, onSlice) {
    return inflateSlicesNative(compressed, maxSize, onSlice) ?? inflateSlices({ ...nodeZlib, inflateSlices: undefined }, compressed, maxSize, onSlice);
  },
  deflate: deflateLikeZlib,
};

/**
 * Deflate with node:zlib (native, about 5x faster than pako on an 8192x8192 image). Node bundles Chromium's
 * zlib, whose output differs from the system zlib DDNet writes with for many inputs (measured on the corpus:
 * about a third of the data items come out the same, see deflate.ts), so this is only for data that has no
 * byte-identity promise with DDNet: new data a command adds (a replaced image), never `map resave --ddnet`.
 */
export const nodeDeflate: DeflateFunction = (data, level) => {
  const out = deflateSync(data, { level });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
};

export const defaultZlib: ZlibCodec = nodeZlib;

/** Node: bundle size does not matter, so writing works without a deflater passed in (even with fflateZlib). */
export const defaultDeflate: DeflateFunction | undefined = deflateLikeZlib;
