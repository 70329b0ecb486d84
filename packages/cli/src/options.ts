// The command line of one command, parsed and checked against its table (command.ts) in one place: unknown
// options, values missing or given to a boolean, choices and lists of them, required options, the number of
// arguments; then the defaults filled in. run() gets values it can use as they are.
import { parseArgs } from 'node:util';
import { choicesOf, type Command, type Option, type OptionValues } from './command.js';
import { synopsis } from './help.js';
import { UsageError } from './io.js';

export interface ParsedCommandLine {
  args: string[];
  values: OptionValues;
  /** The options the command line gave (the others have their defaults). */
  given: ReadonlySet<string>;
}

/** What parseCommandLine uses of node:util's parseArgs: the values, the positionals and the option tokens. */
interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  tokens: ({ kind: 'option'; name: string; rawName: string; value: string | undefined; inlineValue: boolean | undefined } | { kind: 'positional' | 'option-terminator' })[];
}

/**
 * An argument parseArgs takes as a positional: anything not starting with `-`, and `-` alone (standard input).
 * (`--` ends the options: it is not one.)
 */
const isPositional = (arg: string) => arg === '-' || !arg.startsWith('-');

/**
 * A command line of positionals only, as parseArgs reads it (no option values, no option tokens), without
 * loading node:util's parser: `map info FILE`, `map extract IN DIR`, ... (start-up, issue 41: loading and
 * running it cost about 3% of a small map's `map extract` above Node's own start-up).
 */
function onlyPositionals(argv: string[]): ParsedArgs {
  return { values: {}, positionals: [...argv], tokens: [] };
}

function parseArgsOf(table: Record<string, Option>, argv: string[]): ParsedArgs {
  const parseOptions = Object.fromEntries(Object.entries(table).map(([option, o]) => [option, { type: o.type }]));
  return parseArgs({ args: argv, options: parseOptions, allowPositionals: true, strict: false, tokens: true });
}

/**
 * Checks the command line of `name` against its table. node:util's parseArgs reports unknown options with its
 * own codes and wording about positionals; this says which command and where to look instead.
 */
export async function parseCommandLine(name: string, command: Command, argv: string[]): Promise<ParsedCommandLine> {
  const table = command.options ?? {};
  const { values, positionals, tokens } = argv.every(isPositional) ? onlyPositionals(argv) : parseArgsOf(table, argv);
  const usage = `(usage: twcodec ${synopsis(name, command)})`;
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = table[token.name];
    if (!option) {
      const known = Object.keys(table).map((o) => `--${o}`).join(', ');
      throw new UsageError(`unknown option ${token.rawName} for '${name}' (${known ? `its options: ${known}` : 'it takes no options'}; see twcodec ${name} --help)`);
    }
    if (option.type === 'string' && typeof token.value !== 'string') throw new UsageError(`option --${token.name} needs a value ${option.value ?? ''} ${usage}`.replace('  ', ' '));
    const choices = await choicesOf(option);
    if (choices && typeof token.value === 'string') {
      const wrong = valuesOf(option, token.value).filter((v) => !choices.includes(v));
      if (wrong.length) throw new UsageError(`--${token.name} ${wrong.join(',')}: ${option.list ? 'each value is one' : 'the value is one'} of ${choices.join(', ')} (see twcodec ${name} --help)`);
    }
    if (option.type === 'boolean' && token.inlineValue) throw new UsageError(`option --${token.name} takes no value ${usage}`);
  }
  // A last argument NAME... takes the rest (net rcon's COMMAND...).
  const rest = command.args.at(-1)?.endsWith('...') === true;
  if (positionals.length > command.args.length && !command.batch && !rest) throw new UsageError(`unexpected argument '${positionals[command.args.length]}' ${usage}`);
  // Arguments in [brackets] may be left out (the command says what stands for them).
  const required = command.args.filter((a) => !a.startsWith('['));
  if (positionals.length < required.length) throw new UsageError(`missing ${required.slice(positionals.length).join(' ')} ${usage}`);
  // An empty value is a value (`--player ""`: a client may call itself ''); only an option left out is missing.
  for (const [option, o] of Object.entries(table)) if (o.required && values[option] === undefined) throw new UsageError(`missing --${option}${o.value ? ` ${o.value}` : ''} ${usage}`);
  const given = new Set(Object.keys(values).filter((option) => values[option] !== undefined));
  const filled: Record<string, boolean | string | string[] | undefined> = {};
  for (const [option, o] of Object.entries(table)) {
    const value = values[option];
    if (o.type === 'boolean') filled[option] = value === true;
    else if (typeof value === 'string') filled[option] = o.list ? valuesOf(o, value) : value;
    else filled[option] = o.list && o.default !== undefined ? valuesOf(o, o.default) : o.default;
  }
  return { args: positionals, values: filled as OptionValues, given };
}

/** The value of a list option as its items; of another option, itself. */
const valuesOf = (option: Option, text: string) => (option.list ? text.split(',').map((v) => v.trim()) : [text]);
