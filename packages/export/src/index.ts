// The runtime's error classes, as every package hands them out: one `instanceof CodecError` catches what any throws.
export { BinaryError, CodecError } from '@twcodec/runtime';
export { type ColumnType, type ExportColumn, type ExportTable } from './table.js';
export { TEEHISTORIAN_TABLES, type TeehistorianExportOptions, type TeehistorianTableName, teehistorianTables } from './teehistorian.js';
export { type DemoExportOptions, demoProtocol, demoTables, snapshotTables } from './demo.js';
export {
  encodeTable,
  EXPORT_FORMATS,
  ExportDependencyError,
  type ExportFormat,
  FORMAT_EXTENSIONS,
  FORMAT_PACKAGES,
  loadFormat,
  type ModuleLoader,
  toArrow,
  toParquet,
} from './encode.js';
