// @twcodec/map: DDNet and Teeworlds maps as a model (groups, layers, tiles, images, envelopes, sounds), read with
// DDNet's loader's checks and written back byte for byte. Generated from schemas/map by name below: a new
// generated name a user needs is added to its group here (test/packaging/api.test.ts lists the exports).

// Errors: MapError and its codes, and the runtime's base class of every error thrown for bad input.
export { MAP_ERROR_CODES, type MapErrorCode } from './error-codes.js';
export { MapError } from './errors.js';
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
export { validateMap, type ValidateOptions } from './validate.js';
export { TileScans } from './tile-scans.js';
export { mapInfo } from './info.js';
export { tileIdName, validateTileIds, type TileIdOptions } from './tile-validity.js';
export { writeMap, type WriteMapOptions } from './write.js';
export { BinaryError, CodecError } from '@twcodec/runtime';

// Generated (schemas/map): the enums and flags of map fields.
export { AutomapperFlags, CurveType, EnvelopeChannels, IMAGE_FORMAT_BYTES, ImageFormat, LayerFlags, LayerType, SoundShape, TileFlags, TilemapFlags } from './generated/enums.gen.js';
// Generated (known_versions in schemas/map/items): the named versions of items, for version gates.
export { EnvelopeVersion, ImageVersion, TilemapLayerVersion } from './generated/versions.gen.js';
export type { Color, Point } from './generated/types.gen.js';
// Generated: the items, each with its decoder and encoder (ints of a datafile item <-> fields).
export {
  type AutomapperItem,
  decodeAutomapperItem,
  decodeEnvelopeItem,
  decodeEnvelopePointsBezierItem,
  decodeGroupExItem,
  decodeGroupItem,
  decodeImageItem,
  decodeInfoItem,
  decodeLayerItem,
  decodeSoundItem,
  decodeTestItem,
  decodeVersionItem,
  encodeAutomapperItem,
  encodeEnvelopeItem,
  encodeEnvelopePointsBezierItem,
  encodeGroupExItem,
  encodeGroupItem,
  encodeImageItem,
  encodeInfoItem,
  encodeLayerItem,
  encodeSoundItem,
  encodeTestItem,
  encodeVersionItem,
  type EnvelopeItem,
  type EnvelopePointsBezierItem,
  type GroupExItem,
  type GroupItem,
  type ImageItem,
  type InfoItem,
  type LayerItem,
  type LayerItemBase,
  type QuadsLayerItem,
  type SoundItem,
  type SoundsDeprecatedLayerItem,
  type SoundsLayerItem,
  type TestItem,
  type TilemapLayerItem,
  type UnknownLayerItem,
  type VersionItem,
} from './generated/items.gen.js';
// Generated: the records of data items (envelope points, quads, sound sources).
export type { EnvelopePoint, EnvelopePointBezier, EnvelopePointBezier07, Quad, SoundSource, SoundSourceDeprecated } from './generated/records.gen.js';
// Generated: the registry of item types and tile layer kinds, for code that works on any of them.
export {
  type DataRefField,
  type ItemRefField,
  LARGEST_TILE_BYTES,
  MAP_ITEM_TYPE,
  MAP_ITEM_TYPES,
  MAP_RECORD_REFS,
  type MapItemName,
  type MapItemTypeInfo,
  type MapItemValues,
  type MapItemVariantInfo,
  type SinceVersionField,
  TILE_BYTE_OFFSETS,
  TILEMAP_KIND_FLAGS,
  TILEMAP_KINDS,
  type TilemapKind,
  tilemapKind,
  type TilemapKindInfo,
  type TilemapKindTiles,
  type TileView,
  type VersionRange,
} from './generated/registry.gen.js';
// Generated: the tiles of each tile layer kind, as views over their bytes.
export {
  SPEEDUP_TILE_BYTES,
  type SpeedupTile,
  SpeedupTiles,
  SWITCH_TILE_BYTES,
  type SwitchTile,
  SwitchTiles,
  TELE_TILE_BYTES,
  type TeleTile,
  TeleTiles,
  type Tile,
  TILE_TILE_BYTES,
  Tiles,
  TUNE_TILE_BYTES,
  type TuneTile,
  TuneTiles,
} from './generated/tiles.gen.js';
// Generated (schemas/map/tiles): what tile ids mean, which DDNet takes, and their preview colours.
export {
  ENTITY_OFFSET,
  EntityId,
  FrontTileId,
  GameTileId,
  INVALID_TILE_ID_BEHAVIOUR,
  isValidEntity,
  isValidFrontTile,
  isValidGameTile,
  isValidSpeedupTile,
  isValidSwitchTile,
  isValidTeleTile,
  isValidTuneTile,
  OTHER_ENTITY_COLOUR,
  OTHER_TILE_COLOUR,
  type Rgb,
  SpeedupTileId,
  SwitchTileId,
  TeleTileId,
  TILE_COLOURS,
  TILE_ID_VALIDITY,
  tileColour,
  TileId,
  TuneTileId,
} from './generated/tile-meanings.gen.js';
