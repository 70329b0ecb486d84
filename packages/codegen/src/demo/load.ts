// Loads the demo container (schemas/demo/demo.yaml): the header and its versioned extensions laid out with byte
// offsets, the versions and the feature each added, the chunk header's bits, the chunk types and the constants;
// its docs template beside it.
import { checkConstants, checkVersions, type ContainerConstant, type ContainerField, type ContainerMagic, fieldsSize, layoutFields, singleContainerFile, versionFrom } from '../shared/containers.js';
import { loadPageTemplate, type PageTemplate } from '../shared/pages.js';
import { positionOf, SchemaError, type SchemaProblem } from '../shared/schema-files.js';

/** The placeholders the docs template (schemas/demo/demo.md) may use. */
export const DEMO_PLACEHOLDERS = ['description', 'checked', 'magic_table', 'versions_table', 'header_size', 'header_table', 'extensions', 'chunk_bits_table', 'chunk_types_table', 'constants_table'] as const;

/** The features a version may have, each from the version that added it on. */
export const DEMO_VERSION_FLAGS = ['timeline_markers', 'tick_compression', 'map_sha256'] as const;
export type DemoVersionFlag = (typeof DEMO_VERSION_FLAGS)[number];

export interface DemoVersion {
  version: number;
  flags: Record<DemoVersionFlag, boolean>;
  description: string;
  checked: string[];
}

export interface DemoExtension {
  name: string;
  versionFlag: DemoVersionFlag;
  /** The first version that has it. */
  from: number;
  description: string;
  fields: ContainerField[];
  size: number;
}

export interface DemoChunkBits {
  name: string;
  chunk: 'any' | 'tick_marker' | 'data';
  lo: number;
  hi: number;
  mask: number;
  versions?: number[];
  description: string;
  errors: string[];
  checked: string[];
}

export interface DemoChunkType {
  value: number;
  name: string;
  description: string;
  link: string;
  checked: string[];
}

export interface DemoSchema {
  file: string;
  description: string;
  byteOrder: 'little' | 'big';
  checked: string[];
  magic: ContainerMagic[];
  versions: DemoVersion[];
  /** The first version with each feature (undefined: none has it). */
  versionFrom: Record<DemoVersionFlag, number | undefined>;
  header: ContainerField[];
  headerSize: number;
  extensions: DemoExtension[];
  chunkBits: DemoChunkBits[];
  chunkTypes: DemoChunkType[];
  constants: ContainerConstant[];
  template: PageTemplate;
}

type RawField = Parameters<typeof layoutFields>[2][number];
interface RawDemo {
  demo: string;
  description: string;
  byte_order: 'little' | 'big';
  checked: string[];
  magic: ContainerMagic[];
  versions: ({ version: number; description: string; checked: string[] } & Record<DemoVersionFlag, boolean>)[];
  header: RawField[];
  extensions: { name: string; version_flag: DemoVersionFlag; description: string; fields: RawField[] }[];
  chunk_bits: { name: string; chunk: DemoChunkBits['chunk']; bits: [number, number]; versions?: number[]; description: string; errors?: string[]; checked: string[] }[];
  chunk_types: DemoChunkType[];
  constants: ContainerConstant[];
}

/** The demo schema, or undefined when schemas/demo holds none. */
export function loadDemoSchema(schemasDir: string, displayRoot: string): DemoSchema | undefined {
  const f = singleContainerFile(schemasDir, 'demo', displayRoot);
  if (!f) return undefined;
  const raw = f.data as unknown as RawDemo;
  const problems: SchemaProblem[] = [];
  const at = (path: (string | number)[]) => ({ file: f.file, ...positionOf(f, path) });
  const header = layoutFields(f, ['header'], raw.header, problems);
  checkVersions(f, raw.versions, problems);
  checkConstants(f, raw.constants, problems);
  const from = Object.fromEntries(DEMO_VERSION_FLAGS.map((flag) => [flag, versionFrom(f, raw.versions, flag, problems)])) as Record<DemoVersionFlag, number | undefined>;
  const known = raw.versions.map((v) => v.version);
  const magicField = header.find((h) => h.type === 'magic');
  if (!magicField) problems.push({ ...at(['header']), message: 'the header has no magic field' });
  raw.magic.forEach((m, i) => {
    if (magicField && m.value.length !== magicField.bytes) problems.push({ ...at(['magic', i, 'value']), message: `'${m.value.replace(/\0/g, '\\0')}' is not ${magicField.bytes} bytes (the header's ${magicField.name})` });
  });
  const extensions = raw.extensions.map((e, i): DemoExtension => {
    const fields = layoutFields(f, ['extensions', i, 'fields'], e.fields, problems);
    const first = from[e.version_flag];
    if (first === undefined) problems.push({ ...at(['extensions', i, 'version_flag']), message: `no version has ${e.version_flag}` });
    return { name: e.name, versionFlag: e.version_flag, from: first ?? 0, description: e.description, fields, size: fieldsSize(fields) };
  });
  const chunkBits = raw.chunk_bits.map((b, i): DemoChunkBits => {
    const [lo, hi] = b.bits;
    if (lo > hi) problems.push({ ...at(['chunk_bits', i, 'bits']), message: `bits [${lo}, ${hi}]: the lowest bit comes first` });
    for (const v of b.versions ?? []) if (!known.includes(v)) problems.push({ ...at(['chunk_bits', i, 'versions']), message: `version ${v} is not one of ${known.join(', ')}` });
    const mask = ((1 << (hi - lo + 1)) - 1) << lo;
    return { name: b.name, chunk: b.chunk, lo, hi, mask, ...(b.versions ? { versions: b.versions } : {}), description: b.description, errors: b.errors ?? [], checked: b.checked };
  });
  // Fields of one chunk kind (and of every kind) must not overlap in a version they share.
  chunkBits.forEach((a, i) => {
    chunkBits.slice(0, i).forEach((b) => {
      const kinds = a.chunk === 'any' || b.chunk === 'any' || a.chunk === b.chunk;
      const versions = !a.versions || !b.versions || a.versions.some((v) => b.versions!.includes(v));
      if (kinds && versions && (a.mask & b.mask) !== 0) problems.push({ ...at(['chunk_bits', i, 'bits']), message: `${a.name} overlaps ${b.name}` });
    });
  });
  const types = new Set<number>();
  raw.chunk_types.forEach((t, i) => {
    if (types.has(t.value)) problems.push({ ...at(['chunk_types', i, 'value']), message: `chunk type ${t.value} is defined twice` });
    types.add(t.value);
  });
  if (problems.length) throw new SchemaError(problems);
  const template = loadPageTemplate(displayRoot, f.file.replace(/\.ya?ml$/, '.md'), DEMO_PLACEHOLDERS);
  return {
    file: f.file,
    description: raw.description,
    byteOrder: raw.byte_order,
    checked: raw.checked,
    magic: raw.magic,
    versions: raw.versions.map((v) => ({ version: v.version, flags: Object.fromEntries(DEMO_VERSION_FLAGS.map((flag) => [flag, v[flag]])) as Record<DemoVersionFlag, boolean>, description: v.description, checked: v.checked })),
    versionFrom: from,
    header,
    headerSize: fieldsSize(header),
    extensions,
    chunkBits,
    chunkTypes: raw.chunk_types,
    constants: raw.constants,
    template,
  };
}
