// Emits the snapshot item tables from schemas/snapshot (the format reference page: docs.ts).
import { StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import { createProject, GENERATED_HEADER, type GeneratedFile, generatedText, Imports, listInitializer, namedValues, str } from '../shared/emit.js';
import { LAYOUT_INTERFACES, layoutLiteral, objectsMapName, protocolTypePrefix, valueSetLiteral } from './objects.js';
import { pascal } from '../shared/names.js';
import { type SnapshotProtocolDef } from './model.js';

export const protocolConst = (p: SnapshotProtocolDef) => p.protocol.toUpperCase().replace(/[^A-Z0-9]/g, '_');
const setsConst = (p: SnapshotProtocolDef) => `${protocolConst(p)}_ENUMS`;

/** enums.gen.ts: per protocol and set, an object of named constants and its value type (e.g. Ddnet06Emote.Happy). */
export function emitSnapshotEnumsTs(protocols: SnapshotProtocolDef[], source = 'schemas/snapshot/*.yaml'): GeneratedFile {
  const project = createProject();
  const statements: (string | StatementStructures)[] = [GENERATED_HEADER(source)];
  for (const p of protocols) {
    // An object interface of the same name (0.7's pickup) keeps its name; the set's constants get `Value`.
    const layouts = new Set([...p.items, ...p.uuidItems].map((l) => pascal(l.name)));
    for (const e of p.enums) {
      const name = `${protocolTypePrefix(p)}${pascal(e.name)}${layouts.has(pascal(e.name)) ? 'Value' : ''}`;
      const what = e.kind === 'flags' ? 'bits' : 'values';
      statements.push(...namedValues(name, `${e.description ?? `The ${what} of ${e.name}`} (${p.protocol}${e.ddnet ? `; DDNet's ${e.ddnet}_*` : ''}).`, e.values));
    }
  }
  const file = project.createSourceFile('enums.gen.ts', { statements }, { overwrite: true });
  return { path: 'enums.gen.ts', text: generatedText(file) };
}

export function emitSnapshotTs(protocols: SnapshotProtocolDef[], source = 'schemas/snapshot/*.yaml'): GeneratedFile[] {
  const project = createProject();
  const imports = new Imports();
  const objectsMap = (p: SnapshotProtocolDef) => imports.type('./objects.gen.js', objectsMapName(p));
  const statements: (string | StatementStructures)[] = [
    ...LAYOUT_INTERFACES,
    {
      kind: StructureKind.Interface,
      name: 'SnapshotItemType',
      extends: ['SnapshotLayout'],
      isExported: true,
      docs: [{ description: 'A numbered item type of a protocol.' }],
      properties: [
        { name: 'typeId', type: 'number', isReadonly: true },
        { name: 'name', type: 'string', isReadonly: true },
        { name: 'size', type: 'number | undefined', isReadonly: true, docs: [{ description: 'Size in i32 the layout fixes; undefined when it varies (deltas then carry it).' }] },
        { name: 'sizeInDelta', type: 'boolean', isReadonly: true, docs: [{ description: 'Delta updates of this type carry their size (no pre-agreed size): always when `size` is undefined, and for types the protocol added after its delta size table.' }] },
      ],
    },
    {
      kind: StructureKind.Interface,
      name: 'SnapshotUuidItemType',
      extends: ['SnapshotLayout'],
      isExported: true,
      docs: [{ description: 'A UUID-typed item (DDNet extension); its size always travels with it.' }],
      properties: [
        { name: 'name', type: 'string', isReadonly: true },
        { name: 'uuid', type: 'string', isReadonly: true },
        { name: 'uuidName', type: 'string', isReadonly: true },
        { name: 'size', type: 'number', isReadonly: true },
        { name: 'variableSize', type: 'boolean', isReadonly: true },
      ],
    },
    {
      kind: StructureKind.Interface,
      name: 'SnapshotProtocol',
      isExported: true,
      typeParameters: [{ name: 'Objects', default: 'unknown' }],
      docs: [{ description: 'The item table of one protocol; `Objects` maps its layout names to their field types.' }],
      properties: [
        { name: 'objectTypes', type: 'Objects', hasQuestionToken: true, isReadonly: true, docs: [{ description: 'Never set: carries the type of the layouts for snapshotObjects().items(name).' }] },
        { name: 'name', type: 'string', isReadonly: true },
        { name: 'items', type: 'readonly SnapshotItemType[]', isReadonly: true },
        { name: 'uuidItems', type: 'readonly SnapshotUuidItemType[]', isReadonly: true },
        { name: 'enums', type: 'Readonly<Record<string, SnapshotValueSet>>', isReadonly: true, docs: [{ description: 'The enums and flag sets of the protocol by name.' }] },
      ],
    },
  ];
  for (const p of protocols) {
    statements.push({
      kind: StructureKind.VariableStatement,
      declarationKind: VariableDeclarationKind.Const,
      docs: [{ description: `The enums and flag sets of ${p.protocol}, from ${p.protocol}.yaml.` }],
      declarations: [{ name: setsConst(p), initializer: listInitializer('{', p.enums.map((e) => `${e.name}: ${valueSetLiteral(e)},`), '} as const satisfies Record<string, SnapshotValueSet>') }],
    });
  }
  for (const p of protocols) {
    statements.push({
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [{ description: p.description }],
      declarations: [
        {
          name: protocolConst(p),
          type: `SnapshotProtocol<${objectsMap(p)}>`,
          initializer: (w) => {
            w.write('{').newLine();
            w.indent(() => {
              w.writeLine(`name: ${str(p.protocol)},`);
              w.writeLine('items: [');
              w.indent(() => {
                for (const item of p.items) w.writeLine(`{ typeId: ${item.type_id}, name: ${str(item.name)}, size: ${item.size ?? 'undefined'}, sizeInDelta: ${item.sizeInDelta}, ${layoutLiteral(item, setsConst(p))} },`);
              });
              w.writeLine('],');
              w.writeLine('uuidItems: [');
              w.indent(() => {
                for (const u of p.uuidItems) {
                  w.writeLine(`{ name: ${str(u.name)}, uuid: ${str(u.uuid)}, uuidName: ${str(u.uuidName)}, size: ${u.size}, variableSize: ${u.variableSize}, ${layoutLiteral(u, setsConst(p))} },`);
                }
              });
              w.writeLine('],');
              w.writeLine(`enums: ${setsConst(p)},`);
            });
            w.write('}');
          },
        },
      ],
    });
  }
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [{ description: 'Every protocol the schemas describe.' }],
    declarations: [{ name: 'SNAPSHOT_PROTOCOLS', type: 'readonly SnapshotProtocol[]', initializer: `[${protocols.map(protocolConst).join(', ')}]` }],
  });
  const file = project.createSourceFile('tables.gen.ts', { statements: [GENERATED_HEADER(source), ...imports.declarations(), ...statements] }, { overwrite: true });
  return [{ path: 'tables.gen.ts', text: generatedText(file) }];
}
