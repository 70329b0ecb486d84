// Fuzz targets for the map tools that take hostile images, sounds and maps (issue 25): replace-image (PNG
// inputs), replace-sound (Opus inputs), render, convert (to 0.7 and to DDNet) and extract (maps). Each returns
// normally or throws a CodecError (a typed refusal); a PropertyViolation or any other error is a finding. The
// runner enforces the time (--timeout) and memory (--max-rss) budgets on every input.
import { CodecError } from '@twcodec/datafile';
import { readMap, writeMap } from '@twcodec/map';
import {
  convert07ToDdnetFile,
  convertDdnetTo07File,
  extractImages,
  extractSounds,
  listImages,
  MAX_FILE_NAME_BYTES,
  pngToRgba,
  readPngHeader,
  renderGameLayer,
  renderGameLayerFile,
  renderMap,
  renderMapFile,
  renderScale,
  replaceImage,
  replaceSound,
  soundFileNames,
} from '@twcodec/map-tools';
// A cycle: targets.mjs spreads these targets, and is what imports this module (the helpers are only called,
// never read while the modules load).
import { SMALL_PNG, TINY_OPUS } from './map-tools-seeds.mjs';
import { check, equalBytes, refusing } from './properties.mjs';

// The map hostile PNGs and Opus files go into: a small map built here with one embedded image and one sound.
let baseMap;
function base() {
  if (!baseMap) {
    const map = {
      version: undefined,
      info: undefined,
      images: [{ item: { version: 1, width: 1, height: 1, external: false, name: -1, data: -1 }, name: 'image', pixels: new Uint8Array(4) }],
      envelopes: [],
      groups: [],
      sounds: [{ item: { version: 1, external: false, name: -1, data: -1, dataSize: TINY_OPUS.length }, name: 'sound', data: TINY_OPUS }],
      items: {},
      unknownItems: [],
      envelopePointLayout: 'ddnet',
      readIssues: [],
    };
    baseMap = writeMap(map);
  }
  return readMap(baseMap);
}

/** Runs fn: true when it returned, false when it refused with a CodecError; anything else propagates. */
function accepts(fn) {
  try {
    fn();
    return true;
  } catch (e) {
    if (e instanceof CodecError) return false;
    throw e;
  }
}

/** replace-image: a PNG decodes into RGBA of its header's size, or is refused; the map written reads back equal. */
function replaceImageTarget(png) {
  const map = base();
  const before = map.images[0].pixels;
  if (!accepts(() => replaceImage(map, 0, png, { source: 'input.png' }))) {
    check(map.images[0].pixels === before, 'replace-image: a refused PNG changed the image');
    return;
  }
  const header = readPngHeader(png, 'input.png');
  const image = map.images[0];
  check(image.item.width === header.width && image.item.height === header.height, "replace-image: the image size is not the PNG header's");
  check(image.pixels.length === header.width * header.height * 4, 'replace-image: RGBA pixels of the wrong length');
  const back = readMap(writeMap(map));
  check(equalBytes(back.images[0].pixels, image.pixels), 'replace-image: the written map does not read back the same pixels');
}

/** replace-sound: an Ogg Opus file is stored as it is, or refused; the map written reads back the same bytes. */
function replaceSoundTarget(opus) {
  const map = base();
  if (!accepts(() => replaceSound(map, 0, opus, { source: 'input.opus' }))) {
    check(equalBytes(map.sounds[0].data, TINY_OPUS), 'replace-sound: a refused file changed the sound');
    return;
  }
  const back = readMap(writeMap(map));
  check(equalBytes(back.sounds[0].data, opus), 'replace-sound: the written map does not read back the same Opus bytes');
}

const mapres = () => SMALL_PNG;

/**
 * render: both previews are PNGs of the size renderScale says, at most `maxSide` a side, and what the CLI draws
 * from the file (each layer inflated as it is drawn) is the same PNG, or the same refusal. One input in eight
 * renders at the default size (4096 a side, the budgets the CLI has); the others at 256 a side, which runs the
 * same scaling code many times faster.
 */
