// A Teeworlds 0.7.5 client on DDNet-Server 16.4 (which takes 0.7 clients, sv_sixup 1): the first 9 seconds of
// a session recorded with ../shared/corpus/net/RECIPE-NET.sh (tw07 mode, server ddnet, map Gold Mine, which the
// client held: no download; scripts/net-fixture-sixup.mjs), and the first 93 snapshots of the demo the client
// recorded in it, without its map (fixtures/LICENSE.md).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDemo } from '@twcodec/demo';
import type { SnapshotItem } from '@twcodec/snapshot';
import { fixturesDir, readBytes } from '../../../test/corpus.js';
import { Script } from '../../../test/net-script-server.js';
import { captureDemo, ConnectionTracker, decodeCapture, decodePacket, encodePacket, readCapture, udpOf } from './index.js';

const byKey = (items: readonly SnapshotItem[]) => [...items].sort((a, b) => a.type - b.type || a.id - b.id);
const capture = () => readBytes(join(fixturesDir, 'net', 'teeworlds-0.7-on-ddnet-cut.pcap'));
const SERVER = '127.0.0.1:18514';
/** DDNet's copy of Gold Mine for 0.7 clients (ddnet-data): the capture announces it but holds no download. */
const GOLD_MINE_07 = '/usr/share/games/ddnet/data/maps7/Gold Mine.map';

describe('a Teeworlds 0.7.5 client on DDNet-Server 16.4 (teeworlds-0.7-on-ddnet-cut.pcap)', () => {
  const datagrams = [...decodeCapture(capture())];
  const chunks = datagrams.flatMap((d) => (d.packet?.chunks ?? []).map((c) => ({ from: d.source, chunk: c })));

  it('decodes every datagram, each back to its bytes', () => {
    expect(datagrams.length).toBe(380);
    expect(datagrams.filter((d) => d.error).map((d) => `${d.index}: ${d.error!.message}`)).toEqual([]);
    const payloads = new Map([...readCapture(capture())].map((f) => [f.index, udpOf(f)!.payload]));
    expect(datagrams.filter((d) => !encodePacket(d.packet!).every((b, i, a) => a.length === payloads.get(d.index)!.length && b === payloads.get(d.index)![i])).map((d) => d.index)).toEqual([]);
  });

  it("takes DDNet's 12-byte accept: the server's token after the message, the one the client's headers carry", () => {
    const accept = datagrams.find((d) => d.packet?.control?.kind === 'accept')!;
    const clientHeaders = datagrams.filter((d) => d.destination === SERVER && d.packet?.kind === 'connection').map((d) => d.packet!.header.token);
    expect(accept.packet!.control).toMatchObject({ kind: 'accept', token: clientHeaders[0] });
    expect(new Set(clientHeaders).size).toBe(1);
    // A Teeworlds server's accept (8 bytes: no token) still decodes.
    const bare = encodePacket({ ...accept.packet!, control: { kind: 'accept', id: 2 } });
    expect(bare.length).toBe(8);
    expect(decodePacket(bare, { protocol: '0.7' }).control).toEqual({ kind: 'accept', id: 2 });
  });

  it("decodes DDNet's UUID messages, the 0.7 input's ping correction and DDNet's 15-string vote lists, with nothing left over", () => {
    const kinds = new Set(chunks.map((c) => c.chunk.message.kind));
    for (const kind of ['rcon_type', 'capabilities', 'map_details', 'sv_vote_option_list_add']) expect(kinds).toContain(kind);
    expect(kinds).not.toContain('unknown');
    expect(chunks.filter((c) => (c.chunk.message as { trailing?: Uint8Array }).trailing?.length).map((c) => c.chunk.message.kind)).toEqual([]);
    const inputs = chunks.filter((c) => c.chunk.message.kind === 'input').map((c) => c.chunk.message as unknown as { pingCorrection: number });
    expect(inputs.length).toBeGreaterThan(100);
    expect(inputs.every((m) => Number.isInteger(m.pingCorrection))).toBe(true);
    const votes = chunks.find((c) => c.chunk.message.kind === 'sv_vote_option_list_add')!.chunk.message as unknown as { numOptions: number; descriptions: string[]; unused: string[] };
    expect(votes.descriptions.length).toBe(votes.numOptions);
    expect(votes.unused).toEqual(new Array(15 - votes.numOptions).fill(''));
    expect(chunks.find((c) => c.chunk.message.kind === 'map_details')!.chunk.message).toMatchObject({ mapName: 'Gold Mine', mapSize: 598695 });
  });

  it("rebuilds every snapshot with its CRC right: DDNet's deltas carry the race items' sizes", () => {
    const tracker = new ConnectionTracker();
    const rebuilt = datagrams.flatMap((d) => tracker.feed(d).snapshots);
    expect(rebuilt.length).toBe(208);
    expect(rebuilt.filter((s) => !s.crcOk || !s.snapshot).map((s) => s.tick)).toEqual([]);
    expect(rebuilt.every((s) => s.snapshot!.items.some((i) => i.type === 24))).toBe(true);
  });

  it.skipIf(!existsSync(GOLD_MINE_07))("net demo writes the client's own demo: the same snapshots, de_client_info included, on every tick both hold", () => {
    const result = captureDemo(capture(), { player: 'Echo', map: readBytes(GOLD_MINE_07) });
    expect(result).toMatchObject({ protocol: '0.7', snapshots: 208, switchTicks: [] });
    const ours = new Map([...readDemo(result.demo).snapshots()].map(({ tick, snapshot }) => [tick, snapshot]));
    let both = 0;
    for (const { tick, snapshot } of readDemo(readBytes(join(fixturesDir, 'net', 'teeworlds-0.7-on-ddnet-cut_client07_Echo.demo'))).snapshots()) {
      if (!ours.has(tick)) continue;
      both++;
      // The same items; the client's demo holds them in key order (Teeworlds 0.7.5 src/engine/shared/snapshot.cpp:
      // CSnapshotBuilder::Finish sorts a snapshot's items by key), net demo in the server's order.
      expect(byKey(ours.get(tick)!.items)).toEqual(byKey(snapshot.items));
      expect(snapshot.items.some((i) => i.type === 13)).toBe(true);
    }
    expect(both).toBeGreaterThan(55);
  });
});

describe("the live client and DDNet's 0.7 accept", () => {
  it('goes on after a 12-byte accept (the token after the message): it sends its info and plays', () => {
    const s = new Script('0.7');
    s.client.start();
    s.control({ kind: 'token', responseToken: 0x1234 });
    // As DDNet-Server 16.4 sends it (teeworlds-0.7-on-ddnet-cut.pcap): control flag, no ack, no chunks, the
    // client's token; then accept (2) and the server's token.
    const t = s.clientToken();
    s.client.receive(Uint8Array.of(0x04, 0, 0, t >>> 24, (t >>> 16) & 0xff, (t >>> 8) & 0xff, t & 0xff, 2, 0, 0, 0x12, 0x34));
    expect(s.client.state).toBe('loading');
    expect(s.chunks.map((c) => c.message.kind)).toContain('info');
    s.vital([{ kind: 'map_change', mapName: 'ctf2', mapCrc: 0x27bc5eac, mapSize: 25626, chunksPerRequest: 8, chunkSize: 1384, mapSha256: new Uint8Array(32) }, { kind: 'con_ready' }, { kind: 'sv_ready_to_enter' }]);
    s.emptySnap(100, -1);
    expect(s.client.state).toBe('ingame');
    s.client.disconnect();
  });
});
