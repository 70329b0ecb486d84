// Emits the tile id enums and validity predicates (TypeScript) and the tile id reference (Markdown) from
// the tile meanings of the map schemas.
import { StructureKind, type StatementStructures } from 'ts-morph';
import { createProject, doc, exportedConst, GENERATED_HEADER, type GeneratedFile, generatedText, Imports, listInitializer, str } from '../shared/emit.js';
import { rangeText, type TileIdRuleDef, type TileMeaningDef, type TileMeaningsDef } from './load.js';
import { pascal } from '../shared/names.js';

/** `isValidGameTile` for the game layer, `isValidEntity` for the entity set: DDNet's names, lower camel case. */
export const layerPredicate = (layer: TileIdRuleDef) => `isValid${pascal(layer.name)}Tile`;
export const setPredicate = (set: TileIdRuleDef) => `isValid${pascal(set.name)}`;

function constObject(name: string, description: string, members: TileMeaningDef[]): StatementStructures[] {
  const lines = members.flatMap((m) => [`/** ${m.description}${m.ddnet ? ` (DDNet's ${m.ddnet})` : ''} */`, `${pascal(m.name)}: ${m.id},`]);
  return [exportedConst(name, undefined, description, listInitializer('{', lines, '} as const')), typeOfValues(name)];
}

const typeOfValues = (name: string): StatementStructures => ({ kind: StructureKind.TypeAlias, isExported: true, name, type: `(typeof ${name})[keyof typeof ${name}]` });

/** A layer's tile ids: the `TileId` members it gives a meaning, picked by name (one line, no second copy of the docs). */
function layerConst(layer: TileIdRuleDef, members: TileMeaningDef[], imports: Imports): StatementStructures[] {
  const name = `${pascal(layer.name)}TileId`;
  const picked = members.map((m) => str(pascal(m.name))).join(', ');
  return [exportedConst(name, undefined, `The named tile ids of the ${layer.name} layer. ${layer.description}`, `${imports.value('../pick-keys.js', 'pickKeys')}(TileId, ${picked})`), typeOfValues(name)];
}


function predicate(name: string, rule: TileIdRuleDef, what: string): StatementStructures {
  const test = rule.ranges.map(([lo, hi]) => (lo === hi ? `id === ${lo}` : `(id >= ${lo} && id <= ${hi})`));
  return {
    kind: StructureKind.Function,
    isExported: true,
    name,
    parameters: [{ name: 'id', type: 'number' }],
    returnType: 'boolean',
    docs: doc(`Whether ${what} accepts tile id \`id\`: ${rule.ranges.map(rangeText).join(', ')}. ${rule.description}`),
    statements: [`return ${test.length ? test.join(' || ') : 'false'};`],
  };
}

/**
 * The colours of the tile meanings: per physics layer the ids whose meaning there has a colour (an entity's in
 * every layer that accepts its tile id), and `tileColour`, which falls back to the colours of other ids.
 */
function colourStatements(meanings: TileMeaningsDef): StatementStructures[] {
  const rgb = (c: readonly number[]) => `[${c.join(', ')}]`;
  const perLayer = meanings.layers.map((layer) => {
    const entries = new Map<number, string>();
    for (const e of meanings.entities) if (e.colour && e.layers.includes(layer.name)) entries.set(e.id + meanings.entityOffset, rgb(e.colour));
    for (const t of meanings.tiles) if (t.colour && t.layers.includes(layer.name)) entries.set(t.id, rgb(t.colour));
    const list = [...entries].sort((a, b) => a[0] - b[0]).map(([id, c]) => `${id}: ${c}`);
    return `${layer.name}: ${list.length ? `{ ${list.join(', ')} }` : '{}'},`;
  });
  return [
    exportedConst('OTHER_TILE_COLOUR', 'Rgb', 'The colour of a tile id whose meaning has none.', rgb(meanings.otherTileColour)),
    exportedConst('OTHER_ENTITY_COLOUR', 'Rgb', 'The colour of an entity whose meaning has none.', rgb(meanings.otherEntityColour)),
    exportedConst('TILE_COLOURS', 'Readonly<Record<string, Readonly<Record<number, Rgb>>>>', 'The colours of the tile meanings by physics layer and tile id (entities at their tile id).', listInitializer('{', perLayer, '}')),
    {
      kind: StructureKind.Function,
      isExported: true,
      name: 'tileColour',
      parameters: [{ name: 'layer', type: 'string' }, { name: 'id', type: 'number' }],
      returnType: 'Rgb | undefined',
      docs: doc('The colour tile id `id` of a physics layer (a tilemap kind: `game`, `front`, ...) is drawn in: its meaning\'s, else the colour of other entities or other tiles; undefined for air (0).'),
      statements: ['if (id === 0) return undefined;', `return TILE_COLOURS[layer]?.[id] ?? (id > ENTITY_OFFSET ? OTHER_ENTITY_COLOUR : OTHER_TILE_COLOUR);`],
    },
  ];
}

/** The generated tile id file, relative to the map package's src/generated/. */
export function emitTileMeaningsTs(meanings: TileMeaningsDef): GeneratedFile {
  const project = createProject();
  const imports = new Imports();
  const statements: (string | StatementStructures)[] = [
    { kind: StructureKind.TypeAlias, isExported: true, name: 'Rgb', type: 'readonly [r: number, g: number, b: number]', docs: doc('A colour: red, green, blue 0-255.') },
    exportedConst('ENTITY_OFFSET', undefined, 'Entities are stored in game, front and switch layers as tile id `ENTITY_OFFSET + entity`.', `${meanings.entityOffset}`),
    ...constObject('TileId', 'Every named tile id (DDNet\'s TILE_*); some ids mean different things in different layers.', meanings.tiles),
    ...constObject('EntityId', 'Entity numbers (DDNet\'s ENTITY_*); the tile id is `ENTITY_OFFSET` more.', meanings.entities),
  ];
  for (const layer of meanings.layers) statements.push(...layerConst(layer, meanings.tiles.filter((t) => t.layers.includes(layer.name)), imports));
  for (const set of meanings.sets) statements.push(predicate(setPredicate(set), set, `the ${set.name} set`));
  for (const layer of meanings.layers) statements.push(predicate(layerPredicate(layer), layer, `DDNet's ${layer.name} layer`));
  statements.push(
    exportedConst(
      'TILE_ID_VALIDITY',
      'Readonly<Record<string, (id: number) => boolean>>',
      'The valid-id predicate of each physics layer, by tilemap kind.',
      listInitializer('{', meanings.layers.map((layer) => `${layer.name}: ${layerPredicate(layer)},`), '}'),
    ),
    exportedConst('INVALID_TILE_ID_BEHAVIOUR', undefined, 'What DDNet does with a tile id its layer does not accept.', str(meanings.whatDdnetDoes)),
    ...colourStatements(meanings),
  );
  const file = project.createSourceFile('tile-meanings.gen.ts', { statements: [GENERATED_HEADER(meanings.file), ...imports.declarations(), ...statements] }, { overwrite: true });
  return { path: 'tile-meanings.gen.ts', text: generatedText(file) };
}
