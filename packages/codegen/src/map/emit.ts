// Emits the map package's generated TypeScript from the schema model with ts-morph structures.
// Output is deterministic: declarations in schema order (items by type id, the rest by name), fixed
// quotes, indentation and newlines.
import {
  type Project,
  type SourceFile,
  type StatementStructures,
  StructureKind,
  VariableDeclarationKind,
} from 'ts-morph';
import { registryStatements } from './registry.js';
import { recordInterface } from './names.js';
import { createProject, doc, GENERATED_HEADER, type GeneratedFile, generatedText } from '../shared/emit.js';
import { constName } from './fields.js';
import { itemStatements } from './items.js';
import { recordStatements } from './records.js';
import { tileStatements } from './tile-codecs.js';
import { type EnumDef, type FieldDef, flatFields, type SchemaSet } from './model.js';
import { pascal } from '../shared/names.js';



// ---------------------------------------------------------------------------------------------
// Enums

function enumStatements(e: EnumDef): StatementStructures[] {
  const name = pascal(e.name);
  return [
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: doc(`${e.description}${e.kind === 'flags' ? ' (bit flags)' : ''}`),
      declarations: [
        {
          name,
          initializer: (w) => {
            w.write('{').newLine();
            w.indent(() => {
              for (const v of e.values) {
                w.writeLine(`/** ${v.description} */`);
                w.writeLine(`${pascal(v.name)}: ${v.value},`);
              }
            });
            w.write('} as const');
          },
        },
      ],
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name,
      type: `(typeof ${name})[keyof typeof ${name}]`,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Files

function addFile(project: Project, path: string, source: string, imports: string[], statements: (string | StatementStructures)[]): SourceFile {
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
  const usesI32String = (fields: FieldDef[]) => fields.some((f) => f.type === 'i32string');
  const arrayRecords = set.records.filter((r) => set.items.some((i) => i.array?.records.length === 1 && i.array.records[0] === r.name));
  const itemFields = set.items.flatMap((item) => [
    ...flatFields(item.fields),
    ...(item.variants?.cases.flatMap((c) => flatFields(c.fields)) ?? []),
  ]);
  files.push(
    addFile(
      project,
      'records.gen.ts',
      `${source}/records/*.yaml`,
      [
        ...(usesI32String(set.records.flatMap((r) => r.fields)) ? ["import { decodeI32String, encodeI32String } from '@twcodec/runtime';"] : []),
        "import type { Color, Point } from './types.gen.js';",
      ],
      set.records.flatMap(recordStatements),
    ),
  );
  files.push(addFile(project, 'tiles.gen.ts', `${source}/tiles/*.yaml`, [], set.tiles.flatMap(tileStatements)));
  files.push(
    addFile(
      project,
      'items.gen.ts',
      `${source}/items/*.yaml`,
      [
        ...(usesI32String(itemFields) ? ["import { decodeI32String, encodeI32String } from '@twcodec/runtime';"] : []),
        // need() is fixed code, hand-written in the map package (src/item-codec.ts).
        "import { need } from '../item-codec.js';",
        ...(arrayRecords.length ? [`import { ${arrayRecords.flatMap((r) => [`decode${recordInterface(r)}Array`, `encode${recordInterface(r)}Array`, `type ${recordInterface(r)}`, `${constName(`${r.name}_ints`)}`]).sort().join(', ')} } from './records.gen.js';`] : []),
        "import type { Color, Point } from './types.gen.js';",
      ],
      set.items.flatMap((item) => itemStatements(item)),
    ),
  );
  const registry = registryStatements(set);
  files.push(addFile(project, 'registry.gen.ts', `${source}/**/*.yaml`, registry.imports, registry.statements));
  files.push(
    addFile(project, 'index.gen.ts', source, [], [
      "export * from './enums.gen.js';",
      "export * from './items.gen.js';",
      "export * from './records.gen.js';",
      "export * from './registry.gen.js';",
      "export * from './tiles.gen.js';",
      "export * from './types.gen.js';",
    ]),
  );
  return files.map((f) => ({ path: f.getFilePath().replace(/^\//, ''), text: generatedText(f) }));
}
