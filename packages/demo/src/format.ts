// Demo layout facts shared by the reader and the writer, under the names DDNet's src/engine/demo.h gives them;
// the values are generated from schemas/demo/demo.yaml (generated/demo.gen.ts).
import {
  DEMO_KEYFRAME_MASK,
  DEMO_MAX_CHUNK_DATA,
  DEMO_MAX_TIMELINE_MARKERS,
  DEMO_SHA256_EXTENSION,
  DEMO_TICK_COMPRESSED_MASK,
  DEMO_TICK_MARKER_MASK,
  DEMO_TIMELINE_MARKERS_SIZE,
  DEMO_VERSION_TICK_COMPRESSION,
  type DEMO_VERSIONS,
  DemoChunkType,
} from './generated/demo.gen.js';

/** A demo version this package reads and writes. */
export type DemoVersion = (typeof DEMO_VERSIONS)[number];

export {
  DEMO_CHUNK_SIZE_MASK,
  DEMO_CHUNK_TYPE_MASK,
  DEMO_CHUNK_TYPE_SHIFT,
  DEMO_HEADER as HEADER,
  DEMO_HEADER_BYTES as HEADER_BYTES,
  DEMO_HEADER_SIZE as HEADER_SIZE,
  DEMO_MAP_SHA256_SIZE,
  DEMO_MARKER as MARKER,
  DEMO_SIZE_ONE_BYTE,
  DEMO_SIZE_TWO_BYTES,
  DEMO_TICK_DELTA_LEGACY_MASK,
  DEMO_TICK_DELTA_MASK,
  DEMO_VERSION_MAP_SHA256,
  DEMO_VERSION_TIMELINE_MARKERS,
  DEMO_VERSIONS,
} from './generated/demo.gen.js';

export const MAX_TIMELINE_MARKERS = DEMO_MAX_TIMELINE_MARKERS;
export const TIMELINE_SIZE = DEMO_TIMELINE_MARKERS_SIZE;
/** The UUID in front of the map's SHA-256 (version 6). */
export const SHA256_EXTENSION = DEMO_SHA256_EXTENSION;
/** Versions from which tick markers can hold a tick delta (CHUNKTICKFLAG_TICK_COMPRESSED). */
export const VERSION_TICK_COMPRESSION = DEMO_VERSION_TICK_COMPRESSION;
/** DDNet refuses chunks over 64 KiB when writing; decompressed data is at most that. */
export const MAX_CHUNK_DATA = DEMO_MAX_CHUNK_DATA;

export const CHUNKTYPEFLAG_TICKMARKER = DEMO_TICK_MARKER_MASK;
export const CHUNKTICKFLAG_KEYFRAME = DEMO_KEYFRAME_MASK;
export const CHUNKTICKFLAG_TICK_COMPRESSED = DEMO_TICK_COMPRESSED_MASK;
export const CHUNKTYPE_SNAPSHOT = DemoChunkType.Snapshot;
export const CHUNKTYPE_MESSAGE = DemoChunkType.Message;
export const CHUNKTYPE_DELTA = DemoChunkType.Delta;