function renderTarget(bytes) {
  const map = refusing(() => readMap(bytes, { strict: false }));
  if (!map) return;
  const options = bytes.length % 8 === 0 ? {} : { maxSide: 256 };
  for (const [what, render, renderFile] of [['game', renderGameLayer, renderGameLayerFile], ['tiles', renderMap, renderMapFile]]) {
    const scale = refusing(() => renderScale(map, options, what));
    const png = refusing(() => render(map, { ...options, mapres }));
    // A full-size render's canvas (up to 32 MB) is garbage once its PNG is made; collected before the next
    // render, the input is judged by what one render costs, as in the CLI, not by two canvases at once.
    if (!options.maxSide) globalThis.gc?.();
    const filePng = refusing(() => renderFile(bytes, { ...options, mapres }));
    if (!options.maxSide) globalThis.gc?.();
    check((scale === undefined) === (png === undefined), `render ${what}: renderScale and the render disagree on refusing`);
    check((png === undefined) === (filePng === undefined), `render ${what}: the file renderer and the model renderer disagree on refusing`);
    if (!png) continue;
    check(equalBytes(png, filePng), `render ${what}: the file renderer draws another PNG than the model renderer`);
    const header = readPngHeader(png);
    check(header.width === scale.width && header.height === scale.height, `render ${what}: the PNG is ${header.width}x${header.height}, renderScale says ${scale.width}x${scale.height}`);
    check(Math.max(header.width, header.height) <= (options.maxSide ?? 4096), `render ${what}: a canvas of ${header.width}x${header.height}`);
  }
}

/** convert: to 0.7 (external images embedded from a mapres) and to DDNet; whatever is written reads back. */
function convertTarget(bytes) {
  const to07 = refusing(() => convertDdnetTo07File(bytes, { mapres }));
  if (to07) check(refusing(() => readMap(to07.bytes, { strict: false })) !== undefined, 'convert --to 0.7: the output does not read back');
  const toDdnet = refusing(() => convert07ToDdnetFile(bytes));
  if (toDdnet) check(refusing(() => readMap(toDdnet, { strict: false })) !== undefined, 'convert --to ddnet: the output does not read back');
}

const utf8 = new TextEncoder();

/** extract: file names unique, capped, plain; every PNG written decodes back to the image's pixels. */
function extractTarget(bytes) {
  const map = refusing(() => readMap(bytes, { strict: false }));
  if (!map) return;
  const names = [...listImages(map).map((i) => `images/${i.fileName}`), ...soundFileNames(map).map((n) => `sounds/${n}`)];
  check(new Set(names.map((n) => n.normalize('NFC').toLowerCase())).size === names.length, 'extract: two items share a file name');
  for (const name of names) {
    const file = name.slice(name.indexOf('/') + 1);
    check(!/[\u0000-\u001f/\\]/.test(file) && !file.startsWith('.') && utf8.encode(file).length <= MAX_FILE_NAME_BYTES + 32, `extract: file name ${JSON.stringify(file)} is not plain or too long`);
  }
  const images = refusing(() => extractImages(map));
  if (images) {
    for (const entry of listImages(map)) {
      const png = images.get(entry.fileName);
      if (!png) continue;
      const image = map.images[entry.index];
      const rgba = pngToRgba(png, entry.fileName).pixels;
      const channels = image.pixels.length / (entry.width * entry.height);
      let same = rgba.length === entry.width * entry.height * 4;
      for (let i = 0; same && i < entry.width * entry.height; i++) {
        for (let c = 0; c < 4; c++) if (rgba[i * 4 + c] !== (c < channels ? image.pixels[i * channels + c] : 255)) same = false;
      }
      check(same, `extract: ${entry.fileName} does not decode to the image's pixels`);
    }
  }
  refusing(() => extractSounds(map));
}

// The map targets take map inputs: the runner's structure-aware mutations (item ints, inflated data) apply.
for (const target of [renderTarget, convertTarget, extractTarget]) target.structured = true;
// A full-size render holds a canvas of up to 8M pixels (32 MB RGBA) and its filtered rows while the PNG is
// deflated: about 100 MB on any map (159 MB peak for the whole CLI process, measured with /usr/bin/time on a
// map whose game layer claims 176297393x188451836), a fixed cost within the 400 MB budget, not the input's doing.
renderTarget.outputMb = 100;

export const MAP_TOOLS_TARGETS = {
  'replace-image': replaceImageTarget,
  'replace-sound': replaceSoundTarget,
  render: renderTarget,
  convert: convertTarget,
  extract: extractTarget,
};
