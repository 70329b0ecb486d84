// The demos recorded beside corpus/net's packet captures (RECORDING-NET.txt): DDNet 16.4 clients and server,
// and the genuine Teeworlds 0.7.5 client and server. Every one decodes in its own protocol (a snapshot per tick
// marker) and gives the chat lines that were sent, with names. Resave and slices of these demos are in
// writer.test.ts, the int-for-int delta checks in corpus.test.ts (both run on corpus/demos and corpus/net).
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoChat, readDemo } from '@twcodec/demo';
import { corpusFiles, readBytes } from '../corpus.js';

const demos = corpusFiles('net', '.demo').map((path) => ({ name: basename(path), path }));
const find = (prefix: string) => demos.find((d) => d.name.startsWith(prefix))?.path;

describe.skipIf(!demos.length)(`corpus/net demos (${demos.length})`, () => {
  it.each(demos)('$name: the protocol of its net version, one snapshot per tick marker', ({ path }) => {
    const demo = readDemo(readBytes(path));
    expect(demo.protocol.name).toBe(demo.header.netVersion.startsWith('0.7 ') ? 'teeworlds-0.7' : 'ddnet-0.6');
    const ticks = [...demo.chunks()].flatMap((c) => (c.kind === 'tick' ? [c.tick] : []));
    const snapshots = [...demo.snapshots()].map((s) => s.tick);
    expect(snapshots).toEqual(ticks);
  });

  // RECORDING-NET.txt, capture 3(a): the lines Charlie sent from the Teeworlds 0.7.5 client, and the rcon say.
  const charlie = [
    { clientId: 0, name: 'Charlie', team: 0, text: 'Hi from Charlie (Teeworlds 0.7.5)! äöü 日本語' },
    { clientId: 0, name: 'Charlie', team: 1, text: 'Team chat from Charlie (0.7)' },
    { clientId: -1, name: undefined, team: 0, text: 'Server say issued through rcon by Charlie' },
    { clientId: 0, name: 'Charlie', team: 0, text: 'Bye from Charlie' },
  ];
  it.each(['teeworlds-0.7-session_client07_', 'teeworlds-0.7-session_server_'])('%s demo: the chat lines of RECORDING-NET.txt with the sender', (prefix) => {
    const path = find(prefix);
    expect(path, prefix).toBeDefined();
    expect(demoChat(readDemo(readBytes(path!))).map(({ tick: _tick, ...line }) => line)).toEqual(charlie);
  });

  it('DDNet session, server demo: the chat lines of RECORDING-NET.txt with the sender', () => {
    const chat = demoChat(readDemo(readBytes(find('ddnet-0.6-session_server_autorecord')!)));
    const said = (text: string) => chat.filter((l) => l.text === text).map((l) => `${l.name}/${l.team}`);
    expect(said('Hello from Alpha! This is a chat message. äöü 日本語')).toEqual(['Alpha/0']);
    expect(said('Grüße von Bravo – ñ € 中文 ✓')).toEqual(['Bravo/0']);
    expect(said('Team chat from Alpha')).toEqual(['Alpha/1']);
    expect(said('Team chat from Bravo')).toEqual(['Bravo/1']);
  });
});
