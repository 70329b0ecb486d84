// Builds the explorer as static files (dist/). What the page shows of the schemas (map item fields with their
// widths, descriptions of snapshot objects and teehistorian messages) is generated with the codecs
// (src/generated/schemas.gen.ts, `npm run generate`) and served as virtual modules, so the page never reads the
// YAML itself nor carries a second copy of it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { MAP_ITEM_SCHEMAS, STREAM_DOCS, TEEHISTORIAN_MESSAGE_DOCS } from './src/generated/schemas.gen.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const GENERATED = join(here, 'src', 'generated', 'schemas.gen.ts');
const VIRTUAL = 'virtual:map-item-schemas';
const VIRTUAL_TH = 'virtual:teehistorian-message-docs';
const VIRTUAL_STREAM = 'virtual:stream-docs';

export function mapItemSchemas() {
  return MAP_ITEM_SCHEMAS;
}

/** Message name (core) or extension name -> the schema's description. */
export function teehistorianMessageDocs() {
  return TEEHISTORIAN_MESSAGE_DOCS;
}

/** Descriptions for the decoded insides of demos, teehistorian files and captures (snapshot objects, teehistorian message fields, packet parts). */
export function streamDocs() {
  return STREAM_DOCS;
}

/** Serves the schema-derived virtual modules. */
function schemaModules() {
  return {
    name: 'map-item-schemas',
    resolveId: (id) => (id === VIRTUAL || id === VIRTUAL_TH || id === VIRTUAL_STREAM ? '\0' + id : undefined),
    load(id) {
      const name = { [VIRTUAL]: 'MAP_ITEM_SCHEMAS', [VIRTUAL_TH]: 'TEEHISTORIAN_MESSAGE_DOCS', [VIRTUAL_STREAM]: 'STREAM_DOCS' }[id.slice(1)];
      if (id.startsWith('\0') && name) return `export { ${name} as default } from ${JSON.stringify(GENERATED)};`;
      return undefined;
    },
  };
}

/**
 * Writes sw.js, a service worker that keeps the page's files (listed from the bundle, so hashed names stay
 * right) in a cache named after them: once loaded, the page opens again without a network.
 */
function offline() {
  return {
    name: 'explorer-offline',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = ['./', './index.html', ...Object.keys(bundle).map((f) => `./${f}`)].sort();
      let hash = 0;
      for (const c of files.join('\n')) hash = (Math.imul(hash, 31) + c.charCodeAt(0)) | 0;
      const source = readFileSync(join(here, 'src', 'sw.js'), 'utf8')
        .replace("'__CACHE__'", JSON.stringify(`explorer-${(hash >>> 0).toString(16)}`))
        .replace("['__FILES__']", JSON.stringify(files));
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

export default defineConfig({
  root: here,
  base: './',
  logLevel: 'warn',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  plugins: [schemaModules(), offline()],
  // The worker is bundled on its own and needs the schema modules too.
  worker: { format: 'es', plugins: () => [schemaModules()] },
});
