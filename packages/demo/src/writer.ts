import { CodecError, concatBytes, encodeUtf8, packVarInt, uuidToBytes } from '@twcodec/runtime';
import type { DemoErrorCode } from './error-codes.js';
import { SERVER_TICK_SPEED } from '@twcodec/netmsg';
import { createDelta, type Snapshot, type SnapshotProtocol } from '@twcodec/snapshot';
import { teeworldsHuffman } from './huffman.js';
import { DemoError, demoProtocolOf } from './demo.js';
import {
  CHUNKTICKFLAG_KEYFRAME,
  CHUNKTICKFLAG_TICK_COMPRESSED,
  CHUNKTYPE_DELTA,
  CHUNKTYPE_MESSAGE,
  CHUNKTYPE_SNAPSHOT,
  CHUNKTYPEFLAG_TICKMARKER,
  DEMO_CHUNK_TYPE_SHIFT,
  DEMO_MAP_SHA256_SIZE,
  DEMO_SIZE_ONE_BYTE,
  DEMO_SIZE_TWO_BYTES,
  DEMO_TICK_DELTA_LEGACY_MASK,
  DEMO_TICK_DELTA_MASK,
  DEMO_VERSION_MAP_SHA256,
  DEMO_VERSION_TIMELINE_MARKERS,
  DEMO_VERSIONS,
  type DemoVersion,
  HEADER as H,
  HEADER_BYTES as B,
  HEADER_SIZE,
  MARKER,
  MAX_CHUNK_DATA,
  MAX_TIMELINE_MARKERS,
  SHA256_EXTENSION,
  TIMELINE_SIZE,
  VERSION_TICK_COMPRESSION,
} from './format.js';

// Recording rules checked against DDNet's src/engine/shared/demo.cpp (CDemoRecorder, master 28baa427, the
// same as 16.4 in what is written): keyframes, tick markers, chunk framing and the header layout.
/** A full snapshot is written when more than this many ticks passed since the last one (SERVER_TICK_SPEED * 5). */
export const DEMO_KEYFRAME_INTERVAL = SERVER_TICK_SPEED * 5;
/** `keyframes: 'bounded'`: a due keyframe waits for deltas of at least 1/this of its size. */
const BOUNDED_KEYFRAME_SHARE = 8;

export interface DemoWriteHeader {
  /** 6 (default, DDNet since 15.5), or 3-5 with the layouts of older recorders. */
  version?: DemoVersion;
  netVersion: string;
  mapName: string;
  /** CRC32 of the map as 8 hex digits. */
  mapCrc: string;
  /** `client` or `server`. */
  type: string;
  /** Length in seconds; computed from the ticks written when undefined. */
  length?: number | undefined;
  /** As DDNet writes it: `YYYY-MM-DD_HH-MM-SS`. */
  timestamp: string;
  /** Ticks of timeline markers (versions 4+); at most 64. */
  timelineMarkers?: readonly number[];
  /** SHA-256 of the map as 64 hex digits (version 6). */
  mapSha256?: string | undefined;
  /** The unused marker slots' bytes as read (DemoHeader.timelinePadding); written when their size fits. */
  timelinePadding?: Uint8Array | undefined;
}

export interface DemoWriterOptions {
  /** The snapshot protocol deltas are made for (default: the one the header's net version names, demoProtocolOf). */
  protocol?: SnapshotProtocol;
  /**
   * Where the bytes go, as they are produced (constant memory for any length). Without a sink the writer
   * keeps them and `finish` returns the whole file.
   */
  sink?: (bytes: Uint8Array) => void;
  /**
   * When a snapshot is written whole (a keyframe) rather than as a delta. `interval` (default): as DDNet's
   * recorder, the first and whenever more than DEMO_KEYFRAME_INTERVAL ticks passed since the last keyframe.
   * `bounded`: such a keyframe also waits until the deltas written since the last one add up to an eighth of
   * its size, so that a big snapshot that hardly changes is not stored whole again every 5 seconds (a capture of
   * one 40 KB snapshot and then empty snapshots 251 ticks apart made a 262 MB demo with DDNet's rule): keyframes
   * then weigh at most 8 times the deltas. In the corpus's demos the deltas between two keyframes weigh 1.2 to
   * 37 times the keyframe (a 0.7.5 server demo, recording every other tick, 0.17): the keyframes fall where
   * DDNet's rule puts them. A demo written so reads as any other and resaves to itself (resaveDemo keeps the
   * keyframes where they are).
   */
  keyframes?: 'interval' | 'bounded';
}

