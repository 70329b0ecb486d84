// One message's type out of a protocol's union, by its kind: Ddnet06MessageOf<'sv_chat'>. The generated
// modules name each message's interface too, but 0.6 and 0.7 share those names (SvChatMessage); the unions and
// these helpers are the public way to them, and reach every message the schemas add.
import type { Ddnet06Message } from './generated/ddnet-0.6.gen.js';
import type { Teeworlds07Message } from './generated/teeworlds-0.7.gen.js';

export type Ddnet06MessageOf<K extends Ddnet06Message['kind']> = Extract<Ddnet06Message, { kind: K }>;
export type Teeworlds07MessageOf<K extends Teeworlds07Message['kind']> = Extract<Teeworlds07Message, { kind: K }>;
