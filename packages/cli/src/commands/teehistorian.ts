// `twcodec teehistorian ...`: DDNet's server recordings (teehistorian.ts, messages.ts and export.ts do the work).
import { BATCH_OPTIONS, command, type CommandTable, counter, docs, EXPORT_OPTIONS, json, STDIN_NOTE } from '../command.js';

export const TEEHISTORIAN_COMMANDS: CommandTable = {
  'teehistorian stats': command({
    args: ['FILE'],
    batch: true,
    options: BATCH_OPTIONS,
    summary: 'JSON: header, count of each message kind (PLAYER_DIFF, ..., EX:<name>), ticks, players',
    details: STDIN_NOTE,
    async run(io, [file]) {
      const { teehistorianStats } = await import('../teehistorian.js');
      io.stdout(json({ file, ...teehistorianStats(await io.readFile(file!)) }));
    },
  }),
  'teehistorian dump': command({
    args: ['FILE'],
    summary: 'NDJSON: the header, then every message with its tick (streams the file)',
    details: `Byte fields are hex. Every line has a kind: header, a message kind (PLAYER_DIFF, ..., EX:<name>), or end: a file that ends without FINISH gets a last line {"kind": "end", "end": ...}. MESSAGE records also show \`net\`: the client message decoded (kind and fields). ${STDIN_NOTE}`,
    async run(io, [file]) {
      const { teehistorianDump } = await import('../teehistorian.js');
      const progress = counter(io, 'messages', 100_000);
      for await (const line of teehistorianDump(io.openRead(file!))) {
        await io.stdout(line);
        progress.tick();
      }
      progress.done();
    },
  }),
  'teehistorian chat': command({
    args: ['FILE'],
    summary: 'NDJSON: the chat lines (cl_say) the file holds: tick, client id, player name, team, text',
    details: `DDNet does not record chat in teehistorian files (cl_say is left out on purpose), so its files give no lines; names come from the clients' start/change info. ${STDIN_NOTE}`,
    async run(io, [file]) {
      const { teehistorianChatNdjson } = await import('../messages.js');
      for await (const line of teehistorianChatNdjson(io.openRead(file!))) await io.stdout(line);
    },
  }),
  'teehistorian export': command({
    args: ['FILE', 'OUT'],
    batch: true,
    options: { ...EXPORT_OPTIONS, ...BATCH_OPTIONS },
    summary: 'Tables for DuckDB, Spark, pandas: positions, inputs, events as OUT/<table>.parquet (or .arrow)',
    details: `positions: tick, cid, x, y (absolute); inputs: tick, cid and the 10 input fields (absolute); events: tick, cid, kind, data (JSON) for every other message but TICK_SKIP and FINISH. Each file's metadata holds the header as JSON. See ${docs('docs/export.md')}. ${STDIN_NOTE}`,
    async run(io, [file, out], options) {
      const { exportCommand } = await import('../export.js');
      await exportCommand(io, 'teehistorian', file!, out!, options);
    },
    batchOptions: async (args, options) => (await import('../export.js')).exportBatchOptions(args.at(-1)!, options),
  }),
  'teehistorian resave': command({
    args: ['IN', 'OUT'],
    summary: 'Read into messages and write them back (identical bytes)',
    async run(io, [input, output]) {
      const { teehistorianResave } = await import('../teehistorian.js');
      await io.writeFile(output!, teehistorianResave(await io.readFile(input!)));
    },
  }),
};