function fail(code: DemoErrorCode, message: string, path: string): never {
  throw new DemoError(code, message, -1, path);
}

/** A fixed-size C string field: the UTF-8 bytes and a NUL, zero-filled (DDNet's str_copy into a zeroed header). */
function cString(out: Uint8Array, at: number, size: number, text: string, path: string): void {
  const bytes = encodeUtf8(text);
  if (bytes.length >= size) fail('HEADER_FIELD', `${bytes.length} bytes do not fit the ${size}-byte field with its NUL`, path);
  out.set(bytes, at);
}

function hexBytes(text: string, length: number, path: string): Uint8Array {
  if (!new RegExp(`^[0-9a-fA-F]{${length * 2}}$`).test(text)) fail('HEADER_FIELD', `expected ${length * 2} hex digits, got "${text}"`, path);
  return Uint8Array.from({ length }, (_, i) => parseInt(text.slice(i * 2, i * 2 + 2), 16));
}

const be32 = (out: Uint8Array, at: number, v: number) => {
  out[at] = (v >>> 24) & 0xff;
  out[at + 1] = (v >>> 16) & 0xff;
  out[at + 2] = (v >>> 8) & 0xff;
  out[at + 3] = v & 0xff;
};

/**
 * Writes demos as DDNet's recorder does: the header, the map, then for each recorded tick a tick marker and
 * either a full snapshot (keyframe: the first, and whenever more than 250 ticks passed since the last) or the
 * delta from the previous snapshot (nothing when it did not change), and net messages as they come. Chunk
 * data is padded to whole ints, packed as variable-width ints and Huffman-compressed.
 *
 * Everything is checked before a byte of it is written, so a CodecError leaves the output as it was.
 */
export class DemoWriter {
  private readonly version: DemoVersion;
  private readonly protocol: SnapshotProtocol;
  private readonly sink: ((bytes: Uint8Array) => void) | undefined;
  private readonly parts: Uint8Array[] = [];
  private readonly headerBytes: Uint8Array;
  private readonly header: DemoWriteHeader;
  private last: Snapshot | undefined;
  private lastKeyframe = -1;
  private readonly boundedKeyframes: boolean;
  /** Bytes of delta data (unpacked ints) written since the last keyframe, for `keyframes: 'bounded'`. */
  private deltaBytes = 0;
  /** Bytes produced so far (header, map, chunks). */
  private written = 0;
  private lastTickMarker = -1;
  private firstTick = -1;
  private finished = false;

  constructor(header: DemoWriteHeader, map: Uint8Array | undefined, options: DemoWriterOptions = {}) {
    this.header = header;
    this.version = header.version ?? DEMO_VERSIONS[DEMO_VERSIONS.length - 1]!;
    if (!(DEMO_VERSIONS as readonly number[]).includes(this.version)) fail('BAD_VERSION', `demo version ${this.version} cannot be written`, 'header.version');
    this.protocol = options.protocol ?? demoProtocolOf(header.netVersion).snapshots;
    this.sink = options.sink;
    this.boundedKeyframes = options.keyframes === 'bounded';
    this.headerBytes = this.buildHeader(map?.length ?? 0);
    this.emit(this.headerBytes);
    if (map?.length) this.emit(map);
  }

