// The codes of MapError, with what each means: `err.code` is typed from this table (MapErrorCode), and
// docs/library.md lists it (test/docs/error-codes.test.ts checks). MapError is the error of the map model, so it
// is also what @twcodec/map-tools throws about maps and the files of their directory form (png.*, mapdir.*,
// ...): those codes are listed here too, grouped by the module that throws them. readMap also hands on the
// codes of the container under the map (DATAFILE_ERROR_CODES) and of the runtime (RUNTIME_ERROR_CODES).
import type { DatafileErrorCode } from '@twcodec/datafile';
import type { RuntimeErrorCode } from '@twcodec/runtime';

/** Each error code of MapError (besides those of the datafile and the runtime) and what it means. */
export const MAP_ERROR_CODES = {
  // readMap: items and layers that DDNet's loader refuses (with strict: false, validateMap issues instead).
  ITEM_TOO_SHORT: 'an item has fewer ints than a field of its version needs',
  GROUP_LAYERS_RANGE: 'a group uses layers past the last one',
  GROUP_LAYERS_SHARED: 'a layer belongs to two groups',
  TILEMAP_SIZE: 'a tile layer of invalid width or height',
  TILEMAP_TRUNCATED: 'a tile layer item too short for the data index its kind needs',
  TILE_DATA_SIZE: "tile data that is not the layer's width x height tiles",
  TILESKIP_PHYSICS: 'a physics layer with skip compression (only tile layers may use it)',
  // The tiles of skip-compressed (Teeworlds 0.7) layers.
  TILEMAP_TOO_LARGE: 'a skip-compressed layer that expands past the tile limit',
  TILE_RESERVED_NONZERO: 'a skip-compressed tile with a non-zero reserved byte',
  TILE_DATA_SHORT: 'skip-compressed tiles that expand to fewer tiles than the layer has',
  TILE_DATA_LONG: 'stored tiles left over after the layer is full',
  // @twcodec/map-tools: images and sounds of the map.
  DATA_SIZE: 'a data item that inflates to another size than declared (render)',
  DATA_INDEX_RANGE: 'a data index that is not one of the data items of the datafile',
  'map.image_index': 'no image with that index',
  'map.image_name': 'no image, or more than one, with that name',
  'map.image_external': 'an external image has no pixels to extract or replace',
  'map.image_size': 'an image larger than DDNet takes',
  'map.sound': 'no sound with that index or name',
  'mapres.name': 'an image name that would leave the mapres directory',
  'render.layer_size': 'a layer too large to render',
  // PNG and Ogg Opus files given to the map tools.
  'png.header': 'a PNG whose signature or IHDR is wrong',
  'png.invalid': 'a PNG that breaks the PNG rules (chunk order, CRC, ...)',
  'png.truncated': 'a PNG that ends inside a chunk',
  'png.size': 'a PNG image of an unsupported size',
  'png.palette': 'a palette PNG without a usable palette',
  'png.palette_index': 'a palette index past the palette',
  'png.filter': 'an unknown scanline filter',
  'png.zlib': 'PNG image data that is not a readable zlib stream',
  'png.data_size': 'PNG image data of another size than the image needs',
  'opus.not_ogg': 'a sound file that is not an Ogg file',
  'opus.not_opus': 'an Ogg file that is not Opus',
  // The directory form of map unpack/pack (map.json, layers/*.txt, images, sounds).
  'mapdir.json': 'map.json that is not JSON',
  'mapdir.value': 'a map.json value of the wrong type or out of range',
  'mapdir.path': 'a file name in map.json that leaves the directory',
  'mapdir.missing': 'a file map.json names is missing',
  'mapdir.base64': 'a base64 value that does not decode',
  'mapdir.png': 'an image file of the directory that is not a usable PNG',
  'mapdir.tile': 'a tile in a layer text file that does not read',
  'mapdir.tile_row': 'a layer text file row of the wrong length',
  'mapdir.tile_type': 'a tile text of another layer kind than the layer',
  'mapdir.too_large': 'files that would be larger together than the limit',
} as const satisfies Record<string, string>;

/** The code of a MapError: the map's own, or that of the container or runtime error it stands for. */
export type MapErrorCode = keyof typeof MAP_ERROR_CODES | DatafileErrorCode | RuntimeErrorCode;
