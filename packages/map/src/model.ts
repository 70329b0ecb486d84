import type { Datafile, DatafileItem } from '@twcodec/datafile';
import { IMAGE_FORMAT_BYTES, ImageFormat, ImageVersion } from './generated/index.gen.js';
import type {
  EnvelopeItem,
  EnvelopePoint,
  EnvelopePointBezier,
  GroupItem,
  ImageItem,
  InfoItem,
  MapItemName,
  MapItemValues,
  QuadsLayerItem,
  Quad,
  SoundItem,
  SoundSource,
  SoundSourceDeprecated,
  SoundsDeprecatedLayerItem,
  SoundsLayerItem,
  TilemapKind,
  TilemapKindTiles,
  TilemapLayerItem,
  Tiles,
  UnknownLayerItem,
  VersionItem,
} from './generated/index.gen.js';

/**
 * The item types the model holds as structure (read and written by hand in read.ts and write.ts: they own
 * data items or are tied together by index ranges). Every other type the schemas describe is read into
 * `TwMap.items` by the generated registry, so a type added in YAML needs no code here.
 */
export type StructureItemName = 'version' | 'info' | 'image' | 'envelope' | 'envelope_points' | 'envelope_points_bezier' | 'group' | 'layer' | 'sound';

/** The item types kept in `TwMap.items`. */
export type CollectedItemName = Exclude<MapItemName, StructureItemName>;

/**
 * Items of the schema types that are not structure, by type name, in file order (e.g. `items.automapper`).
 * Each list is optional, so a type added to the schemas does not break code that builds maps.
 */
export type MapItems = { [N in CollectedItemName]?: MapItemValues[N][] };

/**
 * A map: the decoded items (each keeps its generated item record in `item`) with their data resolved.
 *
 * Index fields that writeMap derives from the structure (group start_layer/num_layers, envelope
 * start_point/num_points, data indices, quad and source counts) are recomputed on write; everything else is
 * written as it is in `item`.
 */
export interface TwMap {
  version: VersionItem | undefined;
  info: MapInfo | undefined;
  images: MapImage[];
  envelopes: MapEnvelope[];
  groups: MapGroup[];
  sounds: MapSound[];
  /** Items of the other types the schemas describe (automapper configs, DDNet's group extension, ...). */
  items: MapItems;
  /** Items of types the schemas do not describe (or surplus items of one-per-map types), kept as they are. */
  unknownItems: DatafileItem[];
  /** The container the map was read from; writeMap keeps what did not change byte for byte. */
  datafile: Datafile | undefined;
  /** How the envelope points are stored: 6-int points (+ DDNet's bezier item) or Teeworlds 0.7's 22-int points. */
  envelopePointLayout: 'ddnet' | 'teeworlds07';
  /** Problems a lenient read passed over (strict reads throw instead); validateMap reports them. */
  readIssues: MapIssue[];
  /**
   * Data items readMap could not interpret (e.g. tiles that do not expand): the elements read from them are
   * empty, and writeMap keeps their references and stored bytes while they stay empty.
   */
  unreadData?: Set<number>;
  /** Read with `skipData`: tiles, pixels and sound data were left unread (empty); writeMap refuses the model. */
  dataSkipped?: true;
}

export interface MapInfo {
  item: InfoItem;
  author: string | undefined;
  mapVersion: string | undefined;
  credits: string | undefined;
  license: string | undefined;
  /** Server settings (DDNet), one command per entry. */
  settings: string[] | undefined;
}

export interface MapImage {
  item: ImageItem;
  /** The name; undefined when the name data is missing or unreadable (DDNet shows "(error)"); writeMap then keeps `item.name`. */
  name: string | undefined;
  /** Pixels of an embedded image: RGBA, or RGB for version-2 images with format 0. */
  pixels: Uint8Array | undefined;
}

export interface MapEnvelopePoint extends EnvelopePoint {
  /** Tangents: from 0.7's 22-int points, or from DDNet's envpoints-bezier item. */
  bezier?: EnvelopePointBezier;
}