  private buildHeader(mapSize: number): Uint8Array {
    const h = this.header;
    const markers = h.timelineMarkers ?? [];
    if (markers.length > MAX_TIMELINE_MARKERS) fail('TOO_MANY_MARKERS', `${markers.length} timeline markers, at most ${MAX_TIMELINE_MARKERS}`, 'header.timelineMarkers');
    if (markers.length && this.version < DEMO_VERSION_TIMELINE_MARKERS) fail('HEADER_FIELD', 'demo versions before 4 have no timeline markers', 'header.timelineMarkers');
    markers.forEach((t, i) => {
      if (!Number.isInteger(t) || t < 0 || t > 0x7fffffff) fail('BAD_TICK', `timeline marker ${t}`, `header.timelineMarkers[${i}]`);
    });
    const timeline = this.version >= DEMO_VERSION_TIMELINE_MARKERS;
    const sha256 = this.version >= DEMO_VERSION_MAP_SHA256;
    const size = HEADER_SIZE + (timeline ? TIMELINE_SIZE : 0) + (sha256 ? DEMO_MAP_SHA256_SIZE : 0);
    const out = new Uint8Array(size);
    out.set(encodeUtf8(MARKER), H.marker);
    out[H.version] = this.version;
    cString(out, H.netVersion, B.netVersion, h.netVersion, 'header.netVersion');
    cString(out, H.mapName, B.mapName, h.mapName, 'header.mapName');
    be32(out, H.mapSize, mapSize);
    out.set(hexBytes(h.mapCrc, B.mapCrc, 'header.mapCrc'), H.mapCrc);
    cString(out, H.type, B.type, h.type, 'header.type');
    be32(out, H.length, h.length ?? 0);
    cString(out, H.timestamp, B.timestamp, h.timestamp, 'header.timestamp');
    if (timeline) {
      // The marker count, then the slots.
      be32(out, HEADER_SIZE, markers.length);
      const slots = HEADER_SIZE + 4;
      markers.forEach((t, i) => be32(out, slots + i * 4, t));
      const padding = h.timelinePadding;
      if (padding && padding.length === (MAX_TIMELINE_MARKERS - markers.length) * 4) out.set(padding, slots + markers.length * 4);
    }
    if (sha256) {
      if (h.mapSha256 === undefined) fail('HEADER_FIELD', `version ${this.version} demos carry the map SHA-256`, 'header.mapSha256');
      // The extension's UUID (16 bytes), then the digest.
      const at = HEADER_SIZE + TIMELINE_SIZE;
      out.set(uuidToBytes(SHA256_EXTENSION), at);
      out.set(hexBytes(h.mapSha256, DEMO_MAP_SHA256_SIZE - 16, 'header.mapSha256'), at + 16);
    }
    return out;
  }

  private emit(bytes: Uint8Array): void {
    this.written += bytes.length;
    if (this.sink) this.sink(bytes);
    else this.parts.push(bytes);
  }

  private checkOpen(): void {
    if (this.finished) fail('FINISHED', 'the demo was finished already', 'writer');
  }

  /** A chunk: the data padded to whole ints, packed as variable-width ints, Huffman-compressed, framed. */
  private static chunk(type: number, data: Uint8Array, path: string): Uint8Array {
    if (data.length > MAX_CHUNK_DATA) fail('CHUNK_TOO_LARGE', `${data.length} bytes of chunk data, at most ${MAX_CHUNK_DATA}`, path);
    const ints = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const padded = (data.length + 3) & ~3;
    const packed = new Uint8Array((padded / 4) * 5);
    let n = 0;
    for (let at = 0; at < padded; at += 4) {
      const v = at + 4 <= data.length ? ints.getInt32(at, true) : lastInt(data, at);
      n = packVarInt(v, packed, n);
    }
    const compressed = teeworldsHuffman().compress(packed.subarray(0, n));
    const size = compressed.length;
    if (size > 0xffff) fail('CHUNK_TOO_LARGE', `compressed chunk of ${size} bytes does not fit its 16-bit size`, path);
    const kind = type << DEMO_CHUNK_TYPE_SHIFT;
    const head = size < DEMO_SIZE_ONE_BYTE ? [kind | size] : size < 256 ? [kind | DEMO_SIZE_ONE_BYTE, size] : [kind | DEMO_SIZE_TWO_BYTES, size & 0xff, size >> 8];
    const out = new Uint8Array(head.length + size);
    out.set(head);
    out.set(compressed, head.length);
    return out;
  }

  private tickMarker(tick: number, keyframe: boolean): Uint8Array {
    // Versions 5+ mark a small tick step in 5 bits with a flag; older recorders used 6 bits without one.
    const legacy = this.version < VERSION_TICK_COMPRESSION;
    const mask = legacy ? DEMO_TICK_DELTA_LEGACY_MASK : DEMO_TICK_DELTA_MASK;
    if (this.lastTickMarker === -1 || tick - this.lastTickMarker > mask || keyframe || (legacy && tick === this.lastTickMarker)) {
      const out = new Uint8Array(5);
      out[0] = CHUNKTYPEFLAG_TICKMARKER | (keyframe ? CHUNKTICKFLAG_KEYFRAME : 0);
      be32(out, 1, tick);
      return out;
    }
    return Uint8Array.of(CHUNKTYPEFLAG_TICKMARKER | (legacy ? 0 : CHUNKTICKFLAG_TICK_COMPRESSED) | (tick - this.lastTickMarker));
  }

