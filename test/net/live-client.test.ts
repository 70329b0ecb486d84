// The live client where a connection does not go as planned, against real servers on 127.0.0.1 (DDNet-Server 16.4
// and teeworlds-server 0.7.5, test/live-servers.ts, driven through their rcon): a client that gives up (an error
// after connecting, a time-out in game) tells the server, so the next client gets the slot (ClientID 0); a map
// change (`change_map` in rcon) is followed by the library client, and `net record` ends its demo there.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDemo } from '../../packages/demo/src/index.js';
import { connect, type NetClient } from '../../packages/net/src/node.js';
import { runRecording } from '../cli-run.js';
import { hasServer, type LiveServer, SERVER_BINARIES, startServer } from '../live-servers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dir = mkdtempSync(join(tmpdir(), 'twcodec-live-client-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

for (const protocol of ['0.6', '0.7'] as const) {
  describe.skipIf(!hasServer(protocol))(`live ${protocol} server with rcon (${SERVER_BINARIES[protocol]}; skipped when not installed)`, () => {
    let server: LiveServer;
    beforeAll(async () => {
      server = await startServer(protocol, { rcon: true });
    });
    afterAll(() => server?.stop());

    /** Connects `name` and waits until the server logs it entered: resolves with its ClientID there. */
    const enter = async (name: string): Promise<{ client: NetClient; id: number }> => {
      const before = server.log().length;
      const client = await connect({ host: '127.0.0.1', port: server.port, protocol, name });
      await client.ready();
      const until = Date.now() + 5000;
      let m: RegExpExecArray | null = null;
      while (!(m = /player has entered the game\. ClientID=(\d+)/.exec(server.log().slice(before))) && Date.now() < until) await sleep(50);
      return { client, id: Number(m?.[1] ?? -1) };
    };

    it('a connection that fails after connecting (MAP_TOO_BIG while loading) or times out in game sends close: the next client gets ClientID 0', async () => {
      // An error after the server accepted: the map is bigger than this client takes.
      const failing = await connect({ host: '127.0.0.1', port: server.port, protocol, name: 'failer', downloadMap: true, maxMapSize: 100 });
      await expect(failing.ready()).rejects.toMatchObject({ code: 'MAP_TOO_BIG' });
      await sleep(300);
      const first = await enter('second');
      expect(first.id).toBe(0);
      // A time-out in game: the client stops hearing the server (its datagrams dropped) and gives up after 500 ms.
      const deaf = await connect({ host: '127.0.0.1', port: server.port, protocol, name: 'deaf', timeout: 500 });
      await deaf.ready();
      deaf.receive = () => {};
      const closed = new Promise((resolve) => deaf.on('close', resolve));
      expect(await closed).toMatchObject({ cause: 'timeout', error: { code: 'TIMEOUT' } });
      await sleep(300);
      // The slot is free once the server has the close: its log says the player left.
      first.client.disconnect();
      await server.waitForLog("leave player='0:second'");
      const next = await enter('third');
      expect(next.id).toBe(0);
      next.client.disconnect();
      await sleep(300);
    }, 30_000);

    it('change_map: the library client loads the new map (downloaded and checked) and is in game again; net record ends its demo at the change and says so (exit 1)', async () => {
      const out = join(dir, `change-${protocol}.demo`);
      const recording = runRecording(['net', 'record', `127.0.0.1:${server.port}`, out, '--seconds', '30', '--name', 'recorder', '--protocol', protocol]);
      const follower = await connect({ host: '127.0.0.1', port: server.port, protocol, name: 'follower', downloadMap: true });
      await follower.ready();
      // The change only once both are in the game: the recording from its first snapshot there (a fixed wait was
      // not always enough on a loaded machine, where the handshake and the first snapshot take longer).
      await recording.started;
      const changes: string[] = [];
      let ingameAgain = false;
      let snapshotsAfter = 0;
      follower.on('mapchange', (m) => changes.push(m.name));
      follower.on('ingame', () => (ingameAgain = true));
      follower.on('snapshot', () => changes.length && snapshotsAfter++);
      await sleep(500);
      await server.rcon('change_map ctf1');
      const { code, stderr } = await recording.done;
      expect(stderr).toMatch(/^recording 30 s of 127\.0\.0\.1:\d+ on [^\n]+\ntwcodec: the server changed map to 'ctf1': the demo ends at the change, as DDNet's client ends its recording; wrote \d+ snapshots \(ticks \d+\.\.\d+\) to .*change-0\.[67]\.demo\n$/);
      expect(code).toBe(1);
      const demo = readDemo(new Uint8Array(readFileSync(out)));
      expect(demo.header.mapName).toBe(server.map);
      const until = Date.now() + 10_000;
      while (snapshotsAfter < 10 && Date.now() < until) await sleep(100);
      expect(changes).toEqual(['ctf1']);
      expect(ingameAgain).toBe(true);
      expect(snapshotsAfter).toBeGreaterThanOrEqual(10);
      expect(follower.state).toBe('ingame');
      expect(follower.map).toMatchObject({ name: 'ctf1' });
      expect(follower.map?.data?.length).toBe(follower.map?.size);
      follower.disconnect();
    }, 40_000);
  });
}
