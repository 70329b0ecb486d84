import type { DeflateFunction } from '@twcodec/datafile';

// Node: nothing. @twcodec/datafile's Node codec deflates with the same pako 2 already, loaded when it first
// deflates, so a run that writes a map without compressing anything new (a resave) does not load pako at all.
export const writerDeflate: DeflateFunction | undefined = undefined;
