import { readMap, writeMap } from '@twcodec/map';
import { nodeDeflate } from '@twcodec/datafile/zlib-node';
import { UsageError } from './io.js';
import { CLI_PNG } from './png-options.js';
import { checkDirReference, findImage, findSound, MAP_JSON, type MapFiles, ORIGINAL_MAP, renderGameLayerFile, renderMapFile, replaceImage, replaceSound } from '@twcodec/map-tools';

// The map commands that use the map tools' directory form, renderer and image replacement. The others have a
// module each, so that a command loads only what it uses (start-up, issue 28; docs/performance.md):
// map-info.ts (info, validate; also the batch workers'), map-resave.ts (resave, json), map-extract.ts,
// map-diff.ts, map-convert.ts.

/** The files of the directory form that map.json refers to, plus original.map when present. */
export async function mapPackFiles(readFile: (path: string) => Promise<Uint8Array>, dir: string): Promise<MapFiles> {
  const files: MapFiles = new Map();
  const jsonBytes = await readFile(`${dir}/${MAP_JSON}`);
  files.set(MAP_JSON, jsonBytes);
  const refs = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const key of ['png', 'opus', 'tiles'] as const) {
        const ref = (v as Record<string, unknown>)[key];
        if (typeof ref === 'string') refs.add(ref);
      }
      Object.values(v).forEach(walk);
    }
  };
  try {
    walk(JSON.parse(new TextDecoder().decode(jsonBytes)));
  } catch {
    // packMap reports the broken JSON with its file name.
  }
  for (const ref of refs) {
    checkDirReference(ref, MAP_JSON);
    files.set(ref, await readFile(`${dir}/${ref}`));
  }
  try {
    files.set(ORIGINAL_MAP, await readFile(`${dir}/${ORIGINAL_MAP}`));
  } catch {
    // Without the original the map is written afresh.
  }
  return files;
}

export function mapRender(bytes: Uint8Array, what: string, tileSize: number | undefined, mapres: Map<string, Uint8Array> | undefined): Uint8Array {
  const options = { ...(tileSize ? { tileSize } : {}), mapres: (name: string) => mapres?.get(name), png: CLI_PNG };
  // From the file: layers are inflated as they are drawn, not held whole (an 8192x8192 layer is 256 MiB).
  return what === 'game' ? renderGameLayerFile(bytes, options) : renderMapFile(bytes, options);
}

/** An image or sound as the command line names it: by index, by name, or `auto` (digits: an index, else a name). */
export type ItemChoice = { index: number } | { name: string } | { auto: string };

/** The index of the item `which` names among `names`; an `auto` choice of digits that is also a name is refused. */
function resolveItem(names: (string | undefined)[], which: ItemChoice, kind: 'image' | 'sound'): number | string {
  if ('index' in which) return which.index;
  if ('name' in which) return which.name;
  if (!/^\d+$/.test(which.auto)) return which.auto;
  const index = Number(which.auto);
  const named = names.indexOf(which.auto);
  if (named >= 0 && named !== index) {
    throw new UsageError(`${kind} "${which.auto}" is ambiguous: ${kind} ${named} is named "${which.auto}"; say --index ${which.auto} or --name ${which.auto}`);
  }
  return index;
}

export function mapReplaceImage(bytes: Uint8Array, which: ItemChoice, png: Uint8Array, source?: string): Uint8Array {
  const map = readMap(bytes, { strict: false });
  replaceImage(map, findImage(map, resolveItem(map.images.map((i) => i.name), which, 'image')), png, { source });
  // The new image is compressed natively: pako took 4.8 of the 7 CPU seconds an 8192x8192 image cost (DDNet's
  // map_replace_image: 2.1, bench/large-layer.mjs). Its bytes may differ from what DDNet's zlib would store,
  // which nothing promises for new data; the rest of the map keeps its stored bytes.
  return writeMap(map, { deflate: nodeDeflate });
}

export function mapReplaceSound(bytes: Uint8Array, which: ItemChoice, opus: Uint8Array, source?: string): Uint8Array {
  const map = readMap(bytes, { strict: false });
  replaceSound(map, findSound(map, resolveItem(map.sounds.map((s) => s.name), which, 'sound')), opus, { source });
  return writeMap(map);
}
