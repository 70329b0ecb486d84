import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeDdnet06Message, encodeTeeworlds07Message } from '@twcodec/netmsg';
import { Snapshot } from '@twcodec/snapshot';
import { corpusDir, fixturesDir, hasCorpus, readBytes } from '../../../test/corpus.js';
import { demoChat, demoMessages, demoPlayers, DemoWriter, readDemo } from './index.js';

const clientDemo = () => readBytes(join(fixturesDir, 'demos', 'ctf2_clientB_auto_ctf2_2026-11-22_10-10-21.demo'));

describe('demo messages', () => {
  it('decodes the message chunks of a DDNet demo with the 0.6 table, players from client info', () => {
    const demo = readDemo(clientDemo());
    const chunks = new Map([...demo.chunks()].flatMap((c) => (c.kind === 'message' ? [[c.offset, c.data] as const] : [])));
    const messages = [...demoMessages(demo)];
    expect(messages).toHaveLength(chunks.size);
    for (const m of messages) {
      expect(m.protocol).toBe('ddnet-0.6');
      if (m.protocol === 'ddnet-0.6') expect(encodeDdnet06Message(m.message)).toEqual(chunks.get(m.offset));
    }
    expect(new Set(demoPlayers(demo).map((p) => `${p.clientId}:${p.name}:${p.clan}`))).toEqual(new Set(['0:Alpha:corpus', '1:AlphaDmy:corpus', '2:Bravo:corpus', '3:BravoDmy:corpus']));
    expect(demoChat(demo).filter((l) => l.clientId === -1).length).toBeGreaterThan(0);
  });

  it('uses the 0.7 table when the header says 0.7', () => {
    const bytes = clientDemo().slice();
    const version = new TextEncoder().encode('0.7 802f1be60a05665f\0');
    bytes.fill(0, 8, 72);
    bytes.set(version, 8);
    const demo = readDemo(bytes);
    const chunks = new Map([...demo.chunks()].flatMap((c) => (c.kind === 'message' ? [[c.offset, c.data] as const] : [])));
    for (const m of demoMessages(demo)) {
      expect(m.protocol).toBe('teeworlds-0.7');
      if (m.protocol === 'teeworlds-0.7') expect(encodeTeeworlds07Message(m.message)).toEqual(chunks.get(m.offset));
    }
  });

  it('reports a message that does not read as its schema says with the chunk offset (strict)', () => {
    // The fixture has only well-formed messages: strict and lenient agree.
    const demo = readDemo(clientDemo());
    expect([...demoMessages(demo, { strict: true })].length).toBe([...demoMessages(demo)].length);
  });

  it('decodes an optional last field the server left out as absent, the chunk padding in trailing (issue 37)', () => {
    // sv_race_finish of a server from before record_server: 22 bytes, which the recorder pads with 2 zeros.
    const older = encodeDdnet06Message({ kind: 'sv_race_finish', clientId: 1, time: 3000, diff: -20, recordPersonal: true });
    expect(older.length % 4).toBe(2);
    const w = new DemoWriter({ netVersion: '0.6 626fce9a778df4d4', mapName: 'x', mapCrc: '00000000', type: 'server', timestamp: '2026-11-22_10-00-00', mapSha256: '0'.repeat(64) }, undefined);
    w.snapshot(100, new Snapshot([]));
    w.message(older);
    const demo = readDemo(w.finish());
    const [m] = [...demoMessages(demo)];
    expect(m?.message).toEqual({ kind: 'sv_race_finish', clientId: 1, time: 3000, diff: -20, recordPersonal: true, trailing: new Uint8Array(2) });
    const chunk = [...demo.chunks()].find((c) => c.kind === 'message');
    expect(chunk?.kind === 'message' && encodeDdnet06Message(m!.message as Parameters<typeof encodeDdnet06Message>[0])).toEqual(chunk?.kind === 'message' && chunk.data);
  });
});

describe.runIf(hasCorpus)('demoMessages of a server demo (corpus)', () => {
  it('yields a message once per receiving client, as docs/library.md says; demoChat once per line', () => {
    const demo = readDemo(readBytes(join(corpusDir, 'net', 'ddnet-0.6-session_server_autorecord_2026-11-23_15-33-48.demo')));
    expect(demo.header.type).toBe('server');
    const kills = [...demoMessages(demo)].filter((m) => m.message.kind === 'sv_kill_msg');
    const key = (m: (typeof kills)[number]) => `${m.tick}:${JSON.stringify(m.message)}`;
    const distinct = new Set(kills.map(key));
    // Four clients in the game (Alpha, Bravo and their dummies): each kill four times.
    expect(kills.length).toBeGreaterThan(distinct.size);
    expect(kills.filter((m) => key(m) === key(kills[0]!))).toHaveLength(4);
    const chat = demoChat(demo);
    const chatMessages = [...demoMessages(demo)].filter((m) => m.message.kind === 'sv_chat');
    expect(chatMessages.length).toBeGreaterThan(chat.length);
    expect(new Set(chatMessages.map(key)).size).toBe(chat.length);
    expect(readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'library.md'), 'utf8')).toMatch(/`demoMessages` yields it once per receiver/);
  });
});
