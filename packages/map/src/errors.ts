import { CodecError } from '@twcodec/runtime';
import type { MapErrorCode } from './error-codes.js';

/**
 * Errors of map decoding and encoding; `path` names the map element, e.g. `groups[2].layers[0].data`, and
 * `code` is one of MAP_ERROR_CODES (or of the datafile and runtime, whose errors map reading passes on).
 */
export class MapError extends CodecError<MapErrorCode> {}
