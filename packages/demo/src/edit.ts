import { type NetMessageDef, netMessageDef, type NetProtocolDef, peekNetMessage, SERVER_TICK_SPEED } from '@twcodec/netmsg';
import { type Snapshot, type SnapshotProtocol } from '@twcodec/snapshot';
import { type DemoChunk, DemoError, type DemoReader, readDemo } from './demo.js';
import { HEADER, HEADER_SIZE, MAX_TIMELINE_MARKERS, TIMELINE_SIZE } from './format.js';
import { type DemoWriteHeader, DemoWriter, type DemoWriterOptions } from './writer.js';

/** What a demo recorded, in order: the snapshot of each tick, and net messages with the tick they came in. */
/** `keyframe`: the snapshot's tick marker is a keyframe's (the snapshot was stored whole). */
export type DemoEvent = { kind: 'snapshot'; tick: number; snapshot: Snapshot; keyframe: boolean } | { kind: 'message'; tick: number; data: Uint8Array };

/**
 * The recorded events of a demo, in file order: one snapshot per tick marker (in the recorder's item order,
 * as DemoReader.snapshots infers it) and every message chunk with the tick of the marker before it.
 */
export function* demoEvents(reader: DemoReader, protocol: SnapshotProtocol = reader.protocol.snapshots): Generator<DemoEvent> {
  const snapshots = reader.snapshots(protocol);
  let tick = -1;
  for (const chunk of reader.chunks()) {
    if (chunk.kind === 'tick') {
      const next = snapshots.next();
      if (next.done) throw new DemoError('BAD_CHUNK', 'a tick marker without a snapshot', chunk.offset, 'chunks');
      tick = chunk.tick;
      yield { kind: 'snapshot', tick, snapshot: next.value.snapshot, keyframe: chunk.keyframe };
    } else if (chunk.kind === 'message') {
      yield { kind: 'message', tick, data: chunk.data };
    }
  }
}

/** The header a writer needs to write `reader`'s demo again as it is. */
function headerOf(reader: DemoReader): DemoWriteHeader {
  const h = reader.header;
  return {
    version: h.version as DemoWriteHeader['version'],
    netVersion: h.netVersion,
    mapName: h.mapName,
    mapCrc: h.mapCrc,
    type: h.type,
    length: h.length,
    timestamp: h.timestamp,
    timelineMarkers: h.timelineMarkers,
    timelinePadding: h.timelinePadding,
    mapSha256: h.mapSha256,
  };
}

export interface ResaveOptions extends DemoWriterOptions {
  /**
   * `true` (default): a demo that would not come back byte for byte is refused (NOT_LOSSLESS, saying what would
   * change and where). `false`: it is recorded again as DDNet's recorder would write it.
   */
  exact?: boolean;
}

/**
 * Reads a demo and writes it again through DemoWriter: a DDNet demo comes back byte for byte. A demo DDNet's
 * recorder would not have written so (two snapshot chunks in one tick, a message before a tick's snapshot,
 * more than 64 timeline markers, another packing of the same data, ...) is refused with what would change,
 * unless `exact` is false. Keyframes stay at the ticks the demo has them (unless `exact` is false).
 */
