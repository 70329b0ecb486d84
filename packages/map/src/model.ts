import type { Datafile, DatafileItem } from '@twcodec/datafile';
import type {
  AutomapperItem,
  EnvelopeItem,
  EnvelopePoint,
  EnvelopePointBezier,
  GroupItem,
  ImageItem,
  InfoItem,
  QuadsLayerItem,
  Quad,
  SoundItem,
  SoundSource,
  SoundSourceDeprecated,
  SoundsDeprecatedLayerItem,
  SoundsLayerItem,
  SpeedupTiles,
  SwitchTiles,
  TeleTiles,
  TestItem,
  TilemapLayerItem,
  Tiles,
  TuneTiles,
  UnknownLayerItem,
  VersionItem,
} from './generated/index.gen.js';

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
  automappers: AutomapperItem[];
  testItems: TestItem[];
  /** Items of types the schemas do not describe (or surplus items of one-per-map types), kept as they are. */
  unknownItems: DatafileItem[];
  /** The container the map was read from; writeMap keeps what did not change byte for byte. */
  datafile: Datafile | undefined;
  /** How the envelope points are stored: 6-int points (+ DDNet's bezier item) or Teeworlds 0.7's 22-int points. */
  envelopePointLayout: 'ddnet' | 'teeworlds07';
  /** Problems a lenient read passed over (strict reads throw instead); validateMap reports them. */
  readIssues: MapIssue[];
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
  name: string;
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

/** Physics layer kinds by their tilemap flag; `tiles` is a plain tiles layer. */
export type TilemapKind = 'tiles' | 'game' | 'tele' | 'speedup' | 'front' | 'switch' | 'tune';

export interface TilemapLayer {
  kind: 'tilemap';
  item: TilemapLayerItem;
  /** The tiles behind `data`: the layer's tiles (tiles, game layers) or zeroed tiles (DDNet physics layers). */
  tiles: Tiles;
  tele?: TeleTiles;
  speedup?: SpeedupTiles;
  front?: Tiles;
  switch?: SwitchTiles;
  tune?: TuneTiles;
}

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
  name: string;
  /** The Opus file. */
  data: Uint8Array;
}

export type MapIssueSeverity = 'error' | 'fixed' | 'warning';

/**
 * Something DDNet's loader refuses (`error`), silently changes (`fixed`), or that looks wrong but loads
 * (`warning`). `path` names the element, e.g. `groups[2].layers[0].data`.
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
