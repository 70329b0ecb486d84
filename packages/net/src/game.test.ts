// client.game's events and state from messages and snapshots (no server: the live tests are test/net/live-bot.test.ts).
import { DDNET_0_6, encodeObject, Snapshot } from '@twcodec/snapshot';
import { describe, expect, it } from 'vitest';
import { ClientGame, type GameEvent } from './game.js';

const layout = (name: string) => DDNET_0_6.items.find((t) => t.name === name)!;
const clientInfo = (id: number, name: string) => ({
  type: layout('client_info').typeId,
  id,
  data: encodeObject(layout('client_info'), { name, clan: '', country: -1, skin: 'default', useCustomColor: false, colorBody: 0, colorFeet: 0 }),
});
const playerInfo = (id: number, local: boolean) => ({ type: layout('player_info').typeId, id, data: encodeObject(layout('player_info'), { local, clientId: id, team: 0, score: 7, latency: 0 }) });

describe('ClientGame (0.6)', () => {
  it('joins and leaves from the snapshots, chat with its author, the own id; a map change gives players time to load', () => {
    const game = new ClientGame('0.6');
    const events: GameEvent[] = [];
    game.on('*', (e) => events.push(e));
    game.snapshot(10, new Snapshot([clientInfo(0, 'me'), playerInfo(0, true), clientInfo(3, 'other')]));
    expect(game.ownClientId).toBe(0);
    expect(game.player('other')).toMatchObject({ clientId: 3 });
    game.message({ kind: 'sv_chat', team: 0, clientId: 3, message: 'hi' } as never, false);
    game.message({ kind: 'sv_kill_msg', killer: 3, victim: 0, weapon: 1, modeSpecial: 0 } as never, false);
    game.message({ kind: 'sv_kill_msg', killer: 0, victim: 0, weapon: -2, modeSpecial: 0 } as never, false);
    game.snapshot(12, new Snapshot([clientInfo(0, 'me')]));
    expect(events).toEqual([
      { type: 'join', clientId: 0, name: 'me', clan: '' },
      { type: 'join', clientId: 3, name: 'other', clan: '' },
      { type: 'chat', clientId: 3, name: 'other', team: 'all', text: 'hi' },
      { type: 'kill', killer: 3, killerName: 'other', victim: 0, victimName: 'me', weapon: 1, weaponName: 'gun' },
      { type: 'kill', killer: 0, killerName: 'me', victim: 0, victimName: 'me', weapon: -2, weaponName: 'self' },
      { type: 'leave', clientId: 3, name: 'other' },
    ]);
    events.length = 0;
    // A map change: the snapshots show only the clients back in game; missing ones are not leaves yet, another
    // player on a known id is a leave and a join.
    game.snapshot(14, new Snapshot([clientInfo(0, 'me'), clientInfo(5, 'loading')]));
    events.length = 0;
    game.mapChange({ name: 'ctf1', crc: 1, size: 2 });
    game.snapshot(2, new Snapshot([clientInfo(0, 'me')]));
    game.snapshot(4, new Snapshot([clientInfo(0, 'me'), clientInfo(5, 'loading')]));
    expect(events).toEqual([{ type: 'mapchange', map: 'ctf1', crc: 1, size: 2 }]);
    events.length = 0;
    // Back in the game since the change and then gone: a leave at once, not when the grace is over or another
    // player takes the id.
    game.snapshot(6, new Snapshot([clientInfo(0, 'me')]));
    expect(events).toEqual([{ type: 'leave', clientId: 5, name: 'loading' }]);
    game.snapshot(8, new Snapshot([clientInfo(0, 'me'), clientInfo(5, 'someone else')]));
    expect(events).toEqual([
      { type: 'leave', clientId: 5, name: 'loading' },
      { type: 'join', clientId: 5, name: 'someone else', clan: '' },
    ]);
    events.length = 0;
    // Long after the change: a player leaving and another taking its id between two snapshots.
    for (let tick = 10; tick < 10 + 2 * 300; tick += 2) game.snapshot(tick, new Snapshot([clientInfo(0, 'me'), clientInfo(5, 'someone else')]));
    game.snapshot(700, new Snapshot([clientInfo(0, 'me'), clientInfo(5, 'a third')]));
    expect(events).toEqual([
      { type: 'leave', clientId: 5, name: 'someone else' },
      { type: 'join', clientId: 5, name: 'a third', clan: '' },
    ]);
  });
});