  /**
   * Records the snapshot of `tick` (ticks never go back). `keyframe` overrides the writer's rule (see
   * DemoWriterOptions.keyframes): true writes the snapshot whole, false as a delta (the first is always whole).
   */
  snapshot(tick: number, snapshot: Snapshot, keyframe?: boolean): void {
    this.checkOpen();
    if (!Number.isInteger(tick) || tick < 0 || tick > 0x7fffffff) fail('BAD_TICK', `tick ${tick}`, 'snapshot.tick');
    if (tick < this.lastTickMarker) fail('BAD_TICK', `tick ${tick} after tick ${this.lastTickMarker}`, 'snapshot.tick');
    const due = this.lastKeyframe === -1 || tick - this.lastKeyframe > DEMO_KEYFRAME_INTERVAL;
    let whole = this.last === undefined || (keyframe ?? due);
    let ints: Int32Array | undefined;
    let delta: Int32Array | undefined;
    const deltaOf = () => {
      try {
        return createDelta(this.last!, snapshot, this.protocol);
      } catch (e) {
        if (e instanceof CodecError) throw new DemoError(e.code, e.detail, -1, `snapshots[${tick}]`, { cause: e });
        throw e;
      }
    };
    if (whole && keyframe === undefined && this.boundedKeyframes && this.last) {
      // Due by the interval: whole once the deltas since the last keyframe weigh an eighth of the snapshot.
      ints = snapshot.toInts();
      delta = deltaOf();
      if ((this.deltaBytes + delta.length * 4) * BOUNDED_KEYFRAME_SHARE < ints.length * 4) whole = false;
    }
    let chunk: Uint8Array | undefined;
    if (whole) {
      ints ??= snapshot.toInts();
      chunk = DemoWriter.chunk(CHUNKTYPE_SNAPSHOT, new Uint8Array(ints.buffer, ints.byteOffset, ints.byteLength), `snapshots[${tick}]`);
    } else {
      delta ??= deltaOf();
      if (delta.length) chunk = DemoWriter.chunk(CHUNKTYPE_DELTA, new Uint8Array(delta.buffer, delta.byteOffset, delta.byteLength), `snapshots[${tick}]`);
    }
    const marker = this.tickMarker(tick, whole);
    // Nothing is written before every check above passed.
    this.emit(marker);
    if (chunk) this.emit(chunk);
    this.lastTickMarker = tick;
    if (this.firstTick < 0) this.firstTick = tick;
    if (whole) (this.lastKeyframe = tick), (this.deltaBytes = 0);
    else this.deltaBytes += delta!.length * 4;
    if (whole || chunk) this.last = snapshot;
  }

  /** Bytes of the demo produced so far (header and map included). */
  get size(): number {
    return this.written;
  }

  /** Records a net message (its packed bytes, as in a demo's message chunk). */
  message(data: Uint8Array): void {
    this.checkOpen();
    this.emit(DemoWriter.chunk(CHUNKTYPE_MESSAGE, data, 'message'));
  }

  /** The demo's length in seconds from the ticks written, as DDNet computes it when recording stops. */
  get lengthFromTicks(): number {
    return this.firstTick < 0 ? 0 : Math.floor((this.lastTickMarker - this.firstTick) / SERVER_TICK_SPEED);
  }

  /**
   * Ends the demo. Without a sink, returns the whole file, with the length filled in when the header left it
   * undefined. With a sink, returns the header as it should finally be (DDNet rewrites it when it stops):
   * the caller puts it over the first bytes it received.
   */
  finish(): Uint8Array {
    this.checkOpen();
    this.finished = true;
    if (this.header.length === undefined) be32(this.headerBytes, H.length, this.lengthFromTicks);
    if (this.sink) return this.headerBytes;
    return concatBytes(this.parts);
  }
}

/** The last, partial int of data whose length is not a multiple of 4, padded with zero bytes (little-endian). */
function lastInt(data: Uint8Array, at: number): number {
  let v = 0;
  for (let k = 0; at + k < data.length; k++) v |= data[at + k]! << (8 * k);
  return v | 0;
}
