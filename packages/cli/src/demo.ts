import { type DemoReader, demoPlayers, demoTickAt, readDemo, resaveDemo, sliceDemo, stripDemo } from '@twcodec/demo';
import { objectValueNames, type Snapshot, snapshotObjects, type SnapshotProtocol } from '@twcodec/snapshot';
import { UsageError } from './io.js';

/** Header, tick range and chunk counts (the demo package counts them). */
export { demoInfo } from '@twcodec/demo';

/**
 * `demo players`: who was in the demo, from its client-info snapshot items (demoPlayers): one entry per client
 * id and name, clan, skin... for as long as they stayed the same, with the recorded ticks it spans. A demo cut
 * short is read up to its last whole chunk.
 */
export function demoPlayerList(bytes: Uint8Array) {
  const demo = readDemo(bytes, { onTruncated: 'stop' });
  return { players: demoPlayers(demo) };
}

/** Names of the item types of a snapshot, UUID types by their protocol name (or UUID). */
function typeNames(snapshot: Snapshot, protocol: SnapshotProtocol): (type: number) => string {
  const numbered = new Map(protocol.items.map((t) => [t.typeId, t.name]));
  const byUuid = new Map(protocol.uuidItems.map((u) => [u.uuid, u.name]));
  const uuids = snapshot.uuidTypes();
  return (type) => {
    const uuid = uuids.get(type);
    if (uuid) return byUuid.get(uuid) ?? uuid;
    return numbered.get(type) ?? `type_${type}`;
  };
}

/**
 * One JSON line per recorded tick: tick, checksum, and every item with its named fields (`object`, `id`,
 * `fields`, and `names`: the names of its enum values and flag bits; items of unknown type keep their ints and
 * say why), plus what DDNet's validation would correct.
 */
export function* demoSnapshotObjects(bytes: Uint8Array, protocolOption?: SnapshotProtocol): Generator<string> {
  const demo = readDemo(bytes, { onTruncated: 'stop' });
  const protocol = protocolOption ?? demo.protocol.snapshots; // the demo's own, from its net version
  for (const s of demo.snapshots(protocol)) {
    const objects = snapshotObjects(s.snapshot, protocol);
    const items = [];
    for (const entry of objects.entries()) {
      if (entry.known) {
        // Names beside the numbers of enum and flags fields (schema enums), keyed like `fields`.
        const names = objectValueNames(entry.view.layout, entry.view.item.data);
        items.push({ object: entry.view.layout.name, id: entry.view.item.id, fields: entry.view.toObject(), ...(Object.keys(names).length ? { names } : {}) });
      }
      else items.push({ object: entry.uuid ?? `type_${entry.item.type}`, id: entry.item.id, unknown: entry.reason, data: Array.from(entry.item.data) });
    }
    const problems = objects.validate().map((p) => p.message);
    yield `${JSON.stringify({ tick: s.tick, source: s.source, checksum: s.snapshot.checksum(), items, ...(problems.length ? { problems } : {}) })}\n`;
  }
  yield* cutShort(demo);
}

/** A last line for a demo cut short: where reading stopped (as `demo info` reports it). */
function* cutShort(demo: DemoReader): Generator<string> {
  if (demo.end?.truncated) yield `${JSON.stringify({ end: demo.end })}\n`;
}

/** One JSON line per recorded tick: tick, checksum, item count, items by type name. */
export function* demoSnapshots(bytes: Uint8Array, protocolOption?: SnapshotProtocol): Generator<string> {
  const demo = readDemo(bytes, { onTruncated: 'stop' });
  const protocol = protocolOption ?? demo.protocol.snapshots; // the demo's own, from its net version
  for (const s of demo.snapshots(protocol)) {
    const name = typeNames(s.snapshot, protocol);
    const byType: Record<string, number> = {};
    for (const item of s.snapshot.items) {
      const key = name(item.type);
      byType[key] = (byType[key] ?? 0) + 1;
    }
    yield `${JSON.stringify({ tick: s.tick, source: s.source, checksum: s.snapshot.checksum(), items: s.snapshot.items.length, byType })}\n`;
  }
  yield* cutShort(demo);
}

export function demoResave(bytes: Uint8Array): Uint8Array {
  return resaveDemo(bytes);
}

/** Ticks from --from/--to, --from-time/--to-time (seconds from the first tick) and --marker N. */
export function demoSlice(bytes: Uint8Array, flags: Record<string, boolean | string | undefined>): Uint8Array {
  // Ticks and marker numbers are whole numbers written in digits; seconds may have a fraction. Number() alone
  // took "" as 0, "0x10" as 16 and a tick 1000.5.
  const number = (name: string): number | undefined => {
    const text = flags[name];
    if (typeof text !== 'string') return undefined;
    const seconds = name.endsWith('-time');
    const v = Number(text);
    if (!(seconds ? /^(\d+(\.\d*)?|\.\d+)$/ : /^\d+$/).test(text.trim()) || !Number.isFinite(v)) throw new UsageError(`--${name} needs ${seconds ? 'a number of seconds >= 0' : 'a whole number >= 0'}, got "${text}"`);
    return v;
  };
  // Read first: a file that is no demo is that error, whatever the options.
  const reader = readDemo(bytes);
  let from = number('from');
  let to = number('to');
  const fromTime = number('from-time');
  const toTime = number('to-time');
  if (fromTime !== undefined) from = demoTickAt(bytes, fromTime);
  if (toTime !== undefined) to = demoTickAt(bytes, toTime);
  const marker = number('marker');
  if (marker !== undefined) {
    const markers = reader.header.timelineMarkers;
    if (!Number.isInteger(marker) || marker >= markers.length) {
      throw new UsageError(`--marker ${marker}: the demo has ${markers.length} timeline markers`);
    }
    from = markers[marker];
    to = marker + 1 < markers.length ? markers[marker + 1]! - 1 : undefined;
  }
  return sliceDemo(bytes, { from, to });
}

export function demoStrip(bytes: Uint8Array, options: { chat: boolean; map: boolean }): Uint8Array {
  return stripDemo(bytes, { dropMessages: options.chat ? ['sv_chat'] : [], dropMap: options.map });
}
