export { applyDelta, type ApplyDeltaOptions, createDelta, sizeTable } from './delta.js';
export * from './generated/tables.gen.js';
export * from './generated/enums.gen.js';
export type * from './generated/objects.gen.js';
export {
  decodeObject,
  type DecodedObject,
  encodeObject,
  fieldValueText,
  flagNames,
  layoutNamed,
  objectValueNames,
  type ObjectName,
  type ObjectProblem,
  type ObjectView,
  type SnapshotObjectEntry,
  SnapshotObjects,
  snapshotObjects,
  type UnknownItemReason,
  validateObject,
  valueName,
  viewObject,
} from './objects.js';
export {
  itemKey,
  Snapshot,
  SnapshotError,
  type SnapshotItem,
  SNAPSHOT_MAX_ID,
  SNAPSHOT_MAX_ITEMS,
  SNAPSHOT_MAX_SIZE,
  SNAPSHOT_MAX_TYPE,
  SNAPSHOT_OFFSET_UUID_TYPE,
} from './snapshot.js';
// The base class of every error thrown for bad input (code, byte offset, field path), to catch them all.
export { BinaryError, CodecError } from '@twcodec/runtime';
