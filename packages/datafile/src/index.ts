export { asUint8Array, ByteReader, ByteWriter, decodeCString, decodeUtf8, decodeUtf8Escaped, deepEqual, encodeUtf8, encodeUtf8Escaped, packVarInt, varIntSize } from './bytes.js';
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
export { BinaryError, CodecError, DatafileError } from './errors.js';
export { decodeI32String, encodeI32String } from './i32string.js';
export { bytesEqual, bytesFromInt32s, int32sFromBytes } from './ints.js';
export { md5 } from './md5.js';
export {
  isUuid,
  TEEWORLDS_NAMESPACE,
  type Uuid,
  uuidFromBytes,
  uuidFromInts,
  uuidFromName,
  uuidToBytes,
  uuidToInts,
} from './uuid.js';
export { defaultZlib } from '#zlib';
export { InflateLimitError, MAX_DEFLATE_RATIO, maxInflatedSize, type ZlibCodec } from './zlib/types.js';
