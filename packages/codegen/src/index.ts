export { emitMapDocs } from './emit-docs.js';
export { emitMapTs } from './emit-map.js';
export type { GeneratedFile } from './emit-shared.js';
export { generate, type GenerateOptions, type GenerateResult } from './generate.js';
export { emitTeehistorianDocs, emitTeehistorianTs } from './emit-teehistorian.js';
export { emitSnapshotDocs, emitSnapshotTs } from './emit-snapshot.js';
export { loadSchemas, loadSnapshotSchemas, loadTeehistorianSchemas, SchemaError, type SchemaProblem } from './load.js';
export * from './model.js';
