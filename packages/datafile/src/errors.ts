import { CodecError } from '@twcodec/runtime';

/** Errors of the datafile container. */
export class DatafileError extends CodecError {}
