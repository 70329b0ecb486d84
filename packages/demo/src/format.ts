// Demo layout facts shared by the reader and the writer, checked against DDNet 16.4's
// src/engine/shared/demo.cpp and src/engine/demo.h.
export const MARKER = 'TWDEMO\0';
export const HEADER_SIZE = 176;
export const MAX_TIMELINE_MARKERS = 64;
export const TIMELINE_SIZE = 4 + MAX_TIMELINE_MARKERS * 4;
/** The UUID in front of the map's SHA-256 (version 6). */
export const SHA256_EXTENSION = '6be6da4a-cebd-380c-9b5b-1289c842d780';
/** Versions from which tick markers can hold a tick delta (CHUNKTICKFLAG_TICK_COMPRESSED). */
export const VERSION_TICK_COMPRESSION = 5;
/** DDNet refuses chunks over 64 KiB when writing; decompressed data is at most that. */
export const MAX_CHUNK_DATA = 64 * 1024;

export const CHUNKTYPEFLAG_TICKMARKER = 0x80;
export const CHUNKTICKFLAG_KEYFRAME = 0x40;
export const CHUNKTICKFLAG_TICK_COMPRESSED = 0x20;
export const CHUNKTYPE_SNAPSHOT = 1;
export const CHUNKTYPE_MESSAGE = 2;
export const CHUNKTYPE_DELTA = 3;
