import { readDemo } from '@twcodec/demo';
import { DDNET_0_6, type Snapshot, snapshotObjects, type SnapshotProtocol } from '@twcodec/snapshot';

export function demoInfo(bytes: Uint8Array) {
  const demo = readDemo(bytes);
  const chunks: Record<string, number> = { tick: 0, keyframe: 0, snapshot: 0, delta: 0, message: 0 };
  let first: number | undefined;
  let last = 0;
  for (const c of demo.chunks()) {
    chunks[c.kind]!++;
    if (c.kind === 'tick') {
      if (c.keyframe) chunks.keyframe!++;
      first ??= c.tick;
      last = c.tick;
    }
  }
  return {
    fileSize: bytes.length,
    header: demo.header,
    embeddedMap: demo.map ? { bytes: demo.map.length } : undefined,
    ticks: { first: first ?? 0, last, count: first === undefined ? 0 : last - first + 1 },
    chunks,
  };
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
 * `fields`; items of unknown type keep their ints and say why), plus what DDNet's validation would correct.
 */
export function* demoSnapshotObjects(bytes: Uint8Array, protocol: SnapshotProtocol = DDNET_0_6): Generator<string> {
  for (const s of readDemo(bytes).snapshots(protocol)) {
    const objects = snapshotObjects(s.snapshot, protocol);
    const items = [];
    for (const entry of objects.entries()) {
      if (entry.known) items.push({ object: entry.view.layout.name, id: entry.view.item.id, fields: entry.view.toObject() });
      else items.push({ object: entry.uuid ?? `type_${entry.item.type}`, id: entry.item.id, unknown: entry.reason, data: Array.from(entry.item.data) });
    }
    const problems = objects.validate().map((p) => p.message);
    yield `${JSON.stringify({ tick: s.tick, source: s.source, checksum: s.snapshot.checksum(), items, ...(problems.length ? { problems } : {}) })}\n`;
  }
}

/** One JSON line per recorded tick: tick, checksum, item count, items by type name. */
export function* demoSnapshots(bytes: Uint8Array, protocol: SnapshotProtocol = DDNET_0_6): Generator<string> {
  for (const s of readDemo(bytes).snapshots(protocol)) {
    const name = typeNames(s.snapshot, protocol);
    const byType: Record<string, number> = {};
    for (const item of s.snapshot.items) {
      const key = name(item.type);
      byType[key] = (byType[key] ?? 0) + 1;
    }
    yield `${JSON.stringify({ tick: s.tick, source: s.source, checksum: s.snapshot.checksum(), items: s.snapshot.items.length, byType })}\n`;
  }
}
