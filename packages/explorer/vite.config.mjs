// Builds the explorer as static files (dist/). The map item field descriptions come from schemas/map/items/*.yaml
// at build time through a virtual module, so the page never carries a second copy of them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const ITEMS_DIR = join(here, '..', '..', 'schemas', 'map', 'items');
const TEEHISTORIAN_DIR = join(here, '..', '..', 'schemas', 'teehistorian');
const VIRTUAL = 'virtual:map-item-schemas';
const VIRTUAL_TH = 'virtual:teehistorian-message-docs';
const VIRTUAL_STREAM = 'virtual:stream-docs';
const SNAPSHOT_DIR = join(here, '..', '..', 'schemas', 'snapshot');

/** Keeps what the page needs of a field list: names, types, widths in ints, descriptions and the groups. */
function fieldList(list) {
  return (list ?? []).map((f) =>
    f.fields
      ? { group: f.since_version !== undefined ? 'since' : 'if_room', sinceVersion: f.since_version, description: f.description, fields: fieldList(f.fields) }
      : { name: f.name, type: f.type, ints: f.type === 'color' ? 4 : (f.ints ?? 1), description: f.description ?? '' },
  );
}

export function mapItemSchemas() {
  return readdirSync(ITEMS_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((file) => {
      const s = parse(readFileSync(join(ITEMS_DIR, file), 'utf8'));
      return {
        name: s.item,
        typeId: s.type_id,
        uuidName: s.uuid_name,
        description: s.description ?? '',
        source: `schemas/map/items/${file}`,
        fields: fieldList(s.fields),
        variants: s.variants
          ? { on: s.variants.on, cases: s.variants.cases.map((c) => ({ name: c.name, value: c.value, description: c.description ?? '', fields: fieldList(c.fields) })) }
          : undefined,
      };
    });
}

/** Message name (core) or extension name -> the schema's description. */
export function teehistorianMessageDocs() {
  const core = parse(readFileSync(join(TEEHISTORIAN_DIR, 'core.yaml'), 'utf8'));
  const ext = parse(readFileSync(join(TEEHISTORIAN_DIR, 'extensions.yaml'), 'utf8'));
  const docs = {};
  for (const m of core.messages ?? []) docs[m.name] = m.description ?? '';
  for (const m of ext.extensions ?? []) docs[m.name] = m.description ?? '';
  return docs;
}

/**
 * Descriptions for the decoded insides of demos and teehistorian files: snapshot objects (by protocol, item
 * name, field name) from schemas/snapshot/*.yaml, teehistorian message fields from schemas/teehistorian/*.yaml.
 */
export function streamDocs() {
  const snapshot = {};
  for (const file of readdirSync(SNAPSHOT_DIR).filter((f) => f.endsWith('.yaml')).sort()) {
    const s = parse(readFileSync(join(SNAPSHOT_DIR, file), 'utf8'));
    const items = {};
    for (const item of [...(s.items ?? []), ...(s.uuid_items ?? [])]) {
      const fields = {};
      for (const f of item.fields ?? []) if (f.description) fields[f.name] = f.description;
      items[item.name] = { description: item.description ?? '', fields };
    }
    snapshot[s.protocol] = items;
  }
  const teehistorianFields = {};
  for (const file of ['core.yaml', 'extensions.yaml']) {
    const s = parse(readFileSync(join(TEEHISTORIAN_DIR, file), 'utf8'));
    for (const m of [...(s.messages ?? []), ...(s.extensions ?? [])]) {
      const fields = {};
      for (const f of m.fields ?? []) if (f.description) fields[f.name] = f.description;
      teehistorianFields[m.name] = fields;
    }
  }
  return { snapshot, teehistorianFields };
}

/** Serves the schema-derived virtual modules. */
function schemaModules() {
  return {
    name: 'map-item-schemas',
    resolveId: (id) => (id === VIRTUAL || id === VIRTUAL_TH || id === VIRTUAL_STREAM ? '\0' + id : undefined),
    load(id) {
      if (id === '\0' + VIRTUAL) return `export default ${JSON.stringify(mapItemSchemas())};`;
      if (id === '\0' + VIRTUAL_TH) return `export default ${JSON.stringify(teehistorianMessageDocs())};`;
      if (id === '\0' + VIRTUAL_STREAM) return `export default ${JSON.stringify(streamDocs())};`;
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
