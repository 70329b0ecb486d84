// What docs/formats/network.md says about the connection, checked on the corpus captures it names
// (RECORDING-NET.txt) and on the fixture of a 0.7 client on DDNet-Server: the handshakes byte by byte, the
// sequence and ack numbers, the one-port rule, and what the captures do not hold (resends, keep-alives).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CaptureDatagram, decodeCapture, readCapture, udpOf } from '../../packages/net/src/index.js';
import { corpusDir, fixturesDir, hasCorpus, readBytes } from '../corpus.js';

interface Datagram extends CaptureDatagram {
  payload: Uint8Array;
}
function datagrams(path: string): Datagram[] {
  const bytes = readBytes(path);
  const payloads = [...readCapture(bytes)].map((f) => udpOf(f)!.payload);
  return [...decodeCapture(bytes)].map((d) => ({ ...d, payload: payloads[d.index]! }));
}
const corpus = (name: string) => join(corpusDir, 'net', name);
const token = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
/** The client's address of a connection datagram: the side that is not the server's port. */
const clientOf = (d: Datagram, serverPort: string) => (d.source.endsWith(`:${serverPort}`) ? d.destination : d.source);

describe.skipIf(!hasCorpus)('network.md on the corpus captures', () => {
  it('ddnet-0.6-session.pcap: connect (TKEN, ff ff ff ff), connect_accept (TKEN, token), accept (token) per connection; one token for the address', () => {
    const all = datagrams(corpus('ddnet-0.6-session.pcap')).filter((d) => d.packet?.kind === 'control');
    const byClient = new Map<string, Datagram[]>();
    for (const d of all) byClient.set(clientOf(d, '18403'), [...(byClient.get(clientOf(d, '18403')) ?? []), d]);
    expect(byClient.size).toBe(4);
    const tokens = new Set<number>();
    for (const list of byClient.values()) {
      expect(list.slice(0, 3).map((d) => d.packet!.control!.kind)).toEqual(['connect', 'connect_accept', 'accept']);
      const [connect, accept0, accept] = list as [Datagram, Datagram, Datagram];
      expect(Array.from(connect.payload.subarray(3))).toEqual([1, 0x54, 0x4b, 0x45, 0x4e, 0xff, 0xff, 0xff, 0xff]);
      expect(Array.from(accept0.payload.subarray(3, 8))).toEqual([2, 0x54, 0x4b, 0x45, 0x4e]);
      expect(accept.payload.length).toBe(3 + 1 + 4);
      expect(Array.from(accept.payload.subarray(4))).toEqual(Array.from(accept0.payload.subarray(8)));
      tokens.add(token(accept0.payload, 8));
      // The clients in the corpus close without a reason.
      expect(list.at(-1)!.packet!.control).toEqual({ kind: 'close', id: 4 });
    }
    expect(tokens.size).toBe(1);
    // Control packets are never compressed.
    expect(all.filter((d) => d.packet!.flags.includes('compression'))).toEqual([]);
  });

  it.each(['ddnet-0.6-session.pcap', 'teeworlds-0.7-session.pcap'])('%s: vital sequences start at 1 and go up by 1; acks never pass what the peer sent; no resend, duplicate or keep_alive', (name) => {
    const all = datagrams(corpus(name));
    const sent = new Map<string, number>();
    const acked = new Map<string, number>();
    for (const d of all) {
      const p = d.packet;
      if (!p || p.kind === 'connless') continue;
      // A direction of one connection (each client has a port of its own).
      const from = `${d.source}>${d.destination}`;
      const to = `${d.destination}>${d.source}`;
      expect(p.flags).not.toContain('resend');
      expect(p.control?.kind).not.toBe('keep_alive');
      for (const c of p.chunks ?? []) {
        expect(c.flags).not.toContain('resend');
        if (c.sequence === undefined) continue;
        expect(c.sequence).toBe((sent.get(from) ?? 0) + 1);
        sent.set(from, c.sequence);
      }
      // No session here wraps past 1023, so plain comparisons hold.
      const ack = p.header.ack as number;
      expect(ack).toBeLessThanOrEqual(sent.get(to) ?? 0);
      expect(ack).toBeGreaterThanOrEqual(acked.get(from) ?? 0);
      acked.set(from, ack);
    }
    expect(Math.max(...sent.values())).toBeLessThan(1024);
  });

  it('teeworlds-0.7-session.pcap: token request (520 bytes, header token ffffffff), token, connect with the server token, accept without one', () => {
    const [request, reply, connect, accept, first] = datagrams(corpus('teeworlds-0.7-session.pcap')) as [Datagram, Datagram, Datagram, Datagram, Datagram];
    expect([request, reply, connect, accept].map((d) => d.packet!.control!.kind)).toEqual(['token', 'token', 'connect', 'accept']);
    expect(request.payload.length).toBe(520);
    expect(token(request.payload, 3)).toBe(0xffffffff);
    expect(request.payload.subarray(12).every((b) => b === 0)).toBe(true);
    const clientToken = token(request.payload, 8);
    expect(token(reply.payload, 3)).toBe(clientToken);
    const serverToken = token(reply.payload, 8);
    expect(connect.payload.length).toBe(520);
    expect(token(connect.payload, 3)).toBe(serverToken);
    expect(token(connect.payload, 8)).toBe(clientToken);
    expect(Array.from(accept.payload)).toEqual([0x04, 0, 0, ...reply.payload.subarray(3, 7), 2]);
    expect(first.packet!.chunks!.map((c) => [c.message.kind, c.sequence])).toEqual([['info', 1]]);
    expect(token(first.payload, 3)).toBe(serverToken);
  });

  it('one port: 0.7 connection packets set b[0] & 4, 0.6 ones never; 0.7 connless headers have low bits 01, 0.6 ones 11 or 00', () => {
    const ddnet = datagrams(corpus('ddnet-0.6-session.pcap'));
    expect(ddnet.filter((d) => d.packet?.kind !== 'connless' && d.payload[0]! & 4)).toEqual([]);
    const sixup = datagrams(join(fixturesDir, 'net', 'teeworlds-0.7-on-ddnet-cut.pcap'));
    const controls = sixup.filter((d) => d.packet?.kind === 'control');
    expect(controls.length).toBeGreaterThanOrEqual(4);
    expect(controls.every((d) => d.packet!.protocol === '0.7' && (d.payload[0]! & 4) !== 0)).toBe(true);
    // DDNet's server adds its token to a 0.7 accept: the header token of the client's later packets.
    const accept = controls.find((d) => d.packet!.control!.kind === 'accept')!;
    const after = sixup.find((d) => d.index > accept.index && d.source === accept.destination)!;
    expect(accept.payload.length).toBe(7 + 1 + 4);
    expect(token(accept.payload, 8)).toBe(token(after.payload, 3));
    const connless = datagrams(corpus('connless.pcap')).filter((d) => d.packet?.kind === 'connless');
    expect(connless.length).toBe(6);
    for (const d of connless) expect(d.packet!.protocol === '0.7' ? [1] : [0, 3]).toContain(d.payload[0]! & 3);
  });

  it.each(['ddnet-0.6-session.pcap', 'teeworlds-0.7-session.pcap', 'connless.pcap'])('%s: each connection starts with the client\'s connect or token request; snapshot messages come only from the server, inputs only from the client', (name) => {
    const firsts = new Map<string, Datagram>();
    const flowOf = (d: Datagram) => [d.source, d.destination].sort().join(' ');
    let snaps = 0;
    for (const d of datagrams(corpus(name))) {
      const p = d.packet;
      if (!p || p.kind === 'connless') continue;
      if (!firsts.has(flowOf(d))) firsts.set(flowOf(d), d);
      const server = firsts.get(flowOf(d))!.destination;
      for (const c of p.chunks ?? []) {
        const kind = c.message.kind;
        if (kind === 'snap' || kind === 'snap_single' || kind === 'snap_empty') {
          snaps++;
          expect(d.source).toBe(server);
        }
        if (kind === 'input') expect(d.destination).toBe(server);
      }
    }
    for (const first of firsts.values()) {
      const p = first.packet!;
      expect(p.control?.kind).toBe(p.protocol === '0.7' ? 'token' : 'connect');
      if (p.protocol === '0.7') expect(token(first.payload, 3)).toBe(0xffffffff);
    }
    expect(snaps > 0).toBe(firsts.size > 0);
  });
});
