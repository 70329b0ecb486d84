import { demoTables, encodeTable, ExportDependencyError, loadFormat, type ExportFormat, type ExportTable, FORMAT_EXTENSIONS, parquetTableWriter, type ParquetTableWriter, streamTeehistorianTables, TEEHISTORIAN_TABLES, teehistorianTables } from '@twcodec/export';
import { CliError, type CliIo, type GrowingFile, UsageError } from './io.js';

export interface ExportOptions {
  format: ExportFormat;
  table: string | undefined;
}

/** The export options of the command line (--format was checked against EXPORT_FORMATS: EXPORT_OPTIONS in command.ts). */
export function exportOptions(options: { format: string; table: string | undefined }): ExportOptions {
  return { format: options.format as ExportFormat, table: options.table };
}

/**
 * One file's tables written as `dir/<table>.<ext>` (or, with `single`, the one table asked for as `single`),
 * through `write`. Returns what was written, and where reading ended (`end.truncated`: the file was cut short).
 */
export async function exportFile(
  kind: 'teehistorian' | 'demo',
  bytes: Uint8Array,
  options: ExportOptions,
  target: { dir: string } | { single: string },
  write: (path: string, bytes: Uint8Array, options: { mkdir: boolean }) => Promise<void>,
  progress?: (done: number, total: number) => void,
) {
  const only = options.table === undefined ? undefined : [options.table];
  let tables: ExportTable[];
  try {
    tables = kind === 'teehistorian' ? teehistorianTables(bytes, { tables: only }) : demoTables(bytes, { tables: only });
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(`--table ${options.table}: ${e.message}`);
    throw e;
  }
  const written = [];
  for (const table of tables) {
    let encoded: Uint8Array;
    try {
      encoded = await encodeTable(table, options.format);
    } catch (e) {
      if (e instanceof ExportDependencyError) throw new CliError(e.code, e.message);
      throw e;
    }
    const path = 'single' in target ? target.single : `${target.dir}/${table.name}${FORMAT_EXTENSIONS[options.format]}`;
    await write(path, encoded, { mkdir: !('single' in target) });
    written.push({ table: table.name, rows: table.rows, columns: table.columns.length, file: path, bytes: encoded.length });
    progress?.(written.length, tables.length);
  }
  // Where reading ended, as the tables' metadata records it (`teehistorian.end`, `demo.end`).
  const endText = tables[0]?.metadata[`${kind}.end`];
  const end = endText ? (JSON.parse(endText) as { truncated: boolean; offset: number }) : undefined;
  return { written, end };
}

/** Whether an export reads its file as a stream (exportStream) rather than whole: teehistorian to Parquet. */
export const streamsExport = (kind: 'teehistorian' | 'demo', options: ExportOptions) => kind === 'teehistorian' && options.format === 'parquet';

/**
 * A teehistorian file to Parquet as it is read (issue 41: DDNet servers write files of gigabytes): each table's
 * rows go out in row groups to a file written while it grows, so memory holds a row group per table, not the
 * file and its tables. The files and the summary are those of exportFile on the same file.
 */
