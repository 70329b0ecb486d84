// Emits the map item registry (registry.gen.ts): every item type with its codec, version range and
// reference fields, and the kinds of layouts that have them (tilemap kind -> data field -> tile type).
// readMap/writeMap/validateMap work from these tables, so an item type added in YAML needs no
// hand-written code.
import { type StatementStructures, StructureKind, VariableDeclarationKind } from 'ts-morph';
import { doc, itemInterface, str, tileClass } from './emit-ts.js';
import { camel, type FieldDef, type FieldEntry, flatFields, type ItemDef, type KindsDef, pascal, type SchemaSet, type TileDef, tileFieldBytes, type VariantDef, type VersionRange } from './model.js';

/** The TypeScript type of an item's decoded value. */
export function itemValueType(item: ItemDef): string {
  if (item.array && item.array.records.length > 1) return 'Int32Array';
  return itemInterface(item);
}

const versionsText = (v: VersionRange | undefined) =>
  v ? `{ min: ${v.min}, max: ${v.max}, outside: ${str(v.outside)}${v.description ? `, description: ${str(v.description)}` : ''} }` : 'undefined';

function refsText(fields: FieldDef[]): string {
  const refs = fields.filter((f) => f.type === 'item_ref');
  return `[${refs.map((f) => `{ field: ${str(camel(f.name))}, ref: ${str(f.ref!)}, optional: ${f.optional === true} }`).join(', ')}]`;
}

function dataText(fields: FieldDef[]): string {
  const refs = fields.filter((f) => f.type === 'data_ref');
  return `[${refs.map((f) => `{ field: ${str(camel(f.name))}, data: ${str(f.data!)}, optional: ${f.optional === true} }`).join(', ')}]`;
}

/** The first field of each `since_version` group: present in every item of at least that version that is long enough. */
function sinceText(entries: FieldEntry[]): string {
  const groups = entries.flatMap((e) => (e.kind === 'since_version' ? [e] : []));
  return `[${groups.map((g) => `{ field: ${str(camel(g.fields[0]!.name))}, version: ${g.version} }`).join(', ')}]`;
}

function variantText(v: VariantDef): string {
  const fields = flatFields(v.fields);
  return `{ name: ${str(v.name)}, value: ${v.value}, versions: ${versionsText(v.versions)}, since: ${sinceText(v.fields)}, refs: ${refsText(fields)}, data: ${dataText(fields)} }`;
}

/** Byte offsets of a tile's fields that must be zero. */
function zeroBytes(tile: TileDef): number[] {
  const out: number[] = [];
  let at = 0;
  for (const f of tile.fields) {
    const n = tileFieldBytes(f);
    if (f.type === 'padding' || f.must_be_zero) for (let k = 0; k < n; k++) out.push(at + k);
    at += n;
  }
  return out;
}

/** The variant that has kinds, with its item (the schema allows one such variant per map). */
function kindsOf(set: SchemaSet): { item: ItemDef; variant: VariantDef; kinds: KindsDef }[] {
  return set.items.flatMap((item) => (item.variants?.cases ?? []).filter((c) => c.kinds).map((variant) => ({ item, variant, kinds: variant.kinds! })));
}

