// captureDemo on captures built here (a DDNet session with a map download, a client with a dummy) and on the
// 0.7 fixture; the corpus captures against the clients' own demos are in test/net/capture-demo.test.ts.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoMessages, readDemo, resaveDemo } from '@twcodec/demo';
import { fixturesDir, readBytes } from '../../../test/corpus.js';
import { CLIENT, DUMMY, input, mapDownloadSession, pcapOf, SERVER, snapshotOf, startInfo, testMap } from '../../../test/net-session-builder.js';
import { TEEWORLDS_0_7_MESSAGES } from '@twcodec/netmsg';
import { decodeObject, Snapshot, TEEWORLDS_0_7 } from '@twcodec/snapshot';
import { DemoState07 } from './capture-demo.js';
import { captureDemo } from './index.js';


describe('captureDemo', () => {
  const map = testMap;

  const downloadSession = () => mapDownloadSession(map);

  it('writes the map downloaded, the snapshots at their ticks and the game messages; the demo reads back and resaves to its bytes', () => {
    const s = downloadSession();
    const [a, b] = [snapshotOf(5, 1), snapshotOf(6, 2)];
    s.snapshot(CLIENT, 100, a);
    s.message(SERVER, CLIENT, { kind: 'sv_chat', team: 0, clientId: -1, message: 'hello' });
    s.snapshot(CLIENT, 102, b, { tick: 100, snapshot: a });
    s.message(SERVER, CLIENT, { kind: 'snap_empty', tick: 104, deltaTick: 2 }, false);
    const result = captureDemo(pcapOf(s.sent), { player: 'Tee' });
    expect(result).toMatchObject({ protocol: '0.6', client: CLIENT, server: SERVER, snapshots: 3, map: { name: 'tiny', size: 1500, from: 'capture' } });
    expect(result.dummy).toBeUndefined();
    const demo = readDemo(result.demo);
    expect(demo.header).toMatchObject({ version: 6, netVersion: '0.6 626fce9a778df4d4', mapName: 'tiny', mapSize: 1500, type: 'client', timestamp: '2027-01-15_08-00-00' });
    expect(demo.map).toEqual(map);
    expect([...demo.snapshots()].map(({ tick, snapshot }) => [tick, snapshot.checksum()])).toEqual([
      [100, a.checksum()],
      [102, b.checksum()],
      [104, b.checksum()],
    ]);
    // The motd came before the first snapshot, when no client records yet: it is not in the demo.
    expect([...demoMessages(demo)].map((m) => [m.tick, m.message.kind])).toEqual([[100, 'sv_chat']]);
    expect(resaveDemo(result.demo)).toEqual(result.demo);
  });

  it('ends the demo where the server changes the map (the client stops recording there)', () => {
    const s = downloadSession();
    s.snapshot(CLIENT, 100, snapshotOf(3, 1));
    s.message(SERVER, CLIENT, { kind: 'map_change', mapName: 'other', mapCrc: 1, mapSize: 10 });
    s.snapshot(CLIENT, 200, snapshotOf(3, 2));
    const result = captureDemo(pcapOf(s.sent), { player: 'Tee' });
    expect(result.map.name).toBe('tiny');
    expect([...readDemo(result.demo).snapshots()].map((x) => x.tick)).toEqual([100]);
  });

  it('refuses a player nobody played, a capture without the map and a map that is not the announced one', () => {
    const s = downloadSession();
    s.snapshot(CLIENT, 100, snapshotOf(3, 1));
    const capture = pcapOf(s.sent);
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as { code?: string }).code;
      }
      return undefined;
    };
    expect(code(() => captureDemo(capture, { player: 'Nobody' }))).toBe('PLAYER_NOT_FOUND');
    expect(code(() => captureDemo(capture, { player: 'Tee', map: map.subarray(1) }))).toBe('MAP_MISMATCH');
    expect(captureDemo(capture, { player: 'Tee', map }).map.from).toBe('option');
    const fixture = readBytes(join(fixturesDir, 'net', 'teeworlds-0.7-cut.pcap'));
    expect(code(() => captureDemo(fixture, { player: 'Charlie' }))).toBe('MAP_MISSING');
    expect(code(() => captureDemo(fixture, { player: 'Charlie', map: readBytes(join(fixturesDir, 'maps', 'ctf1.map')) }))).toBe('MAP_MISMATCH');
  });

  it("records the snapshots of the connection the player controls: its own or its dummy's, told from which input the client sends first", () => {
    const s = downloadSession();
    s.connect(DUMMY);
    s.message(DUMMY, SERVER, startInfo('TeeDmy'));
    const own = (tick: number) => snapshotOf(4, tick);
    const dummy = (tick: number) => snapshotOf(4, -tick);
    const controlled: string[] = [];
    for (let tick = 100; tick < 120; tick += 2) {
      // The client controls its dummy from tick 106 to 112: it processes the snapshots that came, then sends
      // its input, the controlled connection's first.
      const order = tick >= 106 && tick <= 112 ? [DUMMY, CLIENT] : [CLIENT, DUMMY];
      controlled.push(order[0]!);
      s.snapshot(CLIENT, tick, own(tick));
      s.snapshot(DUMMY, tick, dummy(tick));
      for (const c of order) s.message(c, SERVER, input(tick + 1), false);
    }
    const result = captureDemo(pcapOf(s.sent), { player: 'Tee' });
    expect(result).toMatchObject({ dummy: DUMMY, snapshots: 10, dummySnapshots: 4 });
    const sums = [...readDemo(result.demo).snapshots()].map(({ tick, snapshot }) => snapshot.checksum() === (controlled[(tick - 100) / 2] === DUMMY ? dummy(tick) : own(tick)).checksum());
    expect(sums).toEqual(Array(10).fill(true));
  });

  it.each([
    ['does not acknowledge it yet: that frame took it in, and recorded it from the dummy', 100, DUMMY, []],
    ['acknowledges it: a frame that sent nothing took it in, and the side of the window it arrived on is a guess', 102, CLIENT, [102]],
  ])('a snapshot that arrived while the client switched, when the next input %s', (_, ack, recorder, switchTicks) => {
    const s = downloadSession();
    s.connect(DUMMY);
    s.message(DUMMY, SERVER, startInfo('TeeDmy'));
    const own = (tick: number) => snapshotOf(4, tick);
    const dummy = (tick: number) => snapshotOf(4, -tick);
    // The own connection controlled up to tick 100 (ten calls: enough to tell the dummy's connection).
    for (let tick = 82; tick <= 100; tick += 2) {
      s.snapshot(CLIENT, tick, own(tick));
      s.snapshot(DUMMY, tick, dummy(tick));
      for (const c of [CLIENT, DUMMY]) s.message(c, SERVER, input(tick + 1, tick), false);
    }
    // Tick 102 arrives early in the window between the own connection's last call and the dummy's first.
    s.snapshot(CLIENT, 102, own(102));
    s.snapshot(DUMMY, 102, dummy(102));
    for (let i = 0; i < 8; i++) s.connect('10.0.0.3:50000'); // 80 ms of another client's traffic
    for (const c of [DUMMY, CLIENT]) s.message(c, SERVER, input(103, ack), false);
    s.snapshot(CLIENT, 104, own(104), { tick: 102, snapshot: own(102) });
    s.snapshot(DUMMY, 104, dummy(104), { tick: 102, snapshot: dummy(102) });
    for (const c of [DUMMY, CLIENT]) s.message(c, SERVER, input(105, 104), false);
    const result = captureDemo(pcapOf(s.sent), { player: 'Tee' });
    expect(result.switchTicks).toEqual(switchTicks);
    const recorded = new Map([...readDemo(result.demo).snapshots()].map(({ tick, snapshot }) => [tick, snapshot.checksum()]));
    expect(recorded.get(102)).toBe((recorder === DUMMY ? dummy(102) : own(102)).checksum());
    expect(recorded.get(104)).toBe(dummy(104).checksum());
  });

  it("a lone input of the other connection (the controlled one's input of that call lost, or cl_dummy_hammer) is no switch, and where it lies is listed in switchTicks", () => {
    const s = downloadSession();
    s.connect(DUMMY);
    s.message(DUMMY, SERVER, startInfo('TeeDmy'));
    const own = (tick: number) => snapshotOf(4, tick);
    const dummy = (tick: number) => snapshotOf(4, -tick);
    for (let tick = 100; tick < 140; tick += 2) {
      s.snapshot(CLIENT, tick, own(tick));
      s.snapshot(DUMMY, tick, dummy(tick));
      // The client controls its own tee all along; the capture lost the own input of the call of tick 121.
      for (const c of [CLIENT, DUMMY]) if (!(tick === 120 && c === CLIENT)) s.message(c, SERVER, input(tick + 1, tick), false);
    }
    const result = captureDemo(pcapOf(s.sent), { player: 'Tee' });
    expect(result).toMatchObject({ dummy: DUMMY, dummySnapshots: 0 });
    const wrong = [...readDemo(result.demo).snapshots()].filter(({ tick, snapshot }) => snapshot.checksum() !== own(tick).checksum()).map((x) => x.tick);
    expect(wrong).toEqual([]);
    // The snapshots between the calls around the lone input: recorded from the own connection, listed as guesses.
    expect(result.switchTicks).toEqual([120, 122]);
  });

  it("the dummy's con_ready: main's snapshot that came late before it is main's (the switch comes with con_ready), and the con_ready datagram's own messages are not recorded", () => {
    const s = downloadSession();
    for (let tick = 100; tick < 110; tick += 2) {
      s.snapshot(CLIENT, tick, snapshotOf(3, tick));
      s.message(CLIENT, SERVER, input(tick + 1, tick), false);
    }
    s.connect(DUMMY);
    // 80 ms after main's last input, main's snapshot of tick 110 comes, then the dummy's con_ready (with the
    // motd before it in one datagram): the middle of that window lies before tick 110 (a DDNet 16.4 session:
    // the client recorded that snapshot from main and not the motd).
    for (let i = 0; i < 8; i++) s.connect('10.0.0.3:50000');
    s.snapshot(CLIENT, 110, snapshotOf(3, 110));
    s.messages(SERVER, DUMMY, [{ kind: 'sv_motd', message: 'motd of the dummy' }, { kind: 'con_ready' }]);
    s.message(DUMMY, SERVER, startInfo('TeeDmy'));
    for (let tick = 112; tick < 140; tick += 2) {
      s.snapshot(DUMMY, tick, snapshotOf(3, -tick));
      s.snapshot(CLIENT, tick, snapshotOf(3, tick));
      for (const c of [DUMMY, CLIENT]) s.message(c, SERVER, input(tick + 1, tick), false);
    }
    const result = captureDemo(pcapOf(s.sent), { player: 'Tee' });
    expect(result.dummy).toBe(DUMMY);
    const demo = readDemo(result.demo);
    const ticks = [...demo.snapshots()].map(({ tick, snapshot }) => [tick, snapshot.checksum() === snapshotOf(3, tick).checksum() ? 'own' : 'dummy']);
    expect(ticks.slice(4, 7)).toEqual([
      [108, 'own'],
      [110, 'own'],
      [112, 'dummy'],
    ]);
    expect(result.switchTicks).not.toContain(110);
    expect([...demoMessages(demo)].filter((m) => (m.message as { message?: string }).message === 'motd of the dummy')).toEqual([]);
  });

  it("the dummy's con_ready: main's snapshot and messages that came before the client answered it are recorded (and listed), the dummy's after it", () => {
    const s = downloadSession();
    for (let tick = 100; tick < 110; tick += 2) {
      s.snapshot(CLIENT, tick, snapshotOf(3, tick));
      s.message(CLIENT, SERVER, input(tick + 1, tick), false);
    }
    s.connect(DUMMY);
    s.message(SERVER, DUMMY, { kind: 'con_ready' });
    // Main's snapshot of tick 110 and the chat line about the dummy come before the client's answer on the
    // dummy's connection: the frame that took con_ready in may have taken them in first (and recorded them).
    s.message(SERVER, CLIENT, { kind: 'sv_chat', team: 0, clientId: -1, message: "'TeeDmy' entered and joined the game" });
    s.snapshot(CLIENT, 110, snapshotOf(3, 110));
    s.message(DUMMY, SERVER, startInfo('TeeDmy'));
    s.message(SERVER, DUMMY, { kind: 'sv_chat', team: 0, clientId: -1, message: 'welcome, dummy' });
    s.snapshot(CLIENT, 112, snapshotOf(3, 112));
    for (let tick = 112; tick < 140; tick += 2) {
      s.snapshot(DUMMY, tick, snapshotOf(3, -tick));
      if (tick > 112) s.snapshot(CLIENT, tick, snapshotOf(3, tick));
      for (const c of [DUMMY, CLIENT]) s.message(c, SERVER, input(tick + 1, tick), false);
    }
    const result = captureDemo(pcapOf(s.sent), { player: 'Tee' });
    expect(result.dummy).toBe(DUMMY);
    const demo = readDemo(result.demo);
    const ticks = [...demo.snapshots()].map(({ tick, snapshot }) => [tick, snapshot.checksum() === snapshotOf(3, tick).checksum() ? 'own' : 'dummy']);
    expect(ticks.slice(0, 7)).toEqual([
      [100, 'own'],
      [102, 'own'],
      [104, 'own'],
      [106, 'own'],
      [108, 'own'],
      [110, 'own'],
      [112, 'dummy'],
    ]);
    expect(result.switchTicks).toEqual([110]);
    const chat = [...demoMessages(demo)].filter((m) => m.message.kind === 'sv_chat').map((m) => [m.tick, (m.message as { message: string }).message]);
    expect(chat).toEqual([
      [108, "'TeeDmy' entered and joined the game"],
      [110, 'welcome, dummy'],
    ]);
  });
});

