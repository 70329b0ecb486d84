// Emits the map package's generated TypeScript from the schema model with ts-morph structures.
// Output is deterministic: declarations in schema order (items by type id, the rest by name), fixed
// quotes, indentation and newlines.
import {
  type ImportDeclarationStructure,
  type Project,
  type SourceFile,
  type StatementStructures,
  StructureKind,
} from 'ts-morph';
import { registryStatements } from './registry.js';
import { knownVersionStatements } from './versions.js';
import { constName } from './fields.js';
import { createProject, doc, exportedConst, GENERATED_HEADER, type GeneratedFile, generatedText, Imports, namedValues } from '../shared/emit.js';
import { itemStatements } from './items.js';
import { recordStatements } from './records.js';
import { tileStatements } from './tile-codecs.js';
import { type EnumDef, type SchemaSet } from './model.js';
import { pascal } from '../shared/names.js';



// ---------------------------------------------------------------------------------------------
// Enums

function enumStatements(e: EnumDef): StatementStructures[] {
  return [
    ...namedValues(pascal(e.name), `${e.description}${e.kind === 'flags' ? ' (bit flags)' : ''}`, e.values),
    ...(e.values.some((v) => v.bytes !== undefined)
      ? [exportedConst(`${constName(e.name)}_BYTES`, 'Readonly<Record<number, number>>', `Bytes of one element of each ${e.name} value (\`bytes\` in the schema).`, `{ ${e.values.map((v) => `${v.value}: ${v.bytes}`).join(', ')} }`)]
      : []),
  ];
}

// ---------------------------------------------------------------------------------------------
// Files

function addFile(project: Project, path: string, source: string, imports: (string | ImportDeclarationStructure)[], statements: (string | StatementStructures)[]): SourceFile {
  return project.createSourceFile(
    path,
    {
      statements: [
        GENERATED_HEADER(source),
        ...imports,
        ...statements,
      ],
    },
    { overwrite: true },
  );
}

/** The generated map codecs, as files relative to the map package's src/generated/. */
export function emitMapTs(set: SchemaSet, source = 'schemas/map'): GeneratedFile[] {
  const project = createProject();
  const files: SourceFile[] = [];
  files.push(addFile(project, 'enums.gen.ts', `${source}/enums.yaml`, [], set.enums.flatMap(enumStatements)));
  files.push(
    addFile(
      project,
      'types.gen.ts',
      `${source} (the field types of schemas/README.md)`,
      [],
      [
        {
          kind: StructureKind.Interface,
          name: 'Point',
          isExported: true,
          docs: doc('Two i32: x and y.'),
          properties: [
            { name: 'x', type: 'number' },
            { name: 'y', type: 'number' },
          ],
        },
        {
          kind: StructureKind.Interface,
          name: 'Color',
          isExported: true,
          docs: doc('Four i32: r, g, b, a (0-255 in `color` fields, any i32 in `i32color` fields).'),
          properties: ['r', 'g', 'b', 'a'].map((c) => ({ name: c, type: 'number' })),
        },
      ],
    ),
  );
  // Records and items: their imports collected from what their code uses.
  const recordImports = new Imports();
  const records = set.records.flatMap((r) => recordStatements(r, recordImports));
  files.push(addFile(project, 'records.gen.ts', `${source}/records/*.yaml`, recordImports.declarations(), records));
  files.push(addFile(project, 'tiles.gen.ts', `${source}/tiles/*.yaml`, [], set.tiles.flatMap(tileStatements)));
  const itemImports = new Imports();
  const items = set.items.flatMap((item) => itemStatements(item, itemImports));
  files.push(addFile(project, 'items.gen.ts', `${source}/items/*.yaml`, itemImports.declarations(), items));
  files.push(addFile(project, 'versions.gen.ts', `${source}/items/*.yaml`, [], knownVersionStatements(set)));
  const registryImports = new Imports();
  const registry = registryStatements(set, registryImports);
  files.push(addFile(project, 'registry.gen.ts', `${source}/**/*.yaml`, registryImports.declarations(), registry));
  const reexported = ['enums', 'items', 'records', 'registry', 'tiles', 'types', 'versions'];
  files.push(addFile(project, 'index.gen.ts', source, [], reexported.map((name) => ({ kind: StructureKind.ExportDeclaration, moduleSpecifier: `./${name}.gen.js` }))));
  return files.map((f) => ({ path: f.getFilePath().replace(/^\//, ''), text: generatedText(f) }));
}
