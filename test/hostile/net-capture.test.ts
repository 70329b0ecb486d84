// Hostile capture files (issue 36, row 13): a pcapng timestamp past what a date can say is one typed error,
// in the library and in `net pcap` / `net demo`; a capture of hundreds of thousands of one-datagram flows is
// read with a bounded flow table.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { captureDemo, decodeCapture, NetError } from '@twcodec/net';
import { runCli } from '../cli-run.js';
import { codeOf as codeOfError } from '../error-code.js';
import { ipv4Packet, pcapngFile, udpDatagram } from '../net-capture-builder.js';

const connect = Uint8Array.of(0x10, 0, 0, 1);
const frame = (sourcePort = 50000) => ipv4Packet(udpDatagram(sourcePort, 8303, connect));
const codeOf = (f: () => unknown) => codeOfError(f, NetError);

describe('hostile captures: timestamps and flows', () => {
  it.each([
    ['2^63 microseconds', 1n << 63n, 1_000_000n, undefined],
    ['2^64 - 1 seconds (if_tsresol 0)', (1n << 64n) - 1n, 1n, 0],
    ['the first second of the year 10000', 253_402_300_800_000_000n, 1_000_000n, undefined],
  ])('a pcapng timestamp of %s (past the year 9999) is BAD_TIMESTAMP, not a RangeError', async (_, timestamp, unit, tsresol) => {
    const file = pcapngFile([{ data: frame(), timestamp: 1_700_000_000n * unit }, { data: frame(), timestamp }], 101, tsresol);
    const read: number[] = [];
    expect(
      codeOf(() => {
        for (const d of decodeCapture(file)) read.push(d.seconds);
      }),
    ).toBe('BAD_TIMESTAMP');
    expect(read).toEqual([1_700_000_000]);
    expect(codeOf(() => captureDemo(file, { player: 'x' }))).toBe('BAD_TIMESTAMP');
    const path = join(mkdtempSync(join(tmpdir(), 'twcodec-hostile-')), 'late.pcapng');
    writeFileSync(path, file);
    const { code, stderr } = await runCli(['net', 'pcap', path]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^twcodec: BAD_TIMESTAMP: packet timestamp of \d+ seconds since 1970 is past the year 9999 .*\n$/);
    expect(stderr).not.toContain('Invalid time value');
  });

  it('the last second of the year 9999 is read and printed', async () => {
    const file = pcapngFile([{ data: frame(), timestamp: 253_402_300_799_999_999n }], 101);
    const path = join(mkdtempSync(join(tmpdir(), 'twcodec-hostile-')), 'last.pcapng');
    writeFileSync(path, file);
    const { code, stdout } = await runCli(['net', 'pcap', path]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ time: '9999-12-31T23:59:59.999999Z' });
  });

  it('330,000 one-datagram flows (18 MB) are read in a 64 MB heap within 10 s (the flow table was never trimmed: 430 MB)', () => {
    // Written and read in a child with a small heap: its peak is what the test measures.
    const script = `
      import { decodeCapture } from ${JSON.stringify(fileURLToPath(new URL('../../packages/net/dist/index.js', import.meta.url)))};
      const N = 330000, payload = Uint8Array.of(0x10, 0, 0, 1), frameLen = 28 + payload.length;
      const out = new Uint8Array(24 + N * (16 + frameLen)), dv = new DataView(out.buffer);
      dv.setUint32(0, 0xa1b2c3d4, true); dv.setUint16(4, 2, true); dv.setUint16(6, 4, true); dv.setUint32(16, 65535, true); dv.setUint32(20, 101, true);
      for (let i = 0, at = 24; i < N; i++, at += 16 + frameLen) {
        dv.setUint32(at, 1700000000 + (i >> 10), true); dv.setUint32(at + 8, frameLen, true); dv.setUint32(at + 12, frameLen, true);
        const f = at + 16;
        out[f] = 0x45; dv.setUint16(f + 2, frameLen); out[f + 8] = 64; out[f + 9] = 17;
        out.set([10, (i >> 16) & 255, (i >> 8) & 255, i & 255], f + 12); out.set([10, 255, 0, 1], f + 16);
        dv.setUint16(f + 20, 1024 + (i % 60000)); dv.setUint16(f + 22, 8303); dv.setUint16(f + 24, 8 + payload.length);
        out.set(payload, f + 28);
      }
      let n = 0;
      for (const d of decodeCapture(out)) if (d.packet) n++;
      console.log(n);`;
    const started = Date.now();
    const child = spawnSync(process.execPath, ['--max-old-space-size=64', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('330000');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