export interface MapEnvelope {
  item: EnvelopeItem;
  points: MapEnvelopePoint[];
}

export interface MapGroup {
  item: GroupItem;
  layers: MapLayer[];
}

/**
 * A tilemap layer of one kind (generated from the schema's tilemap kinds): a tele layer has `tele`, a
 * speedup layer `speedup`, and so on; tiles and game layers only `tiles`.
 */
export type TilemapLayerOf<K extends TilemapKind> = {
  kind: 'tilemap';
  /** Which physics layer it is; readMap sets it from `item.tilemapFlags`, writeMap writes the tiles of this kind. */
  tilemapKind: K;
  item: TilemapLayerItem;
  /** The tiles behind `data`: the layer's tiles (tiles, game layers) or zeroed tiles (DDNet physics layers). */
  tiles: Tiles;
} & TilemapKindTiles[K];

/** A tilemap layer; narrow it by `tilemapKind`. */
export type TilemapLayer = { [K in TilemapKind]: TilemapLayerOf<K> }[TilemapKind];

export interface QuadsLayer {
  kind: 'quads';
  item: QuadsLayerItem;
  quads: Quad[];
}

export interface SoundsLayer {
  kind: 'sounds';
  item: SoundsLayerItem;
  sources: SoundSource[];
}

/** An old DDNet sounds layer; its sources read as current sources (pan on, falloff 0, circle shape). */
export interface DeprecatedSoundsLayer {
  kind: 'sounds_deprecated';
  item: SoundsDeprecatedLayerItem;
  sources: SoundSource[];
}

export interface UnknownLayer {
  kind: 'unknown';
  item: UnknownLayerItem;
}

export type MapLayer = TilemapLayer | QuadsLayer | SoundsLayer | DeprecatedSoundsLayer | UnknownLayer;

export interface MapSound {
  item: SoundItem;
  /** The name; undefined when the name data is missing or unreadable; writeMap then keeps `item.name`. */
  name: string | undefined;
  /** The Opus file; undefined when the data is missing or unreadable (DDNet skips the sound). */
  data: Uint8Array | undefined;
}

export type MapIssueSeverity = 'error' | 'fixed' | 'warning';

/**
 * Bytes a pixel of an embedded image takes: its format's in a version-2 (Teeworlds 0.7) image, else RGBA's
 * (DDNet's version 1, and formats no schema names).
 */
export function imagePixelBytes(item: Pick<ImageItem, 'version' | 'format'>): number {
  const rgba = IMAGE_FORMAT_BYTES[ImageFormat.Rgba]!;
  return item.version >= ImageVersion.Teeworlds07 && item.format !== undefined ? (IMAGE_FORMAT_BYTES[item.format] ?? rgba) : rgba;
}

/**
 * Something DDNet's loader refuses (`error`), silently changes (`fixed`), or that looks wrong but loads
 * (`warning`: DDNet ignores it or the element). `path` names the element with the model's camelCase names,
 * e.g. `groups[2].layers[0].dataTele`.
 */
export interface MapIssue {
  severity: MapIssueSeverity;
  code: string;
  path: string;
  message: string;
}

export function deprecatedToSoundSource(s: SoundSourceDeprecated): SoundSource {
  return {
    position: s.position,
    loop: s.loop,
    pan: true,
    timeDelay: s.timeDelay,
    falloff: 0,
    posEnv: s.posEnv,
    posEnvOffset: s.posEnvOffset,
    soundEnv: s.soundEnv,
    soundEnvOffset: s.soundEnvOffset,
    shape: 1,
    width: s.radius,
    height: 0,
  };
}

export function soundSourceToDeprecated(s: SoundSource): SoundSourceDeprecated {
  return {
    position: s.position,
    loop: s.loop,
    timeDelay: s.timeDelay,
    radius: s.width,
    posEnv: s.posEnv,
    posEnvOffset: s.posEnvOffset,
    soundEnv: s.soundEnv,
    soundEnvOffset: s.soundEnvOffset,
  };
}
