// Every corpus map (or, without ../shared/corpus, every fixture): lossless resave is byte-identical, and
// ddnet-mode resave equals DDNet 16.4's map_resave output, both the recorded one and a live run of the
// Debian tool when it is installed.
import { describe, expect, it } from 'vitest';
import { Datafile } from '@twcodec/datafile';
import { hasCorpus, mapCases, readBytes } from '../corpus.js';
import { ddnetTool, mapResave } from '../ddnet-tools.js';

const cases = mapCases();
const hasMapResave = ddnetTool('map_resave') !== undefined;

describe(`datafile round trips on ${hasCorpus ? 'the corpus' : 'the fixtures'} (${cases.length} maps)`, () => {
  it.each(cases)('$name: lossless', ({ path }) => {
    const bytes = readBytes(path);
    const df = Datafile.read(bytes);
    for (const d of df.data) d.bytes();
    expect(Buffer.from(df.write()).equals(bytes)).toBe(true);
  });

  it.each(cases.filter((c) => c.resavedPath))('$name: --ddnet equals recorded map_resave output', ({ path, resavedPath }) => {
    const out = Datafile.read(readBytes(path)).write({ mode: 'ddnet' });
    expect(Buffer.from(out).equals(readBytes(resavedPath!))).toBe(true);
  });

  it.each(cases)('$name: --ddnet --recompress still equals it (pako reproduces DDNet zlib)', ({ path, resavedPath }) => {
    const df = Datafile.read(readBytes(path));
    const out = df.write({ mode: 'ddnet', recompress: true });
    expect(Buffer.from(out).equals(Buffer.from(df.write({ mode: 'ddnet' })))).toBe(true);
    if (resavedPath) expect(Buffer.from(out).equals(readBytes(resavedPath))).toBe(true);
  });

  it.skipIf(!hasMapResave).each(cases)('$name: --ddnet equals a live map_resave run', ({ name, path }) => {
    const out = Datafile.read(readBytes(path)).write({ mode: 'ddnet' });
    expect(Buffer.from(out).equals(mapResave(path, name))).toBe(true);
  });
});
