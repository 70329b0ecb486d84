import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { emitMapDocs } from './emit-docs.js';
import { emitMapTs } from './emit-ts.js';
import { loadSchemas } from './load.js';

export interface GenerateOptions {
  /** Repository root: schemas/ is read from here. */
  root: string;
  /** Where the map codecs go; default packages/map/src/generated under root. */
  mapOut?: string;
  /** Where the docs go; default docs/formats under root. */
  docsOut?: string;
  /** Only report what would change. */
  check?: boolean;
}

export interface GenerateResult {
  written: string[];
  unchanged: string[];
  removed: string[];
}

/** Regenerates every output from the schemas; files are written only when their text changes. */
export function generate(options: GenerateOptions): GenerateResult {
  const schemas = join(options.root, 'schemas');
  const mapOut = options.mapOut ?? join(options.root, 'packages', 'map', 'src', 'generated');
  const docsOut = options.docsOut ?? join(options.root, 'docs', 'formats');
  const map = loadSchemas(schemas, 'map', options.root);

  const outputs = new Map<string, string>();
  for (const file of emitMapTs(map)) outputs.set(join(mapOut, file.path), file.text);
  outputs.set(join(docsOut, 'map.md'), emitMapDocs(map));

  const result: GenerateResult = { written: [], unchanged: [], removed: [] };
  for (const [path, text] of outputs) {
    if (existsSync(path) && readFileSync(path, 'utf8') === text) {
      result.unchanged.push(path);
      continue;
    }
    result.written.push(path);
    if (!options.check) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  }
  // Generated files whose schema is gone.
  if (existsSync(mapOut)) {
    for (const name of readdirSync(mapOut)) {
      const path = join(mapOut, name);
      if (name.endsWith('.gen.ts') && !outputs.has(path)) {
        result.removed.push(path);
        if (!options.check) rmSync(path);
      }
    }
  }
  return result;
}
