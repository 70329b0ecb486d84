// One message's type out of the union of what a teehistorian file holds, by its kind.
import type { TeehistorianMessage } from './messages.js';

export type TeehistorianMessageOf<K extends TeehistorianMessage['kind']> = Extract<TeehistorianMessage, { kind: K }>;
