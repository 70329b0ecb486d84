import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodecError, teeworldsHuffman } from '@twcodec/runtime';
import { corpusDir, fixturesDir, hasCorpus, readBytes } from '../../../test/corpus.js';
import { pcapFile } from '../../../test/net-capture-builder.js';
import {
  type CaptureDatagram,
  type CaptureFrame,
  decodeCapture,
  decodePacket,
  encodePacket,
  NetError,
  readCapture,
  udpOf,
} from './index.js';
// The header codecs are internal (decodePacket and encodePacket use them): tested where they are generated.
import { decodeDdnet06ChunkHeader, decodeDdnet06ChunkHeaderVital, encodeDdnet06ChunkHeader } from './generated/ddnet-0.6.gen.js';
import { decodeTeeworlds07PacketHeader, encodeTeeworlds07PacketHeader } from './generated/teeworlds-0.7.gen.js';

const fixture = () => readBytes(join(fixturesDir, 'net', 'teeworlds-0.7-cut.pcap'));
const chatOf = (lines: CaptureDatagram[]) =>
  lines.flatMap((d) => (d.packet?.chunks ?? []).flatMap((c) => (c.message.kind === 'cl_say' || c.message.kind === 'sv_chat' ? [`${c.message.kind} ${(c.message as unknown as { message: string }).message}`] : [])));
/** Datagrams whose packet does not encode back to the bytes it was decoded from (by frame index). */
function notRoundTripping(bytes: Uint8Array): number[] {
  const payloads = new Map([...readCapture(bytes)].map((f) => [f.index, udpOf(f)?.payload]));
  return [...decodeCapture(bytes)].filter((d) => {
    const original = payloads.get(d.index)!;
    const again = encodePacket(d.packet!);
    return again.length !== original.length || again.some((b, i) => b !== original[i]);
  }).map((d) => d.index);
}

/** What a datagram decodes to, without where it sits in the file. */
const decoded = (d: CaptureDatagram) => ({ source: d.source, destination: d.destination, packet: d.packet, error: d.error?.code });

// --- captures written from frames, in every layout the reader takes ---------------------------------------

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}

function pcapngFile(frames: { data: Uint8Array; seconds: number; nanoseconds: number }[], linkType: number, little: boolean): Uint8Array {
  const block = (type: number, body: Uint8Array) => {
    const padded = (body.length + 3) & ~3;
    const b = new DataView(new ArrayBuffer(12 + padded));
    b.setUint32(0, type, little);
    b.setUint32(4, 12 + padded, little);
    new Uint8Array(b.buffer).set(body, 8);
    b.setUint32(8 + padded, 12 + padded, little);
    return new Uint8Array(b.buffer);
  };
  const shb = new DataView(new ArrayBuffer(16));
  shb.setUint32(0, 0x1a2b3c4d, little);
  shb.setUint16(4, 1, little);
  shb.setBigInt64(8, -1n, little);
  // Interface with if_tsresol 9 (nanoseconds), then the end of options.
  const idb = new DataView(new ArrayBuffer(20));
  idb.setUint16(0, linkType, little);
  idb.setUint32(4, 262144, little);
  idb.setUint16(8, 9, little);
  idb.setUint16(10, 1, little);
  idb.setUint8(12, 9);
  const parts: Uint8Array[] = [block(0x0a0d0d0a, new Uint8Array(shb.buffer)), block(1, new Uint8Array(idb.buffer))];
  for (const f of frames) {
    const ticks = BigInt(f.seconds) * 1_000_000_000n + BigInt(f.nanoseconds);
    const epb = new DataView(new ArrayBuffer(20 + f.data.length));
    epb.setUint32(4, Number(ticks >> 32n), little);
    epb.setUint32(8, Number(ticks & 0xffffffffn), little);
    epb.setUint32(12, f.data.length, little);
    epb.setUint32(16, f.data.length, little);
    new Uint8Array(epb.buffer).set(f.data, 20);
    parts.push(block(6, new Uint8Array(epb.buffer)));
  }
  return concat(parts);
}

