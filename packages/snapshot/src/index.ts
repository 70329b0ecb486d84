// @twcodec/snapshot: snapshots and deltas of Teeworlds 0.6/DDNet and 0.7, and their objects by the layouts
// generated from schemas/snapshot.
export { applyDelta, type ApplyDeltaOptions, createDelta, sizeTable } from './delta.js';
// Generated (schemas/snapshot): each protocol's object layouts, and the types of its objects by name
// (Ddnet06Objects['character']).
export { DDNET_0_6, SNAPSHOT_PROTOCOLS, type SnapshotField, type SnapshotItemType, type SnapshotLayout, type SnapshotProtocol, type SnapshotUuidItemType, type SnapshotValueSet, TEEWORLDS_0_7 } from './generated/tables.gen.js';
export type { Ddnet06Objects, Teeworlds07Objects } from './generated/objects.gen.js';
// Generated: the enums and flags of object fields.
export {
  Ddnet06Authed,
  Ddnet06CharacterFlags,
  Ddnet06Emote,
  Ddnet06Emoticon,
  Ddnet06EntityClass,
  Ddnet06ExPlayerFlags,
  Ddnet06GameFlags,
  Ddnet06GameInfoFlags,
  Ddnet06GameInfoFlags2,
  Ddnet06GameStateFlags,
  Ddnet06LaserDraggerType,
  Ddnet06LaserFlags,
  Ddnet06LaserGunType,
  Ddnet06LaserType,
  Ddnet06LegacyProjectileFlags,
  Ddnet06PickupFlags,
  Ddnet06PlayerFlags,
  Ddnet06Powerup,
  Ddnet06ProjectileFlags,
  Ddnet06SaveState,
  Ddnet06Sound,
  Ddnet06Team,
  Ddnet06Weapon,
  Teeworlds07ChatMode,
  Teeworlds07CoreEventFlags,
  Teeworlds07Emote,
  Teeworlds07Emoticon,
  Teeworlds07GameFlags,
  Teeworlds07GameMsg,
  Teeworlds07GameStateFlags,
  Teeworlds07PickupValue,
  Teeworlds07PlayerFlags,
  Teeworlds07RaceFlags,
  Teeworlds07Sound,
  Teeworlds07SpecMode,
  Teeworlds07Vote,
  Teeworlds07Weapon,
} from './generated/enums.gen.js';
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
// Errors: SnapshotError's codes, and the runtime's base class of every error thrown for bad input.
export { SNAPSHOT_ERROR_CODES, type SnapshotErrorCode } from './error-codes.js';
export { BinaryError, CodecError } from '@twcodec/runtime';
