// Every package a user reads files with hands out the same CodecError class, so one `instanceof` catches
// what any of them throws; and generated code depends on nothing but the runtime and its own files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as datafile from '@twcodec/datafile';
import * as demo from '@twcodec/demo';
import * as exportTables from '@twcodec/export';
import * as map from '@twcodec/map';
import * as mapTools from '@twcodec/map-tools';
import * as net from '@twcodec/net';
import * as netmsg from '@twcodec/netmsg';
import * as snapshot from '@twcodec/snapshot';
import * as teehistorian from '@twcodec/teehistorian';
import { repoRoot } from '../../../test/corpus.js';
import { BinaryError, CodecError } from './index.js';

describe('CodecError', () => {
  it.each([
    ['datafile', datafile],
    ['map', map],
    ['map-tools', mapTools],
    ['snapshot', snapshot],
    ['teehistorian', teehistorian],
    ['netmsg', netmsg],
    ['net', net],
    ['demo', demo],
    ['export', exportTables],
  ] as const)('@twcodec/%s re-exports the runtime CodecError and BinaryError', (_name, mod) => {
    expect(mod.CodecError).toBe(CodecError);
    expect(mod.BinaryError).toBe(BinaryError);
  });

  it('is what each reader throws on garbage', () => {
    const garbage = new Uint8Array(300).fill(0x41);
    const thrown = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e;
      }
      return undefined;
    };
    for (const e of [
      thrown(() => datafile.Datafile.read(garbage)),
      thrown(() => map.readMap(garbage)),
      thrown(() => demo.readDemo(garbage)),
      thrown(() => [...teehistorian.readTeehistorian(garbage)]),
    ]) {
      expect(e).toBeInstanceOf(CodecError);
      expect((e as CodecError).code).toBe('BAD_MAGIC');
    }
  });
});

describe('generated code', () => {
  const generated = readdirSync(join(repoRoot, 'packages'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => {
      const dir = join(repoRoot, 'packages', d.name, 'src', 'generated');
      try {
        return readdirSync(dir).map((f) => ({ pkg: d.name, file: f, text: readFileSync(join(dir, f), 'utf8') }));
      } catch {
        return [];
      }
    });

  it('exists in the datafile, demo, map, net, netmsg, runtime (the Huffman table), snapshot and teehistorian packages, and the explorer (its schema data)', () => {
    expect(new Set(generated.map((g) => g.pkg))).toEqual(new Set(['datafile', 'demo', 'explorer', 'map', 'net', 'netmsg', 'runtime', 'snapshot', 'teehistorian']));
  });

  it.each(generated.map((g) => [`${g.pkg}/${g.file}`, g] as const))('%s imports only its own package and the packages it depends on', (_name, g) => {
    const imports = [...g.text.matchAll(/^\s*(?:import|export)\b[^'";]*?from\s+'([^']+)'/gm)].map((m) => m[1]!);
    // The packages below it that its package.json names (net's packet tables carry the message and snapshot tables).
    const { dependencies = {} } = JSON.parse(readFileSync(join(repoRoot, 'packages', g.pkg, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    // Generated files or the package's own hand-written engine (netmsg's tables run on ../codec.js).
    for (const source of imports) expect(source === '@twcodec/runtime' || source in dependencies || /^\.\/[\w.-]+\.gen\.js$/.test(source) || /^\.\.\/[\w.-]+\.js$/.test(source), source).toBe(true);
  });
});