/** The IPv4 packet inside an Ethernet frame of the fixture. */
const ipv4Of = (f: CaptureFrame) => f.data.subarray(14);

/** The same UDP datagram over IPv6 (::1 to ::1, ports kept). */
function ipv6Of(f: CaptureFrame): Uint8Array {
  const ip4 = ipv4Of(f);
  const udp = ip4.subarray((ip4[0]! & 0x0f) * 4);
  const out = new Uint8Array(40 + udp.length);
  out[0] = 0x60;
  out[4] = udp.length >> 8;
  out[5] = udp.length & 0xff;
  out[6] = 17;
  out[7] = 64;
  out[23] = 1;
  out[39] = 1;
  out.set(udp, 40);
  return out;
}

const withHeader = (header: number[], ip: Uint8Array) => concat([new Uint8Array(header), ip]);

describe('pcap reader', () => {
  const frames = [...readCapture(fixture())];
  const plain = frames.map((f) => ({ data: f.data, seconds: f.seconds, nanoseconds: f.nanoseconds }));
  const expected = [...decodeCapture(fixture())].map(decoded);

  it('reads the fixture: one datagram per frame, every one decoded', () => {
    expect(expected).toHaveLength(257);
    expect(expected.filter((d) => d.error)).toEqual([]);
    expect(frames[0]!.seconds).toBeGreaterThan(1.7e9);
  });

  it('refuses a protocol option that names no protocol with a typed error at the first datagram', () => {
    for (const protocol of ['0.8', 'toString']) {
      const datagrams = decodeCapture(fixture(), { protocol: protocol as '0.6' });
      expect(() => datagrams.next()).toThrow(expect.objectContaining({ code: 'UNKNOWN_PROTOCOL' }));
      expect(() => decodePacket(new Uint8Array(8), { protocol: protocol as '0.6' })).toThrow(expect.objectContaining({ code: 'UNKNOWN_PROTOCOL' }));
    }
  });

  it.each([
    ['little-endian microseconds', { little: true, nano: false }],
    ['big-endian microseconds', { little: false, nano: false }],
    ['little-endian nanoseconds', { little: true, nano: true }],
    ['big-endian nanoseconds', { little: false, nano: true }],
  ])('classic pcap, %s', (_name, opts) => {
    const file = pcapFile(plain, 1, opts);
    const lines = [...decodeCapture(file)];
    expect(lines.map(decoded)).toEqual(expected);
    expect(lines.map((d) => [d.seconds, d.nanoseconds])).toEqual(frames.map((f) => [f.seconds, f.nanoseconds]));
  });

  it.each([true, false])('pcapng (little-endian: %s), nanosecond if_tsresol', (little) => {
    const lines = [...decodeCapture(pcapngFile(plain, 1, little))];
    expect(lines.map(decoded)).toEqual(expected);
    expect(lines.map((d) => [d.seconds, d.nanoseconds])).toEqual(frames.map((f) => [f.seconds, f.nanoseconds]));
  });

  it.each([
    ['NULL (BSD loopback, host order)', 0, (f: CaptureFrame) => withHeader([2, 0, 0, 0], ipv4Of(f))],
    ['LOOP', 108, (f: CaptureFrame) => withHeader([0, 0, 0, 2], ipv4Of(f))],
    ['raw IP', 101, ipv4Of],
    ['Linux SLL', 113, (f: CaptureFrame) => withHeader([0, 0, 0, 772, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0x00].map((b) => b & 0xff), ipv4Of(f))],
    ['Linux SLL2', 276, (f: CaptureFrame) => withHeader([0x08, 0x00, 0, 0, 0, 0, 0, 1, 3, 4, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0], ipv4Of(f))],
  ])('link type %s', (_name, linkType, frame) => {
    const lines = [...decodeCapture(pcapFile(frames.map((f) => ({ ...f, data: frame(f) })), linkType, { little: true, nano: false }))];
    expect(lines.map(decoded)).toEqual(expected);
  });

  it('IPv6 (raw and Ethernet): addresses in brackets', () => {
    const raw = [...decodeCapture(pcapFile(frames.map((f) => ({ ...f, data: ipv6Of(f) })), 101, { little: true, nano: false }))];
    const eth = [...decodeCapture(pcapFile(frames.map((f) => ({ ...f, data: withHeader([...new Array(12).fill(0), 0x86, 0xdd], ipv6Of(f)) })), 1, { little: true, nano: false }))];
    const six = (d: ReturnType<typeof decoded>) => ({ ...d, source: d.source.replace('127.0.0.1', '[::1]'), destination: d.destination.replace('127.0.0.1', '[::1]') });
    expect(raw.map(decoded)).toEqual(expected.map(six));
    expect(eth.map(decoded)).toEqual(expected.map(six));
  });

  it('a flow caught without its handshake: told from its packets, or given', () => {
    const late = pcapFile(plain.slice(4), 1, { little: true, nano: false });
    const guessed = [...decodeCapture(late)];
    // Guessed 0.6 first; the first packet that reads only as 0.7 turns the guess.
    const switched = guessed.findIndex((d) => d.packet?.protocol === '0.7');
    expect(switched).toBeGreaterThanOrEqual(0);
    expect(switched).toBeLessThan(5);
    expect(guessed.slice(switched).map(decoded)).toEqual(expected.slice(4 + switched));
    const given = [...decodeCapture(late, { protocol: '0.7' })];
    expect(given.map(decoded)).toEqual(expected.slice(4));
  });

  it('gives a frame that cannot be a fragment (more to follow, not a multiple of 8 bytes) a typed error, and goes on (fragments.test.ts: reassembly)', () => {
    const fragmented = frames.slice(0, 3).map((f, i) => {
      const data = f.data.slice();
      if (i === 1) data[14 + 6] = 0x20; // more fragments follow
      return { ...f, data };
    });
    const lines = [...decodeCapture(pcapFile(fragmented, 1, { little: true, nano: false }))];
    // Its IP payload (UDP header and data) is not a multiple of 8 bytes.
    expect((udpOf(frames[1]!)!.payload.length + 8) % 8).not.toBe(0);
    expect(lines.map((d) => [d.index, d.error?.code])).toEqual([
      [0, undefined],
      [1, 'IP_FRAGMENT'],
      [2, undefined],
    ]);
    expect(lines[1]!.error).toBeInstanceOf(NetError);
    // A frame alone does not hold a fragment's datagram.
    expect(() => udpOf({ ...fragmented[1]!, linkType: 1, originalLength: 0, offset: 0, index: 1 })).toThrow(/IP_FRAGMENT/);
  });

  it('refuses damaged files with one NetError', () => {
    const file = fixture();
    for (const bad of [file.subarray(0, 10), file.subarray(0, 24 + 8), file.subarray(0, 100), new Uint8Array(30).fill(0x41)]) {
      expect(() => [...decodeCapture(bad)]).toThrow(NetError);
    }
    const unknownLink = pcapFile(plain.slice(0, 1), 147, { little: true, nano: false });
    expect([...decodeCapture(unknownLink)][0]?.error?.code).toBe('UNSUPPORTED_LINK_TYPE');
  });

  it('iterates as a generator does (decodeCapture is an iterator written out): lazy, closed by return, throw or an error', () => {
    // Nothing is read before the first next(): a damaged file throws there, then the iterator is done.
    const damaged = decodeCapture(new Uint8Array(30).fill(0x41));
    expect(() => damaged.next()).toThrow(NetError);
    expect(damaged.next()).toEqual({ value: undefined, done: true });
    const it = decodeCapture(fixture());
    expect(it[Symbol.iterator]()).toBe(it);
    expect(it.next().value).toEqual(decodeCapture(fixture()).next().value);
    expect(it.return(undefined)).toEqual({ value: undefined, done: true });
    expect(it.next().done).toBe(true);
    const thrown = decodeCapture(fixture());
    expect(() => thrown.throw(new Error('stop'))).toThrow('stop');
    expect(thrown.next().done).toBe(true);
    // It inherits what generator objects do (Iterator helpers, where the runtime has them).
    expect(Object.getPrototypeOf(Object.getPrototypeOf(it))).toBe(Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
    expect([...decodeCapture(fixture())].length).toBe(expected.length);
  });
});

describe('packet decoder', () => {
  it('header codecs generated from the schemas write what they read', () => {
    const h = { flags: 5, ack: 0x2a5, numChunks: 7, token: 0xd1954a74 };
    const out = new Uint8Array(7);
    encodeTeeworlds07PacketHeader(h, out);
    expect(Array.from(out)).toEqual([0x16, 0xa5, 7, 0xd1, 0x95, 0x4a, 0x74]);
    expect(decodeTeeworlds07PacketHeader(out)).toEqual(h);
    // 0.6 chunk header: bits 6 and 7 of the sequence sit in both sequence bytes.
    const chunk = new Uint8Array(3);
    expect(encodeDdnet06ChunkHeader({ flags: 1, size: 0x123, sequence: 0x2c7 }, chunk)).toBe(3);
    expect({ ...decodeDdnet06ChunkHeader(chunk), ...decodeDdnet06ChunkHeaderVital(chunk) }).toEqual({ flags: 1, size: 0x123, sequence: 0x2c7 });
  });

  it('decodes DDNet control messages with TKEN and the security token', () => {
    const connect = decodePacket(new Uint8Array([0x10, 0, 0, 1, 0x54, 0x4b, 0x45, 0x4e, 0xff, 0xff, 0xff, 0xff]));
    expect(connect).toMatchObject({ protocol: '0.6', kind: 'control', control: { kind: 'connect', tokenMagic: true }, securityToken: 0xffffffff });
    const close = decodePacket(new Uint8Array([0x10, 0, 0, 4, 0x62, 0x79, 0x65, 0, 1, 2, 3, 4]));
    expect(close).toMatchObject({ control: { kind: 'close', reason: 'bye' }, securityToken: 0x01020304 });
  });

  it('decodes compressed chunks and the token after them', () => {
    // One vital chunk: sys message 3 (ready) with no fields, sequence 1; then a security token.
    const data = new Uint8Array([0x40, 0x01, 0x01, 0x07, 1, 2, 3, 4]);
    const packed = teeworldsHuffman().compress(data);
    const p = decodePacket(new Uint8Array([0x80, 0, 1, ...packed]));
    expect(p.flags).toEqual(['compression']);
    expect(p.securityToken).toBe(0x01020304);
    expect(p.chunks).toHaveLength(1);
    expect(p.chunks![0]).toMatchObject({ flags: ['vital'], size: 1, sequence: 1 });
  });

  it.each([
    ['a header cut short', [0x00, 0x00]],
    ['a chunk that passes the end', [0x00, 0x00, 0x01, 0x40, 0x10, 0x01, 0x07]],
    ['more chunks than bytes', [0x00, 0x00, 0x05, 0x00, 0x01, 0x07]],
    ['bytes after the chunks', [0x00, 0x00, 0x01, 0x00, 0x01, 0x07, 0x01]],
    ['an unknown control message', [0x10, 0x00, 0x00, 0x09]],
    ['compressed data without its end', [0x80, 0x00, 0x01, 0xff]],
    ['a connless packet without a known header', [0x20, 0x00, 0x00]],
  ])('refuses %s with a NetError', (_name, bytes) => {
    let thrown: unknown;
    try {
      decodePacket(new Uint8Array(bytes));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(NetError);
    expect(thrown).toBeInstanceOf(CodecError);
  });

  it('encodePacket writes every packet of the fixture back to its bytes', () => {
    expect(notRoundTripping(fixture())).toEqual([]);
  });

  it('encodePacket keeps what does not read: an unframed chunk, flag bits the schema does not name', () => {
    const unframed = new Uint8Array([0x00, 0x00, 0x01, 0x40, 0x02, 0x01, 0xff, 0xff]);
    const p = decodePacket(unframed);
    expect(p.chunks![0]).toMatchObject({ unframed: true, message: { kind: 'unknown', id: -1 } });
    expect(Array.from(encodePacket(p))).toEqual(Array.from(unframed));
    const unnamed = new Uint8Array([0x80, 0x00, 0x00, 1, 2, 3, 4]);
    const q = decodePacket(unnamed, { protocol: '0.7' });
    expect(q.flags).toEqual([]);
    expect(Array.from(encodePacket(q))).toEqual(Array.from(unnamed));
  });

  it('the fixture holds the 0.7 handshake and chat', () => {
    const lines = [...decodeCapture(fixture())];
    expect(lines.slice(0, 4).map((d) => d.packet?.control?.kind)).toEqual(['token', 'token', 'connect', 'accept']);
    expect(lines.every((d) => d.packet?.protocol === '0.7')).toBe(true);
    expect(chatOf(lines)).toContain('sv_chat Hi from Charlie (Teeworlds 0.7.5)! äöü 日本語');
  });
});

describe.skipIf(!hasCorpus)('corpus captures (RECORDING-NET.txt)', () => {
  const read = (name: string) => [...decodeCapture(readBytes(join(corpusDir, 'net', `${name}.pcap`)))];

  it.each([
    ['ddnet-0.6-session', 15227],
    ['teeworlds-0.7-session', 2842],
    ['connless', 502],
  ])('%s: one datagram per packet tcpdump counts, none with an error', (name, count) => {
    const lines = read(name);
    expect(lines).toHaveLength(count);
    expect(lines.filter((d) => d.error).map((d) => `${d.index}: ${d.error!.message}`)).toEqual([]);
    expect(lines.flatMap((d) => (d.packet?.chunks ?? []).filter((c) => c.message.kind === 'unknown'))).toEqual([]);
  });

  it.each(['ddnet-0.6-session', 'teeworlds-0.7-session', 'connless'])('%s: encodePacket writes every packet back to its bytes', (name) => {
    expect(notRoundTripping(readBytes(join(corpusDir, 'net', `${name}.pcap`)))).toEqual([]);
  });

  it('the DDNet session: every chat line with its exact text', () => {
    const chat = chatOf(read('ddnet-0.6-session'));
    for (const text of ['Hello from Alpha! This is a chat message. äöü 日本語', 'Grüße von Bravo – ñ € 中文 ✓', '/team 7', 'Team chat from Alpha', 'Team chat from Bravo', '/me is testing the /me command', '/save', '/team 0', '/spec'])
      expect(chat).toContain(`cl_say ${text}`);
    expect(chat.filter((c) => c === 'cl_say /spec')).toHaveLength(2);
    expect(chat).toContain('sv_chat Server say issued through rcon by Alpha');
  });

  it('the 0.7 session: every chat line with its exact text', () => {
    const chat = chatOf(read('teeworlds-0.7-session'));
    for (const text of ['Hi from Charlie (Teeworlds 0.7.5)! äöü 日本語', 'Team chat from Charlie (0.7)', 'Bye from Charlie']) {
      expect(chat).toContain(`cl_say ${text}`);
      expect(chat).toContain(`sv_chat ${text}`);
    }
  });

  it('server info: DDNet extended info, 0.7 token and info packets', () => {
    const lines = read('connless');
    const connless = lines.flatMap((d) => (d.packet?.connless ? [{ protocol: d.packet.protocol, ...d.packet.connless }] : []));
    expect(connless.find((c) => c.kind === 'info_extended')).toMatchObject({ protocol: '0.6', name: 'netcap-connless', map: 'ctf2', version: '0.6.4, 16.4' });
    expect(connless.find((c) => c.kind === 'info' && c.protocol === '0.7')).toMatchObject({ version: '0.7.5', name: 'netcap-connless-07', map: 'dm1' });
    expect(connless.find((c) => c.kind === 'info' && c.protocol === '0.6')).toMatchObject({ name: 'netcap-connless [0/64]', map: 'ctf2' });
    expect(connless.filter((c) => c.kind === 'get_info').map((c) => c.protocol).sort()).toEqual(['0.6', '0.7', '0.7']);
    const tokens = lines.filter((d) => d.packet?.control?.kind === 'token');
    expect(tokens.length).toBeGreaterThanOrEqual(4);
  });
});
