import { readMap } from '@twcodec/map';
import { extractImages, extractSounds, listImages } from '@twcodec/map-tools';
import { CLI_PNG } from './png-options.js';

// map extract: the map tools' image list, PNG writer and sounds (start-up, issue 28).

export function mapExtract(bytes: Uint8Array) {
  // Only the embedded images' and the sounds' data are inflated (as DDNet's map_extract reads only those): the
  // items are read first to find them, which costs little beside inflating a large map's tile layers.
  // The container is opened once: the second read takes the first one's datafile, as diffMapFiles does.
  const items = readMap(bytes, { strict: false, inflateData: () => false });
  const wanted = new Set<number>([...items.images.filter((i) => !i.item.external).map((i) => i.item.data), ...items.sounds.map((s) => s.item.data)]);
  const map = readMap(items.datafile!, { strict: false, inflateData: (index) => wanted.has(index) });
  return { images: listImages(map), files: new Map([...[...extractImages(map, CLI_PNG)].map(([n, d]) => [`images/${n}`, d] as const), ...[...extractSounds(map)].map(([n, d]) => [`sounds/${n}`, d] as const)]) };
}
