// `twcodec net pcap -` as a live capture feeds it (tcpdump -U -w - | twcodec net pcap -): each datagram's line
// comes out as its frame comes in, not after standard input ends; and the lines written member by member are
// the text messageJson made of the line's object before (the same bytes as every earlier release).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConnectionTracker, type CaptureDatagram, decodeCapture, type TrackedDatagram } from '@twcodec/net';
import { corpusDir, fixturesDir, hasCorpus, repoRoot } from '../../../test/corpus.js';
import { JsonBytes, jsonText } from './fast-json.js';
import { messageJson } from './message-json.js';
import { datagramJson } from './net.js';
import { writeDatagram } from './net-pcap-lines.js';

const bin = join(repoRoot, 'packages', 'cli', 'bin', 'twcodec.cjs');
const fixture = join(fixturesDir, 'net', 'teeworlds-0.7-cut.pcap');

describe('twcodec net pcap - (standard input as it comes)', () => {
  it('prints the first datagram\'s line before the rest of the capture is written', async () => {
    const bytes = readFileSync(fixture);
    // The first half: the file header and some whole frames, and a frame cut in the middle.
    const half = Math.floor(bytes.length / 2);
    const child = spawn(process.execPath, [bin, 'net', 'pcap', '-'], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const firstLine = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no line within 30 s of the first half (stderr: ${stderr})`)), 30_000);
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('\n')) {
          clearTimeout(timer);
          resolve(stdout.slice(0, stdout.indexOf('\n')));
        }
      });
    });
    child.stdin.write(bytes.subarray(0, half));
    // The second half is written only once the first line is out: without streaming this waits for ever
    // (the command read all of standard input first), and the deadline above fails the test.
    const line = JSON.parse(await firstLine) as { index: number };
    expect(line.index).toBe(0);
    expect(stdout.length).toBeGreaterThan(0);
    child.stdin.end(bytes.subarray(half));
    expect(await exited).toBe(0);
    // The whole output is the file's.
    const whole = [...decodeCapture(new Uint8Array(bytes))];
    const tracker = new ConnectionTracker();
    expect(stdout).toBe(whole.map((d) => `${datagramJson(d, tracker.feed(d))}\n`).join(''));
  });
});

/** The line as `net pcap` wrote it before fast-json.ts: the line's object through messageJson. */
function referenceJson(d: CaptureDatagram, tracked?: TrackedDatagram): string {
  const isoTime = (seconds: number, nanoseconds: number) =>
    `${new Date(seconds * 1000).toISOString().slice(0, 19)}.${nanoseconds % 1000 === 0 ? String(nanoseconds / 1000).padStart(6, '0') : String(nanoseconds).padStart(9, '0')}Z`;
  const line: Record<string, unknown> = { index: d.index, time: isoTime(d.seconds, d.nanoseconds), source: d.source, destination: d.destination };
  if (d.error) return messageJson({ ...line, error: d.error.message });
  const p = d.packet!;
  Object.assign(line, { protocol: p.protocol, kind: p.kind, header: p.header, flags: p.flags });
  if (p.securityToken !== undefined) line.securityToken = p.securityToken;
  if (p.control) line.control = p.control;
  if (p.connless) {
    const { kind, ...fields } = p.connless;
    line.connless = { message: kind, fields };
  }
  if (p.chunks)
    line.chunks = p.chunks.map((c, i) => {
      const { kind, trailing, ...fields } = c.message as typeof c.message & { trailing?: Uint8Array };
      const delivery = tracked?.delivery[i];
      return { flags: c.flags, ...(c.sequence !== undefined ? { sequence: c.sequence } : {}), ...(delivery && delivery !== 'delivered' ? { delivery } : {}), size: c.size, message: kind, fields, ...(trailing?.length ? { trailing } : {}) };
    });
  if (tracked?.errors?.length) line.errors = tracked.errors.map((e) => e.message);
  if (tracked?.snapshots.length)
    line.snapshots = tracked.snapshots.map((s) => ({ tick: s.tick, deltaTick: s.deltaTick, ...(s.crc !== undefined ? { crc: s.crc } : {}), ...(s.crcOk !== undefined ? { crcOk: s.crcOk } : {}), ...(s.snapshot ? { items: s.snapshot.items.length } : {}), ...(s.error ? { error: s.error } : {}) }));
  if (tracked?.maps.length)
    line.maps = tracked.maps.map((m) => ({
      name: m.name,
      size: m.size,
      crc: m.crc.toString(16).padStart(8, '0'),
      ...(m.sha256 ? { sha256: m.sha256 } : {}),
      ...(m.crcOk !== undefined ? { crcOk: m.crcOk } : {}),
      ...(m.sha256Ok !== undefined ? { sha256Ok: m.sha256Ok } : {}),
      ...(m.error ? { error: `${m.error.code}: ${m.error.detail}` } : {}),
    }));
  return messageJson(line);
}

describe('net pcap\'s JSON lines', () => {
  const captures = [
    ...['ddnet-0.6-cut.pcap', 'teeworlds-0.7-cut.pcap', 'teeworlds-0.7-on-ddnet-cut.pcap'].map((n) => join(fixturesDir, 'net', n)),
    ...(hasCorpus ? ['connless.pcap', 'teeworlds-0.7-session.pcap', 'ddnet-0.6-session.pcap'].map((n) => join(corpusDir, 'net', n)) : []),
  ];
  it.each(captures)('are messageJson\'s text of the line object: %s', (path) => {
    const bytes = new Uint8Array(readFileSync(path));
    // Damaged copies too: error lines, trailing bytes, odd fields.
    const damaged = bytes.slice();
    for (let i = 200; i < damaged.length; i += 211) damaged[i]! ^= 0x5a;
    for (const capture of [bytes, damaged]) {
      const tracker = new ConnectionTracker();
      const mismatches: string[] = [];
      try {
        for (const d of decodeCapture(capture)) {
          const tracked = tracker.feed(d);
          const [ours, reference] = [datagramJson(d, tracked), referenceJson(d, tracked)];
          if (ours !== reference && mismatches.length < 3) mismatches.push(`${ours}\n${reference}`);
        }
      } catch {
        // A damaged file's frames stop where its records do.
      }
      expect(mismatches).toEqual([]);
    }
  });
});

describe('net pcap\'s route heads', () => {
  it('write every route\'s endpoints as the line object has them, past the routes kept and as they turn over', () => {
    // The first packets of a fixture on 600 routes of their own, frame indexes far enough apart for the kept
    // heads to be made anew (net-pcap-lines.ts, ROUTE_HEADS and ROUTE_HEADS_FRAMES): kept, taken from the older
    // generation, and written apart once the kept ones are full.
    const decoded = [...decodeCapture(new Uint8Array(readFileSync(fixture)))].filter((d) => d.packet).slice(0, 4);
    const mismatches: string[] = [];
    let index = 0;
    for (const [from, to, step] of [[0, 600, 1], [599, -1, -1], [0, 602, 7], [300, 600, 1], [0, 300, 1]] as const) {
      index += 70_000;
      for (let r = from; r !== to; r += step) {
        for (const d of decoded) {
          const line = { ...d, index: index++, source: `10.0.${r >> 8}.${r & 255}:8303`, destination: `10.1.${r >> 8}.${r & 255}:${50000 + (r % 7)}` };
          const [ours, reference] = [datagramJson(line), referenceJson(line)];
          if (ours !== reference && mismatches.length < 3) mismatches.push(`${ours}\n${reference}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('found by the decoder\'s route numbers write the same lines (numbers that share a place, routes past the kept ones)', () => {
    // 600 routes, each with the number netPcap would pass (CaptureDecoder.route), taking turns so that numbers
    // 256 apart share a place of net-pcap-lines.ts's ROUTE_PLACES; then the same lines without numbers.
    const decoded = [...decodeCapture(new Uint8Array(readFileSync(fixture)))].filter((d) => d.packet).slice(0, 4);
    const w = new JsonBytes();
    const mismatches: string[] = [];
    let index = 0;
    for (const [from, to, step] of [[0, 600, 1], [599, -1, -1], [0, 600, 256], [0, 602, 7]] as const) {
      for (let r: number = from; r !== to && r < 600; r += step) {
        for (const d of decoded) {
          const line = { ...d, index: index++, source: `10.2.${r >> 8}.${r & 255}:8303`, destination: `10.3.${r >> 8}.${r & 255}:${50000 + (r % 7)}` };
          writeDatagram(w, line, undefined, false, r);
          const [ours, reference] = [w.take(), referenceJson(line)];
          if (ours !== reference && mismatches.length < 3) mismatches.push(`${ours}\n${reference}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('JsonBytes', () => {
  it('writes numbers as JSON.stringify does (one and two digits by their own path, int32 limits, integers past int32, non-integers)', () => {
    const w = new JsonBytes();
    const values = [0, -0, 1, 9, 10, 99, 100, 999, 1000, 2147483647, -1, -9, -10, -99, -100, -2147483648, 4294967295, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 1e21, -1e-7];
    for (let i = 0; i < 20000; i += 7) values.push(i, -i, (i * 7919) % 2147483647);
    // Integers past int32 up to 2^53 (a security token above 2^31): high digits and the low nine apart.
    values.push(2147483648, -2147483649, 3558205468, 1e9, 1e9 + 1, 2e9, 999999999999, 1000000000000, 1000000007000000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, 2 ** 53 + 2, -(2 ** 60));
    for (let i = 1; i < 20000; i += 13) values.push(2147483648 + i * 104729, 4294967296 - i * 7, -(2147483648 + i * 1000000007), i * 1e9 + (i % 10), i * 123456789012);
    const wrong = values.filter((v) => (w.number(v), w.take()) !== (JSON.stringify(v) ?? 'null'));
    expect(wrong).toEqual([]);
    // A key and its number in one call (textNumber), keys of 1 to 9 bytes (the last word of each part full or not).
    const keys = ['{', ',"a":', ',"ab":', ',"abc":', ',"abcdefg":'].map((k) => jsonText(k));
    const wrongPairs = values.filter((v, i) => (w.textNumber(keys[i % keys.length]!, v), w.take()) !== keys[i % keys.length]!.text + (JSON.stringify(v) ?? 'null'));
    expect(wrongPairs).toEqual([]);
  });

  it('writes number arrays and byte arrays as JSON.stringify and hex do (one-digit values by their own path)', () => {
    const w = new JsonBytes();
    const arrays = [[], [0], [-0], [9], [10], [0, 1, 0, 0, 4, 0, 1, 0, 0, 0], [5, -1, 12, 0.5, Number.NaN, 7, 3000000000, -0, 9], Array.from({ length: 3000 }, (_, i) => (i * 7) % 13), Array.from({ length: 400000 }, (_, i) => (i % 3 ? i % 10 : 123456789))]; // the last past the first 1 MiB buffer
    for (const a of arrays) {
      w.numbers(a);
      expect(w.take()).toBe(JSON.stringify(a));
    }
    for (const n of [0, 1, 2, 3, 4, 5, 31, 1400]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
      w.hex(bytes);
      expect(w.take()).toBe(JSON.stringify(Buffer.from(bytes).toString('hex')));
    }
  });
});
