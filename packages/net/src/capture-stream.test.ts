// Captures read as streams (FrameReader.push, CaptureDecoder): the same frames, datagrams and errors as the
// whole file, whatever the chunks; and the flows a decoder forgets (idle, closed) so its memory stays flat.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir, readBytes } from '../../../test/corpus.js';
import { ipv4Packet, pcapngFile, udpDatagram } from '../../../test/net-capture-builder.js';
import { CaptureDecoder, type CaptureDatagram, type DecodedPacket, decodeCapture, encodePacket, readCapture } from './index.js';
import { CLOSED_SECONDS, IDLE_SECONDS } from './capture.js';
import { FrameReader } from './pcap.js';

const fixtures = ['ddnet-0.6-cut.pcap', 'teeworlds-0.7-cut.pcap', 'teeworlds-0.7-on-ddnet-cut.pcap'].map((n) => readBytes(join(fixturesDir, 'net', n)));

/** Splits `bytes` into chunks of the sizes `sizes` gives in turn. */
function chunksOf(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length]!;
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

/** What decodeCapture gives on the whole file, as JSON (the error, if any, last). */
function whole(bytes: Uint8Array): string[] {
  const out: string[] = [];
  try {
    for (const d of decodeCapture(bytes)) out.push(text(d));
  } catch (e) {
    out.push(`throws ${String(e)}`);
  }
  return out;
}

/** What a CaptureDecoder gives when the file comes in `chunks`. */
function streamed(chunks: Uint8Array[]): string[] {
  const out: string[] = [];
  const decoder = new CaptureDecoder();
  try {
    for (const chunk of chunks) {
      decoder.push(chunk);
      for (let d = decoder.next(); d; d = decoder.next()) out.push(text(d));
    }
    decoder.end();
    for (let d = decoder.next(); d; d = decoder.next()) out.push(text(d));
  } catch (e) {
    out.push(`throws ${String(e)}`);
  }
  return out;
}

const text = (d: CaptureDatagram) => JSON.stringify({ ...d, error: d.error?.message }, (_k, v: unknown) => (v instanceof Uint8Array ? Array.from(v).join(',') : v));

/** Every frame `reader` has ready, as a line of its index, time, offset and bytes. */
function takeFrames(reader: FrameReader, got: string[]): void {
  while (reader.next()) {
    const f = reader.frame;
    got.push(`${f.index} ${f.seconds}.${f.nanoseconds} ${reader.base + f.start} ${Array.from(reader.bytes.subarray(f.start, f.end)).join(',')}`);
  }
}

