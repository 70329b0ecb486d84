// Net messages on real files: every message chunk of every demo and every MESSAGE record of every
// teehistorian decodes to named fields and encodes back to the same bytes; chat text survives (non-ASCII
// included); the names clients sent in their start info (teehistorian) equal the names in the client-info
// snapshot items of the server demo of the same game, per client id.
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoChat, demoMessages, demoPlayers, readDemo } from '@twcodec/demo';
import { encodeDdnet06Message, encodeTeeworlds07Message } from '@twcodec/netmsg';
import { decodeClientMessage, readTeehistorian, TeehistorianNames } from '@twcodec/teehistorian';
import { corpusFiles, demoFiles, readBytes, teehistorianFiles } from '../corpus.js';

const demos = demoFiles();
const gameOf = (path: string) => basename(path).split('_')[0]!;

describe.each(demos.map((path) => ({ name: basename(path), path })))('demo $name', ({ path }) => {
  it('decodes every message chunk to a named message and writes it back byte for byte', () => {
    const demo = readDemo(readBytes(path));
    const data = new Map<number, Uint8Array>();
    for (const c of demo.chunks()) if (c.kind === 'message') data.set(c.offset, c.data);
    let count = 0;
    const unknown: string[] = [];
    for (const m of demoMessages(demo, { strict: true })) {
      count++;
      // DDNet 16.4 demos: the 0.6 table; Teeworlds 0.7.5's (corpus/net): the 0.7 table.
      expect(m.protocol).toBe(demo.header.netVersion.startsWith('0.7 ') ? 'teeworlds-0.7' : 'ddnet-0.6');
      // Only UUIDs nobody knows may stay unknown.
      if (m.message.kind === 'unknown' && !m.message.uuid) unknown.push(`id ${m.message.id} at ${m.offset}`);
      const again = m.protocol === 'ddnet-0.6' ? encodeDdnet06Message(m.message) : encodeTeeworlds07Message(m.message);
      expect(again).toEqual(data.get(m.offset));
    }
    expect(count).toBe(data.size);
    expect(unknown).toEqual([]);
  });

  it('reads the 64 teams and 45 tune params DDNet 16.4 sends, not the demo\'s zero padding (issue 26)', () => {
    const demo = readDemo(readBytes(path));
    if (demo.header.netVersion.startsWith('0.7')) return;
    const counts = new Set<string>();
    for (const m of demoMessages(demo, { strict: true })) {
      if (m.message.kind === 'sv_teams_state') counts.add(`teams ${m.message.teams.length}`);
      if (m.message.kind === 'sv_tune_params') counts.add(`tune ${m.message.params.length}`);
    }
    for (const c of counts) expect(['teams 64', 'tune 45']).toContain(c);
    expect(counts).toContain('tune 45');
  });
});

describe.each(teehistorianFiles().map((path) => ({ name: basename(path), path })))('teehistorian $name', ({ path }) => {
  it('decodes every MESSAGE record; the record keeps its bytes', () => {
    for (const m of readTeehistorian(readBytes(path))) {
      if (m.kind !== 'MESSAGE') continue;
      const net = decodeClientMessage(m);
      expect(net.kind).not.toBe('unknown');
      expect(encodeDdnet06Message(net)).toEqual(m.data);
    }
  });

  const sameGame = demos.filter((d) => gameOf(d) === gameOf(path) && basename(d).includes('_server_'));
  const serverDemo = sameGame.find((d) => d.includes('autorecord')) ?? sameGame[0];
  it.skipIf(!serverDemo)('records the names the server demo shows in its client-info items, per client id', () => {
    const names = new TeehistorianNames();
    const recorded = new Map<number, Set<string>>();
    for (const m of readTeehistorian(readBytes(path))) {
      names.update(m);
      for (const [cid, name] of names.names) recorded.set(cid, (recorded.get(cid) ?? new Set()).add(name));
    }
    const shown = new Map<number, Set<string>>();
    for (const p of demoPlayers(readDemo(readBytes(serverDemo!)))) shown.set(p.clientId, (shown.get(p.clientId) ?? new Set()).add(p.name));
    expect(shown.size).toBeGreaterThan(0);
    if (serverDemo!.includes('autorecord')) expect([...shown.keys()].sort()).toEqual([0, 1, 2, 3]);
    // Every client the demo shows has exactly the names the teehistorian recorded for its id.
    for (const [cid, set] of shown) expect([...set].filter((n) => !recorded.get(cid)?.has(n))).toEqual([]);
  });
});

const hasChatCorpus = corpusFiles('demos', '.demo').length > 0;
describe.skipIf(!hasChatCorpus)('chat (corpus demos; see demos/RECORDING.txt)', () => {
  const files = corpusFiles('demos', '.demo');
  it('server demos give the chat lines said, with the sender\'s name and non-ASCII text intact', () => {
    for (const game of ['ctf2', 'Tutorial']) {
      const path = files.find((f) => basename(f).startsWith(`${game}_server_autorecord`))!;
      const chat = demoChat(readDemo(readBytes(path)));
      const hello = chat.filter((l) => l.text.startsWith('Hello from Alpha!'));
      expect(hello).toHaveLength(1);
      expect(hello[0]).toMatchObject({ clientId: 0, name: 'Alpha', team: 0, text: 'Hello from Alpha! This is a chat message. äöü 日本語' });
      // The rcon "say" reaches the chat as a server line.
      expect(chat.some((l) => l.clientId === -1 && l.text.includes('Server say issued through rcon by Alpha'))).toBe(true);
      // Every line from a player carries that player's name.
      for (const l of chat) if (l.clientId >= 0) expect(l.name).toMatch(/^(Alpha|AlphaDmy|Bravo|BravoDmy)$/);
    }
  });

  it('client demos see the broadcasts and kill messages', () => {
    const path = files.find((f) => basename(f).startsWith('ctf2_clientA_record'))!;
    const kinds = new Map<string, number>();
    for (const { message } of demoMessages(readDemo(readBytes(path)))) kinds.set(message.kind, (kinds.get(message.kind) ?? 0) + 1);
    expect(kinds.get('sv_broadcast')).toBeGreaterThan(0);
    expect(kinds.get('sv_kill_msg')).toBeGreaterThan(0);
    const broadcasts = [...demoMessages(readDemo(readBytes(path)))].flatMap(({ message }) => (message.kind === 'sv_broadcast' ? [message.message] : []));
    expect(broadcasts).toContain('Broadcast sent by Alpha via rcon');
  });
});
