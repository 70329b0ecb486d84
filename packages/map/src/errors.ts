// MapError is defined in generated code (the generated decoders throw it); this is its public home, and where
// its code gets its type (a class declared in generated code is typed here by declaration merging, so that the
// generator needs to know nothing of the table).
import type { MapErrorCode } from './error-codes.js';

export { MapError } from './generated/errors.gen.js';

declare module './generated/errors.gen.js' {
  interface MapError {
    /** What went wrong (MAP_ERROR_CODES, DATAFILE_ERROR_CODES, RUNTIME_ERROR_CODES). */
    readonly code: MapErrorCode;
  }
}
