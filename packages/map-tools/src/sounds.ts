import { MapError, type TwMap } from '@twcodec/map';
import { uniqueFileNames } from './file-names.js';

const ascii = (bytes: Uint8Array, at: number, text: string) => [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/**
 * Checks that bytes are an Ogg Opus file: an Ogg page ("OggS", stream version 0) whose first packet is the
 * Opus identification header ("OpusHead"), as RFC 7845 requires; DDNet's opusfile loader needs exactly this.
 */
export function checkOggOpus(bytes: Uint8Array, source = 'Opus file'): void {
  if (bytes.length < 27 || !ascii(bytes, 0, 'OggS') || bytes[4] !== 0) {
    throw new MapError('opus.not_ogg', 'not an Ogg file (no "OggS" page at the start)', 0, source);
  }
  const segments = bytes[26]!;
  const body = 27 + segments;
  if (bytes.length < body + 19 || !ascii(bytes, body, 'OpusHead')) {
    throw new MapError('opus.not_opus', 'an Ogg file, but its first packet is not an Opus header ("OpusHead")', body, source);
  }
}

/** Sound file names (`name.opus`, safe and unique) by sound index. */
export function soundFileNames(map: TwMap): string[] {
  return uniqueFileNames(map.sounds.map((s) => s.name), 'sound', 'opus');
}

/** The map's sounds as .opus files by file name (sounds whose data is unreadable are left out). */
export function extractSounds(map: TwMap): Map<string, Uint8Array> {
  const names = soundFileNames(map);
  const files = new Map<string, Uint8Array>();
  map.sounds.forEach((sound, i) => sound.data && files.set(names[i]!, sound.data));
  return files;
}

/** Finds a sound by index or name. */
export function findSound(map: TwMap, which: number | string): number {
  const index = typeof which === 'number' ? which : map.sounds.findIndex((s) => s.name === which);
  if (index < 0 || index >= map.sounds.length) throw new MapError('map.sound', `the map has no sound ${JSON.stringify(which)}`);
  return index;
}

/** Replaces a sound's data with an Ogg Opus file (checked first). */
export function replaceSound(map: TwMap, index: number, opus: Uint8Array, options?: string | { name?: string; source?: string }): void {
  const { name, source } = typeof options === 'string' ? { name: options, source: undefined } : (options ?? {});
  checkOggOpus(opus, source);
  const sound = map.sounds[findSound(map, index)]!;
  sound.data = opus;
  sound.item = { ...sound.item, dataSize: opus.length };
  if (name !== undefined) sound.name = name;
}
