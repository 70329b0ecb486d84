// The live client fed a real server's datagrams (DDNet 16.4 to DDNet 16.4's client in connless.pcap: the
// security token comes from the server, so the replay connects), as captured and then with bytes flipped and
// cut: it gets into the game and rebuilds every snapshot as the capture tracker does, and the corrupted
// streams never make it throw, hang or keep going past its caps - it stays up or closes with a NetError.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionTracker, decodeCapture, NetClient, NetError, readCapture, udpOf } from '@twcodec/net';
import { corpusDir, hasCorpus, prng, readBytes } from '../corpus.js';

const SERVER = '127.0.0.1:18703';
const CLIENT = '127.0.0.1:64294';

function serverDatagrams(): { bytes: Uint8Array; crcOkSnapshots: number }[] {
  const capture = readBytes(`${corpusDir}/net/connless.pcap`);
  // The tracker's snapshots per datagram, and the datagrams' bytes (decodeCapture keeps no payload).
  const tracker = new ConnectionTracker();
  const rebuilt = new Map<number, number>();
  for (const d of decodeCapture(capture)) rebuilt.set(d.index, tracker.feed(d).snapshots.filter((s) => s.crcOk).length);
  const out: { bytes: Uint8Array; crcOkSnapshots: number }[] = [];
  let index = 0;
  for (const frame of readCapture(capture)) {
    const udp = udpOf(frame);
    if (udp && `${udp.source}:${udp.sourcePort}` === SERVER && `${udp.destination}:${udp.destinationPort}` === CLIENT) out.push({ bytes: udp.payload, crcOkSnapshots: rebuilt.get(index) ?? 0 });
    index++;
  }
  return out;
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe.skipIf(!hasCorpus)('the client replaying connless.pcap (needs ../shared/corpus)', () => {
  it('gets into the game, rebuilds every snapshot the capture tracker does, and delivers the chat', () => {
    const datagrams = serverDatagrams();
    expect(datagrams.length).toBeGreaterThan(100);
    const client = new NetClient({ name: 'Browser' }, () => {});
    let snapshots = 0;
    const chat: string[] = [];
    client.on('snapshot', () => snapshots++);
    client.on('message', (m) => m.message.kind === 'sv_chat' && chat.push(String(m.message.message)));
    client.start();
    for (const d of datagrams) (client.receive(d.bytes), vi.advanceTimersByTime(10));
    expect(client.state).toBe('ingame');
    expect(snapshots).toBe(datagrams.reduce((n, d) => n + d.crcOkSnapshots, 0));
    expect(chat).toContain("'Browser' entered and joined the game");
    client.disconnect();
  });

  it('flipped and cut datagrams: the client never throws; it stays up or closes with a NetError', () => {
    const datagrams = serverDatagrams();
    const random = prng(27);
    for (let round = 0; round < 30; round++) {
      const client = new NetClient({ name: 'Browser' }, () => {});
      client.start();
      for (const { bytes } of datagrams) {
        let v = bytes.slice();
        if (random() < 0.3) for (let j = 0; j < 1 + Math.floor(random() * 3); j++) v[Math.floor(random() * v.length)] = Math.floor(random() * 256);
        if (random() < 0.1) v = v.subarray(0, Math.floor(random() * v.length));
        client.receive(v);
        vi.advanceTimersByTime(10);
        if (client.state === 'closed') break;
      }
      if (client.closeReason?.error) expect(client.closeReason.error).toBeInstanceOf(NetError);
      client.disconnect();
      expect(vi.getTimerCount()).toBe(0);
    }
  });
});
