// Names of the TypeScript types generated for map schemas, shared by the map emitter and the registry emitter.
import { type ItemDef, type RecordDef, type TileDef } from './model.js';
import { pascal } from '../shared/names.js';

export const itemInterface = (item: ItemDef) => `${pascal(item.name)}Item`;
export const variantInterface = (item: ItemDef, variant: string) => `${pascal(variant)}${pascal(item.name)}Item`;
export const recordInterface = (record: RecordDef) => pascal(record.name);
export const tileInterface = (tile: TileDef) => (tile.name === 'tile' ? 'Tile' : `${pascal(tile.name)}Tile`);
export const tileClass = (tile: TileDef) => `${tileInterface(tile)}s`;