export function resaveDemo(bytes: Uint8Array, options: ResaveOptions = {}): Uint8Array {
  const reader = readDemo(bytes);
  const writer = new DemoWriter(headerOf(reader), reader.map, options);
  const exact = options.exact !== false;
  for (const e of demoEvents(reader, options.protocol)) {
    // Exact: the keyframes stay where they are (a recorder may place them otherwise than DDNet's 250-tick rule,
    // as DemoWriter's `keyframes: 'bounded'` does); otherwise the writer's rule places them.
    if (e.kind === 'snapshot') writer.snapshot(e.tick, e.snapshot, exact ? e.keyframe : undefined);
    else writer.message(e.data);
  }
  const out = writer.finish();
  if (exact && !sameBytes(out, bytes)) {
    const { message, offset, path } = firstChange(reader, bytes, out);
    throw new DemoError('NOT_LOSSLESS', `the demo would not be written back as it is: ${message}`, offset, path);
  }
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A header field's name in words: netVersion -> net version, mapCrc -> map CRC. */
const inWords = (name: string) => name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`).replace(/\bcrc\b/, 'CRC');

// The header's fields by their first byte (generated from schemas/demo/demo.yaml), then the timeline markers'.
const HEADER_FIELDS: [number, string][] = [
  ...Object.entries(HEADER).map(([name, at]): [number, string] => [at, inWords(name)]),
  [HEADER_SIZE, 'count of timeline markers'],
  [HEADER_SIZE + 4, 'timeline markers'],
];

/** What differs first between a demo and what the writer made of it: in words, with the input's offset. */
function firstChange(reader: DemoReader, input: Uint8Array, output: Uint8Array): { message: string; offset: number; path: string } {
  let at = 0;
  while (at < input.length && at < output.length && input[at] === output[at]) at++;
  if (at < reader.chunksOffset) {
    let field = 'map SHA-256';
    if (at >= reader.chunksOffset - (reader.map?.length ?? 0)) field = 'embedded map';
    else if (at < HEADER_SIZE + TIMELINE_SIZE) for (const [start, name] of HEADER_FIELDS) if (start <= at) field = name;
    const note = field === 'count of timeline markers' ? ` (it is read as 0 to ${MAX_TIMELINE_MARKERS})` : '';
    return { message: `the header's ${field} changes${note}`, offset: at, path: 'header' };
  }
  // The chunks of both, side by side: the first whose bytes differ, described with what was around it.
  const written = readDemo(output, { onTruncated: 'stop' });
  const theirs = [...written.chunks()];
  let tick: number | undefined;
  let snapshotsInTick = 0;
  let index = 0;
  const chunks = reader.chunks();
  for (let next = chunks.next(); !next.done; index++) {
    const chunk = next.value;
    next = chunks.next();
    const end = next.done ? input.length : next.value.offset;
    const other = theirs[index];
    const otherEnd = index + 1 < theirs.length ? theirs[index + 1]!.offset : output.length;
    const where = tick === undefined ? 'before the first tick marker' : `in tick ${tick}`;
    const path = `chunks[${index}]`;
    if (!other) return { message: `the chunks from offset ${chunk.offset} on (${where}) are left out`, offset: chunk.offset, path };
    const same = end - chunk.offset === otherEnd - other.offset && sameBytes(input.subarray(chunk.offset, end), output.subarray(other.offset, otherEnd));
    if (!same) {
      const isSnapshot = (k: string) => k === 'snapshot' || k === 'delta';
      let why: string;
      if (isSnapshot(chunk.kind) && snapshotsInTick > 0) why = `a second snapshot chunk ${where}: one snapshot a tick is recorded`;
      else if (chunk.kind === 'message' && isSnapshot(other.kind)) why = `a message before the snapshot ${where}: the snapshot is recorded first`;
      else if (chunk.kind !== other.kind) why = `a ${chunk.kind} chunk ${where} becomes a ${other.kind} chunk (a keyframe is written whole, a tick between keyframes as a delta, and no delta when nothing changed)`;
      else if (chunk.kind === 'tick' && other.kind === 'tick') why = chunk.tick !== other.tick ? `tick ${chunk.tick} becomes tick ${other.tick}` : `the tick marker of tick ${chunk.tick} is encoded otherwise (keyframe flag or tick delta)`;
      else if (sameContent(chunk, other)) why = `a ${chunk.kind} chunk ${where} is packed otherwise (its data reads the same)`;
      else why = `a ${chunk.kind} chunk ${where} holds other data when recorded again`;
      return { message: why, offset: chunk.offset, path };
    }
    if (chunk.kind === 'tick') {
      tick = chunk.tick;
      snapshotsInTick = 0;
    } else if (chunk.kind === 'snapshot' || chunk.kind === 'delta') snapshotsInTick++;
  }
  return { message: `${output.length - input.length} bytes more after the last chunk`, offset: input.length, path: `chunks[${index}]` };
}

function sameContent(a: DemoChunk, b: DemoChunk): boolean {
  if (a.kind === 'message' && b.kind === 'message') return sameBytes(a.data, b.data);
  if ((a.kind === 'snapshot' || a.kind === 'delta') && a.kind === b.kind) return sameBytes(new Uint8Array(a.ints.buffer, a.ints.byteOffset, a.ints.byteLength), new Uint8Array(b.ints.buffer, b.ints.byteOffset, b.ints.byteLength));
  return false;
}

export interface SliceOptions extends DemoWriterOptions {
  /** First tick kept (default: the first). */
  from?: number;
  /** Last tick kept (default: the last). */
  to?: number;
}

