export { addImage, embedImage, findImage, listImages, makeImageExternal, MAX_IMAGE_SIDE, pngToRgba, replaceImage, type ImageFile, type ImageSourceOptions, type RgbaImage } from './images.js';
export { extractImages, imageToPng } from './image-files.js';
export type { PngEncodeOptions } from './png-encode.js';
export { checkDirReference, MAX_FILE_NAME_BYTES, mapresFileName, safeFileName, uniqueFileNames } from './file-names.js';
export { decodePng, readPngHeader, type PngHeader } from './png.js';
export { checkOggOpus, extractSounds, findSound, replaceSound, soundFileNames } from './sounds.js';
export { MAP_JSON, MAX_UNPACKED_BYTES, ORIGINAL_MAP, packMap, unpackMap, unpackMapEntries, type MapDirEntry, type MapFiles, type UnpackOptions } from './dir.js';
export { MAX_TILE_BYTES, textToTiles, tileTextChunks, tilesToText } from './tile-text.js';
export { diffMapFiles, diffMaps, formatMapDiff, plural, type DiffMapReader, type MapDiff, type MapDifference, type TileChange } from './diff.js';
export { gameTileColour, renderGameLayer, renderGameLayerFile, renderMap, renderMapFile, renderScale, type RenderOptions, type RenderScale } from './render.js';
export { convert07ToDdnet, convert07ToDdnetFile, hasTeeworlds07Form } from './convert.js';
export { fixMap, fixMapModel, type FixResult } from './fix.js';
// The base class of every error thrown for bad input (code, byte offset, field path), to catch them all.
export { BinaryError, CodecError } from '@twcodec/runtime';
export { CONVERT_07_MAX_IMAGE_SIDE, convertDdnetTo07, convertDdnetTo07File, decodeRgbaPngFor07, type Convert07Note, type ConvertTo07Options, type ConvertTo07Result } from './convert-07.js';
