import { CodecError } from '@twcodec/runtime';

/** Errors of the packet layer and of capture files: `code` says what (TRUNCATED, BAD_CHUNK, IP_FRAGMENT, ...). */
export class NetError extends CodecError {}
