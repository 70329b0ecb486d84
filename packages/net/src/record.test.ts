// recordDemo against a scripted server (no socket, fake timers): the demo read back with @twcodec/demo holds
// the snapshots at the ticks the client rebuilt them and the game messages it received, and resaves to its
// bytes; stopped early (the caller's signal, the server closing the connection or falling silent) after the
// first snapshot, the demo of what was recorded; before it, a server that names no map and the size cap: a typed
// error. The same function against real servers: test/net/live-servers.test.ts (`net record`).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { demoEvents, demoPlayers, readDemo, resaveDemo } from '@twcodec/demo';
import { concatBytes, crc32, sha256 } from '@twcodec/runtime';
import { Snapshot } from '@twcodec/snapshot';
import { Script } from '../../../test/net-script-server.js';
import { recordDemo } from './record.js';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** A snapshot of one item (type 200, unknown to both protocols: sent with its size) whose ints follow `n`. */
const world = (n: number) => new Snapshot([{ type: 200, id: 1, data: Int32Array.of(n, n * 2, 7) }]);

/** The events of a demo as text: `tick s CHECKSUM ITEMS` or `tick m BYTES`. */
const eventsOf = (demo: Uint8Array) => [...demoEvents(readDemo(demo))].map((e) => (e.kind === 'snapshot' ? `${e.tick} s ${e.snapshot.checksum()} ${e.snapshot.items.length}` : `${e.tick} m ${Buffer.from(e.data).toString('hex')}`));

/** Gets `s` into the game, then sends a snapshot every second tick from 102 and a chat line at tick 106, for `ms`. */
function play(s: Script, ms: number, expected: string[], messages: Uint8Array[]): void {
  s.toIngame();
  // A 0.7 client adds the demo-only de_game_info (all zero before an sv_game_info) to every snapshot it records.
  const demoItems = s.protocol === '0.7' ? 1 : 0;
  expected.push(`100 s ${new Snapshot([]).checksum()} ${demoItems}`);
  let base = { tick: 100, snapshot: new Snapshot([]) };
  s.client.on('message', (m) => !m.system && messages.push(m.data));
  for (let tick = 102; (tick - 100) * 20 <= ms; tick += 2) {
    vi.advanceTimersByTime(40);
    const next = world(tick);
    s.snapshot(tick, next, base);
    expected.push(`${tick} s ${next.checksum()} ${1 + demoItems}`);
    base = { tick, snapshot: next };
    if (tick === 106) {
      const chat = s.protocol === '0.7' ? { kind: 'sv_chat', mode: 1, clientId: -1, targetId: -1, message: 'hello demo' } : { kind: 'sv_chat', team: 0, clientId: -1, message: 'hello demo' };
      s.vital([chat, { kind: 'input_timing', intendedTick: 106, timeLeft: 30 }]);
      // A demo keeps a message's bytes padded to whole ints.
      const data = messages.at(-1)!;
      expected.push(`106 m ${Buffer.from(data).toString('hex')}${'00'.repeat(-data.length & 3)}`);
    }
  }
}

