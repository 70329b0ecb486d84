import { Datafile, type DatafileInfo, datafileInfo as summarise } from '@twcodec/datafile';
import { type Uuid } from '@twcodec/runtime';
import { MAP_ITEM_TYPES } from '@twcodec/map';

// Names of the UUID item types the map schemas know, to label them in `info`.
const KNOWN_UUID_NAMES = new Map<Uuid, string>(MAP_ITEM_TYPES.filter((t) => t.uuid && t.uuidName).map((t) => [t.uuid!, t.uuidName!]));

/** `datafile info`: the datafile package's summary, with the UUID item types the map schemas know named. */
export function datafileInfo(bytes: Uint8Array): DatafileInfo {
  return summarise(bytes, { uuidName: (uuid) => KNOWN_UUID_NAMES.get(uuid) });
}

export function resaveDatafile(bytes: Uint8Array, ddnet: boolean): Uint8Array {
  const df = Datafile.read(bytes);
  if (ddnet) {
    // DDNet's writer inflates every data item on the way; do the same so corrupt data fails here too.
    for (const d of df.data) d.bytes();
  }
  return df.write({ mode: ddnet ? 'ddnet' : 'lossless' });
}
