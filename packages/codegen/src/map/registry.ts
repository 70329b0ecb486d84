// Emits the map item registry (registry.gen.ts): every item type with its codec, version range and
// reference fields, and the kinds of layouts that have them (tilemap kind -> data field -> tile type).
// readMap/writeMap/validateMap work from these tables, so an item type added in YAML needs no
// hand-written code.
import { type StatementStructures, StructureKind } from 'ts-morph';
import { itemInterface, tileClass } from './names.js';
import { doc, exportedConst, type Imports, listInitializer, readonlyInterface, str } from '../shared/emit.js';

const ITEMS = './items.gen.js';
const TILES = './tiles.gen.js';
import { type FieldDef, type FieldEntry, flatFields, type ItemDef, type KindsDef, type SchemaSet, type TileDef, tileFieldBytes, type VariantDef, type VersionRange } from './model.js';
import { camel, pascal } from '../shared/names.js';

/** The TypeScript type of an item's decoded value. */
export function itemValueType(item: ItemDef): string {
  if (item.array && item.array.records.length > 1) return 'Int32Array';
  return itemInterface(item);
}

const versionsText = (v: VersionRange | undefined) =>
  v ? `{ min: ${v.min}, max: ${v.max}, outside: ${str(v.outside)}, description: ${v.description ? str(v.description) : 'undefined'} }` : 'undefined';

function refsText(fields: FieldDef[]): string {
  const refs = fields.filter((f) => f.type === 'item_ref');
  return `[${refs.map((f) => `{ field: ${str(camel(f.name))}, ref: ${str(f.ref!)}, optional: ${f.optional === true} }`).join(', ')}]`;
}

function dataText(fields: FieldDef[]): string {
  const refs = fields.filter((f) => f.type === 'data_ref');
  return `[${refs.map((f) => `{ field: ${str(camel(f.name))}, data: ${str(f.data!)}, optional: ${f.optional === true} }`).join(', ')}]`;
}

/** Fields the writer derives from the map's layout: `derived: true` ones and every data index. */
function derivedText(fields: FieldDef[]): string {
  return `[${fields.filter((f) => f.derived || f.type === 'data_ref').map((f) => str(camel(f.name))).join(', ')}]`;
}

/** The least values DDNet accepts (`min:`), by property name. */
function minText(fields: FieldDef[]): string {
  return `{ ${fields.filter((f) => f.min !== undefined).map((f) => `${camel(f.name)}: ${f.min}`).join(', ')} }`;
}

/** The first field of each `since_version` group: present in every item of at least that version that is long enough. */
function sinceText(entries: FieldEntry[]): string {
  const groups = entries.flatMap((e) => (e.kind === 'since_version' ? [e] : []));
  return `[${groups.map((g) => `{ field: ${str(camel(g.fields[0]!.name))}, version: ${g.version} }`).join(', ')}]`;
}

function variantText(v: VariantDef): string {
  const fields = flatFields(v.fields);
  return `{ name: ${str(v.name)}, value: ${v.value}, versions: ${versionsText(v.versions)}, since: ${sinceText(v.fields)}, refs: ${refsText(fields)}, data: ${dataText(fields)}, derived: ${derivedText(fields)}, min: ${minText(fields)} }`;
}

