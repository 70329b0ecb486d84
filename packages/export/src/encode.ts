// The writers are optional peer dependencies, loaded when a format is asked for: Parquet through
// hyparquet-writer (pure JavaScript, no dependencies of its own but its reader), Arrow IPC through apache-arrow
// (the Apache project's own JavaScript implementation). Only the few calls used here are typed, so that the
// package builds and type-checks without either installed.
import { type ExportColumn, type ExportTable, rowGroupRowsOf } from './table.js';

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

type ParquetColumnData = { name: string; data: ArrayLike<unknown>; type: string; nullable?: boolean; encoding?: string }[];

/** hyparquet-writer's byte writer: `offset` counts every byte written, `index` the bytes in `buffer` now. */
interface ParquetByteWriter {
  buffer: ArrayBuffer;
  view: DataView;
  index: number;
  offset: number;
  ensure(size: number): void;
  finish(): void;
}

interface HyparquetWriter {
  parquetWriteBuffer(options: { columnData: ParquetColumnData; kvMetadata?: { key: string; value: string }[]; statistics?: boolean; rowGroupSize?: number | number[]; createdBy?: string }): ArrayBuffer;
  ByteWriter: new () => ParquetByteWriter;
  schemaFromColumnData(options: { columnData: ParquetColumnData }): unknown[];
  ParquetWriter: new (options: { writer: ParquetByteWriter; schema: unknown[]; statistics?: boolean; kvMetadata?: { key: string; value: string }[]; createdBy?: string }) => {
    kvMetadata: { key: string; value: string }[] | undefined;
    write(options: { columnData: ParquetColumnData; rowGroupSize?: number }): void | Promise<void>;
    finish(): void | Promise<void>;
  };
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
    columnData: parquetColumns(table),
    kvMetadata: kvMetadataOf(table.metadata),
    statistics: options.statistics ?? true,
    rowGroupSize: rowGroupRowsOf(table.columns),
    createdBy: options.createdBy ?? 'twcodec',
  });
  return new Uint8Array(buffer);
}

const parquetColumns = (table: ExportTable): ParquetColumnData =>
  table.columns.map((c) => ({
    name: c.name,
    data: withNulls(c),
    type: PARQUET_TYPES[c.type],
    nullable: c.nulls !== undefined || c.type === 'string',
    ...(c.type === 'int32' ? { encoding: 'DELTA_BINARY_PACKED' } : {}),
  }));

const kvMetadataOf = (metadata: Record<string, string>) => Object.entries(metadata).map(([key, value]) => ({ key, value }));

/** A Parquet file written a batch of rows at a time (parquetTableWriter). */
export interface ParquetTableWriter {
  /** The next rows (the same columns every time), as row groups of rowGroupRowsOf(columns) rows; their bytes go out before it returns. */
  write(batch: ExportTable): void;
  /** The footer, with the file's key-value metadata (known only at the end: where reading ended); then the last bytes go out. */
  finish(metadata: Record<string, string>): void;
  /** Bytes handed to `output` so far. */
  readonly bytesWritten: number;
}

/**
 * A Parquet file written as its rows come (streamTeehistorianTables' batches), its bytes handed to `output`
 * in pieces of about 1 MB, so that memory holds one row group, not the file. The file is byte for byte what
 * toParquet writes for all the rows in one table when every batch but the last has a row group's rows (rowGroupRowsOf)
 * (the same row groups, statistics and footer).
 */
export async function parquetTableWriter(output: (bytes: Uint8Array) => void, options: { loader?: ModuleLoader; createdBy?: string; statistics?: boolean } = {}): Promise<ParquetTableWriter> {
  const lib = await load<HyparquetWriter>('parquet', options.loader ?? importModule);
  const bytes = new lib.ByteWriter();
  let handed = 0;
  const flush = () => {
    if (bytes.index === 0) return;
    output(new Uint8Array(bytes.buffer, 0, bytes.index).slice());
    handed += bytes.index;
    bytes.index = 0;
  };
  // As hyparquet-writer's own file writer does: hand on what is there before growing past 1 MB.
  const grow = bytes.ensure.bind(bytes);
  bytes.ensure = (size: number) => {
    if (bytes.index > 1 << 20) flush();
    grow(size);
  };
  bytes.finish = flush;
  let writer: InstanceType<HyparquetWriter['ParquetWriter']> | undefined;
  const open = (batch: ExportTable) =>
    (writer ??= new lib.ParquetWriter({ writer: bytes, schema: lib.schemaFromColumnData({ columnData: parquetColumns(batch) }), statistics: options.statistics ?? true, createdBy: options.createdBy ?? 'twcodec' }));
  return {
    write(batch) {
      void open(batch).write({ columnData: parquetColumns(batch), rowGroupSize: rowGroupRowsOf(batch.columns) });
    },
    finish(metadata) {
      if (!writer) throw new Error('internal: a Parquet file without a batch has no columns');
      writer.kvMetadata = kvMetadataOf(metadata);
      void writer.finish();
    },
    get bytesWritten() {
      return handed + bytes.index;
    },
  };
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
