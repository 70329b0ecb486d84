export { MapError } from './errors.js';
export * from './generated/index.gen.js';
export type {
  DeprecatedSoundsLayer,
  MapEnvelope,
  MapEnvelopePoint,
  MapGroup,
  MapImage,
  MapInfo,
  MapIssue,
  MapIssueSeverity,
  MapLayer,
  MapSound,
  QuadsLayer,
  SoundsLayer,
  TilemapKind,
  TilemapLayer,
  TwMap,
  UnknownLayer,
} from './model.js';
export { deprecatedToSoundSource, soundSourceToDeprecated } from './model.js';
export { decodeCStringList, mapItemTypeOf, readMap, type ReadMapOptions } from './read.js';
export { compressSkippedTiles, expandSkippedTiles, tilemapKind } from './tilemap.js';
export { validateMap } from './validate.js';
export { writeMap, type WriteMapOptions } from './write.js';
// The base class of every error thrown for bad input (code, byte offset, field path), to catch them all.
export { BinaryError, CodecError } from '@twcodec/runtime';