export async function exportStream(
  source: AsyncIterable<Uint8Array>,
  options: ExportOptions,
  target: { dir: string } | { single: string },
  open: (path: string, options: { mkdir: boolean }) => Promise<GrowingFile>,
  progress?: (done: number, total: number) => void,
) {
  const only = options.table === undefined ? undefined : [options.table];
  // A table the file does not have opens nothing here; streamTeehistorianTables refuses it (a RangeError, below).
  const names = (only ?? TEEHISTORIAN_TABLES).filter((n) => (TEEHISTORIAN_TABLES as readonly string[]).includes(n));
  const pathOf = (name: string) => ('single' in target ? target.single : `${target.dir}/${name}${FORMAT_EXTENSIONS[options.format]}`);
  const outputs = new Map<string, { file: GrowingFile; writer: ParquetTableWriter; rows: number; columns: number }>();
  // A file that fails leaves no directory behind, as with exportFile, which writes only after reading.
  const fs = await import('node:fs/promises');
  const newDir = 'dir' in target && !(await fs.stat(target.dir).catch(() => undefined));
  try {
    for (const name of names) {
      const file = await open(pathOf(name), { mkdir: !('single' in target) });
      let writer: ParquetTableWriter;
      try {
        writer = await parquetTableWriter((bytes) => file.append(bytes));
      } catch (e) {
        await file.discard();
        if (e instanceof ExportDependencyError) throw new CliError(e.code, e.message);
        throw e;
      }
      outputs.set(name, { file, writer, rows: 0, columns: 0 });
    }
    let finished = 0;
    const { end } = await streamTeehistorianTables(
      source,
      (table, last) => {
        const out = outputs.get(table.name)!;
        out.writer.write(table);
        out.rows += table.rows;
        out.columns = table.columns.length;
        if (last) {
          out.writer.finish(table.metadata);
          progress?.(++finished, names.length);
        }
      },
      only ? { tables: only } : {},
    );
    const written = [];
    for (const name of names) {
      const out = outputs.get(name)!;
      await out.file.commit();
      written.push({ table: name, rows: out.rows, columns: out.columns, file: pathOf(name), bytes: out.writer.bytesWritten });
    }
    return { written, end };
  } catch (e) {
    for (const out of outputs.values()) await out.file.discard().catch(() => undefined);
    if (newDir) await fs.rmdir((target as { dir: string }).dir).catch(() => undefined);
    if (e instanceof RangeError) throw new UsageError(`--table ${options.table}: ${e.message}`);
    throw e;
  }
}

/**
 * `teehistorian export` / `demo export` of one file: its tables, each as OUT/<table>.<ext> (or with --table one
 * table as OUT), then a JSON summary of what was written.
 */
export async function exportCommand(io: CliIo, kind: 'teehistorian' | 'demo', input: string, output: string, commandLine: { format: string; table: string | undefined }): Promise<void> {
  const options = exportOptions(commandLine);
  if (options.table === undefined && output === '-') throw new UsageError('OUT - (standard output) takes one table: add --table NAME');
  const target = options.table === undefined ? { dir: output } : { single: output };
  const progress = (n: number, total: number) => io.progress(`${n}/${total} tables`);
  const { written, end } = streamsExport(kind, options)
    ? await exportStream(io.openRead(input), options, target, (path, o) => io.openWrite(path, o), progress)
    : await exportFile(kind, await io.readFile(input), options, target, (path, data, o) => io.writeFile(path, data, o), progress);
  // A file cut short is exported up to the cut: the summary says so, as `teehistorian stats` and `demo info` do.
  const cut = end?.truncated ? { truncated: true, end } : {};
  if (output !== '-') await io.stdout(`${JSON.stringify({ file: input, format: options.format, ...cut, tables: written }, null, 2)}\n`);
  else if (end?.truncated) io.stderr(`twcodec: the file is cut short at offset ${end.offset}: exported up to there\n`);
}

/**
 * The options of each file's job when an export runs on many files: the directory of its tables (OUT/<name>),
 * and the format, loaded now, so that a missing writer package is one error, not one per file.
 */
export async function exportBatchOptions(out: string, commandLine: { format: string; table: string | undefined }): Promise<(files: string[]) => Record<string, unknown>[]> {
  const options = exportOptions(commandLine);
  if (out === '-') throw new UsageError('OUT of many files is a directory, not - (standard output)');
  try {
    await loadFormat(options.format);
  } catch (e) {
    if (e instanceof ExportDependencyError) throw new CliError(e.code, e.message);
    throw e;
  }
  return (files) => exportDirs(files, out).map((dir) => ({ dir, ...options }));
}

/** The directory of each file of a many-file export: OUT/<its name without extension>, -2, -3, ... on a clash. */
export function exportDirs(files: string[], out: string): string[] {
  const used = new Map<string, number>();
  return files.map((file) => {
    const base = (file.split(/[\\/]/).pop() ?? file).replace(/\.(teehistorian|demo)$/, '') || 'file';
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return `${out}/${n === 1 ? base : `${base}-${n}`}`;
  });
}
