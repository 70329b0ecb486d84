export { emitMapDocs } from './emit-docs.js';
export { emitMapTs, type GeneratedFile } from './emit-ts.js';
export { generate, type GenerateOptions, type GenerateResult } from './generate.js';
export { emitTeehistorianDocs, emitTeehistorianTs } from './emit-teehistorian.js';
export { emitSnapshotDocs, emitSnapshotTs } from './emit-snapshot.js';
export { loadSchemas, loadSnapshotSchemas, loadTeehistorianSchemas, SchemaError, type SchemaProblem } from './load.js';
export * from './model.js';
export { emitTileMeaningsDocs, emitTileMeaningsTs } from './emit-tile-meanings.js';
export { loadTileMeanings, type TileIdRuleDef, type TileMeaningDef, type TileMeaningsDef } from './load-tile-meanings.js';
