// The live client as a 0.7 client of DDNet-Server 16.4, which takes 0.7 clients (sv_sixup, on by default) when the
// map has a maps7/ copy (test/live-servers.ts, SIXUP_MAP): where most 0.7 players play. Also DDNet on a map without
// one (ctf2), where it answers 0.7 with 0.6's info and refuses 0.7 connections. Skipped without DDNet-Server and
// ddnet-data's maps7/.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoChat, demoPlayers, readDemo } from '../../packages/demo/src/index.js';
import { connect, serverInfo } from '../../packages/net/src/node.js';
import { runCli, runRecording } from '../cli-run.js';
import { hasSixupServer, type LiveServer, SIXUP_MAP, startServer } from '../live-servers.js';

/** The client id the server gives a new 0.7 library client (its own sv_client_info), which then leaves. */
async function nextClientId(port: number): Promise<number> {
  const client = await connect({ host: '127.0.0.1', port, protocol: '0.7', name: 'counter' });
  let id = -1;
  client.on('message', (m) => {
    const msg = m.message as { kind: string; local?: boolean; clientId?: number };
    if (msg.kind === 'sv_client_info' && msg.local) id = msg.clientId!;
  });
  await client.ready();
  client.disconnect();
  return id;
}

describe.skipIf(!hasSixupServer())('live DDNet-Server 16.4 with 0.7 clients (sv_sixup; skipped when DDNet-Server or maps7/ is not installed)', () => {
  let server: LiveServer;
  const address = () => `127.0.0.1:${server.port}`;
  beforeAll(async () => {
    server = await startServer('0.7', { sixup: true });
  });
  afterAll(() => server?.stop());

  it('net info --protocol 0.7: the 0.7 form of the info, from DDNet', async () => {
    const { code, stdout, stderr } = await runCli(['net', 'info', address(), '--protocol', '0.7']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ protocol: '0.7', form: 'info_07', name: server.name, map: SIXUP_MAP, version: expect.stringContaining('16.4') });
  });

  it('net say --protocol 0.7: the server logs the line, and the player left', async () => {
    const text = 'a 0.7 client on DDNet äöü';
    const { code, stderr } = await runCli(['net', 'say', address(), text, '--name', 'sayer7', '--protocol', '0.7']);
    expect(stderr).toContain('said');
    expect(code).toBe(0);
    await server.waitForLog(`:sayer7: ${text}`);
    let names = ['sayer7'];
    for (const until = Date.now() + 3000; names.includes('sayer7') && Date.now() < until; await new Promise((r) => setTimeout(r, 100)))
      names = (await serverInfo('127.0.0.1', server.port, '0.7')).clients.map((c) => c.name);
    expect(names).not.toContain('sayer7');
  });

  it('net record --protocol 0.7: a demo with the map, a snapshot every tick or two, de_client_info as the 0.7.5 client records it, the chat; then a new client gets id 0', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'twcodec-record-')), 'sixup.demo');
    const recording = runRecording(['net', 'record', address(), out, '--seconds', '5', '--name', 'recorder7', '--protocol', '0.7']);
    await server.waitForLog("'recorder7' entered and joined the game", 10_000);
    // And recording (its first snapshot in the game), so that the chatter's line falls inside it (see live-record07.test.ts).
    await recording.started;
    const chatter = await connect({ host: '127.0.0.1', port: server.port, protocol: '0.7', name: 'chatter7' });
    await chatter.ready();
    chatter.say('recorded on DDNet');
    await chatter.flushed();
    chatter.disconnect();
    const { code, stderr } = await recording.done;
    expect(stderr).toContain('recorded');
    expect(code).toBe(0);
    const demo = readDemo(new Uint8Array(readFileSync(out)));
    expect(demo.header).toMatchObject({ version: 4, mapName: SIXUP_MAP, type: 'client', netVersion: '0.7 802f1be60a05665f' });
    expect(demo.map?.length).toBe(readFileSync(`/usr/share/games/ddnet/data/maps7/${SIXUP_MAP}.map`).length);
    const snapshots = [...demo.snapshots()];
    // 5 s at 50 ticks a second, a snapshot every second tick: about 125.
    expect(snapshots.length).toBeGreaterThan(90);
    // The recorder is client 0 (no slot left behind by the clients before it), its de_client_info marked local;
    // DDNet's race item is there, read with the size its deltas carry.
    const first = snapshots[0]!.snapshot;
    expect(Array.from(first.get(13, 0)!.data.subarray(0, 1))).toEqual([1]);
    expect(first.items.some((i) => i.type === 24)).toBe(true);
    expect(demoPlayers(demo).map((p) => p.name)).toEqual(expect.arrayContaining(['recorder7', 'chatter7']));
    expect([...demoChat(demo)].map((c) => c.text)).toContain('recorded on DDNet');
    const snaps = await runCli(['demo', 'snapshots', '--summary', out]);
    expect(snaps.code).toBe(0);
    // Everyone left: the next client is client 0 again.
    await server.waitForLog("'recorder7' has left the game", 3000);
    expect(await nextClientId(server.port)).toBe(0);
  }, 60_000);
});

describe.skipIf(!hasSixupServer())('live DDNet-Server 16.4 on a map without a maps7/ copy (no 0.7 support)', () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await startServer('0.6');
  });
  afterAll(() => server?.stop());

  it("net info --protocol 0.7 takes DDNet's 0.6 inf3 answer", async () => {
    const { code, stdout, stderr } = await runCli(['net', 'info', `127.0.0.1:${server.port}`, '--protocol', '0.7']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ protocol: '0.6', form: 'info', map: server.map, version: '0.6.4, 16.4' });
  });

  it('net say --protocol 0.7: DDNet refuses the 0.7 connection, and says so', async () => {
    const { code, stderr } = await runCli(['net', 'say', `127.0.0.1:${server.port}`, 'hi', '--protocol', '0.7']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/CLOSED_BY_SERVER.*0\.7 connections are not accepted at this time/);
  });
});
