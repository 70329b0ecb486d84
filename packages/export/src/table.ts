// Tables in a form that no particular library owns: typed arrays for numbers, arrays of strings, a null mask.
// encode.ts hands them to a Parquet or Arrow writer; tests and users can read them directly.

/**
 * Rows per Parquet row group (toParquet), and per batch of the streamed export: large, as analysis reads whole
 * columns (hyparquet-writer's default starts small, for previews).
 */
export const EXPORT_ROW_GROUP_ROWS = 1 << 20;
/**
 * Rows per row group of a table with string columns (teehistorian's events: JSON of about 100 bytes a row):
 * smaller, so that the rows a streamed export holds stay a few megabytes (a million events took 150 MB).
 */
export const EXPORT_STRING_ROW_GROUP_ROWS = 1 << 16;

/** The rows per row group of a table: fewer when it has strings. */
export const rowGroupRowsOf = (columns: readonly { type: ColumnType }[]): number => (columns.some((c) => c.type === 'string') ? EXPORT_STRING_ROW_GROUP_ROWS : EXPORT_ROW_GROUP_ROWS);

/** int32: Int32Array; float64: Float64Array; string: (string | null)[]. */
export type ColumnType = 'int32' | 'float64' | 'string';

export interface ExportColumn {
  name: string;
  type: ColumnType;
  values: Int32Array | Float64Array | (string | null)[];
  /** 1 where the value is null (an older server's item that ends before the field, a message without one); absent when no value is. */
  nulls?: Uint8Array;
  /** What the column holds, for the docs and `--help`. */
  description?: string;
}

export interface ExportTable {
  /** The file name without extension: `positions`, `character`, ... */
  name: string;
  rows: number;
  columns: ExportColumn[];
  /** Stored as key-value metadata of the Parquet file / Arrow schema (e.g. the source file's header as JSON). */
  metadata: Record<string, string>;
}

/** A growing column; `finish()` gives the filled part (a view, not a copy). */
class ColumnBuilder {
  private ints: Int32Array | Float64Array | undefined;
  private strings: (string | null)[] | undefined;
  private nulls: Uint8Array | undefined;
  length = 0;

  constructor(
    readonly name: string,
    readonly type: ColumnType,
  ) {
    if (type === 'string') this.strings = [];
    else this.ints = type === 'int32' ? new Int32Array(1024) : new Float64Array(1024);
  }

  push(value: number | string | null | undefined): void {
    const i = this.length++;
    if (value === null || value === undefined) {
      if (!this.nulls || this.nulls.length <= i) {
        const grown = new Uint8Array(Math.max(1024, 2 * (i + 1)));
        if (this.nulls) grown.set(this.nulls);
        this.nulls = grown;
      }
      this.nulls[i] = 1;
      if (this.strings) this.strings.push(null);
      else this.store(i, 0);
      return;
    }
    if (this.strings) this.strings.push(String(value));
    else this.store(i, value as number);
  }

  private store(i: number, value: number): void {
    let ints = this.ints!;
    if (i >= ints.length) {
      const grown = new (ints.constructor as Int32ArrayConstructor | Float64ArrayConstructor)(ints.length * 2);
      grown.set(ints as never);
      this.ints = ints = grown;
    }
    ints[i] = value;
  }

  finish(description?: string): ExportColumn {
    const column: ExportColumn = { name: this.name, type: this.type, values: this.strings ?? this.ints!.subarray(0, this.length) };
    if (this.nulls) {
      const nulls = new Uint8Array(this.length);
      nulls.set(this.nulls.subarray(0, this.length));
      column.nulls = nulls;
    }
    if (description) column.description = description;
    return column;
  }
}

/** Rows appended value by value, in the order of the column list given to the constructor. */
export class TableBuilder {
  readonly columns: ColumnBuilder[];
  private readonly descriptions: (string | undefined)[];
  rows = 0;

  private readonly nullable: boolean[];

  /** `nullable`: the column is nullable whatever its values (a null mask even when no value is null). */
  constructor(
    readonly name: string,
    columns: readonly { name: string; type: ColumnType; description?: string; nullable?: boolean }[],
  ) {
    this.columns = columns.map((c) => new ColumnBuilder(c.name, c.type));
    this.descriptions = columns.map((c) => c.description);
    this.nullable = columns.map((c) => c.nullable === true);
  }

  finish(metadata: Record<string, string>): ExportTable {
    const columns = this.columns.map((c, i) => {
      const column = c.finish(this.descriptions[i]);
      if (this.nullable[i] && !column.nulls) column.nulls = new Uint8Array(this.rows);
      return column;
    });
    return { name: this.name, rows: this.rows, columns, metadata };
  }
}

/**
 * A table of int32 columns written in place, for the tables with a row per message (millions): `add()` gives
 * the index of a new row, then `columns[k][i] = value`. Growth doubles every column at once.
 */
export class IntRows {
  columns: Int32Array[];
  rows = 0;

  constructor(
    readonly name: string,
    readonly names: readonly string[],
    capacity = 4096,
  ) {
    this.columns = names.map(() => new Int32Array(capacity));
  }

  /** Starts over with no rows, keeping the arrays (a batch handed on is done with). */
  clear(): void {
    this.rows = 0;
  }

  add(): number {
    if (this.rows === this.columns[0]!.length) {
      this.columns = this.columns.map((c) => {
        const grown = new Int32Array(Math.max(4096, c.length * 2));
        grown.set(c);
        return grown;
      });
    }
    return this.rows++;
  }

  finish(metadata: Record<string, string>, descriptions: Record<string, string> = {}): ExportTable {
    return {
      name: this.name,
      rows: this.rows,
      columns: this.names.map((name, k) => ({ name, type: 'int32' as const, values: this.columns[k]!.subarray(0, this.rows), ...(descriptions[name] ? { description: descriptions[name] } : {}) })),
      metadata,
    };
  }
}
