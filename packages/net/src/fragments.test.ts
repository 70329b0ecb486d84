import { describe, expect, it } from 'vitest';
import { framesOf, ipv4Fragments, ipv4Packet, ipv6Fragments, ipv6Packet, pcapFile, udpDatagram } from '../../../test/net-capture-builder.js';
import { type CaptureDatagram, decodeCapture, type DecodedPacket, encodePacket, NetError } from './index.js';

/** A DDNet packet of two rcon lines, 1200 bytes of payload: more than one fragment of 256 or 512 bytes. */
const packet: DecodedPacket = {
  protocol: '0.6',
  kind: 'connection',
  header: { flags: 0, ack: 3, num_chunks: 2 },
  flags: [],
  chunks: [600, 580].map((n, i) => ({ flags: [], size: n + 2, message: { kind: 'rcon_line', line: String.fromCharCode(97 + i).repeat(n) } })),
};
const payload = encodePacket(packet);
const datagram = udpDatagram(8303, 5000, payload);
const decoded = (d: CaptureDatagram) => ({ index: d.index, source: d.source, destination: d.destination, packet: d.packet, error: d.error?.code });
const decode = (packets: Uint8Array[]) => [...decodeCapture(pcapFile(framesOf(packets), 101))].map(decoded);

describe('IP fragments in captures', () => {
  it('puts IPv4 fragments together, in any order, into the datagram sent whole', () => {
    const whole = decode([ipv4Packet(datagram)]);
    expect(whole).toHaveLength(1);
    expect(whole[0]!.packet!.chunks).toHaveLength(2);
    const fragments = ipv4Fragments(datagram, 256, { id: 77 });
    expect(fragments.length).toBe(5);
    // One line, when the datagram is complete (at its last frame), with the same packet.
    expect(decode(fragments)).toEqual([{ ...whole[0], index: 4 }]);
    expect(decode([fragments[4]!, fragments[1]!, fragments[0]!, fragments[3]!, fragments[2]!])).toEqual([{ ...whole[0], index: 4 }]);
  });

  it('keeps datagrams of different identifications apart, between whole datagrams', () => {
    const a = ipv4Fragments(datagram, 512, { id: 1 });
    const b = ipv4Fragments(udpDatagram(8303, 5001, payload), 512, { id: 2 });
    const lines = decode([a[0]!, b[0]!, ipv4Packet(datagram), b[1]!, a[1]!, b[2]!, a[2]!]);
    expect(lines.map((d) => [d.index, d.destination, d.error])).toEqual([
      [2, '127.0.0.1:5000', undefined],
      [5, '127.0.0.1:5001', undefined],
      [6, '127.0.0.1:5000', undefined],
    ]);
  });

  it('puts IPv6 fragments (fragment header) together', () => {
    const whole = decode([ipv6Packet(datagram)]);
    expect(whole[0]!.packet!.chunks).toHaveLength(2);
    expect(whole[0]!.source).toBe('[::1]:8303');
    const fragments = ipv6Fragments(datagram, 512, 9);
    expect(decode([fragments[2]!, fragments[0]!, fragments[1]!])).toEqual([{ ...whole[0], index: 2 }]);
  });

  it('gives a datagram whose fragments lie (overlap, end past the last) one typed error, and goes on', () => {
    const f = ipv4Fragments(datagram, 256, { id: 5 });
    const overlapping = ipv4Packet(datagram.subarray(8, 264), { id: 5, offset: 8, more: true });
    const lines = decode([f[0]!, overlapping, ipv4Packet(datagram)]);
    expect(lines.map((d) => [d.index, d.error])).toEqual([
      [1, 'IP_FRAGMENT'],
      [2, undefined],
    ]);
    const pastEnd = decode([f[4]!, ipv4Packet(new Uint8Array(512), { id: 5, offset: 1024, more: true })]);
    expect(pastEnd.map((d) => d.error)).toEqual(['IP_FRAGMENT']);
  });

  it('gives up a datagram whose fragments stop coming: an error line where its first fragment was', () => {
    const f = ipv4Fragments(datagram, 256, { id: 5 });
    const lines = [...decodeCapture(pcapFile(framesOf([f[0]!, f[1]!, ipv4Packet(datagram)]), 101))];
    expect(lines.map((d) => [d.index, d.error?.code])).toEqual([
      [2, undefined],
      [0, 'IP_FRAGMENT'],
    ]);
    expect(lines[1]!.error).toBeInstanceOf(NetError);
    expect(lines[1]!.error!.message).toMatch(/capture ends before its last fragment/);
  });

  it('gives up fragments that do not all come within 30 s of capture time', () => {
    const f = ipv4Fragments(datagram, 512, { id: 5 });
    const frames = framesOf([f[0]!, f[1]!, f[2]!]);
    frames[2]!.seconds = frames[0]!.seconds + 31;
    const lines = [...decodeCapture(pcapFile(frames, 101))];
    expect(lines.map((d) => [d.index, d.error?.code, d.error?.message.match(/within 30 s|capture ends/)?.[0]])).toEqual([
      [0, 'IP_FRAGMENT', 'within 30 s'],
      [2, 'IP_FRAGMENT', 'capture ends'],
    ]);
  });

  it('holds at most 64 datagrams in reassembly: the oldest are given up, each with its error', () => {
    const firsts = Array.from({ length: 200 }, (_, i) => ipv4Fragments(datagram, 512, { id: i })[0]!);
    const frames = framesOf([...firsts, ipv4Packet(datagram)]).map((f) => ({ ...f, seconds: 1_700_000_000 }));
    const lines = [...decodeCapture(pcapFile(frames, 101))].map(decoded);
    expect(lines.filter((d) => d.error === 'IP_FRAGMENT')).toHaveLength(200);
    // The whole datagram is not held up by them; 136 were given up before it came, 64 at the end.
    expect(lines.findIndex((d) => d.packet)).toBe(136);
  });
});
