// map info and map validate: only @twcodec/map, so that batch workers running them load nothing else.
import { readMap, validateMap } from '@twcodec/map';

/** The summary of `map info` (the map package makes it). */
export { mapInfo } from '@twcodec/map';

export function mapValidate(bytes: Uint8Array) {
  const map = readMap(bytes, { strict: false });
  const issues = validateMap(map);
  const count = (s: string) => issues.filter((i) => i.severity === s).length;
  return { ok: count('error') === 0, errors: count('error'), fixed: count('fixed'), warnings: count('warning'), issues };
}