describe('DemoState07 (what the 0.7.5 client records)', () => {
  it("leaves out every message the schema marks recorded: false, and keeps the others' own bytes", () => {
    const own = new Uint8Array([1, 2, 3]);
    const notRecorded = TEEWORLDS_0_7_MESSAGES.messages.filter((m) => m.recorded === false);
    expect(notRecorded.length).toBeGreaterThan(0);
    // A silent client info / drop of an unknown client makes no de_client_enter/leave: nothing at all is recorded.
    const values: Record<string, unknown> = { clientId: 3, local: false, silent: true, team: 0, name: 'x', clan: '', country: -1, skinPartNames: [], useCustomColors: [], skinPartColors: [], params: [], reason: '' };
    for (const def of notRecorded) expect(new DemoState07().received({ ...values, kind: def.name } as never, () => own)).toBeUndefined();
    expect(new DemoState07().received({ kind: 'sv_chat', mode: 0, clientId: -1, targetId: -1, message: 'hi' } as never, () => own)).toBe(own);
  });

  it('adds de_client_info, de_tune_params and de_game_info by their schema layouts', () => {
    const state = new DemoState07();
    state.apply({ kind: 'sv_client_info', clientId: 2, local: true, team: 1, name: 'Charlie', clan: 'Clan', country: 276, skinPartNames: ['standard', 'bear', '', 'standard', 'standard', 'standard'], useCustomColors: [true, false, false, false, false, true], skinPartColors: [1, 2, 3, 4, 5, 6], silent: false } as never);
    state.apply({ kind: 'sv_game_info', gameFlags: 1, scoreLimit: 20, timeLimit: 10, matchNum: 3, matchCurrent: 2 } as never);
    state.apply({ kind: 'sv_tune_params', params: Array.from({ length: 44 }, (_, i) => i) } as never);
    const items = state.decorate(new Snapshot([])).items;
    const byName = (name: string) => {
      const type = TEEWORLDS_0_7.items.find((t) => t.name === name)!;
      const item = items.find((i) => i.type === type.typeId)!;
      expect(item.data.length).toBe(type.size);
      return decodeObject(type, item.data);
    };
    expect(byName('de_client_info')).toMatchObject({ local: true, team: 1, name: 'Charlie', clan: 'Clan', country: 276, useCustomColors: [1, 0, 0, 0, 0, 1], skinPartColors: [1, 2, 3, 4, 5, 6] });
    expect(byName('de_game_info')).toMatchObject({ gameFlags: 1, scoreLimit: 20, timeLimit: 10, matchNum: 3, matchCurrent: 2 });
    expect(byName('de_tune_params')).toMatchObject({ tuneParams: Array.from({ length: 32 }, (_, i) => i) });
  });
});
