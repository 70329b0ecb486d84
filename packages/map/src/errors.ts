// MapError is defined in generated code (the generated decoders throw it); this is its public home.
export { MapError } from './generated/errors.gen.js';
