import { parseArgs } from 'node:util';
import { CodecError } from '@twcodec/datafile';
import { datafileInfo, resaveDatafile } from './datafile.js';
import type { CliIo } from './io.js';

export { type CliIo, nodeIo } from './io.js';

const USAGE = `Usage: twcodec <command> [options]

Commands:
  datafile info FILE               JSON summary: version, item types with counts and UUIDs, data sizes
  datafile resave IN OUT [--ddnet] Read and write back; lossless by default, --ddnet lays the file out
                                   as DDNet's map_resave does

Options:
  -h, --help                       Show this help
`;

class UsageError extends Error {}

interface Command {
  args: string[];
  flags?: Record<string, { type: 'boolean' }>;
  run(io: CliIo, positionals: string[], flags: Record<string, boolean | undefined>): Promise<void>;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const COMMANDS: Record<string, Command> = {
  'datafile info': {
    args: ['FILE'],
    async run(io, [file]) {
      io.stdout(json({ file, ...datafileInfo(await io.readFile(file!)) }));
    },
  },
  'datafile resave': {
    args: ['IN', 'OUT'],
    flags: { ddnet: { type: 'boolean' } },
    async run(io, [input, output], flags) {
      const out = resaveDatafile(await io.readFile(input!), flags.ddnet === true);
      await io.writeFile(output!, out);
    },
  },
};

/** Runs the CLI and returns the exit code: 0 ok, 1 bad input or I/O error, 2 usage error. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  try {
    const name = argv.slice(0, 2).join(' ');
    const command = COMMANDS[name];
    if (!command) {
      if (argv.length === 0 || argv.includes('-h') || argv.includes('--help')) {
        io.stdout(USAGE);
        return 0;
      }
      throw new UsageError(`unknown command: ${name || '(none)'}`);
    }
    const { values, positionals } = parseArgs({
      args: argv.slice(2),
      options: { help: { type: 'boolean', short: 'h' }, ...command.flags },
      allowPositionals: true,
    });
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    if (positionals.length !== command.args.length) {
      throw new UsageError(`${name} takes ${command.args.join(' ')}`);
    }
    await command.run(io, positionals, values as Record<string, boolean | undefined>);
    return 0;
  } catch (e) {
    io.stderr(`twcodec: ${describeError(e)}\n`);
    return e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1;
  }
}

function describeError(e: unknown): string {
  if (e instanceof CodecError) return e.message;
  if (e instanceof UsageError) return `${e.message} (see twcodec --help)`;
  const err = e as { code?: string; message?: string };
  return err.code ? `${err.code}: ${err.message}` : String(err.message ?? e);
}
