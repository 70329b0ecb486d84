import { Buffer } from 'node:buffer';
import { constants, Inflate, inflateSync } from 'node:zlib';
import { deflateLikeZlib } from './deflate.js';
import { type DeflateFunction, InflateLimitError, initialOutputSize, type ZlibCodec } from './types.js';

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

/**
 * Inflates into `out` with one reused engine, avoiding the stream object, native context and window that
 * every inflateSync call builds (measured on the corpus maps: parsing the container and inflating every data
 * item this way costs what bare inflateSync calls cost). Returns the number of bytes written, or -1 when the
 * engine's internals are unavailable.
 */
function inflateInto(compressed: Uint8Array, out: Uint8Array): number {
  if (!engineUsable) return -1;
  engine ??= newEngine();
  if (!engine) {
    engineUsable = false;
    return -1;
  }
  const current = engine;
  let produced: number;
  try {
    current.handle.reset();
    current.handle.writeSync(constants.Z_FINISH, compressed, 0, compressed.length, out, 0, out.length);
    produced = out.length - current.state[0]!;
    if (produced === out.length && !current.error) {
      // Out of room: inflate a little further, so that a corrupt stream is reported as corrupt rather than
      // as too long (as inflateSync does).
      const consumed = compressed.length - current.state[1]!;
      const scratch = new Uint8Array(Math.min(out.length, 65536));
      current.handle.writeSync(constants.Z_FINISH, compressed, consumed, compressed.length - consumed, scratch, 0, scratch.length);
    }
    if (current.error) throw current.error;
  } catch (e) {
    // zlib's state after an error is not trusted: the next call builds a new engine.
    engine = undefined;
    current.stream.close();
    throw e;
  }
  return produced;
}

/** Inflate with node:zlib (native, about 5x faster than fflate here), deflate with pako (see deflate.ts). Output is capped with maxOutputLength, so a zip bomb stops at the declared size. */
export const nodeZlib: ZlibCodec = {
  name: 'node:zlib',
  inflate(compressed, maxSize) {
    const limit = maxSize + 1;
    if (limit <= initialOutputSize(compressed.length)) {
      // Exactly limit bytes of room: a full buffer means the stream is longer than declared.
      const out = Buffer.allocUnsafe(limit);
      const produced = inflateInto(compressed, out);
      if (produced === limit) throw new InflateLimitError(maxSize);
      if (produced >= 0) return new Uint8Array(out.buffer, out.byteOffset, produced);
    }
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
  deflate: deflateLikeZlib,
};

export const defaultZlib: ZlibCodec = nodeZlib;

/** Node: bundle size does not matter, so writing works without a deflater passed in (even with fflateZlib). */
export const defaultDeflate: DeflateFunction | undefined = deflateLikeZlib;