function kindStatements(set: SchemaSet, item: ItemDef, variant: VariantDef, kinds: KindsDef): StatementStructures[] {
  const fields = [...flatFields(item.fields), ...flatFields(variant.fields)];
  const flagsField = fields.find((f) => f.name === kinds.on)!;
  const flagSet = set.enums.find((e) => e.name === flagsField.flags)!;
  const base = pascal(variant.name);
  const kindType = `${base}Kind`;
  const tileOf = (fieldName: string) => {
    const target = fields.find((f) => f.name === fieldName)!.data!.split(':')[1]!;
    return set.tiles.find((t) => t.name === target)!;
  };
  const all = [
    { name: kinds.none.name, flag: 0, tiles: kinds.none.tiles },
    ...kinds.flags.map((k) => ({ name: k.flag, flag: flagSet.values.find((v) => v.name === k.flag)!.value, tiles: k.tiles })),
  ];
  const mask = all.reduce((m, k) => m | k.flag, 0);
  const own = all.filter((k) => k.tiles !== kinds.none.tiles);
  const itemType = `${pascal(variant.name)}${pascal(item.name)}Item`;
  return [
    {
      kind: StructureKind.TypeAlias,
      name: kindType,
      isExported: true,
      docs: doc(`What a ${variant.name} ${item.name} is, from the one flag set in \`${kinds.on}\` (\`${kinds.none.name}\` when none is).`),
      type: all.map((k) => str(k.name)).join(' | '),
    },
    {
      kind: StructureKind.Interface,
      name: `${kindType}Info`,
      isExported: true,
      docs: doc(`One ${variant.name} kind: its flag, the field of its tiles and their tile type.`),
      properties: [
        { name: 'kind', type: kindType, isReadonly: true },
        { name: 'flag', type: 'number', isReadonly: true, docs: doc(`Its flag in \`${kinds.on}\`; 0 for \`${kinds.none.name}\`.`) },
        { name: 'field', type: `keyof ${itemType}`, isReadonly: true, docs: doc('The data index field of its tiles.') },
        { name: 'property', type: `${kindType} | undefined`, isReadonly: true, docs: doc(`The layer property holding its tiles when they are not in \`tiles\` (the ${kinds.none.tiles} field).`) },
        { name: 'tile', type: 'string', isReadonly: true, docs: doc('The tile type (schemas/map/tiles).') },
        { name: 'tileBytes', type: 'number', isReadonly: true },
        { name: 'zeroBytes', type: 'readonly number[]', isReadonly: true, docs: doc('Byte offsets in a tile that DDNet refuses to see non-zero (padding and `must_be_zero` fields).') },
        { name: 'view', type: '(bytes: Uint8Array) => TileView', isReadonly: true, docs: doc('Views tile bytes as this kind\'s tiles.') },
      ],
    },
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: doc(`Every ${variant.name} kind, \`${kinds.none.name}\` first, then in the order DDNet tests the flags.`),
      declarations: [
        {
          name: `${variant.name.toUpperCase()}_KINDS`,
          type: `readonly ${kindType}Info[]`,
          initializer: (w) => {
            w.write('[').newLine();
            w.indent(() => {
              for (const k of all) {
                const tile = tileOf(k.tiles);
                const property = k.tiles === kinds.none.tiles ? 'undefined' : str(k.name);
                w.writeLine(
                  `{ kind: ${str(k.name)}, flag: ${k.flag}, field: ${str(camel(k.tiles))}, property: ${property}, tile: ${str(tile.name)}, tileBytes: ${tile.bytes}, zeroBytes: [${zeroBytes(tile).join(', ')}], view: (bytes) => new ${tileClass(tile)}(bytes) },`,
                );
              }
            });
            w.write(']');
          },
        },
      ],
    },
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: doc(`The flags of \`${kinds.on}\` that name a kind; at most one may be set.`),
      declarations: [{ name: `${variant.name.toUpperCase()}_KIND_FLAGS`, initializer: String(mask) }],
    },
    {
      kind: StructureKind.Function,
      name: `${camel(variant.name)}Kind`,
      isExported: true,
      docs: doc(`The kind of a ${variant.name} from its \`${kinds.on}\`: the first flag set, in the order DDNet tests them.`),
      parameters: [{ name: 'flags', type: 'number' }],
      returnType: kindType,
      statements: [...kinds.flags.map((k) => `if (flags & ${all.find((a) => a.name === k.flag)!.flag}) return ${str(k.flag)};`), `return ${str(kinds.none.name)};`],
    },
    {
      kind: StructureKind.Interface,
      name: `${kindType}Tiles`,
      isExported: true,
      docs: doc(`The tiles a ${variant.name} layer of each kind has beside \`tiles\` (the ${kinds.none.tiles} field).`),
      properties: all.map((k) => ({
        name: k.name,
        type: own.includes(k) ? `{ ${k.name}: ${tileClass(tileOf(k.tiles))} }` : '{}',
      })),
    },
  ];
}

