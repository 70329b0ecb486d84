export { emitMapDocs } from './emit-docs.js';
export { emitMapTs, type GeneratedFile } from './emit-ts.js';
export { generate, type GenerateOptions, type GenerateResult } from './generate.js';
export { emitTeehistorianDocs, emitTeehistorianTs } from './emit-teehistorian.js';
export { loadSchemas, loadTeehistorianSchemas, SchemaError, type SchemaProblem } from './load.js';
export * from './model.js';
