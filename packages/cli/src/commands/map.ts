// `twcodec map ...`: DDNet and Teeworlds maps (map-info.ts, map-resave.ts, map-extract.ts, map-diff.ts,
// map-convert.ts and map.ts do the work, each loaded by the commands that use it).
import { resolve as resolvePath } from 'node:path';
import { BATCH_OPTIONS, command, type CommandTable, json, ReportedFailure, STDIN_NOTE } from '../command.js';
import { type CliIo, plural, UsageError } from '../io.js';
import type { ItemChoice } from '../map.js';

/**
 * The item (image or sound) a replace command means: `--index N`, `--name NAME`, or the WHAT argument (digits:
 * an index, else a name); and the other arguments (IN, FILE, OUT).
 */
function pickItem(positionals: string[], { index, name }: { index: string | undefined; name: string | undefined }, what: string): { which: ItemChoice; rest: string[] } {
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

/** The external images of the map found in `dir` (`--mapres DIR`) by name; `missing` hears of each one not there. */
async function readMapres(io: CliIo, dir: string, bytes: Uint8Array, missing: (file: string) => void): Promise<Map<string, Uint8Array>> {
  const { mapresFiles } = await import('../map-convert.js');
  const mapres = new Map<string, Uint8Array>();
  for (const { name, file } of mapresFiles(bytes)) {
    try {
      mapres.set(name, await io.readFile(`${dir}/${file}`));
    } catch {
      missing(file);
    }
  }
  return mapres;
}

export const MAP_COMMANDS: CommandTable = {
  'map info': command({
    args: ['FILE'],
    batch: true,
    options: BATCH_OPTIONS,
    summary: "JSON summary: images, envelopes, groups, layers by kind, sounds, the game layer's size",
    details: STDIN_NOTE,
    async run(io, [file]) {
      const { mapInfo } = await import('../map-info.js');
      io.stdout(json({ file, ...mapInfo(await io.readFile(file!)) }));
    },
  }),
  'map validate': command({
    args: ['FILE'],
    batch: true,
    options: BATCH_OPTIONS,
    summary: "What DDNet's loader would refuse (errors: exit 1) or silently fix, as JSON",
    details: `Each issue has a severity (error, fixed, warning), a code and a path such as groups[2].layers[0].data. ${STDIN_NOTE}`,
    async run(io, [file]) {
      const { mapValidate } = await import('../map-info.js');
      const result = mapValidate(await io.readFile(file!));
      io.stdout(json({ file, ...result }));
      if (!result.ok) throw new ReportedFailure(plural(result.errors, 'error'));
    },
  }),
  'map resave': command({
    args: ['IN', 'OUT'],
    options: {
      ddnet: { type: 'boolean', help: "then lay the file out as DDNet's map_resave does" },
      lenient: { type: 'boolean', help: 'also resave maps DDNet refuses, as far as the model holds them (see map validate)' },
    },
    summary: 'Read into the map model and write it back (identical bytes when nothing changed)',
    details: 'Maps DDNet loads resave without --lenient, also when validate warns about them.',
    async run(io, [input, output], options) {
      const { mapResave } = await import('../map-resave.js');
      await io.writeFile(output!, mapResave(await io.readFile(input!), options.ddnet, options.lenient));
    },
  }),
  'map json': command({
    args: ['FILE'],
    options: { 'data-dir': { type: 'string', value: 'DIR', help: 'write pixel, tile and sound data to DIR, one file per element' } },
    summary: 'The whole map model as JSON; byte data summarised or written beside it',
    details: STDIN_NOTE,
    async run(io, [file], options) {
      const { mapJson } = await import('../map-resave.js');
      const dir = options['data-dir'];
      const pending: [string, Uint8Array][] = [];
      const text = mapJson(await io.readFile(file!), dir === undefined ? undefined : (name, data) => {
        const fileName = `${name.replace(/[^A-Za-z0-9_.[\]-]/g, '_')}.bin`;
        pending.push([`${dir}/${fileName}`, data]);
        return fileName;
      });
      for (const [path, data] of pending) await io.writeFile(path, data, { mkdir: true });
      io.stdout(text);
    },
  }),
  'map extract': command({
    args: ['IN', 'DIR'],
    summary: 'Write embedded images as DIR/images/<name>.png and sounds as DIR/sounds/<name>.opus; list external images',
    details: 'File names are the image and sound names made safe for file systems (a clash gets -<index>).',
    async run(io, [input, dir]) {
      const { mapExtract } = await import('../map-extract.js');
      const { images, files } = await mapExtract(await io.readFile(input!));
      let n = 0;
      for (const [name, data] of files) {
        await io.writeFile(`${dir}/${name}`, data, { mkdir: true });
        io.progress(`${++n}/${files.size} files`);
      }
      io.stdout(json({ images, written: [...files.keys()] }));
    },
  }),
  'map unpack': command({
    args: ['IN', 'DIR'],
    summary: 'Unpack into an editable directory: map.json, layers/*.txt (one line per tile row, runs of equal tiles as hex*count), images/*.png, sounds/*.opus',
    details:
      'DIR/original.map keeps the input so that `map pack` gives identical bytes for what was not edited; delete it to write the map afresh. ' +
      'A map whose files would exceed 512 MiB together, or whose tiles exceed 768 MiB, is refused before anything is written.',
    async run(io, [input, dir]) {
      const [{ unpackMapEntries }, { CLI_PNG }] = await Promise.all([import('@twcodec/map-tools'), import('../png-options.js')]);
      // Tile text is written in chunks as it is made: memory stays at the map's size, not the text's.
      const files = unpackMapEntries(await io.readFile(input!), { png: CLI_PNG });
      let n = 0;
      for (const { name, chunks } of files) {
        await io.writeFile(`${dir}/${name}`, chunks(), { mkdir: true });
        io.progress(`${++n}/${files.length} files`);
      }
      io.progress(`${plural(files.length, 'file')}, done`);
    },
  }),
  'map pack': command({
    args: ['DIR', 'OUT'],
    summary: 'Pack a directory made by `map unpack` (possibly edited) back into a map',
    details:
      'Without DIR/original.map the map is written afresh: it reads back as map.json says, but its bytes (compression, item layout) ' +
      'may differ from the map that was unpacked; pack says so on stderr.',
    async run(io, [dir, output]) {
      const { mapPackFiles } = await import('../map.js');
      const { ORIGINAL_MAP, packMap } = await import('@twcodec/map-tools');
      const files = await mapPackFiles((p) => io.readFile(p), dir!);
      const packed = packMap(files);
      await io.writeFile(output!, packed);
      if (!files.has(ORIGINAL_MAP)) io.stderr(`note: no ${ORIGINAL_MAP} in ${dir}: the map was written afresh, so its bytes may differ from the map that was unpacked (its content does not)\n`);
    },
  }),
  'map diff': command({
    args: ['A', 'B'],
    options: { json: { type: 'boolean', help: 'print JSON ({changes, tiles}) instead of text' } },
    summary: 'Differences of two maps by item, layer and tile (exit 1 when they differ)',
    async run(io, [a, b], options) {
      const { formatMapDiff, mapDiffCommand } = await import('../map-diff.js');
      const diff = mapDiffCommand(await io.readFile(a!), await io.readFile(b!));
      io.stdout(options.json ? json(diff) : formatMapDiff(diff));
      if (diff.changes.length || diff.tiles.length) throw new ReportedFailure(`${plural(diff.changes.length, 'change')}, ${plural(diff.tiles.length, 'tile')}`);
    },
  }),
  'map convert': command({
    args: ['IN', 'OUT'],
    options: {
      to: { type: 'string', value: 'FORMAT', choices: async () => [...(await import('../map-convert.js')).CONVERT_TARGETS, '07'], default: 'ddnet', help: 'ddnet (default): a Teeworlds 0.7 map to one DDNet loads; 0.7: a DDNet map for Teeworlds 0.7 clients, as DDNet\'s map_convert_07' },
      mapres: { type: 'string', value: 'DIR', help: "with --to 0.7: embed each external image from DIR/<name>.png (an RGBA PNG, e.g. from DDNet's data/mapres)" },
    },
    summary: 'Convert a Teeworlds 0.7 map to DDNet (RGBA images, expanded tiles), or a DDNet map to 0.7 (--to 0.7)',
    details:
      "--to 0.7 writes what DDNet's map_convert_07 writes: the map as map_resave leaves it, with the external images found in --mapres embedded " +
      '(0.7 clients have other mapres). It prints what it did as JSON; a tile layer whose image sides are not multiples of 16 (0.7 cannot draw it) ' +
      'makes it exit 1, after writing OUT, as map_convert_07 does.',
    async run(io, [input, output], options) {
      const { mapConvert } = await import('../map-convert.js');
      const to = options.to;
      const bytes = await io.readFile(input!);
      if (options.mapres !== undefined && to === 'ddnet') throw new UsageError('--mapres is for --to 0.7');
      // One that is missing is reported as kept external.
      const mapres = options.mapres === undefined ? undefined : await readMapres(io, options.mapres, bytes, () => {});
      const result = mapConvert(bytes, to, mapres && ((name) => mapres.get(name)));
      await io.writeFile(output!, result.bytes);
      if (result.note) io.stderr(`note: ${result.note}\n`);
      if (result.report) await io.stdout(json({ notes: result.report }));
      if (!result.ok) throw new ReportedFailure(`${plural(result.report?.filter((n) => n.severity === 'refuse').length ?? 0, 'problem')} map_convert_07 refuses (OUT written)`);
    },
  }),
  'map fix': command({
    args: ['IN', 'OUT'],
    options: { 'in-place': { type: 'boolean', help: 'allow OUT to be IN (overwrite the input)' } },
    summary: "Write the map as DDNet's loader leaves it, with the problems that can be fixed safely fixed; prints what was fixed and what is left",
    details:
      "DDNet's silent fixes: layer version 0; physics layers named by kind, white, not detail; other kinds' data indices -1. Safe fixes: " +
      'references to missing images/envelopes/sounds become -1, envelopes with points out of range become empty, tiles past the layer size are dropped, ' +
      '0.7 RGB images become RGBA, non-zero padding and skip bytes are zeroed, shared tile data is copied. Everything else is listed as remaining. ' +
      'OUT must differ from IN unless --in-place is given; nothing is written on error.',
    async run(io, [input, output], options) {
      const { fixMap } = await import('../map-fix.js');
      if (input !== '-' && resolvePath(input!) === resolvePath(output!) && !options['in-place']) throw new UsageError('OUT is IN: pass --in-place to overwrite the input');
      const result = fixMap(await io.readFile(input!));
      await io.writeFile(output!, result.bytes);
      io.stdout(json({ fixed: result.fixed, remaining: result.remaining }));
    },
  }),
  'map render': command({
    args: ['IN', 'OUT'],
    options: {
      layer: { type: 'string', value: 'WHICH', choices: ['game', 'tiles'], default: 'tiles', help: 'game (the game layer, coloured by tile meaning) or tiles (default: the tile layers with their images)' },
      'tile-size': { type: 'string', value: 'PX', help: 'pixels per tile (default 4 for game, 8 for tiles)' },
      mapres: { type: 'string', value: 'DIR', help: "where external images are (DDNet's data/mapres); else they are drawn as placeholders" },
    },
    summary: 'Render a PNG preview of the map',
    async run(io, [input, output], options) {
      const { mapRender } = await import('../map.js');
      const bytes = await io.readFile(input!);
      const mapres = options.mapres === undefined ? undefined : await readMapres(io, options.mapres, bytes, (file) => io.stderr(`mapres: no ${file}, drawn as a placeholder\n`));
      const size = options['tile-size'] === undefined ? undefined : Number(options['tile-size']);
      if (size !== undefined && !(size >= 1 && size <= 64)) throw new UsageError('--tile-size must be 1..64');
      await io.writeFile(output!, mapRender(bytes, options.layer, size, mapres));
    },
  }),
  'map replace-image': command({
    args: ['IN', '[IMAGE]', 'PNG', 'OUT'],
    options: {
      index: { type: 'string', value: 'N', help: 'the image by its index (0 is the first), instead of IMAGE' },
      name: { type: 'string', value: 'NAME', help: 'the image by its name (also a name made of digits, such as 28), instead of IMAGE' },
    },
    summary: 'Replace image IMAGE (index or name) with a PNG (any colour type, made RGBA and embedded)',
    details: 'IMAGE made of digits is an index; when an image has that name too, say which with --index or --name.',
    async run(io, positionals, options) {
      const { mapReplaceImage } = await import('../map.js');
      const { which, rest: [input, png, output] } = pickItem(positionals, options, 'IMAGE');
      await io.writeFile(output!, mapReplaceImage(await io.readFile(input!), which, await io.readFile(png!), png!));
    },
  }),
  'map replace-sound': command({
    args: ['IN', '[SOUND]', 'OPUS', 'OUT'],
    options: {
      index: { type: 'string', value: 'N', help: 'the sound by its index (0 is the first), instead of SOUND' },
      name: { type: 'string', value: 'NAME', help: 'the sound by its name (also a name made of digits), instead of SOUND' },
    },
    summary: 'Replace sound SOUND (index or name) with an Ogg Opus file',
    details: 'SOUND made of digits is an index; when a sound has that name too, say which with --index or --name.',
    async run(io, positionals, options) {
      const { mapReplaceSound } = await import('../map.js');
      const { which, rest: [input, opus, output] } = pickItem(positionals, options, 'SOUND');
      await io.writeFile(output!, mapReplaceSound(await io.readFile(input!), which, await io.readFile(opus!), opus!));
    },
  }),
};
