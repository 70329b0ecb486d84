import { readMap } from '@twcodec/map';
import { CodecError, errorAbout } from '@twcodec/runtime';
import { diffMapFiles } from '@twcodec/map-tools';

// map diff: the map tools' diff alone (start-up, issue 28).
export { formatMapDiff } from '@twcodec/map-tools';

export function mapDiffCommand(a: Uint8Array, b: Uint8Array) {
  // Errors say which of the two maps they are about (the arguments A and B).
  // Data whose stored bytes equal its counterpart's is not inflated (diffMapFiles).
  return diffMapFiles(a, b, (input, options, which) => {
    try {
      return readMap(input, options);
    } catch (e) {
      throw e instanceof CodecError ? errorAbout(e, which) : e;
    }
  });
}
