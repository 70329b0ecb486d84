// Emits the snapshot item tables and the snapshot format reference from schemas/snapshot.
import { StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import { createProject, GENERATED_DOCS_HEADER, GENERATED_HEADER, type GeneratedFile, generatedText, Imports, listInitializer, namedValues, str } from '../shared/emit.js';
import { LAYOUT_INTERFACES, layoutLiteral, objectsMapName, protocolTypePrefix, snapshotEnumTables, snapshotFieldTables, valueSetLiteral } from './objects.js';
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

export function emitSnapshotDocs(protocols: SnapshotProtocolDef[], source = 'schemas/snapshot/*.yaml'): string {
  const out = [
    GENERATED_DOCS_HEADER(source),
    '',
    '# Snapshot format reference',
    '',
    `A worked example on a real file: [examples.md](examples.md#snapshot).`,
    '',
    'A snapshot is the state of the game world the server sends every tick: items of i32 keyed by',
    '`type << 16 | id`. Generated from the schemas that also generate `@twcodec/snapshot`; rules checked against',
    "DDNet 16.4's `src/engine/shared/snapshot.cpp`.",
    '',
    '## Snapshot',
    '',
    '| i32 | field |',
    '| --- | --- |',
    '| 1 | data_size: bytes of item data (keys included) |',
    '| 1 | num_items (DDNet: at most 1024; data at most 64 KiB) |',
    '| num_items | offsets of the items in the data, in bytes |',
    '| data_size / 4 | items: key, then the item data; an item reaches the next offset |',
    '',
    'Checksum: the wrapping i32 sum of all item data, keys excluded.',
    '',
    'UUID-typed items: an item of type 0 with id 0x7fff - n declares that type id 0x7fff - n stands for a',
    "UUID; its 4 ints are the UUID's bytes read as big-endian i32. DDNet adds these declarations first.",
    '',
    '## Delta',
    '',
    '| i32 | field |',
    '| --- | --- |',
    '| 1 | num_deleted_items |',
    '| 1 | num_updated_items |',
    '| 1 | num_temp_items (always 0) |',
    '| num_deleted_items | keys of items of the old snapshot that are gone, in old-snapshot order |',
    '| ... | updates in new-snapshot order: type, id, size (only if the type has no pre-agreed size, and always for types >= 64), then the data: the new data for a new item, else new minus old int by int (wrapping) |',
    '',
    'Unchanged items are omitted. DDNet finds old items through a 256-bucket djb2 hash of the key bytes with at',
    'most 64 keys per bucket; keys that overflow a bucket are treated as absent, so they are sent as deleted and',
    'new. Applying a delta keeps the old items in their order, minus the deleted ones, and appends new items.',
    '',
    'Sizes count ints (i32), not bytes; a key is `(type << 16) | id`. On the wire every int of a delta is packed as a',
    'variable-width int ([teehistorian.md](teehistorian.md)): in the `snap` / `snap_single` messages (whose packet is',
    'Huffman-compressed as a whole when its compression flag is set) and in demo delta chunks (Huffman-compressed',
    'always, [network.md](network.md#huffman-compression)). A snapshot checksum is the sum of the ints of its items\' data',
    '(wrapping at 32 bits).',
    '',
  ];
  for (const p of protocols) {
    out.push(`## Protocol ${p.protocol}`, '', p.description, '', '| type | name | size (i32) |', '| --- | --- | --- |');
    for (const item of p.items) out.push(`| ${item.type_id} | ${item.name} | ${item.size === undefined ? 'sent with the item' : item.sizeInDelta ? `${item.size} (deltas carry it all the same)` : item.size} |`);
    out.push('');
    if (p.uuidItems.length) {
      out.push('UUID-typed items:', '', '| name | UUID name | UUID | size (i32) | description |', '| --- | --- | --- | --- | --- |');
      for (const u of p.uuidItems) out.push(`| ${u.name} | \`${u.uuidName}\` | \`${u.uuid}\` | ${u.size}${u.variableSize ? ' (or fewer)' : ''} | ${u.description} |`);
      out.push('');
    }
  }
  out.push('## Objects and events', '', 'The fields of every snapshot object and event, as `snapshotObjects(snapshot, protocol).items(name)` reads them',
    '(worked example on a real demo: [examples.md](examples.md#snapshot-objects)).', 'Ranges are what DDNet\'s snapshot validation checks (`validate()` reports values outside them); a field with a', 'default may be missing from an older server\'s shorter item. Field names here are snake_case; the views use camelCase.', '');
  out.push('## Enums and flags', '', 'The names of the values of enum fields and the bits of flags fields (`valueName`, `flagNames`; constants such as', '`Ddnet06Emote.Happy` in `@twcodec/snapshot`). Enum values count from 0 unless said; flags are bits.', '');
  for (const p of protocols) out.push(...snapshotEnumTables(p));
  for (const p of protocols) out.push(...snapshotFieldTables(p));
  return out.join('\n');
}
