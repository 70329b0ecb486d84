// The client's connection logic against a scripted server (no socket, fake clock): the handshake bytes the
// corpus captures show, vital chunks in order and resent, snapshots acknowledged, and a hostile server's
// lies ending in a typed error. The same client against real servers: test/net/live-servers.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Msg, Script, TOKEN } from '../../../test/net-script-server.js';
import { crc32, sha256 } from '@twcodec/runtime';
import { NetError } from './errors.js';
import { ServerInfoQuery } from './info.js';
import { decodePacket, encodePacket } from './packet.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('NetClient 0.6/DDNet', () => {
  it('connects with the bytes DDNet 16.4 sends (connless.pcap): connect with TKEN, accept and every later packet ending in the token', () => {
    const s = new Script();
    s.client.start();
    expect(() => s.client.say('too early')).toThrow(expect.objectContaining({ code: 'NOT_CONNECTED' }));
    expect(hex(s.raw[0]!)).toBe('10000001544b454effffffff');
    s.control({ kind: 'connect_accept', tokenMagic: true });
    expect(hex(s.raw[1]!)).toBe('1000000394dba809');
    // The DDNet version and the info in one packet, as DDNet 16.4's client sends them (connless.pcap, index 3).
    expect(s.sent[2]!).toMatchObject({
      kind: 'connection',
      securityToken: TOKEN,
      chunks: [
        { flags: ['vital'], sequence: 1, message: { kind: 'client_ver', ddnetVersion: 16040, connectionId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/) } },
        { flags: ['vital'], sequence: 2, message: { kind: 'info', version: '0.6 626fce9a778df4d4', password: '' } },
      ],
    });
    s.client.disconnect();
  });

  it('ddnetVersion 0 connects as a vanilla 0.6 client: the info alone; a version out of range is BAD_OPTION', () => {
    const s = new Script('0.6', { ddnetVersion: 0 });
    s.client.start();
    s.control({ kind: 'connect_accept', tokenMagic: true });
    expect(s.sent[2]!).toMatchObject({ chunks: [{ flags: ['vital'], sequence: 1, message: { kind: 'info', version: '0.6 626fce9a778df4d4', password: '' } }] });
    expect(s.sent[2]!.chunks).toHaveLength(1);
    s.client.disconnect();
    expect(() => new Script('0.6', { ddnetVersion: 1.5 })).toThrow(expect.objectContaining({ code: 'BAD_OPTION' }));
  });

  it('answers map_change with ready and con_ready with start info and enter_game; in game on the first snapshot, acked in its inputs', async () => {
    const s = new Script();
    const ingame = s.client.ready();
    s.toIngame();
    await ingame;
    expect(s.client.state).toBe('ingame');
    expect(s.client.map).toEqual({ name: 'ctf2', crc: 0x27bc5eac, size: 25626 });
    expect(s.chunks.map((c) => c.message.kind)).toEqual(['client_ver', 'info', 'ready', 'cl_start_info', 'enter_game']);
    expect(s.chunks.map((c) => c.sequence)).toEqual([1, 2, 3, 4, 5]);
    vi.advanceTimersByTime(40);
    // The first input 20 ms (one server tick) after the snapshot: its tick + 1 + DDNet's margin of 2.
    const input = s.chunks.find((c) => c.message.kind === 'input')!;
    expect(input.message).toMatchObject({ ackGameTick: 100, predictionTick: 103, size: 40 });
    expect(s.sent.at(-1)!.header.ack).toBe(2);
    // The next snapshot is a delta on tick 100.
    const snapshots: number[] = [];
    s.client.on('snapshot', (e) => snapshots.push(e.tick));
    s.emptySnap(102, 100);
    expect(snapshots).toEqual([102]);
    vi.advanceTimersByTime(40);
    expect(s.chunks.filter((c) => c.message.kind === 'input').at(-1)!.message).toMatchObject({ ackGameTick: 102 });
    s.client.disconnect('bye');
    expect(s.sent.at(-1)!.control).toMatchObject({ kind: 'close', reason: 'bye' });
    expect(s.closed).toEqual({ cause: 'disconnect', reason: 'bye' });
  });

  it("sends an input each server tick, as DDNet 16.4's client does when its predicted tick moves on (CClient::Update), with snapshots every second tick", () => {
    const s = new Script();
    s.toIngame();
    const inputs = () => s.chunks.filter((c) => c.message.kind === 'input').map((c) => c.message as unknown as { ackGameTick: number; predictionTick: number });
    const before = inputs().length;
    // One second: DDNet's server sends a snapshot every 2 ticks (40 ms).
    for (let tick = 102; tick <= 150; tick += 2) {
      s.emptySnap(tick, tick - 2);
      vi.advanceTimersByTime(40);
    }
    const second = inputs().slice(before);
    expect(second.length).toBeGreaterThanOrEqual(48);
    expect(second.length).toBeLessThanOrEqual(52);
    // The ticks go up one at a time, 2 to 4 ahead of the snapshot acknowledged.
    for (let i = 1; i < second.length; i++) expect(second[i]!.predictionTick - second[i - 1]!.predictionTick).toBe(1);
    for (const input of second) expect(input.predictionTick - input.ackGameTick).toBeGreaterThanOrEqual(2);
    for (const input of second) expect(input.predictionTick - input.ackGameTick).toBeLessThanOrEqual(4);
    s.client.disconnect();
  });

  it('resends an unacknowledged vital chunk after a second, and at once when the server asks; stops once acked', () => {
    const s = new Script();
    s.toIngame();
    s.client.say('hello');
    const say = () => s.chunks.filter((c) => c.message.kind === 'cl_say');
    expect(say()).toHaveLength(1);
    vi.advanceTimersByTime(1100);
    expect(say()).toHaveLength(2);
    expect(say()[1]).toMatchObject({ flags: ['vital', 'resend'], sequence: say()[0]!.sequence });
    vi.advanceTimersByTime(50);
    s.vital([], { flags: 16, ack: 4 });
    expect(say()).toHaveLength(3);
    s.vital([], { ack: say()[0]!.sequence });
    vi.advanceTimersByTime(3000);
    expect(say()).toHaveLength(3);
    s.client.disconnect();
  });

  it('delivers a resent vital chunk once, drops one after a gap and asks for a resend', () => {
    const s = new Script();
    s.toIngame();
    const chat: unknown[] = [];
    s.client.on('message', (m) => m.message.kind === 'sv_chat' && chat.push(m.message.message));
    s.vital([{ kind: 'sv_chat', team: 0, clientId: -1, message: 'one' }], { sequence: 3 });
    s.vital([{ kind: 'sv_chat', team: 0, clientId: -1, message: 'one' }], { sequence: 3 });
    s.vital([{ kind: 'sv_chat', team: 0, clientId: -1, message: 'three' }], { sequence: 5 });
    expect(chat).toEqual(['one']);
    vi.advanceTimersByTime(40);
    expect(s.sent.some((p) => p.flags.includes('resend'))).toBe(true);
    s.client.disconnect();
  });

  it("map_details counts for the map_change of the same name, CRC and size only", () => {
    const s = new Script();
    s.client.start();
    s.control({ kind: 'connect_accept', tokenMagic: true });
    s.vital([{ kind: 'map_details', mapName: 'ctf2', mapSha256: new Uint8Array(32).fill(1), mapCrc: 0x27bc5eac, mapSize: 1 }]);
    s.vital([{ kind: 'map_change', mapName: 'ctf2', mapCrc: 0x27bc5eac, mapSize: 25626 }, { kind: 'con_ready' }]);
    s.emptySnap(100, -1);
    expect(s.client.state).toBe('ingame');
    expect(s.client.map).toEqual({ name: 'ctf2', crc: 0x27bc5eac, size: 25626 });
    s.client.disconnect();
  });

  it('sends a keep-alive after half a second without sending, with the security token', () => {
    const s = new Script();
    s.client.start();
    s.control({ kind: 'connect_accept', tokenMagic: true });
    s.vital([{ kind: 'map_change', mapName: 'ctf2', mapCrc: 1, mapSize: 2 }], { ack: 1 });
    const before = s.raw.length;
    vi.advanceTimersByTime(400);
    expect(s.raw.length).toBe(before);
    vi.advanceTimersByTime(200);
    expect(s.sent.slice(before)).toMatchObject([{ kind: 'control', control: { kind: 'keep_alive' }, securityToken: TOKEN, header: { ack: 1 } }]);
    s.client.disconnect();
  });

  it('a server closing the connection rejects ready() with its reason', async () => {
    const s = new Script();
    const ready = s.client.ready();
    s.client.start();
    s.control({ kind: 'connect_accept', tokenMagic: true });
    s.control({ kind: 'close', reason: 'You have been banned' });
    await expect(ready).rejects.toMatchObject({ code: 'CLOSED_BY_SERVER', message: expect.stringContaining('You have been banned') });
    expect(s.closed).toMatchObject({ cause: 'server', reason: 'You have been banned' });
  });
});

