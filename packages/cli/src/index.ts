import { existsSync, readFileSync } from 'node:fs';
import { type CommandTable, ReportedFailure } from './command.js';
import { DATAFILE_COMMANDS } from './commands/datafile.js';
import { DEMO_COMMANDS } from './commands/demo.js';
import { MAP_COMMANDS } from './commands/map.js';
import { NET_COMMANDS } from './commands/net.js';
import { TEEHISTORIAN_COMMANDS } from './commands/teehistorian.js';
import { isGlob } from './glob.js';
import { commandHelp, synopsis, usage } from './help.js';
import { type CliIo, oneLine, OutputClosed, plural, UsageError } from './io.js';
import { parseCommandLine } from './options.js';
import { describeError, trackInputs } from './report.js';

// A command loads the modules it needs when it runs (`await import(...)` in its run(), its option values in
// choices()): loading every package at start-up was most of a small map's `map info` (issue 28; the figures
// are in docs/performance.md). Only this file, the command tables (commands/*.ts) and what they share
// (command, options, help, report, io, sniff, glob) load for every command; bin/twcodec.cjs runs them bundled
// (bundle.mjs). A new command: docs/maintainers.md, "A CLI command".

export { CliError, type CliIo, nodeIo, OutputClosed } from './io.js';
export { type Command, type CommandTable, type Option, type OptionTable, type OptionValues, REPOSITORY } from './command.js';

/** Every command, by group, in the order `twcodec --help` lists them. */
export const COMMANDS: CommandTable = {
  ...DATAFILE_COMMANDS,
  ...MAP_COMMANDS,
  ...TEEHISTORIAN_COMMANDS,
  ...DEMO_COMMANDS,
  ...NET_COMMANDS,
};

const groups = () => [...new Set(Object.keys(COMMANDS).map((n) => n.split(' ')[0]!))];

/** The version of this package, for `twcodec --version`. */
export function cliVersion(): string {
  // This module is dist/index.js, or a chunk of the bundle in dist/bundle/ (bundle.mjs): package.json is one or
  // two directories up.
  const near = new URL('../package.json', import.meta.url);
  const path = existsSync(near) ? near : new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}

/** Runs the CLI and returns the exit code: 0 ok, 1 bad input or I/O error, 2 usage error. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  let group = '';
  const heads = new Map<string, Uint8Array>();
  // The command's arguments by name (in, png, dir, ...): which file an error is about.
  let roles: Record<string, string> = {};
  try {
    if (argv.length === 0) {
      io.stderr(usage(COMMANDS));
      return 2;
    }
    if (argv[0] === '--version' || argv[0] === '-V' || argv[0] === 'version') {
      await io.stdout(`${cliVersion()}\n`);
      return 0;
    }
    // `twcodec help map json` is `twcodec map json --help`.
    if (argv[0] === 'help') argv = [...argv.slice(1), '--help'];
    const name = argv.slice(0, 2).join(' ');
    const command = COMMANDS[name];
    const help = argv.includes('-h') || argv.includes('--help');
    group = argv[0]!;
    if (!command) {
      if (group.startsWith('-') && help) {
        await io.stdout(usage(COMMANDS));
        return 0;
      }
      if (groups().includes(group)) {
        if (help && argv.length === 2) {
          await io.stdout(usage(COMMANDS, group));
          return 0;
        }
        if (argv.length === 1) {
          io.stderr(usage(COMMANDS, group));
          return 2;
        }
        throw new UsageError(`unknown command '${name}' (the ${group} commands: ${Object.keys(COMMANDS).filter((n) => n.startsWith(`${group} `)).map((n) => n.slice(group.length + 1)).join(', ')})`);
      }
      if (group.startsWith('-')) throw new UsageError(`unknown option ${group} (twcodec takes --help or --version before a command)`);
      throw new UsageError(`unknown command '${group}' (the commands: ${groups().join(', ')})`);
    }
    if (help) {
      await io.stdout(await commandHelp(name, command));
      return 0;
    }
    const { args: positionals, values, given } = await parseCommandLine(name, command, argv.slice(2));
    // Commands with an OUT take it last: FILE... OUT.
    const inputs = command.args.length === 2 ? positionals.slice(0, -1) : positionals;
    if (command.batch && (inputs.length > 1 || values.jobs !== undefined || inputs.some((p) => isGlob(p) && !existsSync(p)))) {
      const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
      if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1 && jobs <= 256)) throw new UsageError(`--jobs needs a number of threads 1..256, got "${String(values.jobs)}"`);
      const optionsFor = await command.batchOptions?.(positionals, values);
      const { runBatch } = await import('./batch.js');
      const summary = await runBatch(io, name, inputs, jobs, optionsFor);
      const text = `${name}: ${plural(summary.files, 'file')}, ${summary.ok} ok, ${summary.failed} failed (${summary.seconds.toFixed(1)} s, ${summary.jobs} ${summary.jobs === 1 ? 'thread' : 'worker threads'})`;
      if (summary.failed) throw new ReportedFailure(text);
      io.stderr(`twcodec: ${text}\n`);
      return 0;
    }
    // Standard input can be read once: a second `-` (map diff - -, replace-image - 0 - OUT, net demo - OUT --map -)
    // read nothing and was reported as an empty file.
    const inputArgs = [...positionals.slice(0, command.args.includes('OUT') ? -1 : undefined), ...(typeof values.map === 'string' ? [values.map] : [])];
    if (inputArgs.filter((p) => p === '-').length > 1) throw new UsageError(`only one input can be - (standard input): give the others as files (usage: twcodec ${synopsis(name, command)})`);
    roles = Object.fromEntries(command.args.map((a, i) => [a.toLowerCase(), positionals[i]!]));
    await command.run(trackInputs(io, heads), positionals, values, given);
    return 0;
  } catch (e) {
    if (e instanceof OutputClosed) return 0;
    // @twcodec/runtime (CodecError) loads here: a command that threw one has loaded it already.
    const runtime = await import('./runtime-names.js');
    io.stderr(`twcodec: ${oneLine(describeError(e, group, heads, roles, runtime))}\n`);
    return e instanceof UsageError ? 2 : 1;
  }
}

