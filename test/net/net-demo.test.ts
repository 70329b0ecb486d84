// `net demo` on the corpus captures: the demo written for each player has, on every tick it shares with a demo
// that player's client recorded itself during the capture (RECORDING-NET.txt: console record, auto demos,
// replays), the same snapshot checksum. The one exception is a DDNet client switching between its own tee and
// its dummy: a snapshot that arrived in the frame or two of the switch may be the other connection's
// (switchTicks; the capture does not show the frame the switch happened in), and only there.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoMessages, readDemo, resaveDemo } from '@twcodec/demo';
import { captureDemo } from '@twcodec/net';
import { corpusDir, corpusFiles, readBytes } from '../corpus.js';

const captures = corpusFiles('net', '.pcap');
const net = join(corpusDir, 'net');
const demosOf = (prefix: string) => readdirSync(net).filter((f) => f.startsWith(prefix) && f.endsWith('.demo'));

describe.skipIf(!captures.length)('net demo: the demo each player of a capture would have recorded', () => {
  it.each([
    ['ddnet-0.6-session.pcap', 'Alpha', 'ddnet-0.6-session_clientAlpha_', undefined],
    ['ddnet-0.6-session.pcap', 'Bravo', 'ddnet-0.6-session_clientBravo_', undefined],
    ['teeworlds-0.7-session.pcap', 'Charlie', 'teeworlds-0.7-session_client07_Charlie', 'maps/tw07/ctf2.map'],
  ])('%s, %s: the checksum of the client demos on every tick both hold', (capture, player, prefix, map) => {
    const result = captureDemo(readBytes(join(net, capture)), { player, ...(map ? { map: readBytes(join(corpusDir, map)) } : {}) });
    const ours = new Map<number, number>();
    for (const { tick, snapshot } of readDemo(result.demo).snapshots()) ours.set(tick, snapshot.checksum());
    const demos = demosOf(prefix);
    expect(demos.length).toBeGreaterThan(0);
    let both = 0;
    const differ = new Set<number>();
    const [first, last] = [Math.min(...ours.keys()), Math.max(...ours.keys())];
    const missing = new Set<number>();
    for (const name of demos)
      for (const { tick, snapshot } of readDemo(readBytes(join(net, name))).snapshots()) {
        // A tick the client recorded while ours recorded around it (a dummy connecting, say) is in ours too.
        if (!ours.has(tick) && tick > first && tick < last) missing.add(tick);
        if (!ours.has(tick)) continue;
        both++;
        if (ours.get(tick) !== snapshot.checksum()) differ.add(tick);
      }
    expect(both).toBeGreaterThan(1000);
    expect([...missing]).toEqual([]);
    const switchTicks = new Set(result.switchTicks);
    expect([...differ].filter((t) => !switchTicks.has(t))).toEqual([]);
    // Switches are rare moments: a few ticks of thousands.
    expect(result.switchTicks.length).toBeLessThan(result.snapshots / 100);
    if (player !== 'Charlie') expect(result).toMatchObject({ dummySnapshots: expect.any(Number), map: { from: 'capture' } });
    expect(resaveDemo(result.demo)).toEqual(result.demo);
  });

  it('teeworlds-0.7-session.pcap, Charlie: the messages of the 0.7.5 client\'s own demo, at their ticks (none from before the first snapshot)', () => {
    const result = captureDemo(readBytes(join(net, 'teeworlds-0.7-session.pcap')), { player: 'Charlie', map: readBytes(join(corpusDir, 'maps/tw07/ctf2.map')) });
    const messagesOf = (bytes: Uint8Array) => [...demoMessages(readDemo(bytes))].map((m) => JSON.stringify([m.tick, m.message]));
    const own = messagesOf(readBytes(join(net, 'teeworlds-0.7-session_client07_Charlie_client07.demo')));
    expect(own.length).toBeGreaterThan(5);
    expect(messagesOf(result.demo)).toEqual(own);
  });

  it.each([
    ['Browser', 'maps/ddnet/ctf2.map'],
    ['Browser07', 'maps/tw07/dm1.map'],
  ])('connless.pcap, %s (no demo of its own): a demo that reads back and resaves to its bytes', (player, map) => {
    const result = captureDemo(readBytes(join(net, 'connless.pcap')), { player, map: readBytes(join(corpusDir, map)) });
    const demo = readDemo(result.demo);
    expect([...demo.snapshots()].length).toBe(result.snapshots);
    expect(result.snapshots).toBeGreaterThan(100);
    expect(resaveDemo(result.demo)).toEqual(result.demo);
  });
});
