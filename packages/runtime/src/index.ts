// The binary runtime every twcodec package shares: bounds-checked readers and writers, variable-width ints,
// I32String, Teeworlds UUIDs (MD5-based), the network Huffman code, and the error classes. No dependencies, no Node APIs.
// Byte arrays, text and variable-width ints.
export { asUint8Array, concatBytes, copyBytes, deepEqual, emptyObjectArray } from './arrays.js';
export { ByteReader, ByteWriter } from './bytes.js';
export { decodeCString, decodeUtf8, decodeUtf8Escaped, encodeUtf8, encodeUtf8Escaped } from './utf8.js';
export { packVarInt, unpackVarInt, unpackVarInts, varIntSize } from './varint.js';
export { BinaryError, CodecError, type CodecErrorSource, describeSource, errorAbout, lineColumn } from './errors.js';
export { RUNTIME_ERROR_CODES, type RuntimeErrorCode } from './error-codes.js';
export { crc32, sha256 } from './hash.js';
export { Huffman, TEEWORLDS_FREQUENCIES, teeworldsHuffman } from './huffman.js';
export { decodeI32String, encodeI32String } from './i32string.js';
export { asciiInt32s, bytesEqual, bytesFromInt32s, int32sFromBytes } from './ints.js';
export { firstNonZeroPerOffset, firstNonZeroRecord, recordsNotIn } from './record-scan.js';
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
