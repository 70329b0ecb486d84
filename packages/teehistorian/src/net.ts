// The net messages inside MESSAGE records (what clients sent the server), decoded with @twcodec/netmsg's
// generated tables. The record keeps its raw bytes (`data`), so decoding never changes what is written back.
import { DDNET_0_6_MESSAGES, decodeNetMessage, type Ddnet06Message, type UnknownNetMessage } from '@twcodec/netmsg';
import { CodecError } from '@twcodec/runtime';
import type { MessageMessage } from './generated/messages.gen.js';
import type { TeehistorianMessage } from './messages.js';

/**
 * The client message a MESSAGE record holds. Never throws: a message that does not read as its schema says
 * comes back as `kind: 'unknown'` with `error` and its bytes; so does one without a readable message id (empty
 * data, a varint cut short, a negative id: lenient decoding keeps only messages whose id it read), with id -1.
 */
export function decodeClientMessage(record: Pick<MessageMessage, 'data'>): Ddnet06Message | UnknownNetMessage {
  try {
    return decodeNetMessage(DDNET_0_6_MESSAGES, record.data, { lenient: true, padded: false }) as Ddnet06Message | UnknownNetMessage;
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    return { kind: 'unknown', system: false, id: -1, data: record.data.slice(), error: `${e.code}: ${e.detail}` };
  }
}

/** One chat line a teehistorian holds (cl_say; DDNet itself does not record chat, other servers may). */
export interface TeehistorianChatLine {
  tick: number;
  clientId: number;
  /** The name from the client's latest start/change info (or EX:player-name) before the line. */
  name: string | undefined;
  /** 0 everyone, 1 team. */
  team: number;
  text: string;
}

/**
 * Follows the players' names through a teehistorian's messages: cl_start_info and cl_change_info in MESSAGE
 * records and the EX:player-name extension; a DROP forgets the client id.
 */
export class TeehistorianNames {
  readonly names = new Map<number, string>();

  /** Feeds one message; returns the decoded client message of a MESSAGE record. */
  update(m: TeehistorianMessage): Ddnet06Message | UnknownNetMessage | undefined {
    if (m.kind === 'DROP') this.names.delete(m.cid);
    if (m.kind === 'EX:player-name') this.names.set(m.cid, m.name);
    if (m.kind !== 'MESSAGE') return undefined;
    const net = decodeClientMessage(m);
    if (net.kind === 'cl_start_info' || net.kind === 'cl_change_info') this.names.set(m.cid, net.name);
    return net;
  }
}

/** The chat lines (cl_say) of a teehistorian's messages, with the sender's name at that point. */
export function* teehistorianChat(messages: Iterable<TeehistorianMessage & { tick: number }>): Generator<TeehistorianChatLine> {
  const names = new TeehistorianNames();
  for (const m of messages) {
    const net = names.update(m);
    if (net?.kind === 'cl_say' && m.kind === 'MESSAGE') yield { tick: m.tick, clientId: m.cid, name: names.names.get(m.cid), team: net.team ? 1 : 0, text: net.message };
  }
}
