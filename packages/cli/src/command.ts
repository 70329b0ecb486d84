// The shape every command of the CLI has, and what the command groups (commands/*.ts) share. A command is an
// entry of its group's table: arguments, an option table, help texts and run(). The options are parsed and
// checked once, from the table, in options.ts (choices, required, defaults, lists); run() gets their values.
//
// Nothing here imports a codec package: the tables load for every command (index.ts), a command loads what it
// needs in its run() (`await import(...)`), its option values in `choices` (docs/performance.md, issue 28).
import type { CliIo } from './io.js';

/** One option of a command (`--name VALUE` or a boolean `--name`). */
export interface Option {
  type: 'boolean' | 'string';
  /** What the value stands for in the synopsis (`--tile-size PX`). */
  value?: string;
  help: string;
  /**
   * The values a string option takes (anything else is a usage error listing them); a function when they come
   * from a module that only that command needs (loaded when the option is checked or the help printed).
   */
  choices?: readonly string[] | (() => Promise<readonly string[]>);
  /** With choices: a comma-separated list of them, handed to run() as an array. */
  list?: true;
  /** The command needs it (`net demo --player NAME`): the synopsis shows it without brackets, and without it the command is a usage error. */
  required?: true;
  /**
   * The value when the option is not given (run() can tell with `given`). The help says "(default X)" unless
   * its text speaks of the default itself.
   */
  default?: string;
}

/** The values an option takes, when it has a list of them (loading the module they come from). */
export const choicesOf = async (option: Option) => (typeof option.choices === 'function' ? await option.choices() : option.choices);

/** A command's options by name (without the dashes). */
export type OptionTable = Record<string, Option>;

/** The value run() gets for an option: booleans are false when not given, lists arrays, defaults applied. */
type ValueOf<O extends Option> = O['type'] extends 'boolean' ? boolean : O extends { list: true } ? string[] | undefined : O extends { default: string } | { required: true } ? string : string | undefined;

/** The values of a command's options, typed from its table. */
export type OptionValues<T extends OptionTable = OptionTable> = { [K in keyof T]: ValueOf<T[K]> };

export interface Command<T extends OptionTable = OptionTable> {
  /** The arguments in the synopsis: IN, OUT, FILE, ...; `[IMAGE]` may be left out. */
  args: readonly string[];
  options?: T;
  /** One line for the command list. */
  summary: string;
  /** More, for `twcodec <command> --help`. */
  details?: string;
  /** Takes many files (and globs): one NDJSON line per file, on worker threads (see batch.ts and batch-jobs.ts). */
  batch?: true;
  /**
   * With `batch`: what each file's job gets besides its bytes (export: where to write and how), made once the
   * files are known; it may refuse the command line (a usage error) before any file is read.
   */
  batchOptions?(args: string[], options: OptionValues<T>): Promise<(files: string[]) => Record<string, unknown>[]>;
  /**
   * Does the work. `options` holds every option of the table (defaults applied); `given` the names of those
   * the command line gave, for a command that says something different when the user chose a value.
   */
  run(io: CliIo, args: string[], options: OptionValues<T>, given: ReadonlySet<string>): Promise<void>;
}

/** A command group's commands by their full name (`map info`). */
export type CommandTable = Record<string, Command>;

/** A command with its option values typed from its own table (the tables hold them untyped). */
export const command = <const T extends OptionTable>(c: Command<T>): Command => c as unknown as Command;

/** A failure whose report was already printed (e.g. validation errors): exit 1 with a one-line summary. */
export class ReportedFailure extends Error {}

/**
 * The documentation is in the repository, not in the npm package: help links there. The same URL as the
 * repository field of package.json (index.test.ts checks that they agree).
 */
export const REPOSITORY = 'https://github.com/twcodec/twcodec';
export const docs = (path: string) => `${REPOSITORY}/blob/main/${path}`;

export const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The option of the commands that take many files. */
export const BATCH_OPTIONS = { jobs: { type: 'string', value: 'N', help: 'with many files: worker threads (default: one per core)' } } as const satisfies OptionTable;
export const BATCH_NOTE = 'Many files (or globs such as "maps/**/*.map", expanded here too): one JSON line per file, {"file", "ok", ...} or {"file", "ok": false, "error"}, in the order given, on worker threads; a summary on stderr; exit 1 when any file failed.';
/** The exports' addition to BATCH_NOTE (the other batch commands write no files). */
export const BATCH_EXPORT_NOTE = ' Export of many files writes each into OUT/<its name without extension>/.';

/** The options of `teehistorian export` and `demo export` (export.ts does the work). */
export const EXPORT_OPTIONS = {
  format: { type: 'string', value: 'FORMAT', choices: async () => (await import('@twcodec/export')).EXPORT_FORMATS, default: 'parquet', help: 'parquet (default; needs the package hyparquet-writer) or arrow (an Arrow IPC file; needs apache-arrow)' },
  table: { type: 'string', value: 'NAME', help: 'only this table, written to OUT itself (a file, or - for standard output; with many files OUT/<name>/<table>.<ext>)' },
} as const satisfies OptionTable;

export const STDIN_NOTE = 'FILE may be - to read standard input.';

/** Calls `io.progress` every `every` items, for progress on long runs. */
export function counter(io: CliIo, what: string, every: number) {
  let n = 0;
  return {
    tick() {
      if (++n % every === 0) io.progress(`${n} ${what}`);
    },
    done() {
      if (n >= every) io.progress(`${n} ${what}, done`);
    },
  };
}
