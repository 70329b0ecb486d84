// Loads the teehistorian message schemas (schemas/teehistorian: core messages and UUID extensions), checking
// ids, names and UUIDs for duplicates.
import { uuidFromName } from '@twcodec/runtime';
import { findDuplicates, isReserved, parseFamily, positionOf, SchemaError, type SchemaProblem, type Site } from '../shared/schema-files.js';
import type { TeehistorianSchema, ThConstantDef, ThExtensionDef, ThHeaderKeyDef, ThMessageDef } from './model.js';

/** Property names the generated code adds: messages carry `kind`, and the reader adds `tick` and `offset`. */
export const RESERVED_TEEHISTORIAN_FIELDS = ['kind', 'tick', 'offset'] as const;

/** Loads the teehistorian message schemas (`schemasDir/teehistorian`). */
export function loadTeehistorianSchemas(schemasDir: string, displayRoot = schemasDir): TeehistorianSchema {
  const files = parseFamily(schemasDir, 'teehistorian', displayRoot);
  const problems: SchemaProblem[] = [];
  const schema: TeehistorianSchema = { messages: [], extensions: [], fileUuidName: '', fileUuid: '', constants: [], coreFile: '', headerKeys: [], checked: [] };
  const messageSites: (Site & { m: ThMessageDef })[] = [];
  const extensionSites: (Site & { e: ThExtensionDef })[] = [];
  for (const f of files) {
    const at = (path: (string | number)[]) => positionOf(f, path);
    const reserved = (fields: { name: string }[], base: (string | number)[]) =>
      fields.forEach((x, k) => {
        if (isReserved(RESERVED_TEEHISTORIAN_FIELDS, x.name)) problems.push({ file: f.file, ...at([...base, 'fields', k, 'name']), message: `field name '${x.name}' is reserved by the generated code (${RESERVED_TEEHISTORIAN_FIELDS.join(', ')})` });
      });
    if ('messages' in f.data) {
      const name = f.data.file_uuid_name as string | undefined;
      if (name !== undefined) {
        if (schema.fileUuidName) problems.push({ file: f.file, ...at(['file_uuid_name']), message: `file_uuid_name is given twice (also in ${schema.coreFile})` });
        schema.fileUuidName = name;
        schema.fileUuid = uuidFromName(name);
        schema.coreFile = f.file;
      }
      schema.headerKeys.push(...((f.data.header_keys as ThHeaderKeyDef[] | undefined) ?? []));
      schema.checked.push(...((f.data.checked as string[] | undefined) ?? []));
      ((f.data.constants as ThConstantDef[] | undefined) ?? []).forEach((c, i) => {
        if (schema.constants.some((d) => d.name === c.name)) problems.push({ file: f.file, ...at(['constants', i, 'name']), message: `constant ${c.name} is defined twice` });
        schema.constants.push(c);
      });
      (f.data.messages as ThMessageDef[]).forEach((m, i) => {
        if (m.fields.some((x) => x.type === 'raw_rest')) problems.push({ file: f.file, ...at(['messages', i]), message: 'raw_rest fields are only for extension payloads' });
        reserved(m.fields, ['messages', i]);
        messageSites.push({ f, path: ['messages', i], what: m.name, m });
        schema.messages.push(m);
      });
    } else if ('extensions' in f.data) {
      (f.data.extensions as Omit<ThExtensionDef, 'uuid'>[]).forEach((e, i) => {
        const rest = e.fields.findIndex((x) => x.type === 'raw_rest');
        if (rest >= 0 && rest !== e.fields.length - 1) problems.push({ file: f.file, ...at(['extensions', i, 'fields', rest]), message: 'a raw_rest field must be the last one' });
        reserved(e.fields, ['extensions', i]);
        const ext = { ...e, uuidName: e.uuid_name, uuid: uuidFromName(e.uuid_name) };
        extensionSites.push({ f, path: ['extensions', i], what: e.name, e: ext });
        schema.extensions.push(ext);
      });
    } else {
      problems.push({ file: f.file, line: 1, col: 1, message: 'teehistorian schemas hold messages or extensions' });
    }
  }
  const msgOf = (s: Site) => (s as Site & { m: ThMessageDef }).m;
  const extOf = (s: Site) => (s as Site & { e: ThExtensionDef }).e;
  findDuplicates(problems, messageSites, (s) => msgOf(s).id, (id, o) => `message id ${id} is already used by ${o.what}`);
  findDuplicates(problems, messageSites, (s) => msgOf(s).name, (name) => `message name ${name} is defined twice`);
  findDuplicates(problems, extensionSites, (s) => extOf(s).name, (name) => `extension ${name} is defined twice`);
  findDuplicates(problems, extensionSites, (s) => extOf(s).uuid, (uuid, o) => `UUID ${uuid} (${extOf(o).uuidName}) is already used by extension ${o.what}`);
  if (!schema.fileUuidName && files.length) problems.push({ file: files[0]!.file, line: 1, col: 1, message: 'file_uuid_name (the name whose UUID starts a teehistorian file) is in no file with messages' });
  if (problems.length) throw new SchemaError(problems);
  schema.messages.sort((a, b) => a.id - b.id);
  schema.extensions.sort((a, b) => a.name.localeCompare(b.name));
  return schema;
}