describe('NetClient 0.7', () => {
  it('asks for a token (a 520-byte datagram, as the 0.7.5 client), connects with the server token in the header', async () => {
    const s = new Script('0.7');
    const ready = s.client.ready();
    s.client.start();
    expect(s.raw[0]!.length).toBe(520);
    expect(s.sent[0]).toMatchObject({ header: { token: 0xffffffff }, control: { kind: 'token', padding: 508 } });
    s.control({ kind: 'token', responseToken: 0x1234 });
    expect(s.raw[1]!.length).toBe(520);
    expect(s.sent[1]).toMatchObject({ header: { token: 0x1234 }, control: { kind: 'connect', responseToken: s.clientToken() } });
    s.control({ kind: 'accept' });
    expect(s.sent[2]).toMatchObject({ header: { token: 0x1234 }, chunks: [{ message: { kind: 'info', version: '0.7 802f1be60a05665f', clientVersion: 0x0705 } }] });
    s.vital([{ kind: 'map_change', mapName: 'dm1', mapCrc: 5, mapSize: 6, chunksPerRequest: 8, chunkSize: 1384, mapSha256: new Uint8Array(32).fill(0xab) }, { kind: 'con_ready' }]);
    // 0.7 enters only on sv_ready_to_enter.
    expect(s.chunks.map((c) => c.message.kind)).toEqual(['info', 'ready', 'cl_start_info']);
    s.vital([{ kind: 'sv_ready_to_enter' }]);
    s.emptySnap(50, -1);
    await ready;
    expect(s.chunks.map((c) => c.message.kind)).toEqual(['info', 'ready', 'cl_start_info', 'enter_game']);
    expect(s.client.map).toEqual({ name: 'dm1', crc: 5, size: 6, sha256: 'ab'.repeat(32) });
    s.client.say('hi');
    expect(s.chunks.at(-1)!.message).toMatchObject({ kind: 'cl_say', mode: 1, target: -1, message: 'hi' });
    s.client.disconnect();
  });
});

