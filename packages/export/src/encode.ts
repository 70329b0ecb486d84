// The writers are optional peer dependencies, loaded when a format is asked for: Parquet through
// hyparquet-writer (pure JavaScript, no dependencies of its own but its reader), Arrow IPC through apache-arrow
// (the Apache project's own JavaScript implementation). Only the few calls used here are typed, so that the
// package builds and type-checks without either installed.
import type { ExportColumn, ExportTable } from './table.js';

export type ExportFormat = 'parquet' | 'arrow';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['parquet', 'arrow'];

/** The package each format needs. */
export const FORMAT_PACKAGES: Record<ExportFormat, string> = { parquet: 'hyparquet-writer', arrow: 'apache-arrow' };

/** The file name extension of each format. */
export const FORMAT_EXTENSIONS: Record<ExportFormat, string> = { parquet: '.parquet', arrow: '.arrow' };

/** The optional package a format needs is not installed. */
export class ExportDependencyError extends Error {
  readonly code = 'MISSING_DEPENDENCY';
  constructor(
    readonly format: ExportFormat,
    readonly packageName: string,
    options?: { cause?: unknown },
  ) {
    super(
      `--format ${format} needs the optional package ${packageName}, which is not installed: run npm install ${packageName} ` +
        `in the project that has twcodec (or npm install -g ${packageName} when twcodec is installed with -g)`,
      options,
    );
    this.name = 'ExportDependencyError';
  }
}

/** How a writer module is loaded; tests pass their own to see what happens when one is missing. */
export type ModuleLoader = (name: string) => Promise<unknown>;

// A computed specifier: bundlers and vite leave the import to run time instead of failing when the optional
// package is not installed.
const importModule: ModuleLoader = (name) => import(/* @vite-ignore */ name);

async function load<T>(format: ExportFormat, loader: ModuleLoader): Promise<T> {
  const name = FORMAT_PACKAGES[format];
  try {
    return (await loader(name)) as T;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const message = String((e as Error).message ?? e);
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /Cannot find (module|package)|Failed to (load|resolve)/.test(message)) && message.includes(name)) {
      throw new ExportDependencyError(format, name, { cause: e });
    }
    throw e;
  }
}

interface HyparquetWriter {
  parquetWriteBuffer(options: {
    columnData: { name: string; data: ArrayLike<unknown>; type: string; nullable?: boolean; encoding?: string }[];
    kvMetadata?: { key: string; value: string }[];
    statistics?: boolean;
    rowGroupSize?: number | number[];
    createdBy?: string;
  }): ArrayBuffer;
}

const PARQUET_TYPES = { int32: 'INT32', float64: 'DOUBLE', string: 'STRING' } as const;

/** A column's values with its nulls in place, as hyparquet-writer takes a nullable column. */
function withNulls(column: ExportColumn): ArrayLike<unknown> {
  const nulls = column.nulls;
  if (!nulls) return column.values;
  return Array.from(column.values as ArrayLike<unknown>, (v, i) => (nulls[i] ? null : v));
}

/**
 * The table as a Parquet file: Snappy-compressed pages, row groups of 1M rows, ints delta-encoded
 * (DELTA_BINARY_PACKED: ticks, client ids and positions change little from row to row, so this is several
 * times smaller and faster to write than the default). `statistics` (min/max per row group, on by default)
 * let query engines skip row groups; without them the write is about 1.7x faster.
 */
export async function toParquet(table: ExportTable, options: { loader?: ModuleLoader; createdBy?: string; statistics?: boolean } = {}): Promise<Uint8Array> {
  const writer = await load<HyparquetWriter>('parquet', options.loader ?? importModule);
  const buffer = writer.parquetWriteBuffer({
    columnData: table.columns.map((c) => ({
      name: c.name,
      data: withNulls(c),
      type: PARQUET_TYPES[c.type],
      nullable: c.nulls !== undefined || c.type === 'string',
      ...(c.type === 'int32' ? { encoding: 'DELTA_BINARY_PACKED' } : {}),
    })),
    kvMetadata: Object.entries(table.metadata).map(([key, value]) => ({ key, value })),
    statistics: options.statistics ?? true,
    // Large row groups: analysis reads whole columns; hyparquet-writer's default starts small for previews.
    rowGroupSize: 1 << 20,
    createdBy: options.createdBy ?? 'twcodec',
  });
  return new Uint8Array(buffer);
}

