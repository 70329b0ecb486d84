// What a datafile holds at a glance (`twcodec datafile info`).
import type { Uuid } from '@twcodec/runtime';
import { Datafile } from './datafile.js';

export interface DatafileInfo {
  fileSize: number;
  magic: string;
  version: number;
  legacySizeFields: boolean;
  itemTypes: { type: number; uuid?: string; uuidName?: string; count: number; bytes: number }[];
  itemCount: number;
  data: { count: number; storedBytes: number; bytes: number; items: { index: number; storedBytes: number; bytes: number }[] };
}

/**
 * A summary of a datafile (`twcodec datafile info`): version, item types with their counts and sizes, data
 * items with their stored and inflated sizes (declared: nothing is inflated). `uuidName` names the UUID item
 * types the caller knows (the map package's registry, for maps).
 */
export function datafileInfo(bytes: Uint8Array, options: { uuidName?: (uuid: Uuid) => string | undefined } = {}): DatafileInfo {
  const df = Datafile.read(bytes);
  const itemTypes: DatafileInfo['itemTypes'] = [];
  for (const item of df.items) {
    let entry = itemTypes[itemTypes.length - 1];
    if (!entry || entry.type !== item.type) {
      entry = { type: item.type, count: 0, bytes: 0 };
      if (item.uuid) {
        entry.uuid = item.uuid;
        const name = options.uuidName?.(item.uuid);
        if (name) entry.uuidName = name;
      }
      itemTypes.push(entry);
    }
    entry.count++;
    entry.bytes += item.data.length * 4;
  }
  const items = df.data.map((d) => ({ index: d.index, storedBytes: d.stored?.length ?? 0, bytes: d.size }));
  return {
    fileSize: bytes.length,
    magic: df.magic,
    version: df.version,
    legacySizeFields: df.legacySize || df.legacySwaplen,
    itemTypes,
    itemCount: df.items.length,
    data: {
      count: items.length,
      storedBytes: items.reduce((s, d) => s + d.storedBytes, 0),
      bytes: items.reduce((s, d) => s + d.bytes, 0),
      items,
    },
  };
}