/** The last datagram the client sent, decoded. */
const lastSent = (s: Script) => s.sent.at(-1)!;

describe('NetClient following a map change (rcon change_map; DDNet 16.4 client.cpp NETMSG_MAP_CHANGE)', () => {
  for (const protocol of ['0.6', '0.7'] as const) {
    it(`${protocol}: a map_change in game: loading again, ready, start info and enter on con_ready, in game on the new map's first snapshot; old snapshots in flight dropped`, () => {
      const s = new Script(protocol);
      s.toIngame();
      const changes: string[] = [];
      const snapshots: number[] = [];
      let ingame = 0;
      s.client.on('mapchange', (m) => changes.push(m.name)).on('snapshot', (e) => snapshots.push(e.tick)).on('ingame', () => ingame++);
      s.emptySnap(102, 100);
      /** The server acknowledges every vital chunk the client sent (else its own time-out ends the test). */
      const ackAll = () => s.packet({ kind: 'connection', header: { flags: 0, ack: Math.max(...s.chunks.map((c) => c.sequence ?? 0)), num_chunks: 0 }, flags: [], chunks: [] });
      // In game for 3 s: the change comes after the connect time-out (5 s here) would have run from the start.
      for (let i = 0; i < 2; i++) (vi.advanceTimersByTime(1500), ackAll());
      const before = s.chunks.length;
      s.vital([{ kind: 'map_change', mapName: 'dm1', mapCrc: 5, mapSize: 6, ...(protocol === '0.7' ? { chunksPerRequest: 8, chunkSize: 1384, mapSha256: new Uint8Array(32).fill(0xab) } : {}) }]);
      expect(changes).toEqual(['dm1']);
      expect(s.client.state).toBe('loading');
      expect(s.client.map?.name).toBe('dm1');
      // A snapshot of the old map still under way: not this game's.
      s.emptySnap(104, 102);
      expect(snapshots).toEqual([102]);
      // The connect time-out counts from the change (Teeworlds 0.7.5 changes map at the end of the match, 10 s on).
      for (let i = 0; i < 2; i++) (vi.advanceTimersByTime(2000), ackAll());
      expect(s.closed).toBeUndefined();
      s.vital([{ kind: 'con_ready' }]);
      if (protocol === '0.7') s.vital([{ kind: 'sv_ready_to_enter' }]);
      // The server starts over from a full snapshot at its own tick.
      s.emptySnap(7, -1);
      expect(s.client.state).toBe('ingame');
      expect(ingame).toBe(1);
      expect(snapshots).toEqual([102, 7]);
      expect(s.chunks.slice(before).filter((c) => !c.flags.includes('resend')).map((c) => c.message.kind).filter((k) => k !== 'input')).toEqual(['ready', 'cl_start_info', 'enter_game']);
      vi.advanceTimersByTime(40);
      expect(s.chunks.at(-1)!.message).toMatchObject({ kind: 'input', ackGameTick: 7, predictionTick: 11 });
      s.client.disconnect();
    });
  }

  it('with downloadMap: the new map is downloaded and checked before ready; mapchange once it is there', () => {
    const map = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) & 0xff);
    const s = new Script('0.6', { downloadMap: true });
    s.client.start();
    s.control({ kind: 'connect_accept', tokenMagic: true });
    s.vital([{ kind: 'map_change', mapName: 'one', mapCrc: crc32(map.subarray(0, 10)) | 0, mapSize: 10 }]);
    s.vital([{ kind: 'map_data', last: true, mapCrc: crc32(map.subarray(0, 10)) | 0, chunk: 0, chunkSize: 10, data: map.subarray(0, 10) }]);
    s.vital([{ kind: 'con_ready' }]);
    s.emptySnap(100, -1);
    expect(s.client.state).toBe('ingame');
    const changes: (number | undefined)[] = [];
    s.client.on('mapchange', (m) => changes.push(m.data?.length));
    s.vital([{ kind: 'map_change', mapName: 'two', mapCrc: crc32(map) | 0, mapSize: map.length }]);
    expect(changes).toEqual([]);
    expect(s.chunks.at(-1)!.message).toMatchObject({ kind: 'request_map_data', chunk: 0 });
    s.vital([{ kind: 'map_data', last: true, mapCrc: crc32(map) | 0, chunk: 0, chunkSize: map.length, data: map }]);
    expect(changes).toEqual([1000]);
    expect(s.client.map).toMatchObject({ name: 'two', size: 1000, data: map });
    expect(s.chunks.at(-1)!.message.kind).toBe('ready');
    s.client.disconnect();
  });
});