// The parts of apache-arrow used here.
interface ArrowDataType {
  readonly typeId: number;
}
interface ArrowField {
  readonly name: string;
}
interface ArrowData {
  readonly type: ArrowDataType;
}
interface ArrowVector {
  readonly data: ArrowData[];
  readonly type: ArrowDataType;
}
interface ApacheArrow {
  Int32: new () => ArrowDataType;
  Float64: new () => ArrowDataType;
  Utf8: new () => ArrowDataType;
  Struct: new (children: ArrowField[]) => ArrowDataType;
  Field: new (name: string, type: ArrowDataType, nullable?: boolean) => ArrowField;
  Schema: new (fields: ArrowField[], metadata?: Map<string, string>) => unknown;
  RecordBatch: new (schema: unknown, data: ArrowData) => unknown;
  Table: new (schema: unknown, batches: unknown[]) => unknown;
  makeData(props: Record<string, unknown>): ArrowData;
  vectorFromArray(values: unknown[], type: ArrowDataType): ArrowVector;
  tableToIPC(table: unknown, type: 'file' | 'stream'): Uint8Array;
}

/** A validity bitmap (bit set: a value) from a null mask, as Arrow stores it. */
function validityBitmap(nulls: Uint8Array): Uint8Array {
  const bitmap = new Uint8Array(((nulls.length + 63) >> 6) << 3);
  for (let i = 0; i < nulls.length; i++) if (!nulls[i]) bitmap[i >> 3]! |= 1 << (i & 7);
  return bitmap;
}

/** The table as an Arrow IPC file (Feather v2): pyarrow, polars, Spark and DuckDB's arrow extension read it. */
export async function toArrow(table: ExportTable, options: { loader?: ModuleLoader } = {}): Promise<Uint8Array> {
  const arrow = await load<ApacheArrow>('arrow', options.loader ?? importModule);
  const fields: ArrowField[] = [];
  const children: ArrowData[] = [];
  for (const c of table.columns) {
    let data: ArrowData;
    if (c.type === 'string') {
      data = arrow.vectorFromArray(c.values as (string | null)[], new arrow.Utf8()).data[0]!;
    } else {
      const type = c.type === 'int32' ? new arrow.Int32() : new arrow.Float64();
      const nullCount = c.nulls ? c.nulls.reduce((n, v) => n + v, 0) : 0;
      // Numbers go in as they are: the typed array becomes the Arrow buffer without a copy.
      data = arrow.makeData({ type, length: table.rows, data: c.values, nullCount, ...(nullCount ? { nullBitmap: validityBitmap(c.nulls!) } : {}) });
    }
    fields.push(new arrow.Field(c.name, data.type, c.type === 'string' || c.nulls !== undefined));
    children.push(data);
  }
  const schema = new arrow.Schema(fields, new Map(Object.entries(table.metadata)));
  const batch = new arrow.RecordBatch(schema, arrow.makeData({ type: new arrow.Struct(fields), length: table.rows, children, nullCount: 0 }));
  return arrow.tableToIPC(new arrow.Table(schema, [batch]), 'file');
}

/** Loads the package `format` needs: throws ExportDependencyError when it is missing (to check before a long run). */
export async function loadFormat(format: ExportFormat, options: { loader?: ModuleLoader } = {}): Promise<void> {
  await load(format, options.loader ?? importModule);
}

/** The table in `format`. */
export function encodeTable(table: ExportTable, format: ExportFormat, options: { loader?: ModuleLoader } = {}): Promise<Uint8Array> {
  return format === 'arrow' ? toArrow(table, options) : toParquet(table, options);
}
