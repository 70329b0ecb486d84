// Teeworlds 0.7 demos: a slice of a demo the genuine Teeworlds 0.7.5 client recorded (fixtures/demos/
// tw07_client_Charlie_chat.demo, cut with `twcodec demo slice` from corpus/net's client demo, ticks 1400-1560:
// the chat line and the team chat line of RECORDING-NET.txt). The corpus suites run the same checks on every
// demo of corpus/net (test/demo).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DDNET_0_6, Snapshot, snapshotObjects, TEEWORLDS_0_7 } from '@twcodec/snapshot';
import { fixturesDir, readBytes } from '../../../test/corpus.js';
import { demoChat, demoMessages, demoPlayers, demoProtocolOf, DemoWriter, readDemo, resaveDemo, sliceDemo } from './index.js';

const sevenDemo = () => readBytes(join(fixturesDir, 'demos', 'tw07_client_Charlie_chat.demo'));

describe('Teeworlds 0.7 demos', () => {
  it('take their protocol from the header net version', () => {
    expect(demoProtocolOf('0.7 802f1be60a05665f').name).toBe('teeworlds-0.7');
    expect(demoProtocolOf('0.6 626fce9a778df4d4').name).toBe('ddnet-0.6');
    expect(demoProtocolOf('').name).toBe('ddnet-0.6');
    const demo = readDemo(sevenDemo());
    expect(demo.header).toMatchObject({ version: 4, netVersion: '0.7 802f1be60a05665f', mapName: 'ctf2', mapCrc: '4a5ee326', type: 'client' });
    expect(demo.protocol.name).toBe('teeworlds-0.7');
    expect(demo.protocol.snapshots).toBe(TEEWORLDS_0_7);
  });

  it('decode one snapshot per tick marker with the 0.7 item sizes (0.6 sizes fail at the first delta)', () => {
    const demo = readDemo(sevenDemo());
    const markers = [...demo.chunks()].filter((c) => c.kind === 'tick').length;
    const snapshots = [...demo.snapshots()];
    expect(markers).toBe(80);
    expect(snapshots).toHaveLength(markers);
    expect(snapshots.filter((s) => s.source === 'delta').length).toBeGreaterThan(0);
    // The 0.7 objects by name: the local player's character and the demo-only client info.
    const last = snapshotObjects(snapshots.at(-1)!.snapshot, TEEWORLDS_0_7);
    expect(last.items('character').map((c) => c.item.id)).toEqual([0]);
    expect(last.items('de_client_info').map((c) => [c.name, c.clan, c.local])).toEqual([['Charlie', 'netcap07', true]]);
    expect(last.validate()).toEqual([]);
    // Read as 0.6 (what every command did before), the deltas do not apply.
    expect(() => [...demo.snapshots(DDNET_0_6)]).toThrowError(expect.objectContaining({ code: expect.stringMatching(/SIZE_MISMATCH|TRUNCATED/) }));
  });

  it('resave byte for byte, and slices read back', () => {
    const bytes = sevenDemo();
    expect(resaveDemo(bytes)).toEqual(bytes);
    const slice = sliceDemo(bytes, { from: 1430, to: 1540 });
    const read = readDemo(slice);
    expect(read.protocol.name).toBe('teeworlds-0.7');
    const ticks = [...read.snapshots()].map((s) => s.tick);
    expect(ticks[0]).toBeGreaterThanOrEqual(1430);
    expect(ticks.at(-1)).toBeLessThanOrEqual(1540);
    expect(resaveDemo(slice)).toEqual(slice);
  });

  it('name players from de_client_info items and decode messages with the 0.7 table', () => {
    const demo = readDemo(sevenDemo());
    expect(demoPlayers(demo).map((p) => ({ clientId: p.clientId, name: p.name, clan: p.clan }))).toEqual([{ clientId: 0, name: 'Charlie', clan: 'netcap07' }]);
    const player = demoPlayers(demo)[0]!;
    expect('skinParts' in player && player.skinParts).toHaveLength(6);
    expect([...demoMessages(demo)].map((m) => [m.protocol, m.message.kind])).toEqual([
      ['teeworlds-0.7', 'sv_chat'],
      ['teeworlds-0.7', 'sv_chat'],
    ]);
    // The recording started after Charlie joined: no sv_client_info message, the name comes from the items.
    expect(demoChat(demo)).toEqual([
      { tick: 1436, clientId: 0, name: 'Charlie', team: 0, text: 'Hi from Charlie (Teeworlds 0.7.5)! äöü 日本語' },
      { tick: 1532, clientId: 0, name: 'Charlie', team: 1, text: 'Team chat from Charlie (0.7)' },
    ]);
  });

  it("a 0.7 demo with DDNet's extras (a 0.7 client on a DDNet server): UUID-typed items and race objects survive", () => {
    // What DDNet sends a 0.7 client: 0.7 objects, its race extensions (types 23, 24 in the 0.7 schema) and
    // UUID-typed items. Written by DemoWriter with the 0.7 net version, read back with the 0.7 tables.
    const uuidItem = Uint32Array.from([0x54ecad2e, 0xbfad3be5, 0x8903621b, 0xa052458e]);
    const snap = (tick: number, x: number) =>
      new Snapshot([
        { type: 0, id: 0x7fff, data: new Int32Array(uuidItem.buffer) },
        { type: 4, id: 1, data: Int32Array.from([x, 64, 1]) },
        { type: 23, id: 0, data: Int32Array.from([tick - 5]) },
        { type: 0x7fff, id: 3, data: Int32Array.from([x, 2, 7]) },
      ]);
    const writer = new DemoWriter({ netVersion: '0.7 802f1be60a05665f', mapName: 'dm1', mapCrc: '00000000', type: 'client', timestamp: '2026-11-23_16-00-00', version: 4 }, undefined);
    for (let tick = 100; tick < 110; tick++) writer.snapshot(tick, snap(tick, tick * 10));
    const bytes = writer.finish();
    const demo = readDemo(bytes);
    const read = [...demo.snapshots()];
    expect(read.map((s) => s.tick)).toEqual([100, 101, 102, 103, 104, 105, 106, 107, 108, 109]);
    read.forEach((s, i) => expect(s.snapshot.items).toEqual(snap(100 + i, (100 + i) * 10).items));
    expect(resaveDemo(bytes)).toEqual(bytes);
  });
});