/** Each field of a tile with its byte offset. */
function fieldOffsets(tile: TileDef): [string, number][] {
  let at = 0;
  return tile.fields.map((f) => {
    const out: [string, number] = [f.name, at];
    at += tileFieldBytes(f);
    return out;
  });
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

function kindStatements(set: SchemaSet, item: ItemDef, variant: VariantDef, kinds: KindsDef, imports: Imports): StatementStructures[] {
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
  const kindLine = (k: (typeof all)[number]) => {
    const tile = tileOf(k.tiles);
    const property = k.tiles === kinds.none.tiles ? 'undefined' : str(k.name);
    return `{ kind: ${str(k.name)}, flag: ${k.flag}, field: ${str(camel(k.tiles))}, property: ${property}, tile: ${str(tile.name)}, tileBytes: ${tile.bytes}, zeroBytes: [${zeroBytes(tile).join(', ')}], view: (bytes) => new ${imports.value(TILES, tileClass(tile))}(bytes) },`;
  };
  return [
    {
      kind: StructureKind.TypeAlias,
      name: kindType,
      isExported: true,
      docs: doc(`What a ${variant.name} ${item.name} is, from the one flag set in \`${kinds.on}\` (\`${kinds.none.name}\` when none is).`),
      type: all.map((k) => str(k.name)).join(' | '),
    },
    readonlyInterface(`${kindType}Info`, `One ${variant.name} kind: its flag, the field of its tiles and their tile type.`, [
      ['kind', kindType],
      ['flag', 'number', `Its flag in \`${kinds.on}\`; 0 for \`${kinds.none.name}\`.`],
      ['field', `keyof ${imports.type(ITEMS, itemType)}`, 'The data index field of its tiles.'],
      ['property', `${kindType} | undefined`, `The layer property holding its tiles when they are not in \`tiles\` (the ${kinds.none.tiles} field).`],
      ['tile', 'string', 'The tile type (schemas/map/tiles).'],
      ['tileBytes', 'number'],
      ['zeroBytes', 'readonly number[]', 'Byte offsets in a tile that DDNet refuses to see non-zero (padding and `must_be_zero` fields).'],
      ['view', '(bytes: Uint8Array) => TileView', "Views tile bytes as this kind's tiles."],
    ]),
    exportedConst(
      `${variant.name.toUpperCase()}_KINDS`,
      `readonly ${kindType}Info[]`,
      `Every ${variant.name} kind, \`${kinds.none.name}\` first, then in the order DDNet tests the flags.`,
      listInitializer('[', all.map(kindLine), ']'),
    ),
    exportedConst(`${variant.name.toUpperCase()}_KIND_FLAGS`, undefined, `The flags of \`${kinds.on}\` that name a kind; at most one may be set.`, String(mask)),
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
      properties: all.map((k) => ({ name: k.name, type: own.includes(k) ? `{ ${k.name}: ${imports.type(TILES, tileClass(tileOf(k.tiles)))} }` : '{}' })),
    },
  ];
}

