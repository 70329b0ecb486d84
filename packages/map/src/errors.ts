import { CodecError } from '@twcodec/runtime';

/** Errors of map decoding and encoding; `path` names the map element, e.g. `groups[2].layers[0].data`. */
export class MapError extends CodecError {}
