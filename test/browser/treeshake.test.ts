// Bundle size: a browser bundle that only reads maps must not carry pako's deflate (writing needs it, reading
// does not). Bundled by Vite with browser conditions from the packages' dist/ (built by test/global-setup.ts), as
// an installed copy would be.
import { fileURLToPath } from 'node:url';
import { build, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';

const entries = fileURLToPath(new URL('./treeshake', import.meta.url));
/** Strings only pako's deflate holds (fflate does the inflating in browsers). */
const PAKO_ONLY = ['stream error', 'deflate_stored'];

async function bundle(entry: string): Promise<string> {
  const result = await build({
    root: entries,
    configFile: false,
    logLevel: 'silent',
    resolve: { conditions: ['browser'] },
    build: {
      write: false,
      minify: false,
      target: 'es2022',
      lib: { entry: `${entries}/${entry}`, formats: ['es'], fileName: 'bundle' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  return outputs
    .flatMap((o) => o.output)
    .map((chunk) => (chunk.type === 'chunk' ? chunk.code : ''))
    .join('\n');
}

describe('browser bundles', () => {
  it('leave pako out of a bundle that only reads maps', { timeout: 60_000 }, async () => {
    const readOnly = await bundle('read-only.js');
    const readWrite = await bundle('read-write.js');
    console.log(`read-only bundle ${readOnly.length} bytes, read-write bundle ${readWrite.length} bytes (unminified)`);
    // The strings are there when writing, so their absence below means something.
    for (const s of PAKO_ONLY) expect(readWrite.includes(s), `read-write bundle holds ${JSON.stringify(s)}`).toBe(true);
    for (const s of PAKO_ONLY) expect(readOnly.includes(s), `read-only bundle holds ${JSON.stringify(s)}`).toBe(false);
  });
});
