import { Datafile } from '@twcodec/datafile';
import { type Uuid } from '@twcodec/runtime';
import { MAP_ITEM_TYPES } from '@twcodec/map';

// Names of the UUID item types the map schemas know, to label them in `info`.
const KNOWN_UUID_NAMES = new Map<Uuid, string>(MAP_ITEM_TYPES.filter((t) => t.uuid && t.uuidName).map((t) => [t.uuid!, t.uuidName!]));

export interface DatafileInfo {
  fileSize: number;
  magic: string;
  version: number;
  legacySizeFields: boolean;
  itemTypes: { type: number; uuid?: string; uuidName?: string; count: number; bytes: number }[];
  itemCount: number;
  data: { count: number; storedBytes: number; bytes: number; items: { index: number; storedBytes: number; bytes: number }[] };
}

export function datafileInfo(bytes: Uint8Array): DatafileInfo {
  const df = Datafile.read(bytes);
  const itemTypes: DatafileInfo['itemTypes'] = [];
  for (const item of df.items) {
    let entry = itemTypes[itemTypes.length - 1];
    if (!entry || entry.type !== item.type) {
      entry = { type: item.type, count: 0, bytes: 0 };
      if (item.uuid) {
        entry.uuid = item.uuid;
        const name = KNOWN_UUID_NAMES.get(item.uuid);
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

export function resaveDatafile(bytes: Uint8Array, ddnet: boolean): Uint8Array {
  const df = Datafile.read(bytes);
  if (ddnet) {
    // DDNet's writer inflates every data item on the way; do the same so corrupt data fails here too.
    for (const d of df.data) d.bytes();
  }
  return df.write({ mode: ddnet ? 'ddnet' : 'lossless' });
}
