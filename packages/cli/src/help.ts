// The help texts: the command list (`twcodec --help`, `twcodec map --help`) and one command's help, made from
// the command tables.
import { BATCH_EXPORT_NOTE, BATCH_NOTE, choicesOf, type Command, type CommandTable, type Option, REPOSITORY } from './command.js';

/** The synopsis of a command as words that are not broken across lines: name, arguments, [--option VALUE]. */
function synopsisWords(name: string, command: Command): string[] {
  const options = Object.entries(command.options ?? {}).map(([option, o]) => {
    const word = `--${option}${o.value ? ` ${o.value}` : ''}`;
    return o.required ? word : `[${word}]`;
  });
  return [name, ...command.args.map((a, i) => (command.batch && i === 0 ? `${a}...` : a)), ...options];
}

export function synopsis(name: string, command: Command): string {
  return synopsisWords(name, command).join(' ');
}

/** Help lines fit an 80-column terminal. */
const WIDTH = 80;

/**
 * `words` joined by spaces into lines of at most `width` columns, the first starting with `first`, the others
 * with `indent` (a word longer than a line gets a line of its own).
 */
function wrapWords(words: string[], first: string, indent: string, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent;
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

const wrap = (text: string, first: string, indent = first) => wrapWords(text.split(' ').filter(Boolean), first, indent);

/** The command list, of every command or of one group's. */
export function usage(commands: CommandTable, group?: string): string {
  const names = Object.keys(commands).filter((n) => !group || n.startsWith(`${group} `));
  // Each command: its synopsis, then what it does, indented below it (a column beside the synopses would be
  // ~100 columns wide: every line would wrap in a terminal).
  const lines = names.flatMap((n) => [...wrapWords(synopsisWords(n, commands[n]!), '  ', '      '), ...wrap(commands[n]!.summary, '      ')]);
  return [
    `Usage: twcodec ${group ?? '<command>'} ... [options]`,
    '',
    'Commands:',
    ...lines,
    '',
    'Options:',
    '  -h, --help  Show help (also after a command: twcodec map info --help; or',
    '              twcodec help map info)',
    '  --version   Print the version',
    '',
    'FILE and IN may be - for standard input, OUT - for standard output.',
    'Errors print one line (code, message, path, byte offset) and exit 1; usage',
    'errors exit 2.',
    `Documentation: ${REPOSITORY}#readme`,
    '',
  ].join('\n');
}

/**
 * An option's help line: its text, its default unless the text speaks of it, and its choices when there are a
 * few and the value word (`0.6|0.7`) does not show them already.
 */
async function optionHelp(o: Option): Promise<string> {
  const choices = await choicesOf(o);
  const fallback = o.default !== undefined && !/\bdefault/.test(o.help) ? ` (default ${o.default})` : '';
  const values = choices && choices.length <= 8 && !o.value?.includes('|') ? ` (${choices.join(', ')})` : '';
  return `${o.help}${fallback}${values}`;
}

export async function commandHelp(name: string, command: Command): Promise<string> {
  const options: string[] = [];
  for (const [option, o] of Object.entries(command.options ?? {})) {
    const spec = `  --${option}${o.value ? ` ${o.value}` : ''}`;
    const text = await optionHelp(o);
    // Short options keep their help beside them; long ones get it on the lines below.
    if (spec.length <= 24) options.push(...wrap(text, spec.padEnd(26), ' '.repeat(26)));
    else options.push(spec, ...wrap(text, ' '.repeat(26)));
  }
  return [
    ...wrapWords(synopsisWords(name, command), 'Usage: twcodec ', '         '),
    '',
    ...wrap(`${command.summary}.`, ''),
    ...(command.details ? ['', ...wrap(command.details, '')] : []),
    ...(command.batch ? ['', ...wrap(BATCH_NOTE + (name.endsWith(' export') ? BATCH_EXPORT_NOTE : ''), '')] : []),
    ...(options.length ? ['', 'Options:', ...options] : []),
    '',
  ].join('\n');
}