/**
 * The part of a demo between two ticks, as DDNet's demo slicing (CDemoEditor::Slice) makes it: snapshots and
 * messages of ticks in [from, to] recorded again (so the first kept snapshot becomes a keyframe), timeline
 * markers in range kept (at most one a second), the length computed from the kept ticks. Unlike DDNet, the
 * timestamp of the source is kept, so that slicing the same demo twice gives the same bytes.
 */
export function sliceDemo(bytes: Uint8Array, options: SliceOptions = {}): Uint8Array {
  const reader = readDemo(bytes);
  const from = options.from ?? -Infinity;
  const to = options.to ?? Infinity;
  if (from > to) throw new DemoError('BAD_RANGE', `slice from tick ${from} to ${to}`, -1, 'slice');
  const markers: number[] = [];
  for (const t of reader.header.timelineMarkers) {
    // At most one marker a second, as DDNet's recorder adds them (demo.cpp, CDemoRecorder::AddDemoMarker).
    if (t >= from && t <= to && (markers.length === 0 || t - markers.at(-1)! >= SERVER_TICK_SPEED)) markers.push(t);
  }
  const writer = new DemoWriter({ ...headerOf(reader), length: undefined, timelineMarkers: markers, timelinePadding: undefined }, reader.map, options);
  let kept = 0;
  for (const e of demoEvents(reader, options.protocol)) {
    if (e.tick > to) break;
    if (e.tick < from) continue;
    if (e.kind === 'snapshot') {
      writer.snapshot(e.tick, e.snapshot);
      kept++;
    } else writer.message(e.data);
  }
  // A range that holds no recorded tick would give a demo without snapshots, which no player plays: refused,
  // with the ticks the demo has.
  if (!kept) {
    const ticks = [...reader.chunks()].flatMap((c) => (c.kind === 'tick' ? [c.tick] : []));
    const range = `${Number.isFinite(from) ? from : ''}..${Number.isFinite(to) ? to : ''}`;
    const has = ticks.length ? `its ticks are ${ticks[0]}..${ticks.at(-1)}` : 'it has no ticks';
    throw new DemoError('BAD_RANGE', `the demo has no recorded tick in ${range} (${has})`, -1, 'slice');
  }
  return writer.finish();
}

export interface StripOptions extends DemoWriterOptions {
  /** Drop the messages this says to drop (given each message's packed bytes). */
  dropMessage?: (data: Uint8Array) => boolean;
  /**
   * Drop the messages of these names in the demo's protocol (its net version's message table: `sv_chat` is
   * the chat of 0.6/DDNet and of 0.7 demos alike).
   */
  dropMessages?: readonly string[];
  /** Drop the embedded map (the demo then names the map by name, CRC and SHA-256 only). */
  dropMap?: boolean;
}

/** The demo written again without the messages `dropMessage` / `dropMessages` pick and, with `dropMap`, without its map. */
export function stripDemo(bytes: Uint8Array, options: StripOptions = {}): Uint8Array {
  const reader = readDemo(bytes);
  const named = options.dropMessages?.length ? messageMatcher(reader.protocol.messages, options.dropMessages) : undefined;
  const writer = new DemoWriter(headerOf(reader), options.dropMap ? undefined : reader.map, options);
  for (const e of demoEvents(reader, options.protocol)) {
    if (e.kind === 'snapshot') writer.snapshot(e.tick, e.snapshot);
    else if (!options.dropMessage?.(e.data) && !named?.(e.data)) writer.message(e.data);
  }
  return writer.finish();
}

/**
 * Whether a message's packed bytes are one of the named messages of `table`, from its framing only
 * (peekNetMessage: the first int, and the UUID after it for DDNet's UUID messages): the rest is not decoded.
 */
function messageMatcher(table: NetProtocolDef, names: readonly string[]): (data: Uint8Array) => boolean {
  const defs = new Set<NetMessageDef>();
  for (const name of names) {
    const def = netMessageDef(table, name);
    if (!def) throw new DemoError('UNKNOWN_MESSAGE', `${table.protocol} has no message ${name}`, -1, 'dropMessages');
    defs.add(def);
  }
  return (data) => {
    const { def } = peekNetMessage(table, data);
    return def !== undefined && defs.has(def);
  };
}
