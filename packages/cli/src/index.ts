import { existsSync, readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { parseArgs } from 'node:util';
import type { CodecError } from '@twcodec/runtime';
import { CliError, type CliIo, OutputClosed, plural, UsageError } from './io.js';
import type { ItemChoice } from './map.js';
import { EXPECTED_INPUT, isExpectedKind, sniff } from './sniff.js';
import { isGlob } from './glob.js';
import { NET_COMMANDS } from './net.js';

// A command loads the modules it needs when it runs (`await import(...)` in its run(), its option values in
// choices()): loading every package at start-up was most of a small map's `map info` (issue 28; the figures
// are in docs/performance.md). Only this file, io, sniff, glob and net's command table load for every command;
// bin/twcodec.cjs runs them bundled (bundle.mjs).

export { CliError, type CliIo, nodeIo, OutputClosed } from './io.js';


/** A failure whose report was already printed (e.g. validation errors): exit 1 with a one-line summary. */
class ReportedFailure extends Error {}

interface Flag {
  type: 'boolean' | 'string';
  value?: string;
  help: string;
  /**
   * The values a string option takes (anything else is a usage error listing them); a function when they come
   * from a module that only that command needs (loaded when the option is checked or the help printed).
   */
  choices?: readonly string[] | (() => Promise<readonly string[]>);
  /** With choices: a comma-separated list of them. */
  list?: true;
  /** The command needs it (`net demo --player NAME`): the synopsis shows it without brackets, and without it the command is a usage error. */
  required?: true;
}

interface Command {
  args: string[];
  flags?: Record<string, Flag>;
  /** One line for the command list. */
  summary: string;
  /** More, for `twcodec <command> --help`. */
  details?: string;
  /** Takes many files (and globs): one NDJSON line per file, on worker threads (see batch.ts). */
  batch?: true;
  run(io: CliIo, positionals: string[], flags: Record<string, boolean | string | undefined>): Promise<void>;
}

const BATCH_FLAGS = { jobs: { type: 'string', value: 'N', help: 'with many files: worker threads (default: one per core)' } } as const;
const BATCH_NOTE = 'Many files (or globs such as "maps/**/*.map", expanded here too): one JSON line per file, {"file", "ok", ...} or {"file", "ok": false, "error"}, in the order given, on worker threads; a summary on stderr; exit 1 when any file failed.';
/** The exports' addition to BATCH_NOTE (the other batch commands write no files). */
const BATCH_EXPORT_NOTE = ' Export of many files writes each into OUT/<its name without extension>/.';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * The documentation is in the repository, not in the npm package: help links there. The same URL as the
 * repository field of package.json (index.test.ts checks that they agree).
 */
export const REPOSITORY = 'https://github.com/twcodec/twcodec';
const docs = (path: string) => `${REPOSITORY}/blob/main/${path}`;


/** What `demo messages --kind` takes: every message kind of both protocols a demo can hold, and unknown. */
async function messageKinds(): Promise<string[]> {
  const { DDNET_0_6_MESSAGES, TEEWORLDS_0_7_MESSAGES } = await import('@twcodec/netmsg');
  return [...new Set([...DDNET_0_6_MESSAGES.messages, ...TEEWORLDS_0_7_MESSAGES.messages].map((m) => m.name))].sort().concat('unknown');
}

/** The values a flag takes, when it has a list of them. */
const choicesOf = async (flag: Flag) => (typeof flag.choices === 'function' ? await flag.choices() : flag.choices);

/** `teehistorian export` and `demo export` (export.ts does the work). */
const EXPORT_FLAGS = {
  format: { type: 'string', value: 'FORMAT', help: 'parquet (default; needs the package hyparquet-writer) or arrow (an Arrow IPC file; needs apache-arrow)' },
  table: { type: 'string', value: 'NAME', help: 'only this table, written to OUT itself (a file, or - for standard output; with many files OUT/<name>/<table>.<ext>)' },
} as const;
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

/**
 * The item (image or sound) a replace command means: `--index N`, `--name NAME`, or the WHAT argument (digits:
 * an index, else a name); and the other arguments (IN, FILE, OUT).
 */
function pickItem(positionals: string[], flags: Record<string, boolean | string | undefined>, what: string): { which: ItemChoice; rest: string[] } {
  const { index, name } = flags as { index?: string; name?: string };
  if (index !== undefined && name !== undefined) throw new UsageError('give --index or --name, not both');
  if (index === undefined && name === undefined) {
    if (positionals.length < 4) throw new UsageError(`missing OUT (or name the ${what.toLowerCase()} with --index N or --name NAME)`);
    const [input, which, file, output] = positionals;
    return { which: { auto: which! }, rest: [input!, file!, output!] };
  }
  if (positionals.length !== 3) throw new UsageError(`with --${index !== undefined ? 'index' : 'name'}, give IN, the file and OUT (${positionals.length} arguments given)`);
  if (index !== undefined && !/^\d+$/.test(index)) throw new UsageError(`--index needs a number 0, 1, ..., got "${index}"`);
  return { which: index !== undefined ? { index: Number(index) } : { name: name! }, rest: positionals };
}

const COMMANDS: Record<string, Command> = {
  'datafile info': {
    args: ['FILE'],
    batch: true,
    flags: BATCH_FLAGS,
    summary: 'JSON summary: version, item types with counts and UUIDs, data sizes',
    details: STDIN_NOTE,
    async run(io, [file]) {
      const { datafileInfo } = await import('./datafile.js');
      io.stdout(json({ file, ...datafileInfo(await io.readFile(file!)) }));
    },
  },
  'datafile resave': {
    args: ['IN', 'OUT'],
    flags: { ddnet: { type: 'boolean', help: "lay the file out as DDNet's map_resave does (else: lossless, identical bytes)" } },
    summary: 'Read a datafile and write it back',
    details: 'Nothing is written on error: the output goes to a temporary file that is renamed at the end.',
    async run(io, [input, output], flags) {
      const { resaveDatafile } = await import('./datafile.js');
      await io.writeFile(output!, resaveDatafile(await io.readFile(input!), flags.ddnet === true));
    },
  },
  'map info': {
    args: ['FILE'],
    batch: true,
    flags: BATCH_FLAGS,
    summary: "JSON summary: images, envelopes, groups, layers by kind, sounds, the game layer's size",
    details: STDIN_NOTE,
    async run(io, [file]) {
      const { mapInfo } = await import('./map-info.js');
      io.stdout(json({ file, ...mapInfo(await io.readFile(file!)) }));
    },
  },
  'map validate': {
    args: ['FILE'],
    batch: true,
    flags: BATCH_FLAGS,
    summary: "What DDNet's loader would refuse (errors: exit 1) or silently fix, as JSON",
    details: `Each issue has a severity (error, fixed, warning), a code and a path such as groups[2].layers[0].data. ${STDIN_NOTE}`,
    async run(io, [file]) {
      const { mapValidate } = await import('./map-info.js');
      const result = mapValidate(await io.readFile(file!));
      io.stdout(json({ file, ...result }));
      if (!result.ok) throw new ReportedFailure(plural(result.errors, 'error'));
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
      const { mapResave } = await import('./map-resave.js');
      await io.writeFile(output!, mapResave(await io.readFile(input!), flags.ddnet === true, flags.lenient === true));
    },
  },
  'map json': {
    args: ['FILE'],
    flags: { 'data-dir': { type: 'string', value: 'DIR', help: 'write pixel, tile and sound data to DIR, one file per element' } },
    summary: 'The whole map model as JSON; byte data summarised or written beside it',
    details: STDIN_NOTE,
    async run(io, [file], flags) {
      const { mapJson } = await import('./map-resave.js');
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
  'map extract': {
    args: ['IN', 'DIR'],
    summary: 'Write embedded images as DIR/images/<name>.png and sounds as DIR/sounds/<name>.opus; list external images',
    details: 'File names are the image and sound names made safe for file systems (a clash gets -<index>).',
    async run(io, [input, dir]) {
      const { mapExtract } = await import('./map-extract.js');
      const { images, files } = mapExtract(await io.readFile(input!));
      let n = 0;
      for (const [name, data] of files) {
        await io.writeFile(`${dir}/${name}`, data, { mkdir: true });
        io.progress(`${++n}/${files.size} files`);
      }
      io.stdout(json({ images, written: [...files.keys()] }));
    },
  },
  'map unpack': {
    args: ['IN', 'DIR'],
    summary: 'Unpack into an editable directory: map.json, layers/*.txt (one line per tile row, runs of equal tiles as hex*count), images/*.png, sounds/*.opus',
    details:
      'DIR/original.map keeps the input so that `map pack` gives identical bytes for what was not edited; delete it to write the map afresh. ' +
      'A map whose files would exceed 512 MiB together, or whose tiles exceed 768 MiB, is refused before anything is written.',
    async run(io, [input, dir]) {
      const [{ unpackMapEntries }, { CLI_PNG }] = await Promise.all([import('@twcodec/map-tools'), import('./png-options.js')]);
      // Tile text is written in chunks as it is made: memory stays at the map's size, not the text's.
      const files = unpackMapEntries(await io.readFile(input!), { png: CLI_PNG });
      let n = 0;
      for (const { name, chunks } of files) {
        await io.writeFile(`${dir}/${name}`, chunks(), { mkdir: true });
        io.progress(`${++n}/${files.length} files`);
      }
      io.progress(`${plural(files.length, 'file')}, done`);
    },
  },
  'map pack': {
    args: ['DIR', 'OUT'],
    summary: 'Pack a directory made by `map unpack` (possibly edited) back into a map',
    details:
      'Without DIR/original.map the map is written afresh: it reads back as map.json says, but its bytes (compression, item layout) ' +
      'may differ from the map that was unpacked; pack says so on stderr.',
    async run(io, [dir, output]) {
      const { mapPackFiles } = await import('./map.js');
      const { ORIGINAL_MAP, packMap } = await import('@twcodec/map-tools');
      const files = await mapPackFiles((p) => io.readFile(p), dir!);
      const packed = packMap(files);
      await io.writeFile(output!, packed);
      if (!files.has(ORIGINAL_MAP)) io.stderr(`note: no ${ORIGINAL_MAP} in ${dir}: the map was written afresh, so its bytes may differ from the map that was unpacked (its content does not)\n`);
    },
  },
  'map diff': {
    args: ['A', 'B'],
    flags: { json: { type: 'boolean', help: 'print JSON ({changes, tiles}) instead of text' } },
    summary: 'Differences of two maps by item, layer and tile (exit 1 when they differ)',
    async run(io, [a, b], flags) {
      const { formatMapDiff, mapDiffCommand } = await import('./map-diff.js');
      const diff = mapDiffCommand(await io.readFile(a!), await io.readFile(b!));
      io.stdout(flags.json ? json(diff) : formatMapDiff(diff));
      if (diff.changes.length || diff.tiles.length) throw new ReportedFailure(`${plural(diff.changes.length, 'change')}, ${plural(diff.tiles.length, 'tile')}`);
    },
  },
  'map convert': {
    args: ['IN', 'OUT'],
    flags: {
      to: { type: 'string', value: 'FORMAT', choices: async () => [...(await import('./map-convert.js')).CONVERT_TARGETS, '07'], help: 'ddnet (default): a Teeworlds 0.7 map to one DDNet loads; 0.7: a DDNet map for Teeworlds 0.7 clients, as DDNet\'s map_convert_07' },
      mapres: { type: 'string', value: 'DIR', help: "with --to 0.7: embed each external image from DIR/<name>.png (an RGBA PNG, e.g. from DDNet's data/mapres)" },
    },
    summary: 'Convert a Teeworlds 0.7 map to DDNet (RGBA images, expanded tiles), or a DDNet map to 0.7 (--to 0.7)',
    details:
      "--to 0.7 writes what DDNet's map_convert_07 writes: the map as map_resave leaves it, with the external images found in --mapres embedded " +
      '(0.7 clients have other mapres). It prints what it did as JSON; a tile layer whose image sides are not multiples of 16 (0.7 cannot draw it) ' +
      'makes it exit 1, after writing OUT, as map_convert_07 does.',
    async run(io, [input, output], flags) {
      const { mapConvert, mapresFiles } = await import('./map-convert.js');
      const to = (flags.to as string | undefined) ?? 'ddnet';
      const bytes = await io.readFile(input!);
      if (flags.mapres !== undefined && to === 'ddnet') throw new UsageError('--mapres is for --to 0.7');
      let mapres: Map<string, Uint8Array> | undefined;
      if (typeof flags.mapres === 'string') {
        mapres = new Map();
        for (const { name, file } of mapresFiles(bytes)) {
          try {
            mapres.set(name, await io.readFile(`${flags.mapres}/${file}`));
          } catch {
            // reported as kept external
          }
        }
      }
      const result = mapConvert(bytes, to, mapres && ((name) => mapres.get(name)));
      await io.writeFile(output!, result.bytes);
      if (result.note) io.stderr(`note: ${result.note}\n`);
      if (result.report) await io.stdout(json({ notes: result.report }));
      if (!result.ok) throw new ReportedFailure(`${plural(result.report?.filter((n) => n.severity === 'refuse').length ?? 0, 'problem')} map_convert_07 refuses (OUT written)`);
    },
  },
  'map fix': {
    args: ['IN', 'OUT'],
    flags: { 'in-place': { type: 'boolean', help: 'allow OUT to be IN (overwrite the input)' } },
    summary: "Write the map as DDNet's loader leaves it, with the problems that can be fixed safely fixed; prints what was fixed and what is left",
    details:
      "DDNet's silent fixes: layer version 0; physics layers named by kind, white, not detail; other kinds' data indices -1. Safe fixes: " +
      'references to missing images/envelopes/sounds become -1, envelopes with points out of range become empty, tiles past the layer size are dropped, ' +
      '0.7 RGB images become RGBA, non-zero padding and skip bytes are zeroed, shared tile data is copied. Everything else is listed as remaining. ' +
      'OUT must differ from IN unless --in-place is given; nothing is written on error.',
    async run(io, [input, output], flags) {
      const { fixMap } = await import('@twcodec/map-tools');
      if (input !== '-' && resolvePath(input!) === resolvePath(output!) && flags['in-place'] !== true) throw new UsageError('OUT is IN: pass --in-place to overwrite the input');
      const result = fixMap(await io.readFile(input!));
      await io.writeFile(output!, result.bytes);
      io.stdout(json({ fixed: result.fixed, remaining: result.remaining }));
    },
  },
  'map render': {
    args: ['IN', 'OUT'],
    flags: {
      layer: { type: 'string', value: 'WHICH', choices: ['game', 'tiles'], help: 'game (the game layer, coloured by tile meaning) or tiles (default: the tile layers with their images)' },
      'tile-size': { type: 'string', value: 'PX', help: 'pixels per tile (default 4 for game, 8 for tiles)' },
      mapres: { type: 'string', value: 'DIR', help: "where external images are (DDNet's data/mapres); else they are drawn as placeholders" },
    },
    summary: 'Render a PNG preview of the map',
    async run(io, [input, output], flags) {
      const { mapRender } = await import('./map.js');
      const { mapresFiles } = await import('./map-convert.js');
      const bytes = await io.readFile(input!);
      let mapres: Map<string, Uint8Array> | undefined;
      if (typeof flags.mapres === 'string') {
        mapres = new Map();
        for (const { name, file } of mapresFiles(bytes)) {
          try {
            mapres.set(name, await io.readFile(`${flags.mapres}/${file}`));
          } catch {
            io.stderr(`mapres: no ${file}, drawn as a placeholder\n`);
          }
        }
      }
      const size = flags['tile-size'] === undefined ? undefined : Number(flags['tile-size']);
      if (size !== undefined && !(size >= 1 && size <= 64)) throw new UsageError('--tile-size must be 1..64');
      await io.writeFile(output!, mapRender(bytes, (flags.layer as string | undefined) ?? 'tiles', size, mapres));
    },
  },
  'map replace-image': {
    args: ['IN', '[IMAGE]', 'PNG', 'OUT'],
    flags: {
      index: { type: 'string', value: 'N', help: 'the image by its index (0 is the first), instead of IMAGE' },
      name: { type: 'string', value: 'NAME', help: 'the image by its name (also a name made of digits, such as 28), instead of IMAGE' },
    },
    summary: 'Replace image IMAGE (index or name) with a PNG (any colour type, made RGBA and embedded)',
    details: 'IMAGE made of digits is an index; when an image has that name too, say which with --index or --name.',
    async run(io, positionals, flags) {
      const { mapReplaceImage } = await import('./map.js');
      const { which, rest: [input, png, output] } = pickItem(positionals, flags, 'IMAGE');
      await io.writeFile(output!, mapReplaceImage(await io.readFile(input!), which, await io.readFile(png!), png!));
    },
  },
  'map replace-sound': {
    args: ['IN', '[SOUND]', 'OPUS', 'OUT'],
    flags: {
      index: { type: 'string', value: 'N', help: 'the sound by its index (0 is the first), instead of SOUND' },
      name: { type: 'string', value: 'NAME', help: 'the sound by its name (also a name made of digits), instead of SOUND' },
    },
    summary: 'Replace sound SOUND (index or name) with an Ogg Opus file',
    details: 'SOUND made of digits is an index; when a sound has that name too, say which with --index or --name.',
    async run(io, positionals, flags) {
      const { mapReplaceSound } = await import('./map.js');
      const { which, rest: [input, opus, output] } = pickItem(positionals, flags, 'SOUND');
      await io.writeFile(output!, mapReplaceSound(await io.readFile(input!), which, await io.readFile(opus!), opus!));
    },
  },
  'teehistorian stats': {
    args: ['FILE'],
    batch: true,
    flags: BATCH_FLAGS,
    summary: 'JSON: header, count of each message kind (PLAYER_DIFF, ..., EX:<name>), ticks, players',
    details: STDIN_NOTE,
    async run(io, [file]) {
      const { teehistorianStats } = await import('./teehistorian.js');
      io.stdout(json({ file, ...teehistorianStats(await io.readFile(file!)) }));
    },
  },
  'teehistorian dump': {
    args: ['FILE'],
    summary: 'NDJSON: the header, then every message with its tick (streams the file)',
    details: `Byte fields are hex. Every line has a kind: header, a message kind (PLAYER_DIFF, ..., EX:<name>), or end: a file that ends without FINISH gets a last line {"kind": "end", "end": ...}. MESSAGE records also show \`net\`: the client message decoded (kind and fields). ${STDIN_NOTE}`,
    async run(io, [file]) {
      const { teehistorianDump } = await import('./teehistorian.js');
      const progress = counter(io, 'messages', 100_000);
      for await (const line of teehistorianDump(io.openRead(file!))) {
        await io.stdout(line);
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
      const { teehistorianChatNdjson } = await import('./messages.js');
      for await (const line of teehistorianChatNdjson(io.openRead(file!))) await io.stdout(line);
    },
  },
  'teehistorian export': {
    args: ['FILE', 'OUT'],
    batch: true,
    flags: { ...EXPORT_FLAGS, ...BATCH_FLAGS },
    summary: 'Tables for DuckDB, Spark, pandas: positions, inputs, events as OUT/<table>.parquet (or .arrow)',
    details: `positions: tick, cid, x, y (absolute); inputs: tick, cid and the 10 input fields (absolute); events: tick, cid, kind, data (JSON) for every other message but TICK_SKIP and FINISH. Each file's metadata holds the header as JSON. See ${docs('docs/export.md')}. ${STDIN_NOTE}`,
    async run(io, [file, out], flags) {
      const { exportCommand } = await import('./export.js');
      await exportCommand(io, 'teehistorian', file!, out!, flags);
    },
  },
  'teehistorian resave': {
    args: ['IN', 'OUT'],
    summary: 'Read into messages and write them back (identical bytes)',
    async run(io, [input, output]) {
      const { teehistorianResave } = await import('./teehistorian.js');
      await io.writeFile(output!, teehistorianResave(await io.readFile(input!)));
    },
  },
  'demo info': {
    args: ['FILE'],
    batch: true,
    flags: BATCH_FLAGS,
    summary: 'JSON: header fields, tick range, chunk counts by kind',
    details: `ticks.span counts the ticks from first to last; ticks.snapshots the lines demo snapshots prints (one per recorded tick). end: where reading stopped; a demo cut short (a recording that was killed) is read up to its last whole chunk, with end.truncated true. ${STDIN_NOTE}`,
    async run(io, [file]) {
      const { demoInfo } = await import('./demo.js');
      io.stdout(json({ file, ...demoInfo(await io.readFile(file!)) }));
    },
  },
  'demo export': {
    args: ['FILE', 'OUT'],
    batch: true,
    flags: { ...EXPORT_FLAGS, ...BATCH_FLAGS },
    summary: 'Tables for DuckDB, Spark, pandas: one per snapshot object (character, player_info, ...) and chat, as OUT/<table>.parquet',
    details: `Object tables have a row per item per recorded tick: tick, id (the client id for character, player_info, client_info), then the fields by their schema names (fixed-point fields as values, strings decoded). unknown_items holds items of unknown types; chat the chat lines. A demo cut short is exported up to its last whole chunk (the summary says truncated). See ${docs('docs/export.md')}. ${STDIN_NOTE}`,
    async run(io, [file, out], flags) {
      const { exportCommand } = await import('./export.js');
      await exportCommand(io, 'demo', file!, out!, flags);
    },
  },
  'demo resave': {
    args: ['IN', 'OUT'],
    summary: 'Read and write again through the demo writer (identical bytes for demos DDNet recorded)',
    details: "A demo that would not come back byte for byte (two snapshot chunks in one tick, a message before its tick's snapshot, more than 64 timeline markers, another packing) is refused with what would change and where (NOT_LOSSLESS); nothing is written.",
    async run(io, [input, output]) {
      const { demoResave } = await import('./demo.js');
      await io.writeFile(output!, demoResave(await io.readFile(input!)));
    },
  },
  'demo slice': {
    args: ['IN', 'OUT'],
    flags: {
      from: { type: 'string', value: 'TICK', help: 'first tick to keep' },
      to: { type: 'string', value: 'TICK', help: 'last tick to keep' },
      'from-time': { type: 'string', value: 'SECONDS', help: 'first second to keep, counted from the demo start' },
      'to-time': { type: 'string', value: 'SECONDS', help: 'last second to keep, counted from the demo start' },
      marker: { type: 'string', value: 'N', help: 'keep from timeline marker N (0 = first) to the next marker or the end' },
    },
    summary: "Cut out a range of ticks as DDNet's demo slicing does (starts with a keyframe)",
    details: 'Ticks, times and markers can be mixed: --from-time 10 --to 5000. The source timestamp is kept.',
    async run(io, [input, output], flags) {
      const { demoSlice } = await import('./demo.js');
      await io.writeFile(output!, demoSlice(await io.readFile(input!), flags));
    },
  },
  'demo strip': {
    args: ['IN', 'OUT'],
    flags: {
      chat: { type: 'boolean', help: 'drop chat messages' },
      map: { type: 'boolean', help: 'drop the embedded map (the demo keeps its name, CRC and SHA-256)' },
    },
    summary: 'Write the demo again without chat and/or its embedded map',
    async run(io, [input, output], flags) {
      const { demoStrip } = await import('./demo.js');
      if (flags.chat !== true && flags.map !== true) throw new UsageError("demo strip needs --chat, --map or both (without them it would only copy the demo) (usage: twcodec demo strip IN OUT [--chat] [--map])");
      await io.writeFile(output!, demoStrip(await io.readFile(input!), { chat: flags.chat === true, map: flags.map === true }));
    },
  },
  'demo messages': {
    args: ['FILE'],
    flags: { kind: { type: 'string', value: 'KIND,...', choices: messageKinds, list: true, help: 'only these message kinds, comma-separated (e.g. sv_chat,sv_broadcast)' } },
    summary: 'NDJSON: one line per recorded net message: tick, kind, fields',
    details: `Kinds are the names in ${docs('docs/formats/net-messages.md')}; messages recorded before the first tick marker have the first tick; messages the schema does not know print as "unknown" with their id or UUID and bytes (hex). ${STDIN_NOTE}`,
    async run(io, [file], flags) {
      const { demoMessagesNdjson } = await import('./messages.js');
      const kinds = typeof flags.kind === 'string' ? new Set(flags.kind.split(',').map((k) => k.trim())) : undefined;
      const progress = counter(io, 'messages', 10_000);
      for (const line of demoMessagesNdjson(await io.readFile(file!), kinds)) {
        await io.stdout(line);
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
      const { demoChatNdjson } = await import('./messages.js');
      for (const line of demoChatNdjson(await io.readFile(file!))) await io.stdout(line);
    },
  },
  'demo snapshots': {
    args: ['FILE'],
    summary: 'NDJSON: one line per recorded tick: tick, checksum, every item with its named fields',
    details: `Items are {object, id, fields, names}: names gives the names of enum values and flag bits beside the numbers in fields (weapon: "gun", playerFlags: ["playing", "aim"]); an item of unknown type is {object: its UUID or type_N, id, unknown, data}. Values DDNet's validation would correct are listed under "problems". A demo cut short (a recording that was killed) is read up to its last whole chunk; a last line {"end": {"truncated": true, ...}} says where it ended. ${STDIN_NOTE}`,
    flags: { summary: { type: 'boolean', help: 'only the item count and the items by type name per tick' } },
    async run(io, [file], flags) {
      const { demoSnapshotObjects, demoSnapshots } = await import('./demo.js');
      const progress = counter(io, 'snapshots', 1_000);
      const bytes = await io.readFile(file!);
      for (const line of flags.summary === true ? demoSnapshots(bytes) : demoSnapshotObjects(bytes)) {
        await io.stdout(line);
        progress.tick();
      }
      progress.done();
    },
  },
  ...NET_COMMANDS,
};

/** The synopsis of a command as words that are not broken across lines: name, arguments, [--option VALUE]. */
function synopsisWords(name: string, command: Command): string[] {
  const flags = Object.entries(command.flags ?? {}).map(([flag, f]) => {
    const word = `--${flag}${f.value ? ` ${f.value}` : ''}`;
    return f.required ? word : `[${word}]`;
  });
  return [name, ...command.args.map((a, i) => (command.batch && i === 0 ? `${a}...` : a)), ...flags];
}

function synopsis(name: string, command: Command): string {
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

function usage(group?: string): string {
  const names = Object.keys(COMMANDS).filter((n) => !group || n.startsWith(`${group} `));
  // Each command: its synopsis, then what it does, indented below it (a column beside the synopses would be
  // ~100 columns wide: every line would wrap in a terminal).
  const lines = names.flatMap((n) => [...wrapWords(synopsisWords(n, COMMANDS[n]!), '  ', '      '), ...wrap(COMMANDS[n]!.summary, '      ')]);
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

async function commandHelp(name: string, command: Command): Promise<string> {
  const choices = new Map<Flag, readonly string[] | undefined>();
  for (const f of Object.values(command.flags ?? {})) choices.set(f, await choicesOf(f));
  const flags = Object.entries(command.flags ?? {}).flatMap(([flag, f]) => {
    const spec = `  --${flag}${f.value ? ` ${f.value}` : ''}`;
    const values = choices.get(f) && choices.get(f)!.length <= 8 ? ` (${choices.get(f)!.join(', ')})` : '';
    // Short options keep their help beside them; long ones get it on the lines below.
    if (spec.length <= 24) return wrap(`${f.help}${values}`, spec.padEnd(26), ' '.repeat(26));
    return [spec, ...wrap(`${f.help}${values}`, ' '.repeat(26))];
  });
  return [
    ...wrapWords(synopsisWords(name, command), 'Usage: twcodec ', '         '),
    '',
    ...wrap(`${command.summary}.`, ''),
    ...(command.details ? ['', ...wrap(command.details, '')] : []),
    ...(command.batch ? ['', ...wrap(BATCH_NOTE + (name.endsWith(' export') ? BATCH_EXPORT_NOTE : ''), '')] : []),
    ...(flags.length ? ['', 'Options:', ...flags] : []),
    '',
  ].join('\n');
}

const groups = () => [...new Set(Object.keys(COMMANDS).map((n) => n.split(' ')[0]!))];

/** The version of this package, for `twcodec --version`. */
export function cliVersion(): string {
  // This module is dist/index.js, or a chunk of the bundle in dist/bundle/ (bundle.mjs): package.json is one or
  // two directories up.
  const near = new URL('../package.json', import.meta.url);
  const path = existsSync(near) ? near : new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}

/**
 * Checks the options of one command against its table. node:util's parseArgs reports unknown options with its
 * own codes and wording about positionals; this says which command and where to look instead.
 */
async function parseCommandArgs(name: string, command: Command, args: string[]) {
  const flags = command.flags ?? {};
  const options = Object.fromEntries(Object.entries(flags).map(([flag, f]) => [flag, { type: f.type }]));
  const { values, positionals, tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  const help = `(usage: twcodec ${synopsis(name, command)})`;
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const flag = flags[token.name];
    if (!flag) {
      const known = Object.keys(flags).map((f) => `--${f}`).join(', ');
      throw new UsageError(`unknown option ${token.rawName} for '${name}' (${known ? `its options: ${known}` : 'it takes no options'}; see twcodec ${name} --help)`);
    }
    if (flag.type === 'string' && typeof token.value !== 'string') throw new UsageError(`option --${token.name} needs a value ${flag.value ?? ''} ${help}`.replace('  ', ' '));
    const choices = await choicesOf(flag);
    if (choices && typeof token.value === 'string') {
      const given = flag.list ? token.value.split(',').map((v) => v.trim()) : [token.value];
      const wrong = given.filter((v) => !choices.includes(v));
      if (wrong.length) throw new UsageError(`--${token.name} ${wrong.join(',')}: ${flag.list ? 'each value is one' : 'the value is one'} of ${choices.join(', ')} (see twcodec ${name} --help)`);
    }
    if (flag.type === 'boolean' && token.inlineValue) throw new UsageError(`option --${token.name} takes no value ${help}`);
  }
  if (positionals.length > command.args.length && !command.batch) throw new UsageError(`unexpected argument '${positionals[command.args.length]}' ${help}`);
  // Arguments in [brackets] may be left out (the command says what stands for them).
  const required = command.args.filter((a) => !a.startsWith('['));
  if (positionals.length < required.length) throw new UsageError(`missing ${required.slice(positionals.length).join(' ')} ${help}`);
  // An empty value is a value (`--player ""`: a client may call itself ''); only a flag left out is missing.
  for (const [flag, f] of Object.entries(flags)) if (f.required && values[flag] === undefined) throw new UsageError(`missing --${flag}${f.value ? ` ${f.value}` : ''} ${help}`);
  return { values: values as Record<string, boolean | string | undefined>, positionals };
}

/** The first bytes of every input a command reads, to say what a file of the wrong kind looks like. */
function trackInputs(io: CliIo, heads: Map<string, Uint8Array>): CliIo {
  const keep = (path: string, bytes: Uint8Array) => {
    if (!heads.has(path)) heads.set(path, bytes.slice(0, 64));
  };
  return {
    ...io,
    async readFile(path) {
      const bytes = await io.readFile(path);
      keep(path, bytes);
      return bytes;
    },
    openRead(path) {
      const source = io.openRead(path);
      return (async function* () {
        let empty = true;
        for await (const chunk of source) {
          if (empty) keep(path, chunk);
          empty = false;
          yield chunk;
        }
        if (empty) keep(path, new Uint8Array(0));
      })();
    },
  };
}

/** Runs the CLI and returns the exit code: 0 ok, 1 bad input or I/O error, 2 usage error. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  let group = '';
  const heads = new Map<string, Uint8Array>();
  // The command's arguments by name (in, png, dir, ...): which file an error is about.
  let roles: Record<string, string> = {};
  try {
    if (argv.length === 0) {
      io.stderr(usage());
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
        await io.stdout(usage());
        return 0;
      }
      if (groups().includes(group)) {
        if (help && argv.length === 2) {
          await io.stdout(usage(group));
          return 0;
        }
        if (argv.length === 1) {
          io.stderr(usage(group));
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
    const { values, positionals } = await parseCommandArgs(name, command, argv.slice(2));
    // Commands with an OUT take it last: FILE... OUT.
    const inputs = command.args.length === 2 ? positionals.slice(0, -1) : positionals;
    if (command.batch && (inputs.length > 1 || values.jobs !== undefined || inputs.some((p) => isGlob(p) && !existsSync(p)))) {
      const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
      if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1 && jobs <= 256)) throw new UsageError(`--jobs needs a number of threads 1..256, got "${String(values.jobs)}"`);
      let optionsFor: ((files: string[]) => Record<string, unknown>[]) | undefined;
      if (name.endsWith(' export')) {
        const { exportDirs, exportOptions } = await import('./export.js');
        const { ExportDependencyError, loadFormat } = await import('@twcodec/export');
        const options = exportOptions(values);
        const out = positionals.at(-1)!;
        if (out === '-') throw new UsageError('OUT of many files is a directory, not - (standard output)');
        try {
          await loadFormat(options.format);
        } catch (e) {
          if (e instanceof ExportDependencyError) throw new CliError(e.code, e.message);
          throw e;
        }
        optionsFor = (files) => exportDirs(files, out).map((dir) => ({ dir, ...options }));
      }
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
    await command.run(trackInputs(io, heads), positionals, values);
    return 0;
  } catch (e) {
    if (e instanceof OutputClosed) return 0;
    // @twcodec/runtime (CodecError) loads here: a command that threw one has loaded it already.
    const runtime = await import('@twcodec/runtime');
    io.stderr(`twcodec: ${oneLine(describeError(e, group, heads, roles, runtime))}\n`);
    return e instanceof UsageError ? 2 : 1;
  }
}

/** What an input given as argument `role` should be, for "expected ..." (undefined: not sniffed, e.g. a directory). */
function expectedOf(role: string | undefined, group: string): { text: string; is: (looks: string) => boolean } | undefined {
  if (role === 'png') return { text: 'a PNG image', is: (looks) => looks === 'a PNG image' };
  if (role === 'opus') return { text: 'an Ogg Opus file', is: (looks) => looks === 'an Ogg file (sound)' };
  const expected = EXPECTED_INPUT[group];
  // The main input of a command (IN, FILE, or either map of map diff) is of the command group's kind.
  return expected && role !== undefined && ['in', 'file', 'a', 'b'].includes(role) ? { text: expected, is: (looks) => isExpectedKind(group, looks) } : undefined;
}

/**
 * The file a CodecError is about, as the user named it, and the argument it was given as. The error's `input`
 * says which when the code that threw knows (`png`: the argument PNG; `layers/x.txt`: a file of the directory
 * DIR); without it, the command's first argument (its main input).
 */
function sourceOf(e: CodecError, roles: Record<string, string>): { file?: string; role?: string } {
  const first = Object.keys(roles)[0];
  if (e.input === undefined) return first === undefined ? {} : { file: roles[first], role: first };
  if (roles[e.input] !== undefined) return { file: roles[e.input], role: e.input };
  if (roles.dir !== undefined) return { file: `${roles.dir}/${e.input}`, role: 'file in dir' };
  return {};
}

/**
 * An error message as one line: messages can quote the input (a teehistorian header's JSON.parse error quotes
 * the bytes around the fault), and a newline or other control character from it would break the line, or a
 * terminal. They are written as escapes: \n, \u0003.
 */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\n' ? '\\n' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

function describeError(e: unknown, group: string, heads: Map<string, Uint8Array>, roles: Record<string, string>, { CodecError, describeSource }: typeof import('@twcodec/runtime')): string {
  if (e instanceof CodecError) {
    // Errors of a command's other inputs that name the input in their message (a PNG, an Opus file, map pack's
    // files, a mapres name) are printed as they are.
    if (e.input === undefined && /^(png|opus|mapdir|mapres)\./.test(e.code)) {
      // A PNG or Opus argument that is another kind of file: say what it looks like, as for a main input.
      const role = /^(png|opus)\./.exec(e.code)?.[1];
      const file = role === undefined ? undefined : roles[role];
      const head = file === undefined ? undefined : heads.get(file);
      const expected = expectedOf(role, group);
      if (head && expected && !expected.is(sniff(head))) return `${e.message}: expected ${expected.text}; ${file === '-' ? 'standard input' : file} looks like ${sniff(head)}`;
      return e.message;
    }
    const { file, role } = sourceOf(e, roles);
    const name = file === '-' ? 'standard input' : file;
    // The input is named when the error says which it is, or when the command read more than one file.
    const named = name !== undefined && (e.input !== undefined || heads.size > 1) ? name : e.input;
    const text = named === e.input ? e.message : `${e.code}: ${e.detail}${describeSource({ input: named, line: e.line, column: e.column, path: e.path, offset: e.offset })}`;
    // Say what the file looks like when it is not what the command reads there: the usual cause of BAD_MAGIC.
    const head = file === undefined ? undefined : heads.get(file);
    const expected = expectedOf(role, group);
    if (head && expected) {
      const looks = sniff(head);
      if (!expected.is(looks)) return `${text}: expected ${expected.text}; ${name} looks like ${looks}`;
    }
    return text;
  }
  if (e instanceof ReportedFailure || e instanceof CliError) return e.message;
  if (e instanceof UsageError) return /\((usage|the |.*see twcodec)/.test(e.message) ? e.message : `${e.message} (see twcodec --help)`;
  const err = e as { code?: string; message?: string };
  const message = String(err.message ?? e);
  return err.code && !message.startsWith(err.code) ? `${err.code}: ${message}` : message;
}
