export {
  Datafile,
  DatafileData,
  DDNET_COMPRESSION_LEVEL,
  ITEMTYPE_EX,
  OFFSET_UUID_TYPE,
  type DatafileItem,
  type DatafileReadOptions,
  type DatafileWriteMode,
  type DatafileWriteOptions,
} from './datafile.js';
export { DatafileError } from './errors.js';
// The binary runtime, re-exported as before it moved to @twcodec/runtime.
export {
  asUint8Array,
  BinaryError,
  ByteReader,
  ByteWriter,
  bytesEqual,
  bytesFromInt32s,
  CodecError,
  concatBytes,
  decodeCString,
  decodeI32String,
  decodeUtf8,
  decodeUtf8Escaped,
  deepEqual,
  encodeI32String,
  encodeUtf8,
  encodeUtf8Escaped,
  int32sFromBytes,
  isUuid,
  md5,
  packVarInt,
  TEEWORLDS_NAMESPACE,
  type Uuid,
  uuidFromBytes,
  uuidFromInts,
  uuidFromName,
  uuidToBytes,
  uuidToInts,
  varIntSize,
} from '@twcodec/runtime';
export { defaultZlib } from '#zlib';
export { rememberingZlib } from './zlib/remember.js';
export { type DeflateFunction, InflateLimitError, inflateSlices, MAX_DEFLATE_RATIO, maxInflatedSize, type ZlibCodec } from './zlib/types.js';
