export { emitMapDocs } from './emit-docs.js';
export { emitMapTs, type GeneratedFile } from './emit-ts.js';
export { generate, type GenerateOptions, type GenerateResult } from './generate.js';
export { loadSchemas, SchemaError, type SchemaProblem } from './load.js';
export * from './model.js';
