import { type Snapshot, type SnapshotProtocol } from '@twcodec/snapshot';
import { DemoError, type DemoReader, readDemo } from './demo.js';
import { type DemoWriteHeader, DemoWriter, type DemoWriterOptions } from './writer.js';

/** What a demo recorded, in order: the snapshot of each tick, and net messages with the tick they came in. */
export type DemoEvent = { kind: 'snapshot'; tick: number; snapshot: Snapshot } | { kind: 'message'; tick: number; data: Uint8Array };

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
      yield { kind: 'snapshot', tick, snapshot: next.value.snapshot };
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

/** Reads a demo and writes it again through DemoWriter: a DDNet demo comes back byte for byte. */
export function resaveDemo(bytes: Uint8Array, options: DemoWriterOptions = {}): Uint8Array {
  const reader = readDemo(bytes);
  const writer = new DemoWriter(headerOf(reader), reader.map, options);
  for (const e of demoEvents(reader, options.protocol)) {
    if (e.kind === 'snapshot') writer.snapshot(e.tick, e.snapshot);
    else writer.message(e.data);
  }
  return writer.finish();
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
    if (t >= from && t <= to && (markers.length === 0 || t - markers.at(-1)! >= 50)) markers.push(t);
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
  /** Drop the embedded map (the demo then names the map by name, CRC and SHA-256 only). */
  dropMap?: boolean;
}

/** The demo written again without the messages `dropMessage` picks and, with `dropMap`, without its map. */
export function stripDemo(bytes: Uint8Array, options: StripOptions = {}): Uint8Array {
  const reader = readDemo(bytes);
  const writer = new DemoWriter(headerOf(reader), options.dropMap ? undefined : reader.map, options);
  for (const e of demoEvents(reader, options.protocol)) {
    if (e.kind === 'snapshot') writer.snapshot(e.tick, e.snapshot);
    else if (!options.dropMessage?.(e.data)) writer.message(e.data);
  }
  return writer.finish();
}
