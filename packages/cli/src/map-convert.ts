import { readMap } from '@twcodec/map';
import { convert07ToDdnetFile, convertDdnetTo07File, type ConvertTo07Result, hasTeeworlds07Form, listImages, mapresFileName } from '@twcodec/map-tools';
import { UsageError } from './io.js';

// map convert (and the mapres look-up that map render shares): the conversions and the image list of the map
// tools, not their PNG writer, renderer or directory form (start-up, issue 28).

/** The targets of `map convert --to`: `ddnet` (a 0.7 map to DDNet) and `0.7` (a DDNet map for 0.7, as map_convert_07). */
export const CONVERT_TARGETS = ['ddnet', '0.7'] as const;

/**
 * `note`: the input is already in the target form. It is still written (as `map resave --ddnet` writes it, for
 * --to ddnet; as map_convert_07 writes it, for --to 0.7), so that converting a folder of mixed maps works,
 * and the note says that nothing was converted.
 */
export function mapConvert(
  bytes: Uint8Array,
  to: string,
  mapres?: (name: string) => Uint8Array | undefined,
): { bytes: Uint8Array; report?: ConvertTo07Result['notes']; ok: boolean; note?: string } {
  if (to === 'ddnet') {
    const already = !hasTeeworlds07Form(readMap(bytes, { strict: false, skipData: true }));
    return { bytes: convert07ToDdnetFile(bytes), ok: true, ...(already ? { note: 'the map has no Teeworlds 0.7 images or skip-compressed layers: nothing to convert; written as `map resave --ddnet` writes it' } : {}) };
  }
  if (to === '0.7' || to === '07') {
    const already = hasTeeworlds07Form(readMap(bytes, { strict: false, skipData: true }));
    const result = convertDdnetTo07File(bytes, { mapres });
    return { bytes: result.bytes, report: result.notes, ok: result.ok, ...(already ? { note: 'the map already has Teeworlds 0.7 images or skip-compressed layers; converted as map_convert_07 would' } : {}) };
  }
  // Not reached from the command line (the option table checks the value of --to), only by a caller of this module.
  throw new UsageError(`--to ${to} is not supported; use --to ddnet (0.7 to DDNet) or --to 0.7 (DDNet to 0.7)`);
}

/**
 * The external images a render or a conversion looks up in a mapres directory: name and relative file
 * (`<name>.png`). Refuses (MapError `mapres.name`, naming the image) a name that would leave the directory.
 */
export function mapresFiles(bytes: Uint8Array): { name: string; file: string }[] {
  return listImages(readMap(bytes, { strict: false }))
    .filter((i) => i.external && i.name !== undefined)
    .map((i) => ({ name: i.name!, file: mapresFileName(i.name!, i.index) }));
}