/** registry.gen.ts */
export function registryStatements(set: SchemaSet, imports: Imports): StatementStructures[] {
  const kinds = kindsOf(set);
  const tileClasses = set.tiles.map(tileClass);
  /** An item's value type, imported from items.gen.ts unless it stays ints. */
  const valueType = (i: ItemDef) => (itemValueType(i) === 'Int32Array' ? 'Int32Array' : imports.type(ITEMS, itemValueType(i)));
  const recordRefs = set.records.filter((r) => r.fields.some((f) => f.type === 'item_ref'));
  const entryLines = (item: ItemDef): string[] => {
    const raw = itemValueType(item) === 'Int32Array';
    const fields = flatFields(item.fields);
    return [
      `${item.name}: {`,
      ...[
        `name: ${str(item.name)},`,
        `typeId: ${item.typeId ?? 'undefined'},`,
        `uuid: ${item.uuid ? str(item.uuid) : 'undefined'},`,
        `uuidName: ${item.uuidName ? str(item.uuidName) : 'undefined'},`,
        `oneItem: ${item.oneItem},`,
        `ddnetOnly: ${item.ddnetOnly},`,
        `versions: ${versionsText(item.versions)},`,
        `since: ${sinceText(item.fields)},`,
        `refs: ${refsText(fields)},`,
        `data: ${dataText(fields)},`,
        `derived: ${derivedText(fields)},`,
        `min: ${minText(fields)},`,
        `variants: [${(item.variants?.cases ?? []).map(variantText).join(', ')}],`,
        raw ? 'decode: (d) => d.slice(),' : `decode: ${imports.value(ITEMS, `decode${itemInterface(item)}`)},`,
        raw ? 'encode: (d) => d,' : `encode: ${imports.value(ITEMS, `encode${itemInterface(item)}`)},`,
      ].map((l) => `  ${l}`),
      '},',
    ];
  };
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.TypeAlias,
      name: 'MapItemName',
      isExported: true,
      docs: doc('The name of every map item type the schemas describe.'),
      type: set.items.map((i) => str(i.name)).join(' | '),
    },
    readonlyInterface(
      'MapItemValues',
      'The decoded value of each map item type (an array item with several record layouts stays ints: the map decides the layout).',
      set.items.map((i) => [i.name, valueType(i)] as const),
    ),
    readonlyInterface('VersionRange', "The values of an item's version field DDNet reads, and what it does with an item outside them.", [
      ['min', 'number'],
      ['max', 'number'],
      ['outside', "'refused' | 'ignored'", '`refused`: DDNet does not load the map; `ignored`: DDNet skips the item.'],
      ['description', 'string | undefined'],
    ]),
    readonlyInterface('ItemRefField', 'A field holding the index of another item (`ref:` in the schema).', [
      ['field', 'string', 'The property name.'],
      ['ref', 'MapItemName'],
      ['optional', 'boolean', '-1 means none.'],
    ]),
    readonlyInterface('DataRefField', 'A field holding a data item index (`data:` in the schema).', [
      ['field', 'string', 'The property name.'],
      ['data', 'string', 'What the data holds: cstring, pixels, `tiles:<tile>`, `records:<record>`, ...'],
      ['optional', 'boolean', '-1 means none.'],
    ]),
    readonlyInterface('SinceVersionField', 'The first field of a `since_version` group: an item of at least `version` without it is too short for its version.', [
      ['field', 'string'],
      ['version', 'number'],
    ]),
    readonlyInterface('MapItemVariantInfo', 'One variant of an item with variants (a layer type).', [
      ['name', 'string'],
      ['value', 'number'],
      ['versions', 'VersionRange | undefined'],
      ['since', 'readonly SinceVersionField[]'],
      ['refs', 'readonly ItemRefField[]'],
      ['data', 'readonly DataRefField[]'],
      ['derived', 'readonly string[]'],
      ['min', 'Readonly<Record<string, number>>'],
    ]),
    readonlyInterface(
      'MapItemTypeInfo',
      'What the schemas say about one map item type, with its codec.',
      [
        ['name', 'N'],
        ['typeId', 'number | undefined', 'Fixed type id, for the original item types.'],
        ['uuid', 'string | undefined', 'UUID, for DDNet extension item types.'],
        ['uuidName', 'string | undefined'],
        ['oneItem', 'boolean'],
        ['ddnetOnly', 'boolean'],
        ['versions', 'VersionRange | undefined', 'Versions DDNet reads (items with variants: per variant).'],
        ['since', 'readonly SinceVersionField[]', 'Fields that items of a version are expected to have.'],
        ['refs', 'readonly ItemRefField[]', 'Item references of the fields every item of the type has.'],
        ['data', 'readonly DataRefField[]', 'Data references of the fields every item of the type has.'],
        ['derived', 'readonly string[]', "Fields writeMap derives from the map's layout, not content: data indices and the `derived: true` ranges, counts and sizes (of the fields every item of the type has; variants add theirs)."],
        ['min', 'Readonly<Record<string, number>>', 'The least values DDNet accepts (`min:` in the schema), by property name.'],
        ['variants', 'readonly MapItemVariantInfo[]'],
        ['decode', '(d: Int32Array, offset?: number) => MapItemValues[N]', "Decodes an item's ints; `offset` (the item's byte offset) is for errors."],
      ],
      {
        typeParameters: [{ name: 'N', constraint: 'MapItemName', default: 'MapItemName' }],
        // A method, so that the entry of one type is also an entry of the union.
        methods: [{ name: 'encode', parameters: [{ name: 'item', type: 'MapItemValues[N]' }], returnType: 'Int32Array' }],
      },
    ),
    exportedConst('MAP_ITEM_TYPE', '{ readonly [N in MapItemName]: MapItemTypeInfo<N> }', 'Every map item type the schemas describe, by name.', listInitializer('{', set.items.flatMap(entryLines), '}')),
    exportedConst(
      'MAP_ITEM_TYPES',
      'readonly MapItemTypeInfo[]',
      'Every map item type the schemas describe, numbered types first.',
      `[${set.items.map((i) => `MAP_ITEM_TYPE.${i.name}`).join(', ')}] as readonly MapItemTypeInfo[]`,
    ),
    exportedConst(
      'MAP_RECORD_REFS',
      'Readonly<Record<string, readonly ItemRefField[]>>',
      'Item references inside records (`ref:` fields of schemas/map/records), by record name.',
      listInitializer('{', recordRefs.map((r) => `${r.name}: ${refsText(r.fields)},`), '}'),
    ),
    exportedConst(
      'LARGEST_TILE_BYTES',
      undefined,
      'Bytes of the largest tile type (schemas/map/tiles): a layer whose width x height tiles of it overflow an i32 byte count is refused.',
      String(Math.max(0, ...set.tiles.map((t) => t.bytes))),
    ),
    exportedConst(
      'TILE_BYTE_OFFSETS',
      undefined,
      'Where each field of each tile type (schemas/map/tiles) starts in the tile, in bytes, by tile type and field (camelCase).',
      listInitializer('{', set.tiles.map((t) => `${t.name}: { ${fieldOffsets(t).map(([name, at]) => `${camel(name)}: ${at}`).join(', ')} },`), '} as const'),
    ),
  ];
  if (kinds.length) {
    statements.push({
      kind: StructureKind.TypeAlias,
      name: 'TileView',
      isExported: true,
      docs: doc('Any tile view class.'),
      type: tileClasses.map((c) => imports.type(TILES, c)).join(' | '),
    });
    for (const { item, variant, kinds: k } of kinds) statements.push(...kindStatements(set, item, variant, k, imports));
  }
  return statements;
}
