import { CodecError } from '@twcodec/runtime';
import type { NetErrorCode } from './error-codes.js';

/** Errors of the packet layer, of capture files and of the client: `code` says what (NET_ERROR_CODES). */
export class NetError extends CodecError<NetErrorCode> {}