describe('recordDemo', () => {
  it('0.6: snapshots at their ticks and game messages (not system ones) for the duration; reads back and resaves to its bytes', async () => {
    const s = new Script('0.6');
    const recording = recordDemo(s.client, { duration: 500, timestamp: '2026-11-23_12-00-00' });
    const expected: string[] = [];
    const messages: Uint8Array[] = [];
    play(s, 700, expected, messages);
    const demo = await recording;
    expect(s.client.state).toBe('ingame');
    s.client.disconnect();
    // Recording starts at the first snapshot (tick 100) and lasts 500 ms of the client's clock: 12 more
    // snapshots, 40 ms (two ticks) apart; those after are not in the demo.
    const recorded = expected.filter((e) => Number(e.split(' ')[0]) <= 124);
    expect(recorded.length).toBeLessThan(expected.length);
    expect(eventsOf(demo.demo)).toEqual(recorded);
    expect(demo).toMatchObject({ snapshots: 13, messages: 1, firstTick: 100, lastTick: 124 });
    expect(messages).toHaveLength(1);
    expect(readDemo(demo.demo).header).toMatchObject({ version: 5, mapName: 'ctf2', mapCrc: '27bc5eac', type: 'client', timestamp: '2026-11-23_12-00-00', netVersion: '0.6 626fce9a778df4d4', mapSize: 0 });
    expect(resaveDemo(demo.demo)).toEqual(demo.demo);
  });

  it("0.7: a version 4 demo with 0.7's net version; DDNet's map_details SHA-256 makes a version 6 demo", async () => {
    const s = new Script('0.7');
    const recording = recordDemo(s.client, { duration: 200 });
    play(s, 300, [], []);
    const demo = (await recording).demo;
    s.client.disconnect();
    expect(readDemo(demo).header).toMatchObject({ version: 4, mapName: 'ctf2', netVersion: '0.7 802f1be60a05665f' });
    expect(resaveDemo(demo)).toEqual(demo);

    const d = new Script('0.6');
    const sha = new Uint8Array(32).fill(0x5a);
    d.client.start();
    d.control({ kind: 'connect_accept', tokenMagic: true });
    d.vital([{ kind: 'map_details', mapName: 'ctf2', mapSha256: sha, mapCrc: 0x27bc5eac, mapSize: 25626 }]);
    const ddnet = recordDemo(d.client, { duration: 100 });
    d.toIngame();
    vi.advanceTimersByTime(100);
    const six = (await ddnet).demo;
    d.client.disconnect();
    expect(readDemo(six).header).toMatchObject({ version: 6, mapSha256: '5a'.repeat(32) });
  });

  it("0.7: every snapshot gets the demo-only items the 0.7.5 client adds (de_client_info, de_game_info) from the messages it does not record", async () => {
    const s = new Script('0.7');
    const recording = recordDemo(s.client, { duration: 100 });
    s.client.start();
    s.control({ kind: 'token', responseToken: 0x1234 });
    s.control({ kind: 'accept' });
    const skin = { skinPartNames: ['standard', '', '', 'standard', 'standard', 'standard'], useCustomColors: [0, 0, 0, 0, 0, 0], skinPartColors: [0, 0, 0, 0, 0, 0] };
    s.vital([
      { kind: 'sv_client_info', clientId: 3, local: true, team: 0, name: 'me', clan: 'c', country: -1, ...skin, silent: false },
      { kind: 'sv_game_info', gameFlags: 8, scoreLimit: 0, timeLimit: 0, matchNum: 0, matchCurrent: 1 },
    ]);
    s.toIngame();
    vi.advanceTimersByTime(100);
    const demo = readDemo((await recording).demo);
    s.client.disconnect();
    const first = [...demo.snapshots()][0]!.snapshot;
    expect(first.items.map((i) => `${i.type}:${i.id}`)).toEqual(['13:3', '14:0']);
    expect(Array.from(first.get(14, 0)!.data)).toEqual([8, 0, 0, 0, 1]);
    expect(demoPlayers(demo).map((p) => p.name)).toContain('me');
    // Not recorded as messages: the client applies them.
    expect([...demoEvents(demo)].filter((e) => e.kind === 'message')).toEqual([]);
  });

  it('with the map downloaded (downloadMap), the demo holds the map file, as a game client records it', async () => {
    const map = Uint8Array.from({ length: 500 }, (_, i) => (i * 13) & 0xff);
    const s = new Script('0.7', { downloadMap: true });
    const recording = recordDemo(s.client, { duration: 100 });
    s.client.start();
    s.control({ kind: 'token', responseToken: 0x1234 });
    s.control({ kind: 'accept' });
    s.vital([{ kind: 'map_change', mapName: 'dl', mapCrc: crc32(map) | 0, mapSize: map.length, chunksPerRequest: 8, chunkSize: 1384, mapSha256: sha256(map) }]);
    s.vital([{ kind: 'map_data', data: map }]);
    s.vital([{ kind: 'con_ready' }, { kind: 'sv_ready_to_enter' }]);
    s.emptySnap(100, -1);
    vi.advanceTimersByTime(100);
    const demo = readDemo((await recording).demo);
    s.client.disconnect();
    expect(demo.header).toMatchObject({ mapName: 'dl', mapSize: 500, mapCrc: crc32(map).toString(16).padStart(8, '0') });
    expect(demo.map).toEqual(map);
  });

  it('called in game, records from the call; with a sink, the bytes it got with the final header over the first are the demo', async () => {
    const s = new Script('0.6');
    s.toIngame();
    const chunks: Uint8Array[] = [];
    const timestamp = '2026-11-23_12-00-00';
    const viaSink = recordDemo(s.client, { duration: 100, timestamp, sink: (b) => chunks.push(b) });
    const kept = recordDemo(s.client, { duration: 100, timestamp });
    s.snapshot(102, world(102), { tick: 100, snapshot: new Snapshot([]) });
    vi.advanceTimersByTime(100);
    const [header, whole] = await Promise.all([viaSink, kept]);
    s.client.disconnect();
    chunks[0] = header.demo;
    expect(concatBytes(chunks)).toEqual(whole.demo);
    expect(eventsOf(whole.demo)).toEqual([`102 s ${world(102).checksum()} 1`]);
  });

  it('the server closing the connection before the first snapshot, a server that names no map, the size cap: typed errors', async () => {
    const s = new Script('0.6');
    const closed = recordDemo(s.client, { duration: 5000 });
    s.client.start();
    s.control({ kind: 'connect_accept', tokenMagic: true });
    s.control({ kind: 'close', reason: 'shutdown' });
    await expect(closed).rejects.toMatchObject({ code: 'CLOSED_BY_SERVER', message: expect.stringContaining('shutdown') });
    await expect(recordDemo(s.client, { duration: 10 })).rejects.toMatchObject({ code: 'CLOSED_BY_SERVER' });

    // con_ready before the server named a map (before the client's ready): the client does not enter; the
    // recording ends with the client's time-out (the scripted server falls silent).
    const m = new Script('0.6');
    const noMap = recordDemo(m.client, { duration: 5000 });
    m.client.start();
    m.control({ kind: 'connect_accept', tokenMagic: true });
    m.vital([{ kind: 'con_ready' }]);
    m.emptySnap(100, -1);
    expect(m.client.state).toBe('loading');
    vi.advanceTimersByTime(3100);
    await expect(noMap).rejects.toMatchObject({ code: 'TIMEOUT' });

    const big = new Script('0.6');
    const capped = recordDemo(big.client, { duration: 5000, maxBytes: 500 });
    play(big, 400, [], []);
    vi.advanceTimersByTime(5000);
    await expect(capped).rejects.toMatchObject({ code: 'DEMO_TOO_BIG' });
    big.client.disconnect();

    // The caller's disconnect (without the signal) ends the recording with CLOSED, as before.
    const left = new Script('0.6');
    const leftEarly = recordDemo(left.client, { duration: 5000 });
    play(left, 100, [], []);
    left.client.disconnect();
    await expect(leftEarly).rejects.toMatchObject({ code: 'CLOSED' });
    expect(vi.getTimerCount()).toBe(0);
  });

  /** Checks a demo ended early: its events are `expected` (up to the stop), it reads back, resaves to its bytes. */
  const expectPartial = (demo: Uint8Array, expected: string[]) => {
    expect(eventsOf(demo)).toEqual(expected);
    expect(resaveDemo(demo)).toEqual(demo);
  };

  it('the signal aborted mid-recording: the demo of what was recorded, stopped "signal"; the connection stays open', async () => {
    const s = new Script('0.6');
    const controller = new AbortController();
    const chunks: Uint8Array[] = [];
    const recording = recordDemo(s.client, { duration: 60_000, timestamp: '2026-11-23_12-00-00', signal: controller.signal });
    const viaSink = recordDemo(s.client, { duration: 60_000, timestamp: '2026-11-23_12-00-00', signal: controller.signal, sink: (b) => chunks.push(b) });
    const expected: string[] = [];
    play(s, 200, expected, []);
    controller.abort('SIGINT');
    const demo = await recording;
    expect(demo).toMatchObject({ stopped: 'signal', snapshots: 6, messages: 1, firstTick: 100, lastTick: 110 });
    expect(demo.closeError).toBeUndefined();
    expectPartial(demo.demo, expected);
    // With a sink: its bytes with the final header over the first are the same demo.
    chunks[0] = (await viaSink).demo;
    expect(concatBytes(chunks)).toEqual(demo.demo);
    expect(s.client.state).toBe('ingame');
    s.client.disconnect();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('the signal aborted before the first snapshot (or before the call): ABORTED, nothing recorded', async () => {
    const s = new Script('0.6');
    const controller = new AbortController();
    const recording = recordDemo(s.client, { duration: 60_000, signal: controller.signal });
    s.client.start();
    s.control({ kind: 'connect_accept', tokenMagic: true });
    s.vital([{ kind: 'map_change', mapName: 'ctf2', mapCrc: 0x27bc5eac, mapSize: 25626 }, { kind: 'con_ready' }]);
    controller.abort('SIGTERM');
    await expect(recording).rejects.toMatchObject({ code: 'ABORTED', cause: 'SIGTERM' });
    await expect(recordDemo(s.client, { duration: 10, signal: controller.signal })).rejects.toMatchObject({ code: 'ABORTED' });
    // In game but no snapshot since the call: still nothing recorded.
    s.emptySnap(100, -1);
    const inGame = new AbortController();
    const none = recordDemo(s.client, { duration: 60_000, signal: inGame.signal });
    inGame.abort();
    await expect(none).rejects.toMatchObject({ code: 'ABORTED' });
    s.client.disconnect();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('the server closing the connection (a kick) or falling silent mid-recording: the demo of what was recorded, stopped "closed" / "timeout"', async () => {
    const s = new Script('0.7');
    const recording = recordDemo(s.client, { duration: 60_000, timestamp: '2026-11-23_12-00-00' });
    const expected: string[] = [];
    play(s, 200, expected, []);
    s.control({ kind: 'close', reason: 'You have been kicked' });
    const demo = await recording;
    expect(demo).toMatchObject({ stopped: 'closed', snapshots: 6, firstTick: 100, lastTick: 110, closeError: { code: 'CLOSED_BY_SERVER', message: expect.stringContaining('You have been kicked') } });
    expectPartial(demo.demo, expected);
    expect(readDemo(demo.demo).header).toMatchObject({ version: 4, mapName: 'ctf2' });

    const silent = new Script('0.6');
    const timedOut = recordDemo(silent.client, { duration: 60_000 });
    const played: string[] = [];
    play(silent, 100, played, []);
    vi.advanceTimersByTime(3100);
    const partial = await timedOut;
    expect(partial).toMatchObject({ stopped: 'timeout', snapshots: 3, lastTick: 104, closeError: { code: 'TIMEOUT' } });
    expectPartial(partial.demo, played);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('the server changing map mid-recording: the demo ends there, stopped "map_change" with the next map (DDNet 16.4 LoadMap stops its recorders); the client goes on', async () => {
    const s = new Script('0.6');
    const recording = recordDemo(s.client, { duration: 60_000, timestamp: '2026-11-23_12-00-00' });
    const expected: string[] = [];
    play(s, 200, expected, []);
    s.vital([{ kind: 'map_change', mapName: 'dm1', mapCrc: 5, mapSize: 6 }]);
    const demo = await recording;
    expect(demo).toMatchObject({ stopped: 'map_change', snapshots: 6, lastTick: 110, nextMap: { name: 'dm1' } });
    expectPartial(demo.demo, expected);
    expect(readDemo(demo.demo).header.mapName).toBe('ctf2');
    expect(s.client.state).toBe('loading');
    s.client.disconnect();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a connection that ends in an error after the first snapshot (BAD_PEER; a failure inside the client\'s timer) keeps the demo: stopped "error"', async () => {
    const s = new Script('0.6');
    const recording = recordDemo(s.client, { duration: 60_000, timestamp: '2026-11-23_12-00-00' });
    const expected: string[] = [];
    play(s, 200, expected, []);
    for (let i = 0; i < 65; i++) s.client.receive(Uint8Array.of(0x00, 0x00, 0x05, 0xff));
    const demo = await recording;
    expect(demo).toMatchObject({ stopped: 'error', snapshots: 6, closeError: { code: 'BAD_PEER' } });
    expectPartial(demo.demo, expected);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a map name of 64 bytes or more is cut into the header as DDNet 16.4 str_copy cuts it (63 bytes, no broken UTF-8 sequence at the end)', async () => {
    for (const [name, cut] of [
      ['m'.repeat(63), 'm'.repeat(63)],
      ['m'.repeat(64), 'm'.repeat(63)],
      ['x'.repeat(100), 'x'.repeat(63)],
      // 62 bytes and a 2-byte character: the character would end at byte 64, it goes.
      [`${'a'.repeat(62)}é`, 'a'.repeat(62)],
      [`${'a'.repeat(61)}é${'b'.repeat(10)}`, `${'a'.repeat(61)}é`],
      [`${'a'.repeat(60)}日本`, `${'a'.repeat(60)}日`],
      [`${'a'.repeat(61)}日本`, 'a'.repeat(61)],
    ] as const) {
      const s = new Script('0.6');
      const recording = recordDemo(s.client, { duration: 100, timestamp: '2026-11-23_12-00-00' });
      s.client.start();
      s.control({ kind: 'connect_accept', tokenMagic: true });
      s.vital([{ kind: 'map_change', mapName: name, mapCrc: 1, mapSize: 2 }, { kind: 'con_ready' }]);
      s.emptySnap(100, -1);
      vi.advanceTimersByTime(120);
      const demo = await recording;
      expect(readDemo(demo.demo).header.mapName).toBe(cut);
      expect(demo.truncatedMapName).toBe(cut === name ? undefined : cut);
      s.client.disconnect();
    }
  });
});
