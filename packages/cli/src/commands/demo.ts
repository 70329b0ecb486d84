// `twcodec demo ...`: DDNet and Teeworlds 0.7 demos (demo.ts, messages.ts and export.ts do the work).
import { BATCH_OPTIONS, command, type CommandTable, counter, docs, EXPORT_OPTIONS, json, STDIN_NOTE } from '../command.js';
import { UsageError } from '../io.js';

/** What `demo messages --kind` takes: every message kind of both protocols a demo can hold, and unknown. */
async function messageKinds(): Promise<string[]> {
  const { DDNET_0_6_MESSAGES, TEEWORLDS_0_7_MESSAGES } = await import('@twcodec/netmsg');
  return [...new Set([...DDNET_0_6_MESSAGES.messages, ...TEEWORLDS_0_7_MESSAGES.messages].map((m) => m.name))].sort().concat('unknown');
}

export const DEMO_COMMANDS: CommandTable = {
  'demo info': command({
    args: ['FILE'],
    batch: true,
    options: BATCH_OPTIONS,
    summary: 'JSON: header fields, tick range, chunk counts by kind',
    details: `ticks.span counts the ticks from first to last; ticks.snapshots the lines demo snapshots prints (one per recorded tick). end: where reading stopped; a demo cut short (a recording that was killed) is read up to its last whole chunk, with end.truncated true. ${STDIN_NOTE}`,
    async run(io, [file]) {
      const { demoInfo } = await import('../demo.js');
      io.stdout(json({ file, ...demoInfo(await io.readFile(file!)) }));
    },
  }),
  'demo players': command({
    args: ['FILE'],
    batch: true,
    options: BATCH_OPTIONS,
    summary: 'JSON: the players (client id, name, clan, country, skin) and the ticks they were in the demo',
    details: `From the client-info items of the snapshots (0.6 client_info, 0.7 de_client_info): one entry per client id for as long as its name, clan, country and skin stay the same (a rename or another player on the same id starts a new entry); fromTick and toTick are the first and last recorded tick that shows it. ${STDIN_NOTE}`,
    async run(io, [file]) {
      const { demoPlayerList } = await import('../demo.js');
      io.stdout(json({ file, ...demoPlayerList(await io.readFile(file!)) }));
    },
  }),
  'demo export': command({
    args: ['FILE', 'OUT'],
    batch: true,
    options: { ...EXPORT_OPTIONS, ...BATCH_OPTIONS },
    summary: 'Tables for DuckDB, Spark, pandas: one per snapshot object (character, player_info, ...) and chat, as OUT/<table>.parquet',
    details: `Object tables have a row per item per recorded tick: tick, id (the client id for character, player_info, client_info), then the fields by their schema names (fixed-point fields as values, strings decoded). unknown_items holds items of unknown types; chat the chat lines. A demo cut short is exported up to its last whole chunk (the summary says truncated). See ${docs('docs/export.md')}. ${STDIN_NOTE}`,
    async run(io, [file, out], options) {
      const { exportCommand } = await import('../export.js');
      await exportCommand(io, 'demo', file!, out!, options);
    },
    batchOptions: async (args, options) => (await import('../export.js')).exportBatchOptions(args.at(-1)!, options),
  }),
  'demo resave': command({
    args: ['IN', 'OUT'],
    summary: 'Read and write again through the demo writer (identical bytes for demos DDNet recorded)',
    details: "A demo that would not come back byte for byte (two snapshot chunks in one tick, a message before its tick's snapshot, more than 64 timeline markers, another packing) is refused with what would change and where (NOT_LOSSLESS); nothing is written.",
    async run(io, [input, output]) {
      const { demoResave } = await import('../demo.js');
      await io.writeFile(output!, demoResave(await io.readFile(input!)));
    },
  }),
  'demo slice': command({
    args: ['IN', 'OUT'],
    options: {
      from: { type: 'string', value: 'TICK', help: 'first tick to keep' },
      to: { type: 'string', value: 'TICK', help: 'last tick to keep' },
      'from-time': { type: 'string', value: 'SECONDS', help: 'first second to keep, counted from the demo start' },
      'to-time': { type: 'string', value: 'SECONDS', help: 'last second to keep, counted from the demo start' },
      marker: { type: 'string', value: 'N', help: 'keep from timeline marker N (0 = first) to the next marker or the end' },
    },
    summary: "Cut out a range of ticks as DDNet's demo slicing does (starts with a keyframe)",
    details: 'Ticks, times and markers can be mixed: --from-time 10 --to 5000. The source timestamp is kept.',
    async run(io, [input, output], options) {
      const { demoSlice } = await import('../demo.js');
      await io.writeFile(output!, demoSlice(await io.readFile(input!), options));
    },
  }),
  'demo strip': command({
    args: ['IN', 'OUT'],
    options: {
      chat: { type: 'boolean', help: 'drop chat messages' },
      map: { type: 'boolean', help: 'drop the embedded map (the demo keeps its name, CRC and SHA-256)' },
    },
    summary: 'Write the demo again without chat and/or its embedded map',
    async run(io, [input, output], options) {
      const { demoStrip } = await import('../demo.js');
      if (!options.chat && !options.map) throw new UsageError("demo strip needs --chat, --map or both (without them it would only copy the demo) (usage: twcodec demo strip IN OUT [--chat] [--map])");
      await io.writeFile(output!, demoStrip(await io.readFile(input!), { chat: options.chat, map: options.map }));
    },
  }),
  'demo messages': command({
    args: ['FILE'],
    options: { kind: { type: 'string', value: 'KIND,...', choices: messageKinds, list: true, help: 'only these message kinds, comma-separated (e.g. sv_chat,sv_broadcast)' } },
    summary: 'NDJSON: one line per recorded net message: tick, kind, fields',
    details: `Kinds are the names in ${docs('docs/formats/net-messages.md')}. A server demo records a message once for every client it was sent to, so it prints once per receiver (an sv_kill_msg to four players: four lines); demo chat prints each chat line once. Messages recorded before the first tick marker have the first tick; messages the schema does not know print as "unknown" with their id or UUID and bytes (hex). ${STDIN_NOTE}`,
    async run(io, [file], options) {
      const { demoMessagesNdjson } = await import('../messages.js');
      const kinds = options.kind && new Set(options.kind);
      const progress = counter(io, 'messages', 10_000);
      for (const line of demoMessagesNdjson(await io.readFile(file!), kinds)) {
        await io.stdout(line);
        progress.tick();
      }
      progress.done();
    },
  }),
  'demo chat': command({
    args: ['FILE'],
    summary: "NDJSON: the chat lines: tick, client id, player name (from the client-info snapshot items), team, text",
    details: `team: 0 everyone, 1 team, 2/3 whisper sent/received; clientId -1 is the server. ${STDIN_NOTE}`,
    async run(io, [file]) {
      const { demoChatNdjson } = await import('../messages.js');
      for (const line of demoChatNdjson(await io.readFile(file!))) await io.stdout(line);
    },
  }),
  'demo snapshots': command({
    args: ['FILE'],
    summary: 'NDJSON: one line per recorded tick: tick, checksum, every item with its named fields',
    details: `Items are {object, id, fields, names}: names gives the names of enum values and flag bits beside the numbers in fields (weapon: "gun", playerFlags: ["playing", "aim"]); an item of unknown type is {object: its UUID or type_N, id, unknown, data}. Values DDNet's validation would correct are listed under "problems". A demo cut short (a recording that was killed) is read up to its last whole chunk; a last line {"end": {"truncated": true, ...}} says where it ended. ${STDIN_NOTE}`,
    options: { summary: { type: 'boolean', help: 'only the item count and the items by type name per tick' } },
    async run(io, [file], options) {
      const { demoSnapshotObjects, demoSnapshots } = await import('../demo.js');
      const progress = counter(io, 'snapshots', 1_000);
      const bytes = await io.readFile(file!);
      for (const line of options.summary ? demoSnapshots(bytes) : demoSnapshotObjects(bytes)) {
        await io.stdout(line);
        progress.tick();
      }
      progress.done();
    },
  }),
};
