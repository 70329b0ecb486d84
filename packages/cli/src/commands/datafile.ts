// `twcodec datafile ...`: the container under maps (datafile.ts does the work).
import { BATCH_OPTIONS, command, type CommandTable, json, STDIN_NOTE } from '../command.js';

export const DATAFILE_COMMANDS: CommandTable = {
  'datafile info': command({
    args: ['FILE'],
    batch: true,
    options: BATCH_OPTIONS,
    summary: 'JSON summary: version, item types with counts and UUIDs, data sizes',
    details: STDIN_NOTE,
    async run(io, [file]) {
      const { datafileInfo } = await import('../datafile.js');
      io.stdout(json({ file, ...datafileInfo(await io.readFile(file!)) }));
    },
  }),
  'datafile resave': command({
    args: ['IN', 'OUT'],
    options: { ddnet: { type: 'boolean', help: "lay the file out as DDNet's map_resave does (else: lossless, identical bytes)" } },
    summary: 'Read a datafile and write it back',
    details: 'Nothing is written on error: the output goes to a temporary file that is renamed at the end.',
    async run(io, [input, output], options) {
      const { resaveDatafile } = await import('../datafile.js');
      await io.writeFile(output!, resaveDatafile(await io.readFile(input!), options.ddnet === true));
    },
  }),
};
