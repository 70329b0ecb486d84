// The live client among more than 16 players on DDNet-Server 16.4 (127.0.0.1, test/live-servers.ts): DDNet shows
// a client that sent no DDNet version (a vanilla 0.6 client) at most 16 players, mapping their ids (DDNet 16.4
// src/engine/server/server.cpp, Translate: VANILLA_MAX_CLIENTS), and gives the chat of a player it cannot map
// to the last slot with the name in the text. The live client says its DDNet version before its info, as DDNet's
// client does (clientver@ddnet.tw), and so sees every player, and each chat line with its author.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type GameEvent, type NetClient } from '../../packages/net/src/node.js';
import { hasServer, type LiveServer, SERVER_BINARIES, startServer } from '../live-servers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!hasServer('0.6'))(`20 players on a live DDNet server (${SERVER_BINARIES['0.6']}; skipped when not installed)`, () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await startServer('0.6', { config: ['sv_max_clients_per_ip 32'] });
  });
  afterAll(() => server?.stop());

  it('a watcher sees all 20 players by their ids, and the chat of the 20th with its author', async () => {
    const clients: NetClient[] = [];
    try {
      const watcher = await connect({ host: '127.0.0.1', port: server.port, name: 'watcher' });
      clients.push(watcher);
      const events: GameEvent[] = [];
      watcher.game.on('*', (e) => events.push(e));
      await watcher.ready();
      for (let i = 1; i < 20; i++) {
        const c = await connect({ host: '127.0.0.1', port: server.port, name: `player${i}` });
        clients.push(c);
        await c.ready();
      }
      const last = clients.at(-1)!;
      const deadline = Date.now() + 15_000;
      while (watcher.game.players.size < 20 && Date.now() < deadline) await sleep(50);
      expect([...watcher.game.players.values()].map((p) => p.name).sort()).toEqual(['watcher', ...Array.from({ length: 19 }, (_, i) => `player${i + 1}`)].sort());
      const id = watcher.game.player('player19')!.clientId;
      expect(id).toBeGreaterThanOrEqual(16);
      last.say('said by the twentieth');
      while (!events.some((e) => e.type === 'chat' && e.text.includes('said by the twentieth')) && Date.now() < deadline) await sleep(50);
      expect(events.find((e) => e.type === 'chat' && e.text.includes('said by the twentieth'))).toMatchObject({ clientId: id, name: 'player19', text: 'said by the twentieth' });
    } finally {
      for (const c of clients) c.disconnect();
    }
  }, 60_000);
});
