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
