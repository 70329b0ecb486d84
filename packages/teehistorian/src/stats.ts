import type { TeehistorianHeader } from './header.js';
import type { ReaderOptions, TeehistorianEnd, TeehistorianMessage } from './messages.js';
import { readTeehistorian } from './reader.js';

export interface TeehistorianStats {
  header: TeehistorianHeader;
  /** Count of each message kind: core names (PLAYER_DIFF, ...) and `EX:<name>`; unknown extensions as `EX:<uuid>`. */
  messages: Record<string, number>;
  messageCount: number;
  ticks: { first: number; last: number; count: number };
  players: { cid: number; joins: number; firstTick: number; lastTick: number; name?: string }[];
  end: TeehistorianEnd;
}

export function statsKey(m: TeehistorianMessage): string {
  return m.kind === 'EX' ? `EX:${m.uuid}` : m.kind;
}

/** Counts what a teehistorian file holds. */
export function teehistorianStats(bytes: Uint8Array, options: ReaderOptions = {}): TeehistorianStats {
  const reader = readTeehistorian(bytes, { ...options, onTruncated: 'stop' });
  const messages: Record<string, number> = {};
  const players = new Map<number, TeehistorianStats['players'][number]>();
  let first = -1;
  let last = 0;
  let count = 0;
  for (const m of reader) {
    const key = statsKey(m);
    messages[key] = (messages[key] ?? 0) + 1;
    count++;
    if (first < 0) first = m.tick;
    last = m.tick;
    const cid = 'cid' in m && typeof m.cid === 'number' && m.cid >= 0 ? m.cid : undefined;
    if (cid !== undefined && m.kind !== 'CONSOLE_COMMAND') {
      let p = players.get(cid);
      if (!p) players.set(cid, (p = { cid, joins: 0, firstTick: m.tick, lastTick: m.tick }));
      p.lastTick = m.tick;
      if (m.kind === 'JOIN') p.joins++;
      if (m.kind === 'EX:player-name') p.name = m.name;
    }
  }
  return {
    header: reader.header,
    messages: Object.fromEntries(Object.entries(messages).sort(([a], [b]) => a.localeCompare(b))),
    messageCount: count,
    ticks: { first: Math.max(first, 0), last, count: first < 0 ? 0 : last - first + 1 },
    players: [...players.values()].sort((a, b) => a.cid - b.cid),
    end: reader.end!,
  };
}
