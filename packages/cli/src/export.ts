import { demoTables, encodeTable, EXPORT_FORMATS, ExportDependencyError, type ExportFormat, type ExportTable, FORMAT_EXTENSIONS, teehistorianTables } from '@twcodec/export';
import { CliError, type CliIo, UsageError } from './io.js';

export const EXPORT_FLAGS = {
  format: { type: 'string', value: 'FORMAT', help: 'parquet (default; needs the package hyparquet-writer) or arrow (an Arrow IPC file; needs apache-arrow)' },
  table: { type: 'string', value: 'NAME', help: 'only this table, written to OUT itself (a file, or - for standard output)' },
} as const;

/**
 * `teehistorian export` / `demo export`: the file's tables, each as OUT/<table>.<ext> (or with --table one
 * table as OUT), then a JSON summary of what was written.
 */
export async function exportCommand(io: CliIo, kind: 'teehistorian' | 'demo', input: string, output: string, flags: Record<string, boolean | string | undefined>): Promise<void> {
  const format = (flags.format ?? 'parquet') as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`--format ${String(format)}: the formats are ${EXPORT_FORMATS.join(', ')}`);
  const only = typeof flags.table === 'string' ? [flags.table] : undefined;
  if (!only && output === '-') throw new UsageError('OUT - (standard output) takes one table: add --table NAME');
  const bytes = await io.readFile(input);
  let tables: ExportTable[];
  try {
    tables = kind === 'teehistorian' ? teehistorianTables(bytes, { tables: only }) : demoTables(bytes, { tables: only });
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(`--table ${only![0]}: ${e.message}`);
    throw e;
  }
  const written = [];
  let n = 0;
  for (const table of tables) {
    let encoded: Uint8Array;
    try {
      encoded = await encodeTable(table, format);
    } catch (e) {
      if (e instanceof ExportDependencyError) throw new CliError(e.code, e.message);
      throw e;
    }
    const path = only ? output : `${output}/${table.name}${FORMAT_EXTENSIONS[format]}`;
    await io.writeFile(path, encoded, { mkdir: !only });
    written.push({ table: table.name, rows: table.rows, columns: table.columns.length, file: path, bytes: encoded.length });
    io.progress(`${++n}/${tables.length} tables`);
  }
  if (output !== '-') await io.stdout(`${JSON.stringify({ file: input, format, tables: written }, null, 2)}\n`);
}
