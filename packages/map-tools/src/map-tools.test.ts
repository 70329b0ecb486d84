import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMap, writeMap } from '@twcodec/map';
import { encode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { addImage, checkOggOpus, diffMaps, imageToPng, makeImageExternal, MAP_JSON, packMap, pngToRgba, safeFileName, textToTiles, tilesToText, unpackMap } from './index.js';

const fixture = (name: string) => new Uint8Array(readFileSync(join(__dirname, '..', '..', '..', 'fixtures', 'maps', name)));

describe('PNG', () => {
  it('converts grey, grey+alpha, RGB, palette and 16-bit PNGs to RGBA', () => {
    expect([...pngToRgba(encode({ width: 1, height: 1, data: Uint8Array.of(9), channels: 1, depth: 8 })).pixels]).toEqual([9, 9, 9, 255]);
    expect([...pngToRgba(encode({ width: 1, height: 1, data: Uint8Array.of(9, 7), channels: 2, depth: 8 })).pixels]).toEqual([9, 9, 9, 7]);
    expect([...pngToRgba(encode({ width: 1, height: 1, data: Uint8Array.of(1, 2, 3), channels: 3, depth: 8 })).pixels]).toEqual([1, 2, 3, 255]);
    expect([...pngToRgba(encode({ width: 1, height: 1, data: Uint16Array.of(65535, 0, 257, 65535), channels: 4, depth: 16 })).pixels]).toEqual([255, 0, 1, 255]);
    const palette = encode({ width: 1, height: 1, data: Uint8Array.of(1), channels: 1, depth: 8, palette: [[0, 0, 0], [10, 20, 30]] });
    expect([...pngToRgba(palette).pixels]).toEqual([10, 20, 30, 255]);
  });
  it('refuses what is not a PNG with a typed error', () => {
    expect(() => pngToRgba(Uint8Array.of(1, 2, 3))).toThrow(/png.invalid/);
  });
  it('adds an image, makes it external and back', () => {
    const map = readMap(fixture('ctf1.map'));
    const i = addImage(map, 'red', encode({ width: 2, height: 2, data: new Uint8Array(16).fill(200), channels: 4, depth: 8 }));
    const back = readMap(writeMap(map));
    expect(back.images[i]!.name).toBe('red');
    expect(pngToRgba(imageToPng(back.images[i]!)).pixels).toEqual(new Uint8Array(16).fill(200));
    makeImageExternal(back, i);
    expect(readMap(writeMap(back)).images[i]!.item.external).toBe(true);
  });
  it('makes file names safe', () => {
    expect(safeFileName('a/b:c', 'x')).toBe('a_b_c');
    expect(safeFileName('..', 'x')).toBe('x');
    expect(safeFileName('CON', 'x')).toBe('_CON');
  });
});

describe('Opus check', () => {
  const page = (packet: string) => {
    const bytes = new Uint8Array(27 + 1 + 19);
    bytes.set([...'OggS'].map((c) => c.charCodeAt(0)));
    bytes[26] = 1;
    bytes.set([...packet].map((c) => c.charCodeAt(0)), 28);
    return bytes;
  };
  it('accepts OggS + OpusHead and refuses others', () => {
    expect(() => checkOggOpus(page('OpusHead'))).not.toThrow();
    expect(() => checkOggOpus(page('vorbis..'))).toThrow(/opus.not_opus/);
    expect(() => checkOggOpus(Uint8Array.of(1, 2))).toThrow(/opus.not_ogg/);
  });
});

describe('directory form', () => {
  it('tiles as text round trip', () => {
    const bytes = Uint8Array.from({ length: 24 }, (_, i) => i);
    const text = tilesToText(bytes, 3, 4);
    expect(text.split('\n')[0]).toBe('00010203 04050607 08090a0b');
    expect(textToTiles(text, 4)).toEqual(bytes);
    expect(() => textToTiles('0102 03', 2)).toThrow(/mapdir.tile/);
    expect(() => textToTiles('010203', 2)).toThrow(/mapdir.tile/);
    expect(() => textToTiles('01zz', 2)).toThrow(/mapdir.tile/);
  });
  it.each(['ctf1.map', 'dm7-legacy-size.map'])('%s unpacks and packs back to identical bytes', (name) => {
    const bytes = fixture(name);
    expect(packMap(unpackMap(bytes))).toEqual(bytes);
  });
  it('a JSON edit shows in diffMaps as that edit; bad JSON is a typed error', () => {
    const bytes = fixture('ctf1.map');
    const files = unpackMap(bytes);
    const model = JSON.parse(new TextDecoder().decode(files.get(MAP_JSON)));
    model.groups[0].item.offsetX += 1;
    files.set(MAP_JSON, new TextEncoder().encode(JSON.stringify(model)));
    const diff = diffMaps(readMap(bytes), readMap(packMap(files)));
    expect(diff.changes).toEqual([{ path: 'groups[0]', what: expect.stringContaining('properties'), fields: [{ field: 'offsetX', from: model.groups[0].item.offsetX - 1, to: model.groups[0].item.offsetX }] }]);
    files.set(MAP_JSON, new TextEncoder().encode('{'));
    expect(() => packMap(files)).toThrow(/mapdir.json/);
    // A syntax error is placed by line and column of map.json, not a character position alone.
    files.set(MAP_JSON, new TextEncoder().encode('{\n  "version": 1,\n  "info": { ,,, }\n}'));
    expect(() => packMap(files)).toThrow(expect.objectContaining({ code: 'mapdir.json', path: 'map.json:3:13' }));
  });
});
