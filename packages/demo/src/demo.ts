import { asUint8Array, bytesFromInt32s, ByteReader, CodecError, decodeCString, decodeUtf8, unpackVarInts, uuidFromBytes } from '@twcodec/runtime';
import type { DemoErrorCode } from './error-codes.js';
import { DDNET_0_6_MESSAGES, type NetProtocolDef, TEEWORLDS_0_7_MESSAGES } from '@twcodec/netmsg';
import { applyDelta, DDNET_0_6, itemKey, Snapshot, type SnapshotItem, type SnapshotProtocol, TEEWORLDS_0_7 } from '@twcodec/snapshot';
import {
  CHUNKTICKFLAG_KEYFRAME,
  CHUNKTICKFLAG_TICK_COMPRESSED,
  CHUNKTYPE_DELTA,
  CHUNKTYPE_MESSAGE,
  CHUNKTYPE_SNAPSHOT,
  CHUNKTYPEFLAG_TICKMARKER,
  DEMO_CHUNK_SIZE_MASK,
  DEMO_CHUNK_TYPE_MASK,
  DEMO_CHUNK_TYPE_SHIFT,
  DEMO_MAP_SHA256_SIZE,
  DEMO_SIZE_ONE_BYTE,
  DEMO_SIZE_TWO_BYTES,
  DEMO_TICK_DELTA_LEGACY_MASK,
  DEMO_TICK_DELTA_MASK,
  DEMO_VERSION_MAP_SHA256,
  DEMO_VERSION_TIMELINE_MARKERS,
  DEMO_VERSIONS,
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
import { teeworldsHuffman } from './huffman.js';

/** Errors of demo reading. */
export class DemoError extends CodecError<DemoErrorCode> {}

/** The two protocols a demo can be recorded in: its snapshots' objects and its messages follow one of them. */
export type DemoProtocolName = 'ddnet-0.6' | 'teeworlds-0.7';

/** The tables a demo's protocol decodes its snapshots and messages with. */
export interface DemoProtocol {
  name: DemoProtocolName;
  snapshots: SnapshotProtocol;
  messages: NetProtocolDef;
}

const DEMO_PROTOCOLS: Record<DemoProtocolName, DemoProtocol> = {
  'ddnet-0.6': { name: 'ddnet-0.6', snapshots: DDNET_0_6, messages: DDNET_0_6_MESSAGES },
  'teeworlds-0.7': { name: 'teeworlds-0.7', snapshots: TEEWORLDS_0_7, messages: TEEWORLDS_0_7_MESSAGES },
};

/**
 * The protocol of a demo with this header net version. A demo names the game's net version, "<protocol> <hash of
 * the protocol description>": Teeworlds 0.7.5 records "0.7 802f1be60a05665f" (GAME_NETVERSION, src/game/version.h
 * at tag 0.7.5), DDNet "0.6 626fce9a778df4d4" (checked on the demos of corpus/net). Nothing in a demo but this
 * says which object and message tables it uses, and the two disagree on most type ids and sizes (0.7's pickup
 * has 3 ints, 0.6's 4; 0.7's type 11 is player_info, 0.6's client_info), so every reader goes through here;
 * anything not "0.7" is read as 0.6/DDNet, as DDNet 16.4 reads it.
 */
export function demoProtocolOf(netVersion: string): DemoProtocol {
  return DEMO_PROTOCOLS[netVersion.startsWith('0.7') ? 'teeworlds-0.7' : 'ddnet-0.6'];
}

export interface DemoHeader {
  /** Demo format version (DDNet 16.4 writes 6; 3 to 6 are read). */
  version: number;
  netVersion: string;
  mapName: string;
  mapSize: number;
  /** CRC32 of the map, as 8 hex digits. */
  mapCrc: string;
  /** `client` or `server`. */
  type: string;
  /** Length in seconds (filled in when recording stops). */
  length: number;
  timestamp: string;
  timelineMarkers: number[];
  /**
   * The bytes of the unused timeline marker slots, when they are not zero (DDNet 16.4's server recorder
   * leaves them uninitialised); kept so that a demo is written back byte for byte.
   */
  timelinePadding?: Uint8Array | undefined;
  /** SHA-256 of the map (version 6 demos written by DDNet). */
  mapSha256: string | undefined;
}

/**
 * A chunk of a demo. The `ints` and `data` of small chunks are views of a buffer shared with other chunks (use
 * their byteOffset with `.buffer`); each chunk's own range is its alone.
 */
export type DemoChunk =
  | { kind: 'tick'; tick: number; keyframe: boolean; offset: number }
  | { kind: 'snapshot' | 'delta'; ints: Int32Array; offset: number; storedSize: number }
  | { kind: 'message'; data: Uint8Array; offset: number; storedSize: number };

/** The full snapshot of one recorded tick. */
export interface DemoSnapshot {
  tick: number;
  snapshot: Snapshot;
  /** How it was obtained: stored whole at a keyframe, or by applying `delta`. */
  source: 'keyframe' | 'delta';
  delta?: Int32Array;
  offset: number;
}

/** The most bytes a chunk's payload may decompress to. */
const MAX_UNPACKED = MAX_CHUNK_DATA + 5 * 1024;
/** Where every chunk's payload is decompressed, one chunk at a time. */
let chunkBytes: Uint8Array | undefined;
/** Where the ints of a chunk too large for a block are unpacked before their copy is handed out. */
let largeChunkInts: Int32Array | undefined;

/**
 * The ints of chunks are unpacked straight into blocks of this many bytes and handed out as views of them,
 * as Node's Buffer pool does: an ArrayBuffer of its own for every chunk (allocated outside the JS heap) took
 * longer than decoding most chunks (0.5 µs; bench/demo-chunks.mjs). A chunk kept alive keeps its block.
 */
const BLOCK_BYTES = 64 * 1024;
/** Chunks of up to this many payload bytes (hence ints at most) are unpacked into a block. */
const BLOCK_CHUNK_MAX = BLOCK_BYTES / 16;
let block = new Int32Array(0);
/** Ints of `block` handed out. */
let blockUsed = 0;

/** Where unpackChunkInts left a chunk's ints: `ints[start, start + count)`. */
const unpacked: { ints: Int32Array; start: number; count: number } = { ints: block, start: 0, count: 0 };

/**
 * Decompresses a chunk's payload and unpacks its ints: into the current block (taken for them) when they may
 * fit it, else into a scratch array; `unpacked` says where.
 */
function unpackChunkInts(stored: Uint8Array, offset: number): void {
  const bytes = (chunkBytes ??= new Uint8Array(MAX_UNPACKED));
  const size = teeworldsHuffman().decompressInto(stored, bytes, offset);
  let ints: Int32Array;
  let start = 0;
  if (size <= BLOCK_CHUNK_MAX) {
    // At most one int per byte.
    if (blockUsed + size > block.length) {
      block = new Int32Array(BLOCK_BYTES / 4);
      blockUsed = 0;
    }
    ints = block;
    start = blockUsed;
  } else {
    ints = largeChunkInts ??= new Int32Array(MAX_UNPACKED);
  }
  let count = unpackVarInts(bytes, 0, size, ints, start);
  if (count < 0) {
    // A bad int: read one at a time to throw its error (offsets from the chunk's start, as the bytes are).
    const r = new ByteReader(bytes, 0, size, offset);
    count = 0;
    while (r.remaining > 0) ints[start + count++] = r.readVarInt('chunk');
  }
  if (ints === block) blockUsed += count;
  unpacked.ints = ints;
  unpacked.start = start;
  unpacked.count = count;
}

/** The ints unpackChunkInts left, as an array of their own or a view of a block. */
function unpackedInts(): Int32Array {
  const { ints, start, count } = unpacked;
  return ints === block ? new Int32Array(ints.buffer, start * 4, count) : ints.slice(0, count);
}

/** The ints unpackChunkInts left as little-endian bytes (a message's), likewise. */
function unpackedBytes(): Uint8Array {
  const { ints, start, count } = unpacked;
  if (ints === block && LITTLE_ENDIAN) return new Uint8Array(ints.buffer, start * 4, count * 4);
  return bytesFromInt32s(ints.slice(start, start + count));
}

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * Turns the Huffman-compressed, varint-packed payload of a chunk into its i32 values (a view of a block shared
 * with other chunks when the chunk is small).
 */
export function unpackChunk(stored: Uint8Array, offset: number): Int32Array {
  unpackChunkInts(stored, offset);
  return unpackedInts();
}

export interface DemoReadOptions {
  /**
   * `throw` (default): a file that ends inside a chunk throws TRUNCATED after its whole chunks. `stop`: it just
   * ends there, and `end` says where (as the teehistorian reader's option of the same name).
   */
  onTruncated?: 'throw' | 'stop';
}

/** Where reading the chunks ended: `truncated` when the file ends inside a chunk, at `offset`. */
export interface DemoEnd {
  truncated: boolean;
  offset: number;
  /** With `truncated`: what was cut off. */
  reason?: string;
}

/** A demo file in memory. */
export class DemoReader {
  readonly header: DemoHeader;
  /** The embedded map, when the demo has one (DDNet always embeds it). */
  readonly map: Uint8Array | undefined;
  /** Byte offset of the first chunk. */
  readonly chunksOffset: number;
  /** The protocol the demo was recorded in (from its header's net version): the default of every reader. */
  readonly protocol: DemoProtocol;
  /** Set when an iteration over the chunks has ended (with `onTruncated: 'stop'`, also at a cut). */
  end: DemoEnd | undefined;
  private readonly bytes: Uint8Array;
  private readonly onTruncated: 'throw' | 'stop';

  constructor(input: Uint8Array, options: DemoReadOptions = {}) {
    this.onTruncated = options.onTruncated ?? 'throw';
    const bytes = (this.bytes = asUint8Array(input));
    if (bytes.length < HEADER_SIZE) throw new DemoError('TRUNCATED', `file has ${bytes.length} bytes, the header needs ${HEADER_SIZE}`, bytes.length, 'header');
    if (decodeUtf8(bytes.subarray(H.marker, H.marker + B.marker)) !== MARKER) throw new DemoError('BAD_MAGIC', 'not a demo (no TWDEMO marker)', H.marker, 'header.marker');
    const version = bytes[H.version]!;
    if (!(DEMO_VERSIONS as readonly number[]).includes(version)) throw new DemoError('BAD_VERSION', `demo version ${version} is not ${DEMO_VERSIONS[0]} to ${DEMO_VERSIONS[DEMO_VERSIONS.length - 1]}`, H.version, 'header.version');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const be = (at: number) => view.getUint32(at, false);
    let at = HEADER_SIZE;
    const timelineMarkers: number[] = [];
    let timelinePadding: Uint8Array | undefined;
    if (version >= DEMO_VERSION_TIMELINE_MARKERS) {
      if (bytes.length < at + TIMELINE_SIZE) throw new DemoError('TRUNCATED', 'timeline markers cut off', bytes.length, 'header.timeline');
      const num = Math.max(0, Math.min(MAX_TIMELINE_MARKERS, view.getInt32(at, false)));
      for (let i = 0; i < num; i++) timelineMarkers.push(view.getInt32(at + 4 + i * 4, false));
      const unused = bytes.subarray(at + 4 + num * 4, at + TIMELINE_SIZE);
      if (unused.some((b) => b !== 0)) timelinePadding = unused.slice();
      at += TIMELINE_SIZE;
    }
    let mapSha256: string | undefined;
    // The extension: a UUID (16 bytes), then the SHA-256.
    if (version >= DEMO_VERSION_MAP_SHA256 && bytes.length >= at + 16 && uuidFromBytes(bytes, at) === SHA256_EXTENSION) {
      if (bytes.length < at + DEMO_MAP_SHA256_SIZE) throw new DemoError('TRUNCATED', 'map SHA-256 cut off', bytes.length, 'header.sha256');
      mapSha256 = Array.from(bytes.subarray(at + 16, at + DEMO_MAP_SHA256_SIZE), (b) => b.toString(16).padStart(2, '0')).join('');
      at += DEMO_MAP_SHA256_SIZE;
    }
    const mapSize = be(H.mapSize);
    if (mapSize > bytes.length - at) throw new DemoError('TRUNCATED', `map of ${mapSize} bytes, ${bytes.length - at} left`, H.mapSize, 'header.map_size');
    this.map = mapSize ? bytes.subarray(at, at + mapSize) : undefined;
    at += mapSize;
    this.chunksOffset = at;
    this.header = {
      version,
      netVersion: decodeCString(bytes.subarray(H.netVersion, H.netVersion + B.netVersion)),
      mapName: decodeCString(bytes.subarray(H.mapName, H.mapName + B.mapName)),
      mapSize,
      mapCrc: be(H.mapCrc).toString(16).padStart(8, '0'),
      type: decodeCString(bytes.subarray(H.type, H.type + B.type)),
      length: be(H.length),
      timestamp: decodeCString(bytes.subarray(H.timestamp, H.timestamp + B.timestamp)),
      timelineMarkers,
      timelinePadding,
      mapSha256,
    };
    this.protocol = demoProtocolOf(this.header.netVersion);
  }

  /** Every chunk in order. Chunk payloads are decompressed; a file cut inside a chunk throws TRUNCATED. */
  *chunks(): Generator<DemoChunk> {
    const bytes = this.bytes;
    let at = this.chunksOffset;
    let tick = 0;
    // A chunk the file ends inside: thrown, or with onTruncated 'stop' the end of the chunks.
    const cut = (e: DemoError) => {
      this.end = { truncated: true, offset: e.offset, reason: e.detail };
      if (this.onTruncated === 'throw') throw e;
    };
    while (at < bytes.length) {
      const offset = at;
      const c = bytes[at++]!;
      if (c & CHUNKTYPEFLAG_TICKMARKER) {
        const keyframe = (c & CHUNKTICKFLAG_KEYFRAME) !== 0;
        const legacyDelta = c & DEMO_TICK_DELTA_LEGACY_MASK;
        if (this.header.version < VERSION_TICK_COMPRESSION && legacyDelta !== 0) tick += legacyDelta;
        else if (c & CHUNKTICKFLAG_TICK_COMPRESSED) tick += c & DEMO_TICK_DELTA_MASK;
        else {
          if (at + 4 > bytes.length) return cut(new DemoError('TRUNCATED', 'tick marker cut off', offset, 'chunk.tick'));
          tick = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
          at += 4;
        }
        yield { kind: 'tick', tick, keyframe, offset };
        continue;
      }
      const type = (c & DEMO_CHUNK_TYPE_MASK) >> DEMO_CHUNK_TYPE_SHIFT;
      let size = c & DEMO_CHUNK_SIZE_MASK;
      if (size === DEMO_SIZE_ONE_BYTE) {
        if (at + 1 > bytes.length) return cut(new DemoError('TRUNCATED', 'chunk size cut off', offset, 'chunk.size'));
        size = bytes[at++]!;
      } else if (size === DEMO_SIZE_TWO_BYTES) {
        if (at + 2 > bytes.length) return cut(new DemoError('TRUNCATED', 'chunk size cut off', offset, 'chunk.size'));
        size = bytes[at]! | (bytes[at + 1]! << 8);
        at += 2;
      }
      if (at + size > bytes.length) return cut(new DemoError('TRUNCATED', `chunk of ${size} byte${size === 1 ? '' : 's'}, ${bytes.length - at} left`, offset, 'chunk.data'));
      const stored = bytes.subarray(at, at + size);
      at += size;
      try {
        unpackChunkInts(stored, offset);
      } catch (e) {
        if (e instanceof CodecError) throw new DemoError(e.code, e.detail, e.offset, 'chunk.data', { cause: e });
        throw e;
      }
      if (type === CHUNKTYPE_SNAPSHOT) yield { kind: 'snapshot', ints: unpackedInts(), offset, storedSize: size };
      else if (type === CHUNKTYPE_DELTA) yield { kind: 'delta', ints: unpackedInts(), offset, storedSize: size };
      else if (type === CHUNKTYPE_MESSAGE) yield { kind: 'message', data: unpackedBytes(), offset, storedSize: size };
      else throw new DemoError('BAD_CHUNK', `chunk type ${type}`, offset, 'chunk.type');
    }
    this.end = { truncated: false, offset: at };
  }

  /**
   * The full snapshot of every recorded tick: keyframes as stored, the others by applying each delta to the
   * snapshot before it. A tick marker without a snapshot chunk (nothing changed) repeats the previous one.
   *
   * Item order: a demo stores the recorder's order only at keyframes. Between them the reader follows it
   * from what the deltas reveal — the order in which a delta lists changed and new items (see applyDelta's
   * `hint` order) and, looking one delta ahead, the order in which the next delta lists deleted items — so
   * that createDelta between consecutive snapshots gives back the demo's own deltas.
   *
   * Deltas are applied with the item sizes of `protocol`, by default the demo's own (`this.protocol`).
   */
  *snapshots(protocol: SnapshotProtocol = this.protocol.snapshots): Generator<DemoSnapshot> {
    let current: Snapshot | undefined;
    let tick = 0;
    let pendingTick = false;
    let index = 0;
    // Snapshots not yet handed out, all of `current`: the next delta may still reveal more of its order.
    let waiting: DemoSnapshot[] = [];
    const flush = function* (ordered: Snapshot | undefined) {
      for (const s of waiting) yield ordered ? { ...s, snapshot: ordered } : s;
      waiting = [];
    };
    for (const chunk of this.chunks()) {
      if (chunk.kind === 'tick') {
        if (pendingTick && current) waiting.push({ tick, snapshot: current, source: 'delta', delta: new Int32Array(0), offset: chunk.offset });
        tick = chunk.tick;
        pendingTick = true;
        continue;
      }
      if (chunk.kind === 'message') continue;
      const path = `snapshots[${index++}]`;
      try {
        if (chunk.kind === 'snapshot') {
          yield* flush(undefined);
          current = Snapshot.fromInts(chunk.ints, path);
          waiting.push({ tick, snapshot: current, source: 'keyframe', offset: chunk.offset });
        } else {
          if (!current) throw new DemoError('DELTA_WITHOUT_SNAPSHOT', 'a delta before the first snapshot', chunk.offset, path);
          if (waiting.some((s) => s.source === 'keyframe')) {
            yield* flush(undefined); // a keyframe's order is the recorder's own
          } else {
            current = orderDeleted(current, chunk.ints);
            yield* flush(current);
          }
          current = applyDelta(current, chunk.ints, protocol, { path, order: 'hint' });
          waiting.push({ tick, snapshot: current, source: 'delta', delta: chunk.ints, offset: chunk.offset });
        }
      } catch (e) {
        if (e instanceof CodecError && !(e instanceof DemoError)) throw new DemoError(e.code, e.detail, chunk.offset, e.path, { cause: e });
        throw e;
      }
      pendingTick = false;
    }
    if (pendingTick && current) waiting.push({ tick, snapshot: current, source: 'delta', delta: new Int32Array(0), offset: this.bytes.length });
    yield* flush(undefined);
  }
}

/**
 * `snapshot` with the items a delta deletes put in the order the delta lists them: an item found before the
 * one listed ahead of it moves to just after that one, so every other item keeps its place.
 */
function orderDeleted(snapshot: Snapshot, delta: Int32Array): Snapshot {
  const numDeleted = delta[0] ?? 0;
  if (numDeleted < 2 || numDeleted > delta.length - 3) return snapshot;
  const keys = Array.from(delta.subarray(3, 3 + numDeleted));
  if (keys.some((key) => snapshot.indexOf(key) < 0)) return snapshot; // applyDelta reports it
  let items: SnapshotItem[] | undefined;
  const keyOf = (item: SnapshotItem) => itemKey(item.type, item.id);
  for (let i = 1; i < keys.length; i++) {
    const list = items ?? snapshot.items;
    const prev = list.findIndex((item) => keyOf(item) === keys[i - 1]);
    const at = list.findIndex((item) => keyOf(item) === keys[i]);
    if (at > prev) continue;
    items ??= snapshot.items.slice();
    const [moved] = items.splice(at, 1);
    items.splice(prev, 0, moved!); // prev shifted down by one after the removal: this is just after it
  }
  return items ? new Snapshot(items) : snapshot;
}

export function readDemo(bytes: Uint8Array, options?: DemoReadOptions): DemoReader {
  return new DemoReader(bytes, options);
}
