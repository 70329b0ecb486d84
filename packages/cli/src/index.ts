import { parseArgs } from 'node:util';
import { CodecError } from '@twcodec/datafile';
import { datafileInfo, resaveDatafile } from './datafile.js';
import { demoInfo, demoSnapshots } from './demo.js';
import { mapInfo, mapJson, mapResave, mapValidate } from './map.js';
import { teehistorianDump, teehistorianResave, teehistorianStats } from './teehistorian.js';
import type { CliIo } from './io.js';

export { type CliIo, nodeIo } from './io.js';

const USAGE = `Usage: twcodec <command> [options]

Commands:
  datafile info FILE               JSON summary: version, item types with counts and UUIDs, data sizes
  datafile resave IN OUT [--ddnet] Read and write back; lossless by default, --ddnet lays the file out
                                   as DDNet's map_resave does

  map info FILE                    JSON summary: counts of images, envelopes, groups, layers by kind,
                                   sounds, the game layer's size
  map validate FILE                What DDNet's loader would refuse (errors, exit 1) or silently fix
  map resave IN OUT [--ddnet]      Read into the map model and write back
  map json FILE [--data-dir DIR]   The whole model as JSON; pixel, tile and sound data summarised, or
                                   written to DIR as files named by their path
  teehistorian stats FILE          JSON: header, count of each message kind (core names, EX:<name>),
                                   ticks, players seen
  teehistorian dump FILE           One JSON object per line: the header, then every message with its tick
  teehistorian resave IN OUT       Read into messages and write them back
  demo info FILE                   JSON: header fields, tick range, chunk counts by kind
  demo snapshots FILE              One JSON line per recorded tick: tick, checksum, item count, items by
                                   type name

Options:
  -h, --help                       Show this help
`;

class UsageError extends Error {}

interface Command {
  args: string[];
  flags?: Record<string, { type: 'boolean' | 'string' }>;
  run(io: CliIo, positionals: string[], flags: Record<string, boolean | string | undefined>): Promise<void>;
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
  'map info': {
    args: ['FILE'],
    async run(io, [file]) {
      io.stdout(json({ file, ...mapInfo(await io.readFile(file!)) }));
    },
  },
  'map validate': {
    args: ['FILE'],
    async run(io, [file]) {
      const result = mapValidate(await io.readFile(file!));
      io.stdout(json({ file, ...result }));
      if (!result.ok) throw new ReportedFailure(`${result.errors} errors`);
    },
  },
  'map resave': {
    args: ['IN', 'OUT'],
    flags: { ddnet: { type: 'boolean' } },
    async run(io, [input, output], flags) {
      await io.writeFile(output!, mapResave(await io.readFile(input!), flags.ddnet === true));
    },
  },
  'map json': {
    args: ['FILE'],
    flags: { 'data-dir': { type: 'string' } },
    async run(io, [file], flags) {
      const dir = flags['data-dir'] as string | undefined;
      const pending: [string, Uint8Array][] = [];
      const text = mapJson(await io.readFile(file!), dir === undefined ? undefined : (name, data) => {
        const fileName = `${name.replace(/[^A-Za-z0-9_.[\]-]/g, '_')}.bin`;
        pending.push([`${dir}/${fileName}`, data]);
        return fileName;
      });
      for (const [path, data] of pending) await io.writeFile(path, data, { mkdir: true });
      io.stdout(text);
    },
  },
  'teehistorian stats': {
    args: ['FILE'],
    async run(io, [file]) {
      io.stdout(json({ file, ...teehistorianStats(await io.readFile(file!)) }));
    },
  },
  'teehistorian dump': {
    args: ['FILE'],
    async run(io, [file]) {
      for await (const line of teehistorianDump(io.openRead(file!))) io.stdout(line);
    },
  },
  'teehistorian resave': {
    args: ['IN', 'OUT'],
    async run(io, [input, output]) {
      await io.writeFile(output!, teehistorianResave(await io.readFile(input!)));
    },
  },
  'demo info': {
    args: ['FILE'],
    async run(io, [file]) {
      io.stdout(json({ file, ...demoInfo(await io.readFile(file!)) }));
    },
  },
  'demo snapshots': {
    args: ['FILE'],
    async run(io, [file]) {
      for (const line of demoSnapshots(await io.readFile(file!))) io.stdout(line);
    },
  },
};

/** A failure whose report was already printed (e.g. validation errors): exit 1 with a one-line summary. */
class ReportedFailure extends Error {}

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
    await command.run(io, positionals, values as Record<string, boolean | string | undefined>);
    return 0;
  } catch (e) {
    io.stderr(`twcodec: ${describeError(e)}\n`);
    return e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1;
  }
}

function describeError(e: unknown): string {
  if (e instanceof CodecError || e instanceof ReportedFailure) return e.message;
  if (e instanceof UsageError) return `${e.message} (see twcodec --help)`;
  const err = e as { code?: string; message?: string };
  return err.code ? `${err.code}: ${err.message}` : String(err.message ?? e);
}