describe('NetClient giving up tells the server (a close packet; else the server keeps the slot)', () => {
  it('a time-out in game, BAD_PEER, a socket error, a 0.7 connect never accepted: each ends with a close packet; a 0.6 connect never answered does not', () => {
    const silent = new Script();
    silent.toIngame();
    vi.advanceTimersByTime(3100);
    expect(silent.closed?.error?.code).toBe('TIMEOUT');
    expect(lastSent(silent)).toMatchObject({ kind: 'control', control: { kind: 'close', reason: 'TIMEOUT' }, securityToken: TOKEN });

    const bad = new Script();
    bad.toIngame();
    for (let i = 0; i < 65; i++) bad.client.receive(Uint8Array.of(0x00, 0x00, 0x05, 0xff));
    expect(lastSent(bad)).toMatchObject({ kind: 'control', control: { kind: 'close', reason: 'BAD_PEER' } });

    const aborted = new Script('0.7');
    aborted.toIngame();
    aborted.client.abort(new NetError('SOCKET', 'gone', -1, 'socket'));
    expect(lastSent(aborted)).toMatchObject({ kind: 'control', header: { token: 0x1234 }, control: { kind: 'close', reason: 'SOCKET' } });

    const unaccepted = new Script('0.7');
    unaccepted.client.start();
    unaccepted.control({ kind: 'token', responseToken: 0x1234 });
    vi.advanceTimersByTime(5100);
    expect(unaccepted.closed?.error?.code).toBe('CONNECT_TIMEOUT');
    expect(lastSent(unaccepted)).toMatchObject({ kind: 'control', header: { token: 0x1234 }, control: { kind: 'close' } });

    const unanswered = new Script();
    unanswered.client.start();
    vi.advanceTimersByTime(5100);
    expect(unanswered.closed?.error?.code).toBe('CONNECT_TIMEOUT');
    expect(unanswered.sent.every((p) => p.control?.kind === 'connect')).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('NetClient with ticks near 2^31 (a hostile server), and errors inside its timer', () => {
  for (const protocol of ['0.6', '0.7'] as const) {
    it(`${protocol}: the prediction tick wraps as DDNet's int does and no input is sent while it is not positive (DDNet 16.4 SendInput); nothing throws from the timer`, () => {
      const s = new Script(protocol);
      s.toIngame();
      s.emptySnap(2 ** 31 - 4, 100);
      vi.advanceTimersByTime(20);
      expect(s.chunks.at(-1)!.message).toMatchObject({ kind: 'input', ackGameTick: 2 ** 31 - 4, predictionTick: 2 ** 31 - 1 });
      s.emptySnap(2 ** 31 - 2, 2 ** 31 - 4);
      const before = s.raw.length;
      expect(() => vi.advanceTimersByTime(1000)).not.toThrow();
      expect(s.closed).toBeUndefined();
      // Keep-alives instead of inputs (and the resends of the chunks this script never acknowledges).
      const kinds = s.sent.slice(before).map((p) => p.control?.kind ?? p.chunks?.[0]?.message.kind);
      expect(kinds).toContain('keep_alive');
      expect(kinds).not.toContain('input');
      s.client.disconnect();
    });
  }

  it('an error inside the timer (a transport that throws) ends the connection with CLIENT_ERROR, not a throw', () => {
    let failing = false;
    const s = new Script('0.6');
    const raw: Uint8Array[] = [];
    const client = new (s.client.constructor as typeof s.client.constructor & (new (...a: ConstructorParameters<typeof import('./client.js').NetClient>) => import('./client.js').NetClient))({ name: 'bot', timeout: 3000 }, (b) => {
      if (failing) throw new TypeError('the transport broke');
      raw.push(b);
    });
    client.start();
    failing = true;
    expect(() => vi.advanceTimersByTime(600)).not.toThrow();
    expect(client.closeReason).toMatchObject({ cause: 'error', error: { code: 'CLIENT_ERROR', message: expect.stringContaining('the transport broke') } });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('NetClient against a hostile or silent server', () => {
  it('no answer to connect: sent again every 500 ms, then CONNECT_TIMEOUT', async () => {
    const s = new Script();
    const ready = s.client.ready();
    s.client.start();
    vi.advanceTimersByTime(6000);
    await expect(ready).rejects.toMatchObject({ code: 'CONNECT_TIMEOUT' });
    expect(s.raw.length).toBeGreaterThanOrEqual(9);
    expect(s.raw.length).toBeLessThanOrEqual(11);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a server that falls silent: TIMEOUT; one that never acknowledges a chunk: TIMEOUT too', () => {
    const s = new Script();
    s.toIngame();
    vi.advanceTimersByTime(3100);
    expect(s.closed).toMatchObject({ cause: 'timeout', error: { code: 'TIMEOUT' } });
    const t = new Script();
    t.toIngame();
    t.client.say('x');
    for (let i = 0; i < 40; i++) (vi.advanceTimersByTime(100), t.emptySnap(102 + 2 * i, 100 + 2 * i));
    expect(t.closed).toMatchObject({ cause: 'timeout', error: { code: 'TIMEOUT', message: expect.stringContaining('unacknowledged') } });
  });

  it('datagrams that do not decode are dropped; more than 64 close the connection with BAD_PEER', () => {
    const s = new Script();
    s.toIngame();
    for (let i = 0; i < 64; i++) s.client.receive(Uint8Array.of(0x00, 0x00, 0x05, 0xff));
    expect(s.closed).toBeUndefined();
    s.client.receive(new Uint8Array(2000));
    expect(s.closed?.error).toBeInstanceOf(NetError);
    expect(s.closed?.error?.code).toBe('BAD_PEER');
  });

  it('packets with another security token are ignored (a forged close does not end the connection)', () => {
    const s = new Script();
    s.toIngame();
    s.client.receive(encodePacket({ protocol: '0.6', kind: 'control', header: { flags: 4, ack: 0, num_chunks: 0 }, flags: ['control'], control: { kind: 'close', id: 4 }, securityToken: TOKEN ^ 1 }));
    expect(s.closed).toBeUndefined();
    s.client.disconnect();
  });

  it('snapshot parts beyond 64 are dropped; snapshots that never rebuild close with BAD_SNAPSHOTS', () => {
    const s = new Script();
    s.toIngame();
    const snapshots: number[] = [];
    s.client.on('snapshot', (e) => snapshots.push(e.tick));
    s.plain([{ kind: 'snap', tick: 102, deltaTick: 2, numParts: 65, part: 0, crc: 0, partSize: 3, data: new Uint8Array(3) }]);
    expect(snapshots).toEqual([]);
    for (let i = 0; i < 65; i++) s.emptySnap(104 + i, -1, 12345);
    expect(snapshots).toEqual([]);
    expect(s.closed?.error?.code).toBe('BAD_SNAPSHOTS');
  });

  it('a server that acknowledges nothing fills the resend buffer: RESEND_BUFFER_FULL; a chunk too big is refused', () => {
    const s = new Script();
    s.toIngame();
    expect(() => s.client.say('x'.repeat(2000))).toThrow(expect.objectContaining({ code: 'CHUNK_TOO_BIG' }));
    for (let i = 0; i < 300 && !s.closed; i++) s.client.say(`line ${i}`);
    expect(s.closed?.error?.code).toBe('RESEND_BUFFER_FULL');
    expect(() => s.client.say('more')).toThrow(expect.objectContaining({ code: 'CLOSED' }));
  });
});

describe('NetClient map download (downloadMap)', () => {
  const map = Uint8Array.from({ length: 2000 }, (_, i) => (i * 31) & 0xff);
  // The CRC as the message carries it: a signed 32-bit int.
  const crc = (bytes: Uint8Array) => crc32(bytes) | 0;
  const requests = (s: Script) => s.chunks.filter((c) => c.message.kind === 'request_map_data').map((c) => (c.message as { chunk?: number }).chunk);
  const kinds = (s: Script) => s.chunks.map((c) => c.message.kind).filter((k) => k !== 'request_map_data' && k !== 'client_ver');

  it("0.6: map_details' SHA-256 and map_change, then request_map_data for chunk 0 and for each next one (as DDNet 16.4's client in ddnet-0.6-session.pcap); ready once the map is whole and checked", async () => {
    const s = new Script('0.6', { downloadMap: true });
    const ready = s.client.ready();
    s.client.start();
    s.control({ kind: 'connect_accept', tokenMagic: true });
    s.vital([{ kind: 'map_details', mapName: 'dl', mapSha256: sha256(map), mapCrc: crc(map), mapSize: map.length }]);
    s.vital([{ kind: 'map_change', mapName: 'dl', mapCrc: crc(map), mapSize: map.length }]);
    expect(requests(s)).toEqual([0]);
    expect(kinds(s)).toEqual(['info']);
    for (let chunk = 0; chunk * 896 < map.length; chunk++) {
      const data = map.subarray(chunk * 896, (chunk + 1) * 896);
      s.vital([{ kind: 'map_data', last: (chunk + 1) * 896 >= map.length, mapCrc: crc(map), chunk, chunkSize: data.length, data }]);
      // A chunk again (the server's window): taken once, no request for it.
      s.vital([{ kind: 'map_data', last: false, mapCrc: crc(map), chunk, chunkSize: data.length, data }]);
    }
    expect(requests(s)).toEqual([0, 1, 2]);
    expect(kinds(s)).toEqual(['info', 'ready']);
    expect(s.client.map).toMatchObject({ name: 'dl', size: 2000, sha256: Buffer.from(sha256(map)).toString('hex') });
    expect(s.client.map!.data).toEqual(map);
    s.vital([{ kind: 'con_ready' }]);
    s.emptySnap(100, -1);
    await ready;
    s.client.disconnect();
  });

  it('0.7: request_map_data for the next chunksPerRequest chunks each time that many arrived; the last takes what is missing', () => {
    const s = new Script('0.7', { downloadMap: true });
    s.client.start();
    s.control({ kind: 'token', responseToken: 0x1234 });
    s.control({ kind: 'accept' });
    s.vital([{ kind: 'map_change', mapName: 'dl', mapCrc: crc(map), mapSize: map.length, chunksPerRequest: 2, chunkSize: 300, mapSha256: sha256(map) }]);
    expect(requests(s)).toHaveLength(1);
    for (let at = 0; at < map.length; at += 300) {
      s.vital([{ kind: 'map_data', data: map.subarray(at, at + 300) }]);
      if (at === 300) expect(requests(s)).toHaveLength(2);
    }
    // 7 chunks: requests after the 2nd, 4th and 6th; the 7th (200 bytes) ends it.
    expect(requests(s)).toHaveLength(4);
    expect(kinds(s)).toEqual(['info', 'ready']);
    expect(s.client.map!.data).toEqual(map);
    s.client.disconnect();
  });

  it('a CRC or SHA-256 that does not match, or a map past maxMapSize, closes the connection with its error; nothing is sent as ready', () => {
    const cases: [Partial<{ crc: number; sha: Uint8Array; max: number }>, string][] = [
      [{ crc: crc(map) ^ 1 }, 'MAP_CRC_MISMATCH'],
      [{ sha: new Uint8Array(32) }, 'MAP_SHA256_MISMATCH'],
      [{ max: 1999 }, 'MAP_TOO_BIG'],
    ];
    for (const [lie, code] of cases) {
      const s = new Script('0.6', { downloadMap: true, ...(lie.max ? { maxMapSize: lie.max } : {}) });
      s.client.start();
      s.control({ kind: 'connect_accept', tokenMagic: true });
      const announced = lie.crc ?? crc(map);
      s.vital([{ kind: 'map_details', mapName: 'dl', mapSha256: lie.sha ?? sha256(map), mapCrc: announced, mapSize: map.length }]);
      s.vital([{ kind: 'map_change', mapName: 'dl', mapCrc: announced, mapSize: map.length }]);
      for (let chunk = 0; chunk * 896 < map.length && !s.closed; chunk++) {
        const data = map.subarray(chunk * 896, (chunk + 1) * 896);
        s.vital([{ kind: 'map_data', last: (chunk + 1) * 896 >= map.length, mapCrc: announced, chunk, chunkSize: data.length, data }]);
      }
      expect(s.closed?.error?.code).toBe(code);
      expect(kinds(s)).toEqual(['info']);
    }
  });

  it('con_ready before the download ended (fuzzer finding of net-client): not in game without the map; a time-out when it never comes whole', () => {
    const s = new Script('0.7', { downloadMap: true });
    s.client.start();
    s.control({ kind: 'token', responseToken: 0x1234 });
    s.control({ kind: 'accept' });
    s.vital([{ kind: 'map_change', mapName: 'dl', mapCrc: crc(map), mapSize: map.length, chunksPerRequest: 8, chunkSize: 1384, mapSha256: sha256(map) }]);
    s.vital([{ kind: 'map_data', data: map.subarray(0, 1384) }]);
    s.vital([{ kind: 'con_ready' }, { kind: 'sv_ready_to_enter' }]);
    s.emptySnap(100, -1);
    expect(s.client.state).toBe('loading');
    expect(kinds(s)).toEqual(['info']);
    // The scripted server then falls silent: the client gives up after its 3 s time-out.
    vi.advanceTimersByTime(3100);
    expect(s.closed?.error?.code).toBe('TIMEOUT');
  });
});

describe('ServerInfoQuery', () => {
  const reply06 = (message: Msg) => encodePacket({ protocol: '0.6', kind: 'connless', header: { form: 'legacy' }, flags: ['connless'], connless: message });
  const client = (name: string) => ({ name, clan: '', country: '-1', score: '0', isPlayer: '1', reserved: '' });

  it("0.6: DDNet's request (connless.pcap's 15 bytes); extended info put together from iext and iex+, other tokens ignored", () => {
    const q = new ServerInfoQuery('0.6');
    const [request] = q.requests();
    expect(request!.length).toBe(15);
    expect(hex(request!.subarray(0, 2))).toBe('7865');
    expect(hex(request!.subarray(6, 14))).toBe(`ffffffff${hex(new TextEncoder().encode('gie3'))}`);
    const extra = (request![2]! << 8) | request![3]!;
    const token = String((extra << 8) | request![14]!);
    const base = { version: '0.6.4, 16.4', name: 'srv', map: 'ctf2', mapCrc: '1', mapSize: '2', gameType: 'DM', flags: '0', numPlayers: '2', maxPlayers: '64', numClients: '2', maxClients: '64', reserved: '' };
    q.receive(reply06({ kind: 'info_extended', token: String(Number(token) ^ 1), ...base, clients: [] }));
    expect(q.result()).toBeUndefined();
    q.receive(reply06({ kind: 'info_extended', token, ...base, clients: [client('a')] }));
    expect(q.done).toBe(false);
    q.receive(reply06({ kind: 'info_extended_more', token, packetNo: '1', reserved: '', clients: [client('b')] }));
    expect(q.done).toBe(true);
    expect(q.result()).toMatchObject({ form: 'info_extended', name: 'srv', map: 'ctf2', numClients: 2, mapCrc: 1, clients: [{ name: 'a', isPlayer: true }, { name: 'b' }] });
  });

  it('0.7: the token request, then the info request with both tokens', () => {
    const q = new ServerInfoQuery('0.7');
    const [tokenRequest] = q.requests();
    expect(tokenRequest!.length).toBe(520);
    const own = decodePacket(tokenRequest!, { protocol: '0.7' }).control!.responseToken as number;
    const [infoRequest] = q.receive(encodePacket({ protocol: '0.7', kind: 'control', header: { flags: 1, ack: 0, num_chunks: 0, token: own }, flags: ['control'], control: { kind: 'token', id: 5, responseToken: 77 } }));
    const request = decodePacket(infoRequest!);
    expect(request).toMatchObject({ header: { form: 'token', token: 77, response_token: own }, connless: { kind: 'get_info' } });
    const info = { kind: 'info', token: request.connless!.token, version: '0.7.5', name: 'seven', hostname: '', map: 'dm1', gameType: 'DM', flags: 0, skillLevel: 1, numPlayers: 0, maxPlayers: 8, numClients: 0, maxClients: 8, clients: [] };
    q.receive(encodePacket({ protocol: '0.7', kind: 'connless', header: { form: 'token', token: own, response_token: 77 }, flags: ['connless'], connless: info }));
    expect(q.done).toBe(true);
    expect(q.result()).toMatchObject({ protocol: '0.7', form: 'info_07', name: 'seven', map: 'dm1', version: '0.7.5' });
  });
});
