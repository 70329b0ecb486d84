import { parseArgs } from 'node:util';
import { CodecError } from '@twcodec/datafile';
import { datafileInfo, resaveDatafile } from './datafile.js';
import { demoInfo, demoSnapshots } from './demo.js';
import type { CliIo } from './io.js';
import { mapInfo, mapJson, mapResave, mapValidate } from './map.js';
import { demoChatNdjson, demoMessagesNdjson, teehistorianChatNdjson } from './messages.js';
import { teehistorianDump, teehistorianResave, teehistorianStats } from './teehistorian.js';

export { type CliIo, nodeIo } from './io.js';

class UsageError extends Error {}

/** A failure whose report was already printed (e.g. validation errors): exit 1 with a one-line summary. */
class ReportedFailure extends Error {}

interface Command {
  args: string[];
  flags?: Record<string, { type: 'boolean' | 'string'; value?: string; help: string }>;
  /** One line for the command list. */
  summary: string;
  /** More, for `twcodec <command> --help`. */
  details?: string;
  run(io: CliIo, positionals: string[], flags: Record<string, boolean | string | undefined>): Promise<void>;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const STDIN_NOTE = 'FILE may be - to read standard input.';

/** Calls `report` every `every` items, for progress on long runs. */
function counter(io: CliIo, what: string, every: number) {
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

const COMMANDS: Record<string, Command> = {
  'datafile info': {
    args: ['FILE'],
    summary: 'JSON summary: version, item types with counts and UUIDs, data sizes',
    details: STDIN_NOTE,
    async run(io, [file]) {
      io.stdout(json({ file, ...datafileInfo(await io.readFile(file!)) }));
    },
  },
  'datafile resave': {
    args: ['IN', 'OUT'],
    flags: { ddnet: { type: 'boolean', help: "lay the file out as DDNet's map_resave does (else: lossless, identical bytes)" } },
    summary: 'Read a datafile and write it back',
    details: 'Nothing is written on error: the output goes to a temporary file that is renamed at the end.',
    async run(io, [input, output], flags) {
      await io.writeFile(output!, resaveDatafile(await io.readFile(input!), flags.ddnet === true));
    },
  },
  'map info': {
    args: ['FILE'],
    summary: "JSON summary: images, envelopes, groups, layers by kind, sounds, the game layer's size",
    details: STDIN_NOTE,
    async run(io, [file]) {
      io.stdout(json({ file, ...mapInfo(await io.readFile(file!)) }));
    },
  },
  'map validate': {
    args: ['FILE'],
    summary: "What DDNet's loader would refuse (errors: exit 1) or silently fix, as JSON",
    details: `Each issue has a severity (error, fixed, warning), a code and a path such as groups[2].layers[0].data. ${STDIN_NOTE}`,
    async run(io, [file]) {
      const result = mapValidate(await io.readFile(file!));
      io.stdout(json({ file, ...result }));
      if (!result.ok) throw new ReportedFailure(`${result.errors} errors`);
    },
  },
  'map resave': {
    args: ['IN', 'OUT'],
    flags: {
      ddnet: { type: 'boolean', help: "then lay the file out as DDNet's map_resave does" },
      lenient: { type: 'boolean', help: 'also resave maps DDNet refuses, as far as the model holds them (see map validate)' },
    },
    summary: 'Read into the map model and write it back (identical bytes when nothing changed)',
    details: 'Maps DDNet loads resave without --lenient, also when validate warns about them.',
    async run(io, [input, output], flags) {
      await io.writeFile(output!, mapResave(await io.readFile(input!), flags.ddnet === true, flags.lenient === true));
    },
  },
  'map json': {
    args: ['FILE'],
    flags: { 'data-dir': { type: 'string', value: 'DIR', help: 'write pixel, tile and sound data to DIR, one file per element' } },
    summary: 'The whole map model as JSON; byte data summarised or written beside it',
    details: STDIN_NOTE,
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
    summary: 'JSON: header, count of each message kind (PLAYER_DIFF, ..., EX:<name>), ticks, players',
    details: STDIN_NOTE,
    async run(io, [file]) {
      io.stdout(json({ file, ...teehistorianStats(await io.readFile(file!)) }));
    },
  },
  'teehistorian dump': {
    args: ['FILE'],
    summary: 'NDJSON: the header, then every message with its tick (streams the file)',
    details: `Byte fields are hex. MESSAGE records also show \`net\`: the client message decoded (kind and fields). A file that ends without FINISH gets a last line {"end": ...}. ${STDIN_NOTE}`,
    async run(io, [file]) {
      const progress = counter(io, 'messages', 100_000);
      for await (const line of teehistorianDump(io.openRead(file!))) {
        io.stdout(line);
        progress.tick();
      }
      progress.done();
    },
  },
  'teehistorian chat': {
    args: ['FILE'],
    summary: 'NDJSON: the chat lines (cl_say) the file holds: tick, client id, player name, team, text',
    details: `DDNet does not record chat in teehistorian files (cl_say is left out on purpose), so its files give no lines; names come from the clients' start/change info. ${STDIN_NOTE}`,
    async run(io, [file]) {
      for await (const line of teehistorianChatNdjson(io.openRead(file!))) io.stdout(line);
    },
  },
  'teehistorian resave': {
    args: ['IN', 'OUT'],
    summary: 'Read into messages and write them back (identical bytes)',
    async run(io, [input, output]) {
      await io.writeFile(output!, teehistorianResave(await io.readFile(input!)));
    },
  },
  'demo info': {
    args: ['FILE'],
    summary: 'JSON: header fields, tick range, chunk counts by kind',
    details: STDIN_NOTE,
    async run(io, [file]) {
      io.stdout(json({ file, ...demoInfo(await io.readFile(file!)) }));
    },
  },
  'demo messages': {
    args: ['FILE'],
    flags: { kind: { type: 'string', help: 'only these message kinds, comma-separated (e.g. sv_chat,sv_broadcast)' } },
    summary: 'NDJSON: one line per recorded net message: tick, message kind, fields',
    details: `Kinds are the names in docs/formats/net-messages.md; messages the schema does not know print as "unknown" with their id or UUID and bytes (hex). ${STDIN_NOTE}`,
    async run(io, [file], flags) {
      const kinds = typeof flags.kind === 'string' ? new Set(flags.kind.split(',').map((k) => k.trim())) : undefined;
      const progress = counter(io, 'messages', 10_000);
      for (const line of demoMessagesNdjson(await io.readFile(file!), kinds)) {
        io.stdout(line);
        progress.tick();
      }
      progress.done();
    },
  },
  'demo chat': {
    args: ['FILE'],
    summary: "NDJSON: the chat lines: tick, client id, player name (from the client-info snapshot items), team, text",
    details: `team: 0 everyone, 1 team, 2/3 whisper sent/received; clientId -1 is the server. ${STDIN_NOTE}`,
    async run(io, [file]) {
      for (const line of demoChatNdjson(await io.readFile(file!))) io.stdout(line);
    },
  },
  'demo snapshots': {
    args: ['FILE'],
    summary: 'NDJSON: one line per recorded tick: tick, checksum, item count, items by type name',
    details: STDIN_NOTE,
    async run(io, [file]) {
      const progress = counter(io, 'snapshots', 1_000);
      for (const line of demoSnapshots(await io.readFile(file!))) {
        io.stdout(line);
        progress.tick();
      }
      progress.done();
    },
  },
};

function synopsis(name: string, command: Command): string {
  const flags = Object.entries(command.flags ?? {}).map(([flag, f]) => `[--${flag}${f.value ? ` ${f.value}` : ''}]`);
  return [name, ...command.args, ...flags].join(' ');
}

function usage(group?: string): string {
  const names = Object.keys(COMMANDS).filter((n) => !group || n.startsWith(`${group} `));
  const width = Math.max(...names.map((n) => synopsis(n, COMMANDS[n]!).length)) + 2;
  const lines = names.map((n) => `  ${synopsis(n, COMMANDS[n]!).padEnd(width)}${COMMANDS[n]!.summary}`);
  return `Usage: twcodec ${group ?? '<command>'} ... [options]\n\nCommands:\n${lines.join('\n')}\n\nOptions:\n  -h, --help  Show help (also after a command: twcodec map info --help)\n\nErrors print one line (code, message, path, byte offset) and exit 1; usage errors exit 2.\n`;
}

function commandHelp(name: string, command: Command): string {
  const flags = Object.entries(command.flags ?? {}).map(([flag, f]) => `  --${flag}${f.value ? ` ${f.value}` : ''}  ${f.help}`);
  return [`Usage: twcodec ${synopsis(name, command)}`, '', command.summary + '.', ...(command.details ? ['', command.details] : []), ...(flags.length ? ['', 'Options:', ...flags] : []), ''].join('\n');
}

/** Runs the CLI and returns the exit code: 0 ok, 1 bad input or I/O error, 2 usage error. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  try {
    const name = argv.slice(0, 2).join(' ');
    const command = COMMANDS[name];
    const help = argv.includes('-h') || argv.includes('--help');
    if (!command) {
      const group = argv[0];
      if (argv.length === 0 || (help && argv.length === 1 && argv[0]!.startsWith('-'))) {
        io.stdout(usage());
        return 0;
      }
      if (group && Object.keys(COMMANDS).some((n) => n.startsWith(`${group} `)) && (help || argv.length === 1)) {
        io.stdout(usage(group));
        return help ? 0 : 2;
      }
      throw new UsageError(`unknown command: ${name || '(none)'}`);
    }
    if (help) {
      io.stdout(commandHelp(name, command));
      return 0;
    }
    const options = Object.fromEntries(Object.entries(command.flags ?? {}).map(([flag, f]) => [flag, { type: f.type }]));
    const { values, positionals } = parseArgs({ args: argv.slice(2), options, allowPositionals: true });
    if (positionals.length !== command.args.length) throw new UsageError(`${synopsis(name, command)}: expected ${command.args.join(' ')}`);
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
