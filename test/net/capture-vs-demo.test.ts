// The snapshots the connection tracker rebuilds from a capture are the ones the clients saw: on every tick that
// both hold, the checksum of a client's own demo snapshot equals that of the snapshot rebuilt from the packets
// sent to that client (RECORDING-NET.txt: the demos were recorded during the captured sessions). A DDNet client
// records the connection it controls, its own or its dummy's (cl_dummy); a Teeworlds 0.7 client adds the
// demo-only items de_client_info, de_game_info and de_tune_params (types 13-15), left out of the comparison.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDemo } from '@twcodec/demo';
import { ConnectionTracker, decodeCapture } from '@twcodec/net';
import { corpusDir, corpusFiles, readBytes } from '../corpus.js';

const captures = corpusFiles('net', '.pcap');

/** Per destination endpoint: tick -> checksum of every snapshot rebuilt with its CRC right. */
function rebuilt(name: string): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  const tracker = new ConnectionTracker();
  for (const d of decodeCapture(readBytes(join(corpusDir, 'net', name))))
    for (const s of tracker.feed(d).snapshots) {
      if (!s.crcOk || !s.snapshot) continue;
      let ticks = out.get(d.destination);
      if (!ticks) out.set(d.destination, (ticks = new Map()));
      ticks.set(s.tick, s.snapshot.checksum());
    }
  return out;
}

describe.skipIf(!captures.length)('captures against the demos recorded beside them', () => {
  it.each([
    ['teeworlds-0.7-session.pcap', 'teeworlds-0.7-session_client07_Charlie_client07.demo', ['127.0.0.1:58601']],
    ['ddnet-0.6-session.pcap', 'ddnet-0.6-session_clientAlpha_record_Alpha_client.demo', ['127.0.0.1:22764', '127.0.0.1:26953']],
    ['ddnet-0.6-session.pcap', 'ddnet-0.6-session_clientBravo_record_Bravo_client.demo', ['127.0.0.1:14671', '127.0.0.1:62018']],
  ])('%s and %s: the same checksum on every tick both hold', (capture, demoName, clients) => {
    const all = rebuilt(capture);
    const connections = clients.map((c) => all.get(c)!);
    const demo = readDemo(readBytes(join(corpusDir, 'net', demoName)));
    const seven = demo.protocol.name === 'teeworlds-0.7';
    let both = 0;
    const differ: number[] = [];
    for (const { tick, snapshot } of demo.snapshots()) {
      const sums = connections.flatMap((c) => (c.has(tick) ? [c.get(tick)!] : []));
      if (!sums.length) continue;
      both++;
      let sum = 0;
      for (const item of snapshot.items) if (!seven || item.type < 13 || item.type > 15) for (const v of item.data) sum = (sum + v) | 0;
      if (!sums.includes(sum)) differ.push(tick);
    }
    expect(differ).toEqual([]);
    expect(both).toBeGreaterThan(500);
  });
});
