// `demo messages`, `demo chat` and `teehistorian chat`: the net messages of demos and teehistorian files.
import { demoChat, demoMessages, readDemo } from '@twcodec/demo';
import { netMessageDef, netMessageValueNames } from '@twcodec/netmsg';
import { type ByteSource, readTeehistorianStream, teehistorianChat } from '@twcodec/teehistorian';
import { messageJson } from './message-json.js';

/** Zero bytes after the last field: a demo's padding to 4 bytes, not worth a column. */
const isPadding = (bytes: Uint8Array | undefined) => !bytes || (bytes.length < 4 && bytes.every((b) => b === 0));

/**
 * One JSON line per recorded message: tick, kind (as `teehistorian dump` calls it), its fields (bytes as hex),
 * and `names`: the names of its enum values and flag bits (as `demo snapshots` gives them for objects).
 * Messages recorded before the first tick marker have the first tick.
 */
export function* demoMessagesNdjson(bytes: Uint8Array, kinds?: Set<string>): Generator<string> {
  const demo = readDemo(bytes);
  const table = demo.protocol.messages;
  for (const { tick, message } of demoMessages(demo)) {
    if (kinds && !kinds.has(message.kind)) continue;
    const { kind, trailing, ...fields } = message as typeof message & { trailing?: Uint8Array };
    const def = netMessageDef(table, kind);
    const names = def ? netMessageValueNames(def.fields, fields) : {};
    yield `${messageJson({ tick, kind, fields, ...(Object.keys(names).length ? { names } : {}), ...(isPadding(trailing) ? {} : { trailing }) })}\n`;
  }
}

/** One JSON line per chat line of a demo: tick, client id, name, team, text. */
export function* demoChatNdjson(bytes: Uint8Array): Generator<string> {
  for (const line of demoChat(readDemo(bytes))) yield `${JSON.stringify(line)}\n`;
}

/** One JSON line per chat line (cl_say) a teehistorian holds. */
export async function* teehistorianChatNdjson(source: ByteSource): AsyncGenerator<string> {
  const messages = [];
  for await (const m of readTeehistorianStream(source, { onTruncated: 'stop' })) if (m.kind === 'MESSAGE' || m.kind === 'DROP' || m.kind === 'EX:player-name') messages.push(m);
  for (const line of teehistorianChat(messages)) yield `${JSON.stringify(line)}\n`;
}
