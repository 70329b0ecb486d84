// A teehistorian file of about `targetBytes`: the largest corpus (or fixture) recording's messages written
// again and again, each round shifted by the recording's tick span, then FINISH. Used by the benches that need
// a file far larger than any recorded one.
import { join } from 'node:path';
import { readTeehistorian, TeehistorianWriter } from '@twcodec/teehistorian';
import { corpusDir, listFiles, readBytes, repoRoot } from './common.mjs';

/** The largest corpus (or fixture) recording: its reader, messages but FINISH, and the ticks they span. */
export function largestRecording() {
  let sources = listFiles(join(corpusDir, 'teehistorian'), '.teehistorian');
  if (!sources.length) sources = listFiles(join(repoRoot, 'fixtures', 'teehistorian'), '.teehistorian');
  const largest = sources.sort((a, b) => readBytes(b).length - readBytes(a).length)[0];
  const source = readTeehistorian(readBytes(largest));
  const messages = [...source].filter((m) => m.kind !== 'FINISH');
  return { source, messages, span: messages.at(-1).tick + 1 };
}

export function syntheticTeehistorian(targetBytes) {
  const { source, messages, span } = largestRecording();
  const writer = new TeehistorianWriter({ header: source.header, headerText: source.headerText });
  let size = 0;
  for (let round = 0; size < targetBytes; round++) {
    for (const m of messages) writer.writeAt(m.tick + round * span, m);
    if (round % 16 === 15) size = writer.finish().length;
  }
  writer.write({ kind: 'FINISH' });
  return writer.finish();
}