describe('a capture read as a stream', () => {
  it('FrameReader gives the whole file\'s frames whatever the chunks, pcap and pcapng', () => {
    const ng = pcapngFile([...readCapture(fixtures[0]!)].slice(0, 40).map((f) => ({ data: f.data, timestamp: BigInt(f.seconds) * 1_000_000n + BigInt(f.nanoseconds / 1000) })), 1);
    for (const bytes of [fixtures[0]!, ng]) {
      const expected = [...readCapture(bytes)].map((f) => `${f.index} ${f.seconds}.${f.nanoseconds} ${f.offset} ${Array.from(f.data).join(',')}`);
      for (const sizes of [[1], [7, 3], [100], [4096], [65536]]) {
        const reader = new FrameReader();
        const got: string[] = [];
        const take = () => takeFrames(reader, got);
        for (const chunk of chunksOf(bytes, sizes)) {
          reader.push(chunk);
          take();
        }
        reader.end();
        take();
        expect(got, `chunks of ${sizes.join(',')}`).toEqual(expected);
      }
      // Chunks pushed two and three at a time before the frames are read (a record put together from two chunks
      // waits with the rest of its chunk when the next chunk comes).
      for (const [size, every] of [[100, 2], [333, 3], [4096, 2]] as const) {
        const reader = new FrameReader();
        const got: string[] = [];
        const take = () => takeFrames(reader, got);
        chunksOf(bytes, [size]).forEach((chunk, i) => {
          reader.push(chunk);
          if (i % every === every - 1) take();
        });
        reader.end();
        take();
        expect(got, `chunks of ${size}, read after every ${every}`).toEqual(expected);
      }
    }
  });

  it('CaptureDecoder gives decodeCapture\'s datagrams, and its errors with the same offsets, on whole and cut files', () => {
    for (const bytes of fixtures) {
      const expected = whole(bytes);
      for (const sizes of [[1, 2, 3, 5, 8, 13], [333], [65536]]) expect(streamed(chunksOf(bytes, sizes))).toEqual(expected);
      // Cut anywhere: the lines before the cut, then the error decodeCapture throws there (offset from the file's start).
      for (const cut of [3, 20, 30, 1000, bytes.length - 5]) {
        const part = bytes.subarray(0, cut);
        expect(streamed(chunksOf(part, [97])), `cut at ${cut}`).toEqual(whole(part));
      }
    }
  });

  it('a frame read before keeps its bytes when later chunks come (views are never written over)', () => {
    const bytes = fixtures[1]!;
    const decoder = new CaptureDecoder();
    const kept: { d: CaptureDatagram; json: string }[] = [];
    for (const chunk of chunksOf(bytes, [50, 2000])) {
      decoder.push(chunk);
      for (let d = decoder.next(); d; d = decoder.next()) kept.push({ d, json: text(d) });
    }
    decoder.end();
    for (let d = decoder.next(); d; d = decoder.next()) kept.push({ d, json: text(d) });
    expect(kept.map((k) => text(k.d))).toEqual(kept.map((k) => k.json));
  });

  it('numbers each route (source and destination) for the datagrams next() gives, -1 where it has none', () => {
    // Numbers no other route had, of any decoder: a writer keeping things by number may serve one decoder after
    // another (the CLI's lines in a process that runs net pcap twice; found by the net-pcap fuzz target).
    const numbers = new Set<number>();
    for (const bytes of [...fixtures, fixtures[0]!]) {
      const seen = new Set<number>();
      const decoder = new CaptureDecoder();
      decoder.push(bytes);
      decoder.end();
      const byRoute = new Map<number, string>();
      const byTexts = new Map<string, number>();
      for (let d = decoder.next(); d; d = decoder.next()) {
        const texts = `${d.source} ${d.destination}`;
        expect(byRoute.get(decoder.route) ?? texts).toBe(texts);
        expect(byTexts.get(texts) ?? decoder.route).toBe(decoder.route);
        byRoute.set(decoder.route, texts);
        byTexts.set(texts, decoder.route);
        seen.add(decoder.route);
      }
      expect([...seen].filter((n) => numbers.has(n))).toEqual([]);
      for (const n of seen) numbers.add(n);
      expect(decoder.route).toBe(-1);
      expect(byRoute.size).toBeGreaterThan(1);
      expect([...byRoute.keys()].every((n) => n >= 0)).toBe(true);
    }
    // A frame that is not a datagram of a route (its UDP header cut short) has none.
    const cut = pcapngFile([{ data: ipv4Packet(udpDatagram(1, 2, new Uint8Array(8))).subarray(0, 24), timestamp: 0n }], 101);
    const decoder = new CaptureDecoder();
    decoder.push(cut);
    decoder.end();
    expect(decoder.next()?.error).toBeDefined();
    expect(decoder.route).toBe(-1);
  });
});

