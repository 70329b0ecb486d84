// The runtime's error classes, as every package hands them out: one `instanceof CodecError` catches what any throws.
export { BinaryError, CodecError } from '@twcodec/runtime';
export { type ColumnType, EXPORT_ROW_GROUP_ROWS, EXPORT_STRING_ROW_GROUP_ROWS, type ExportColumn, type ExportTable, rowGroupRowsOf } from './table.js';
export { streamTeehistorianTables, TEEHISTORIAN_TABLES, type TeehistorianExportOptions, type TeehistorianStreamExportOptions, type TeehistorianTableName, teehistorianTables } from './teehistorian.js';
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
  parquetTableWriter,
  type ParquetTableWriter,
  toArrow,
  toParquet,
} from './encode.js';
