// @twcodec/datafile: the container of Teeworlds/DDNet maps (items and zlib-compressed data items), read with
// every check of DDNet's loader and written back byte for byte. The binary runtime (ByteReader, UUIDs, ...)
// is @twcodec/runtime's: import it from there.

// The container.
export { Datafile, DatafileData } from './datafile.js';
export { type DatafileInfo, datafileInfo } from './info.js';
export {
  DDNET_COMPRESSION_LEVEL,
  type DatafileItem,
  type DatafileMagic,
  type DatafileReadOptions,
  type DatafileVersion,
  type DatafileWriteMode,
  type DatafileWriteOptions,
  ITEMTYPE_EX,
  OFFSET_UUID_TYPE,
} from './layout.js';

// zlib: the codec the container inflates and deflates with (Node: node:zlib, browsers: fflate).
export { defaultZlib } from '#zlib';
export { rememberingZlib } from './zlib/remember.js';
export { type DeflateFunction, InflateLimitError, inflateSlices, MAX_DEFLATE_RATIO, maxInflatedSize, type ZlibCodec } from './zlib/types.js';

// Errors: DatafileError's codes, and the runtime's base class of every error thrown for bad input.
export { DATAFILE_ERROR_CODES, type DatafileErrorCode } from './error-codes.js';
export { DatafileError } from './errors.js';
export { BinaryError, CodecError } from '@twcodec/runtime';