describe('the flows a capture decoder follows', () => {
  // The DDNet fixture's connection; a packet of it, from another address, is a new flow.
  const bytes = fixtures[0]!;
  const frames = [...readCapture(bytes)];
  const tokened = [...decodeCapture(bytes)].find((d) => d.packet?.kind === 'connection' && d.packet.securityToken !== undefined)!;
  /** The flows a decoder holds after the fixture's frames and, `gap` seconds after the last, one datagram of a new flow. */
  const flowsAfter = (gap: number) => {
    const last = frames.at(-1)!;
    const late = frames[tokened.index]!.data.slice();
    late[14 + 15] = late[14 + 15]! ^ 0x55; // another source address: a flow of its own
    const decoder = new CaptureDecoder();
    decoder.push(
      pcapngFile(
        [...frames.map((f) => ({ data: f.data, timestamp: BigInt(f.seconds) * 1_000_000n + BigInt(f.nanoseconds / 1000) })), { data: late, timestamp: BigInt(last.seconds + gap) * 1_000_000n }],
        frames[0]!.linkType,
      ),
    );
    decoder.end();
    const seen: CaptureDatagram[] = [];
    for (let d = decoder.next(); d; d = decoder.next()) seen.push(d);
    return { flows: decoder.flowCount, seen };
  };

  it('are kept while they are active, forgotten after IDLE_SECONDS of silence', () => {
    const before = flowsAfter(0).flows;
    expect(before).toBeGreaterThan(1);
    expect(flowsAfter(IDLE_SECONDS - 20).flows).toBe(before);
    expect(flowsAfter(IDLE_SECONDS + 20).flows).toBe(1);
    // Forgetting changes nothing of what the active flows' datagrams decode to.
    expect(flowsAfter(IDLE_SECONDS + 20).seen.slice(0, -1).map(text)).toEqual([...decodeCapture(bytes)].map(text));
  });

  it('are forgotten CLOSED_SECONDS after a close', () => {
    // The 0.7 fixture's connection (raw IP frames: its Ethernet headers taken off), then a close from its
    // client, then `gap` seconds later a datagram of another flow.
    const bytes07 = fixtures[1]!;
    const frames07 = [...readCapture(bytes07)];
    const first = [...decodeCapture(bytes07)][0]!;
    const [client, server] = [first.source, first.destination].map((e) => ({ address: e.split(':')[0]!.split('.').map(Number), port: Number(e.split(':')[1]) }));
    const close = encodePacket({ ...first.packet!, control: { kind: 'close', id: 4 } } as DecodedPacket);
    const end = frames07.at(-1)!.seconds;
    const after = (gap: number) => {
      const decoder = new CaptureDecoder();
      decoder.push(
        pcapngFile(
          [
            ...frames07.map((f) => ({ data: f.data.subarray(14), timestamp: BigInt(f.seconds) * 1_000_000n })),
            { data: ipv4Packet(udpDatagram(client!.port, server!.port, close), { source: client!.address, destination: server!.address }), timestamp: BigInt(end + 1) * 1_000_000n },
            { data: ipv4Packet(udpDatagram(1, 2, close), { source: [10, 9, 9, 9] }), timestamp: BigInt(end + 1 + gap) * 1_000_000n },
          ],
          101,
        ),
      );
      decoder.end();
      const seen: CaptureDatagram[] = [];
      for (let d = decoder.next(); d; d = decoder.next()) seen.push(d);
      expect(seen.at(-2)?.packet?.control?.kind).toBe('close');
      return decoder.flowCount;
    };
    // Still held a little after the close (late packets of the connection read as before), gone after.
    expect(after(CLOSED_SECONDS - 5)).toBe(2);
    expect(after(CLOSED_SECONDS + 15)).toBe(1);
  });

  it('stay few however many flows came one after another (memory flat with the number of flows)', () => {
    // 2,000 one-datagram flows a second apart: at any time only the last IDLE_SECONDS' flows are held.
    const frame = frames[tokened.index]!.data;
    const many = Array.from({ length: 2000 }, (_, i) => {
      const data = frame.slice();
      // Ethernet + IPv4: the source address's last two bytes name the flow.
      data[14 + 14] = i >> 8;
      data[14 + 15] = i & 255;
      return { data, timestamp: BigInt(i) * 1_000_000n };
    });
    const decoder = new CaptureDecoder();
    decoder.push(pcapngFile(many, frames[0]!.linkType));
    decoder.end();
    let n = 0;
    while (decoder.next()) n++;
    expect(n).toBe(2000);
    expect(decoder.flowCount).toBeLessThanOrEqual(IDLE_SECONDS + 20);
  });
});
