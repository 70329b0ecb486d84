// Loads the datafile container (schemas/datafile/datafile.yaml): header, tables, item type entry and item header
// laid out with byte offsets, the versions and what each has, and the constants; its docs template beside it.
import { checkConstants, checkVersions, type ContainerConstant, type ContainerField, type ContainerMagic, fieldsSize, layoutFields, singleContainerFile, versionFrom } from '../shared/containers.js';
import { loadPageTemplate, type PageTemplate } from '../shared/pages.js';
import { positionOf, SchemaError, type SchemaProblem } from '../shared/schema-files.js';

/** The placeholders the docs template (schemas/datafile/datafile.md) may use. */
export const DATAFILE_PLACEHOLDERS = ['description', 'checked', 'magic_table', 'versions_table', 'header_size', 'header_table', 'layout_table', 'item_type_table', 'item_type_size', 'item_header_table', 'item_header_size', 'constants_table'] as const;

export interface DatafileVersion {
  version: number;
  compressed: boolean;
  dataSizes: boolean;
  description: string;
  checked: string[];
}

export interface DatafileTable {
  name: string;
  /** The header field that counts the entries, or that gives the size in bytes (`size`). */
  count?: string;
  size?: string;
  entry: 'i32' | 'item_type' | 'item' | 'bytes';
  /** Bytes of one entry (fixed-size entries only). */
  entryBytes?: number;
  versions?: number[];
  unit?: string;
  range?: string;
  description: string;
  errors: string[];
  checked: string[];
}

export interface DatafileSchema {
  file: string;
  description: string;
  byteOrder: 'little' | 'big';
  checked: string[];
  magic: ContainerMagic[];
  versions: DatafileVersion[];
  /** The first version with compressed data, and with the data_sizes table. */
  compressedFrom: number | undefined;
  dataSizesFrom: number | undefined;
  header: ContainerField[];
  headerSize: number;
  tables: DatafileTable[];
  itemType: ContainerField[];
  itemHeader: ContainerField[];
  constants: ContainerConstant[];
  template: PageTemplate;
}

type RawField = Parameters<typeof layoutFields>[2][number];
interface RawDatafile {
  datafile: string;
  description: string;
  byte_order: 'little' | 'big';
  checked: string[];
  magic: ContainerMagic[];
  versions: { version: number; compressed: boolean; data_sizes: boolean; description: string; checked: string[] }[];
  header: RawField[];
  tables: (Omit<DatafileTable, 'errors' | 'entryBytes'> & { errors?: string[] })[];
  item_type: RawField[];
  item_header: RawField[];
  constants: ContainerConstant[];
}

/** The datafile schema, or undefined when schemas/datafile holds none. */
export function loadDatafileSchema(schemasDir: string, displayRoot: string): DatafileSchema | undefined {
  const f = singleContainerFile(schemasDir, 'datafile', displayRoot);
  if (!f) return undefined;
  const raw = f.data as unknown as RawDatafile;
  const problems: SchemaProblem[] = [];
  const header = layoutFields(f, ['header'], raw.header, problems);
  const itemType = layoutFields(f, ['item_type'], raw.item_type, problems);
  const itemHeader = layoutFields(f, ['item_header'], raw.item_header, problems);
  const versions = raw.versions.map((v) => ({ version: v.version, compressed: v.compressed, dataSizes: v.data_sizes, description: v.description, checked: v.checked }));
  checkVersions(f, versions, problems);
  const compressedFrom = versionFrom(f, raw.versions, 'compressed', problems);
  const dataSizesFrom = versionFrom(f, raw.versions, 'data_sizes', problems);
  checkConstants(f, raw.constants, problems);
  const headerNames = header.map((h) => h.name);
  const known = raw.versions.map((v) => v.version);
  const magicField = header.find((h) => h.type === 'magic');
  if (!magicField) problems.push({ file: f.file, ...positionOf(f, ['header']), message: 'the header has no magic field' });
  raw.magic.forEach((m, i) => {
    if (magicField && m.value.length !== magicField.bytes) problems.push({ file: f.file, ...positionOf(f, ['magic', i, 'value']), message: `'${m.value}' is not ${magicField.bytes} bytes (the header's ${magicField.name})` });
  });
  const tables = raw.tables.map((t, i): DatafileTable => {
    const at = (key: string) => ({ file: f.file, ...positionOf(f, ['tables', i, key]) });
    for (const key of ['count', 'size'] as const) {
      const ref = t[key];
      if (ref !== undefined && !headerNames.includes(ref)) problems.push({ ...at(key), message: `${key}: '${ref}' is not a header field (${headerNames.join(', ')})` });
    }
    if ((t.count === undefined) === (t.size === undefined)) problems.push({ ...at('name'), message: `${t.name}: give either count: or size:` });
    if (t.count !== undefined && (t.entry === 'item' || t.entry === 'bytes')) problems.push({ ...at('entry'), message: `${t.name}: entries of ${t.entry} vary in size: give size:, not count:` });
    for (const v of t.versions ?? []) if (!known.includes(v)) problems.push({ ...at('versions'), message: `${t.name}: version ${v} is not one of ${known.join(', ')}` });
    const entryBytes = t.entry === 'i32' ? 4 : t.entry === 'item_type' ? fieldsSize(itemType) : undefined;
    return { ...t, errors: t.errors ?? [], ...(entryBytes !== undefined ? { entryBytes } : {}) };
  });
  if (problems.length) throw new SchemaError(problems);
  const template = loadPageTemplate(displayRoot, f.file.replace(/\.ya?ml$/, '.md'), DATAFILE_PLACEHOLDERS);
  return {
    file: f.file,
    description: raw.description,
    byteOrder: raw.byte_order,
    checked: raw.checked,
    magic: raw.magic,
    versions,
    compressedFrom,
    dataSizesFrom,
    header,
    headerSize: fieldsSize(header),
    tables,
    itemType,
    itemHeader,
    constants: raw.constants,
    template,
  };
}
