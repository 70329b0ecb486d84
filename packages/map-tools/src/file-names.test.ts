import { describe, expect, it } from 'vitest';
import { MapError } from '@twcodec/map';
import { checkDirReference, MAX_FILE_NAME_BYTES, mapresFileName, safeFileName, uniqueFileNames } from './file-names.js';

// The rule docs/map-tools.md ("File names") states, case by case, including where DDNet's map_extract differs.
describe('file names from item names', () => {
  it('drops trailing spaces and dots and leading dots (map_extract keeps them)', () => {
    expect(safeFileName('grass. . ', 'x')).toBe('grass');
    expect(safeFileName('..hidden', 'x')).toBe('hidden');
    expect(safeFileName(' . ', 'image4')).toBe('image4');
  });

  it('gives a nameless item its kind and index (map_extract skips it)', () => {
    expect(uniqueFileNames([undefined, ''], 'image', 'png')).toEqual(['image0.png', 'image1.png']);
    expect(uniqueFileNames([undefined], 'sound', 'opus')).toEqual(['sound0.opus']);
  });

  it('keeps U+FFFD, which the reader makes of invalid UTF-8 (map_extract writes the raw bytes)', () => {
    expect(safeFileName('a\uFFFDb', 'x')).toBe('a\uFFFDb');
  });

  it('replaces separators and control characters, and prefixes Windows device names', () => {
    expect(safeFileName('../a/b\\c:d\u0000e\u007f', 'x')).toBe('_a_b_c_d_e_');
    expect(safeFileName('com1', 'x')).toBe('_com1');
  });

  it('caps the name at MAX_FILE_NAME_BYTES UTF-8 bytes, between characters', () => {
    const capped = safeFileName('€'.repeat(200), 'x');
    expect(new TextEncoder().encode(capped).length).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
    expect(capped).toBe('€'.repeat(Math.floor(MAX_FILE_NAME_BYTES / 3)));
  });

  it('never gives two items one file, also ignoring case and normalisation (map_extract overwrites)', () => {
    const names = ['x', 'x-3', 'a', 'x', 'X', 'x-3', 'image6', undefined, 'e\u0301', '\u00e9'];
    const files = uniqueFileNames(names, 'image', 'png');
    expect(files).toEqual(['x.png', 'x-3.png', 'a.png', 'x-3-2.png', 'X-4.png', 'x-3-5.png', 'image6.png', 'image7.png', 'e\u0301.png', '\u00e9-9.png']);
    expect(new Set(files.map((f) => f.normalize('NFC').toLowerCase())).size).toBe(names.length);
  });

  it('looks external images up inside the mapres directory only', () => {
    expect(mapresFileName('grass_main', 0)).toBe('grass_main.png');
    expect(mapresFileName('sub/grass', 0)).toBe('sub/grass.png');
    for (const name of ['../secret/s', '/etc/passwd', 'a//b', 'a/./b', 'a\\b', 'a\u0000b', '..']) {
      expect(() => mapresFileName(name, 3), name).toThrow(MapError);
    }
    expect(() => mapresFileName('../x', 3)).toThrow(/external image 3 is named "\.\.\/x"/);
  });

  it('accepts map.json references inside the directory only', () => {
    expect(() => checkDirReference('images/a.png', 'map.json')).not.toThrow();
    for (const ref of ['../a.png', '/a.png', 'images/../../a', 'images\\a.png', 'a\u0000.png', '']) expect(() => checkDirReference(ref, 'map.json'), ref).toThrow(/mapdir.path/);
  });
});
