// What a demo holds at a glance (`twcodec demo info`): header, tick range and chunk counts, read up to a cut.
import { type DemoChunk, type DemoEnd, type DemoHeader, type DemoProtocolName, readDemo } from './demo.js';
import { SERVER_TICK_SPEED } from '@twcodec/netmsg';

export interface DemoInfo {
  fileSize: number;
  header: DemoHeader;
  protocol: DemoProtocolName;
  /** The size of the map the demo embeds, when it does. */
  embeddedMap: { bytes: number } | undefined;
  ticks: {
    first: number;
    last: number;
    /** The ticks from first to last, both counted (0 without a tick marker). */
    span: number;
    /** Tick markers. */
    markers: number;
    /** The recorded ticks, as DemoReader.snapshots() yields them (one per tick once a first snapshot exists). */
    snapshots: number;
  };
  /** Chunks by kind; `keyframe` counts the tick markers that start a keyframe. */
  chunks: Record<DemoChunk['kind'] | 'keyframe', number>;
  /** Where reading stopped (`truncated` for a demo cut short: read up to its last whole chunk). */
  end: DemoEnd | undefined;
}

/**
 * Header, tick range and chunk counts of a demo. A demo cut short (a recording that was killed) is read up to
 * the cut: `end.truncated` says so and where.
 */
export function demoInfo(bytes: Uint8Array): DemoInfo {
  const demo = readDemo(bytes, { onTruncated: 'stop' });
  const chunks: DemoInfo['chunks'] = { tick: 0, keyframe: 0, snapshot: 0, delta: 0, message: 0 };
  let first: number | undefined;
  let last = 0;
  // As DemoReader.snapshots(): a tick marker gives a snapshot once a first snapshot chunk exists (a marker
  // without a chunk repeats the one before).
  let snapshots = 0;
  let haveSnapshot = false;
  let pendingTick = false;
  for (const c of demo.chunks()) {
    chunks[c.kind]++;
    if (c.kind === 'tick') {
      if (c.keyframe) chunks.keyframe++;
      first ??= c.tick;
      last = c.tick;
      if (pendingTick && haveSnapshot) snapshots++;
      pendingTick = true;
    } else if (c.kind === 'snapshot' || (c.kind === 'delta' && haveSnapshot)) {
      haveSnapshot = true;
      snapshots++;
      pendingTick = false;
    }
  }
  if (pendingTick && haveSnapshot) snapshots++;
  return {
    fileSize: bytes.length,
    header: demo.header,
    protocol: demo.protocol.name,
    embeddedMap: demo.map ? { bytes: demo.map.length } : undefined,
    ticks: { first: first ?? 0, last, span: first === undefined ? 0 : last - first + 1, markers: chunks.tick, snapshots },
    chunks,
    end: demo.end,
  };
}

/** The tick `seconds` after the demo's first tick marker (its start), at the server's tick rate. */
export function demoTickAt(bytes: Uint8Array, seconds: number): number {
  const demo = readDemo(bytes, { onTruncated: 'stop' });
  let start = 0;
  for (const c of demo.chunks()) {
    if (c.kind === 'tick') {
      start = c.tick;
      break;
    }
  }
  return start + Math.round(seconds * SERVER_TICK_SPEED);
}
