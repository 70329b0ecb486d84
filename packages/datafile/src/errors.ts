import { CodecError } from '@twcodec/runtime';
import type { DatafileErrorCode } from './error-codes.js';

/** Errors of the datafile container: `code` says what (DATAFILE_ERROR_CODES). */
export class DatafileError extends CodecError<DatafileErrorCode> {}