/** registry.gen.ts */
export function registryStatements(set: SchemaSet): { imports: string[]; statements: StatementStructures[] } {
  const itemTypes = set.items.map(itemInterface).filter((_, i) => itemValueType(set.items[i]!) !== 'Int32Array');
  const kinds = kindsOf(set);
  const kindItemTypes = kinds.map(({ item, variant }) => `${pascal(variant.name)}${pascal(item.name)}Item`);
  const tileClasses = set.tiles.map(tileClass);
  const imports = [
    `import type { ${[...new Set([...itemTypes, ...kindItemTypes])].sort().join(', ')} } from './items.gen.js';`,
    `import { ${set.items.filter((i) => itemValueType(i) !== 'Int32Array').flatMap((i) => [`decode${itemInterface(i)}`, `encode${itemInterface(i)}`]).sort().join(', ')} } from './items.gen.js';`,
    ...(kinds.length ? [`import { ${tileClasses.sort().join(', ')} } from './tiles.gen.js';`] : []),
  ];
  const recordRefs = set.records.filter((r) => r.fields.some((f) => f.type === 'item_ref'));
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.TypeAlias,
      name: 'MapItemName',
      isExported: true,
      docs: doc('The name of every map item type the schemas describe.'),
      type: set.items.map((i) => str(i.name)).join(' | '),
    },
    {
      kind: StructureKind.Interface,
      name: 'MapItemValues',
      isExported: true,
      docs: doc('The decoded value of each map item type (an array item with several record layouts stays ints: the map decides the layout).'),
      properties: set.items.map((i) => ({ name: i.name, type: itemValueType(i), isReadonly: true })),
    },
    {
      kind: StructureKind.Interface,
      name: 'VersionRange',
      isExported: true,
      docs: doc("The values of an item's version field DDNet reads, and what it does with an item outside them."),
      properties: [
        { name: 'min', type: 'number', isReadonly: true },
        { name: 'max', type: 'number', isReadonly: true },
        { name: 'outside', type: "'refused' | 'ignored'", isReadonly: true, docs: doc('`refused`: DDNet does not load the map; `ignored`: DDNet skips the item.') },
        { name: 'description', type: 'string', hasQuestionToken: true, isReadonly: true },
      ],
    },
    {
      kind: StructureKind.Interface,
      name: 'ItemRefField',
      isExported: true,
      docs: doc('A field holding the index of another item (`ref:` in the schema).'),
      properties: [
        { name: 'field', type: 'string', isReadonly: true, docs: doc('The property name.') },
        { name: 'ref', type: 'MapItemName', isReadonly: true },
        { name: 'optional', type: 'boolean', isReadonly: true, docs: doc('-1 means none.') },
      ],
    },
    {
      kind: StructureKind.Interface,
      name: 'DataRefField',
      isExported: true,
      docs: doc('A field holding a data item index (`data:` in the schema).'),
      properties: [
        { name: 'field', type: 'string', isReadonly: true, docs: doc('The property name.') },
        { name: 'data', type: 'string', isReadonly: true, docs: doc('What the data holds: cstring, pixels, `tiles:<tile>`, `records:<record>`, ...') },
        { name: 'optional', type: 'boolean', isReadonly: true, docs: doc('-1 means none.') },
      ],
    },
    {
      kind: StructureKind.Interface,
      name: 'SinceVersionField',
      isExported: true,
      docs: doc('The first field of a `since_version` group: an item of at least `version` without it is too short for its version.'),
      properties: [
        { name: 'field', type: 'string', isReadonly: true },
        { name: 'version', type: 'number', isReadonly: true },
      ],
    },
    {
      kind: StructureKind.Interface,
      name: 'MapItemVariantInfo',
      isExported: true,
      docs: doc('One variant of an item with variants (a layer type).'),
      properties: [
        { name: 'name', type: 'string', isReadonly: true },
        { name: 'value', type: 'number', isReadonly: true },
        { name: 'versions', type: 'VersionRange | undefined', isReadonly: true },
        { name: 'since', type: 'readonly SinceVersionField[]', isReadonly: true },
        { name: 'refs', type: 'readonly ItemRefField[]', isReadonly: true },
        { name: 'data', type: 'readonly DataRefField[]', isReadonly: true },
      ],
    },
    {
      kind: StructureKind.Interface,
      name: 'MapItemTypeInfo',
      isExported: true,
      typeParameters: [{ name: 'N', constraint: 'MapItemName', default: 'MapItemName' }],
      docs: doc('What the schemas say about one map item type, with its codec.'),
      properties: [
        { name: 'name', type: 'N', isReadonly: true },
        { name: 'typeId', type: 'number | undefined', isReadonly: true, docs: doc('Fixed type id, for the original item types.') },
        { name: 'uuid', type: 'string | undefined', isReadonly: true, docs: doc('UUID, for DDNet extension item types.') },
        { name: 'uuidName', type: 'string | undefined', isReadonly: true },
        { name: 'oneItem', type: 'boolean', isReadonly: true },
        { name: 'ddnetOnly', type: 'boolean', isReadonly: true },
        { name: 'versions', type: 'VersionRange | undefined', isReadonly: true, docs: doc('Versions DDNet reads (items with variants: per variant).') },
        { name: 'since', type: 'readonly SinceVersionField[]', isReadonly: true, docs: doc('Fields that items of a version are expected to have.') },
        { name: 'refs', type: 'readonly ItemRefField[]', isReadonly: true, docs: doc('Item references of the fields every item of the type has.') },
        { name: 'data', type: 'readonly DataRefField[]', isReadonly: true, docs: doc('Data references of the fields every item of the type has.') },
        { name: 'variants', type: 'readonly MapItemVariantInfo[]', isReadonly: true },
        { name: 'decode', type: '(d: Int32Array, offset?: number) => MapItemValues[N]', isReadonly: true, docs: doc("Decodes an item's ints; `offset` (the item's byte offset) is for errors.") },
      ],
      // A method, so that the entry of one type is also an entry of the union.
      methods: [{ name: 'encode', parameters: [{ name: 'item', type: 'MapItemValues[N]' }], returnType: 'Int32Array' }],
    },
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: doc('Every map item type the schemas describe, by name.'),
      declarations: [
        {
          name: 'MAP_ITEM_TYPE',
          type: '{ readonly [N in MapItemName]: MapItemTypeInfo<N> }',
          initializer: (w) => {
            w.write('{').newLine();
            w.indent(() => {
              for (const item of set.items) {
                const raw = itemValueType(item) === 'Int32Array';
                const fields = flatFields(item.fields);
                w.writeLine(`${item.name}: {`);
                w.indent(() => {
                  w.writeLine(`name: ${str(item.name)},`);
                  w.writeLine(`typeId: ${item.typeId ?? 'undefined'},`);
                  w.writeLine(`uuid: ${item.uuid ? str(item.uuid) : 'undefined'},`);
                  w.writeLine(`uuidName: ${item.uuidName ? str(item.uuidName) : 'undefined'},`);
                  w.writeLine(`oneItem: ${item.oneItem},`);
                  w.writeLine(`ddnetOnly: ${item.ddnetOnly},`);
                  w.writeLine(`versions: ${versionsText(item.versions)},`);
                  w.writeLine(`since: ${sinceText(item.fields)},`);
                  w.writeLine(`refs: ${refsText(fields)},`);
                  w.writeLine(`data: ${dataText(fields)},`);
                  w.writeLine(`variants: [${(item.variants?.cases ?? []).map(variantText).join(', ')}],`);
                  w.writeLine(raw ? 'decode: (d) => d.slice(),' : `decode: decode${itemInterface(item)},`);
                  w.writeLine(raw ? 'encode: (d) => d,' : `encode: encode${itemInterface(item)},`);
                });
                w.writeLine('},');
              }
            });
            w.write('}');
          },
        },
      ],
    },
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: doc('Every map item type the schemas describe, numbered types first.'),
      declarations: [{ name: 'MAP_ITEM_TYPES', type: 'readonly MapItemTypeInfo[]', initializer: `[${set.items.map((i) => `MAP_ITEM_TYPE.${i.name}`).join(', ')}] as readonly MapItemTypeInfo[]` }],
    },
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: doc('Item references inside records (`ref:` fields of schemas/map/records), by record name.'),
      declarations: [
        {
          name: 'MAP_RECORD_REFS',
          type: 'Readonly<Record<string, readonly ItemRefField[]>>',
          initializer: `{ ${recordRefs.map((r) => `${r.name}: ${refsText(r.fields)}`).join(', ')} }`,
        },
      ],
    },
  ];
  if (kinds.length) {
    statements.push({
      kind: StructureKind.TypeAlias,
      name: 'TileView',
      isExported: true,
      docs: doc('Any tile view class.'),
      type: tileClasses.join(' | '),
    });
    for (const { item, variant, kinds: k } of kinds) statements.push(...kindStatements(set, item, variant, k));
  }
  return { imports, statements };
}
