import { decodeClientMessage, readTeehistorian, readTeehistorianStream, type ByteSource, teehistorianStats, writeTeehistorian } from '@twcodec/teehistorian';
import { messageJson } from './message-json.js';

export { teehistorianStats };

/**
 * One JSON object per line, each with a `kind`: the header first (`{"kind": "header", "header": ...}`), then every
 * message with its tick, and for a file that ends without FINISH a last `{"kind": "end", "end": ...}`. A MESSAGE
 * record also gets `net`, the client message its `data` holds, decoded.
 */
export async function* teehistorianDump(source: ByteSource): AsyncGenerator<string> {
  const reader = readTeehistorianStream(source, { onTruncated: 'stop' });
  let headerDone = false;
  for await (const m of reader) {
    if (!headerDone) {
      yield `${JSON.stringify({ kind: 'header', header: reader.header })}\n`;
      headerDone = true;
    }
    yield `${messageJson(m.kind === 'MESSAGE' ? { ...m, net: decodeClientMessage(m) } : m)}\n`;
  }
  if (!headerDone) yield `${JSON.stringify({ kind: 'header', header: reader.header })}\n`;
  if (!reader.end?.finished) yield `${JSON.stringify({ kind: 'end', end: reader.end })}\n`;
}

export function teehistorianResave(bytes: Uint8Array): Uint8Array {
  const reader = readTeehistorian(bytes);
  return writeTeehistorian({ header: reader.header, headerText: reader.headerText }, [...reader]);
}
