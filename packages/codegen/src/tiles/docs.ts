// docs/formats/map-tiles.md: the tables of tile and entity ids and the layers that accept them, set into the
// page's template (schemas/map/tile-meanings.md).
import { inRanges, rangeText, TEMPLATE_PLACEHOLDERS, type TileMeaningsDef } from './load.js';
import { layerPredicate, setPredicate } from './emit.js';
import { cell, renderPage } from '../shared/pages.js';


/** docs/formats/map-tiles.md: the tile and entity ids and which layers accept them. */
export function emitTileMeaningsDocs(meanings: TileMeaningsDef): string {
  const offset = meanings.entityOffset;
  const accepting = (id: number) => meanings.layers.filter((l) => inRanges(l.ranges, id)).map((l) => l.name);
  const layerList = (names: string[]) => (names.length ? names.join(', ') : 'none');
  const tileRows = meanings.tiles.map((t) => {
    const valid = accepting(t.id);
    const means = t.layers.length && t.layers.join() !== valid.join() ? ` (this meaning: ${t.layers.join(', ')})` : '';
    return `| ${t.id} | \`${t.name}\` | ${t.ddnet ?? '-'} | ${cell(t.description)} | ${layerList(valid)}${means} |`;
  });
  const entityRows = meanings.entities.map((e) => {
    // An entity whose tile id is a named tile (ENTITY_NULL: 191 is entities_off_2) has no tile of its own.
    const tile = meanings.tiles.find((t) => t.id === e.id + offset);
    const [id, layers] = tile ? [`none (${tile.id} is \`${tile.name}\`)`, 'none'] : [`${e.id + offset}`, layerList(accepting(e.id + offset))];
    return `| ${e.id} | ${id} | \`${e.name}\` | ${e.ddnet ?? '-'} | ${cell(e.description)} | ${layers} |`;
  });
  const tables: Record<(typeof TEMPLATE_PLACEHOLDERS)[number], string[]> = {
    description: [cell(meanings.description)],
    entity_offset: [`${offset}`],
    what_ddnet_does: [cell(meanings.whatDdnetDoes)],
    layers_table: [
      '| layer | predicate | accepted ids | made of |',
      '| --- | --- | --- | --- |',
      ...meanings.layers.map((l) => `| ${l.name} | \`${layerPredicate(l)}\` | ${l.ranges.map(rangeText).join(', ')} | ${cell(l.parts.join('; '))} |`),
      ...meanings.sets.map((s) => `| (set) ${s.name} | \`${setPredicate(s)}\` | ${s.ranges.map(rangeText).join(', ')} | ${cell(`${s.description} ${s.parts.join('; ')}`)} |`),
    ],
    tiles_table: ['| id | name | DDNet | meaning | layers |', '| --- | --- | --- | --- | --- |', ...tileRows],
    entities_table: ['| entity | tile id | name | DDNet | meaning | layers |', '| --- | --- | --- | --- | --- | --- |', ...entityRows],
  };
  return renderPage(meanings.template, meanings.file, tables);
}
