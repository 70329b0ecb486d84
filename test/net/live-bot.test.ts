// The bot API of the live client (client.game's events and state, the input helpers) against DDNet-Server 16.4
// and teeworlds-server 0.7.5 on 127.0.0.1 (test/live-servers.ts): a bot holding right moves right in the
// server's snapshots; chat comes with its author's name; joins, leaves and the map change are events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type GameEvent } from '../../packages/net/src/node.js';
import { hasServer, type LiveServer, SERVER_BINARIES, startServer } from '../live-servers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, get: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(20);
  }
}

for (const protocol of ['0.6', '0.7'] as const) {
  describe.skipIf(!hasServer(protocol))(`the bot API on a live ${protocol} server (${SERVER_BINARIES[protocol]}; skipped when not installed)`, () => {
    let server: LiveServer;
    beforeAll(async () => {
      server = await startServer(protocol, { rcon: true });
    });
    afterAll(() => server?.stop());

    it('a bot that holds right moves right in the snapshots, and jumps', async () => {
      const bot = await connect({ host: '127.0.0.1', port: server.port, protocol, name: 'walker' });
      try {
        await bot.ready();
        const start = await until('the own character', () => bot.game.character);
        expect(bot.game.ownClientId).toBeTypeOf('number');
        bot.move('right');
        // Teeworlds 0.7.5 sends the core of a tee walking steadily again only after 3 s (its dead reckoning).
        await until('moved right by 2 tiles', () => bot.game.character && bot.game.character.x > start.x + 64, 8000);
        expect(bot.game.character!.direction).toBe(1);
        bot.move('none');
        // On the ground again, then a jump: y goes up (smaller).
        await sleep(500);
        bot.jump();
        // The core is the state at its own tick, sent again when it changes (the game client predicts between): a
        // jump shows as an upward velocity.
        await until('jumped', () => bot.game.character && bot.game.character.velY < -5);
        bot.jump(false);
        expect(bot.currentInput).toMatchObject({ direction: 0, jump: 0 });
        // Spawned with the gun (1): the hammer (0), as the server's snapshots show it.
        bot.weapon(0);
        await until('holding the hammer', () => bot.game.character?.weapon === 0);
      } finally {
        bot.disconnect();
      }
    }, 30000);

    it('chat with its author, join and leave, a map change', async () => {
      const watcher = await connect({ host: '127.0.0.1', port: server.port, protocol, name: 'watcher' });
      const events: GameEvent[] = [];
      watcher.game.on('*', (e) => events.push(e));
      try {
        await watcher.ready();
        const talker = await connect({ host: '127.0.0.1', port: server.port, protocol, name: 'talker' });
        await talker.ready();
        await until('talker joined', () => watcher.game.player('talker'));
        talker.say('hello from talker');
        await until('the chat line', () => events.find((e) => e.type === 'chat' && e.text === 'hello from talker'));
        const chat = events.find((e) => e.type === 'chat' && e.text === 'hello from talker')!;
        expect(chat).toMatchObject({ type: 'chat', name: 'talker', team: 'all', clientId: watcher.game.player('talker')!.clientId });
        talker.disconnect();
        await until('talker left', () => events.find((e) => e.type === 'leave' && e.name === 'talker'));
        expect(events.find((e) => e.type === 'join' && e.name === 'talker')).toBeDefined();
        await server.rcon('change_map ctf1');
        // Teeworlds 0.7.5 ends the round first and changes the map when its 10 s end screen is over (seen on
        // 127.0.0.1: the map change 10.4 s after the command); DDNet changes at once.
        await until('the map change', () => events.find((e) => e.type === 'mapchange'), 20000);
        expect(events.find((e) => e.type === 'mapchange')).toMatchObject({ map: 'ctf1' });
      } finally {
        watcher.disconnect();
      }
    }, 45000);
  });
}
