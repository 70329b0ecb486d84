import { readMap } from '@twcodec/map';
import { extractSounds, listImages } from '@twcodec/map-tools';

// map extract: the map tools' image list and sounds; the PNG writer (map-extract-png.ts, with fflate's and
// node:zlib's deflate) only for a map with embedded images (start-up, issues 28 and 41).

export async function mapExtract(bytes: Uint8Array) {
  // Only the embedded images' and the sounds' data are inflated (as DDNet's map_extract reads only those): the
  // items are read first to find them, which costs little beside inflating a large map's tile layers.
  // The container is opened once: the second read takes the first one's datafile, as diffMapFiles does.
  const items = readMap(bytes, { strict: false, inflateData: () => false });
  const wanted = new Set<number>([...items.images.filter((i) => !i.item.external).map((i) => i.item.data), ...items.sounds.map((s) => s.item.data)]);
  // Nothing to inflate: the second read would be the first again.
  const map = wanted.size ? readMap(items.datafile!, { strict: false, inflateData: (index) => wanted.has(index) }) : items;
  // extractImages writes embedded images only: without one, no PNG writer is loaded.
  const images = map.images.some((i) => !i.item.external) ? (await import('./map-extract-png.js')).extractPngs(map) : new Map<string, Uint8Array>();
  return { images: listImages(map), files: new Map([...[...images].map(([n, d]) => [`images/${n}`, d] as const), ...[...extractSounds(map)].map(([n, d]) => [`sounds/${n}`, d] as const)]) };
}
