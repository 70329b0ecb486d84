export { MapError } from './errors.js';
export * from './generated/index.gen.js';
export * from './generated/tile-meanings.gen.js';
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
  CollectedItemName,
  MapItems,
  StructureItemName,
  TilemapLayer,
  TilemapLayerOf,
  TwMap,
  UnknownLayer,
} from './model.js';
export { deprecatedToSoundSource, imagePixelBytes, soundSourceToDeprecated } from './model.js';
export { decodeCStringList, isCollectedItemType, mapItemTypeOf, readMap, readMapAsync, type ReadMapOptions } from './read.js';
export { compressSkippedTiles, expandSkippedTiles, MAX_SKIP_EXPANDED_TILES } from './tilemap.js';
export { LAYER_LOAD_FIXES, type LayerLoadFix, type LoadFixFinding } from './load-fixes.js';
export { validateMap } from './validate.js';
export { tileIdName, validateTileIds, type TileIdOptions } from './tile-validity.js';
export { writeMap, type WriteMapOptions } from './write.js';
// The base class of every error thrown for bad input (code, byte offset, field path), to catch them all.
export { BinaryError, CodecError } from '@twcodec/runtime';
// Joins chunks of bytes (the map tools build files from chunks of tile text).
export { concatBytes } from '@twcodec/runtime';
