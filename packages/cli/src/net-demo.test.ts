import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDemo } from '@twcodec/demo';
import { corpusDir, fixturesDir, hasCorpus, readBytes } from '../../../test/corpus.js';
import { runCli as run } from '../../../test/cli-run.js';
import { CLIENT, mapDownloadSession, pcapOf, snapshotOf } from '../../../test/net-session-builder.js';

const fixture = join(fixturesDir, 'net', 'teeworlds-0.7-cut.pcap');
const out = () => join(mkdtempSync(join(tmpdir(), 'twcodec-net-demo-')), 'out.demo');

describe('twcodec net demo', () => {
  it('needs --player (usage error, exit 2); a capture without the map is refused with one line and nothing written', async () => {
    const target = out();
    expect(await run(['net', 'demo', fixture, target])).toMatchObject({ code: 2 });
    const { code, stderr } = await run(['net', 'demo', fixture, target, '--player', 'Charlie']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^twcodec: MAP_MISSING: the capture holds no download of map 'ctf2' \(24440 bytes, CRC 4a5ee326\)/);
    expect(existsSync(target)).toBe(false);
    expect((await run(['net', 'demo', fixture, target, '--player', 'Nobody'])).stderr).toContain("PLAYER_NOT_FOUND: no client in the capture sent start info with the name 'Nobody' (names: 'Charlie')");
    // A map other than the announced one is blamed on --map FILE, not on the capture.
    const ctf1 = join(fixturesDir, 'maps', 'ctf1.map');
    const wrong = await run(['net', 'demo', fixture, target, '--player', 'Charlie', '--map', ctf1]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(`twcodec: MAP_MISMATCH: the map given has 5731 bytes and CRC 22bf58cc; the server announced 'ctf2' with 24440 bytes and CRC 4a5ee326 (in ${ctf1}, at map)\n`);
    expect(existsSync(target)).toBe(false);
  });

  it.skipIf(!hasCorpus)('writes the 0.7 demo of the fixture with --map and prints what it wrote', async () => {
    const target = out();
    const { code, stdout } = await run(['net', 'demo', fixture, target, '--player', 'Charlie', '--map', join(corpusDir, 'maps', 'tw07', 'ctf2.map')]);
    expect(code).toBe(0);
    const line = JSON.parse(stdout) as Record<string, unknown>;
    expect(line).toMatchObject({ protocol: '0.7', client: '127.0.0.1:58601', server: '127.0.0.1:18503', map: { name: 'ctf2', crc: '4a5ee326', from: 'option' }, switchTicks: [] });
    const demo = readDemo(readBytes(target));
    expect(demo.header).toMatchObject({ version: 4, netVersion: '0.7 802f1be60a05665f', mapName: 'ctf2', type: 'client' });
    expect([...demo.snapshots()]).toHaveLength(line.snapshots as number);
  });

  it("takes --player '' for a client that called itself '' (the names list shows it); --player left out is missing", async () => {
    const s = mapDownloadSession(undefined, '');
    s.snapshot(CLIENT, 100, snapshotOf(3, 1));
    const capture = join(mkdtempSync(join(tmpdir(), 'twcodec-net-demo-')), 'empty-name.pcap');
    writeFileSync(capture, pcapOf(s.sent));
    const target = out();
    const { code, stdout, stderr } = await run(['net', 'demo', capture, target, '--player', '']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ snapshots: 1, map: { name: 'tiny', from: 'capture' } });
    expect((await run(['net', 'demo', capture, out(), '--player='])).code).toBe(0);
    const missing = await run(['net', 'demo', capture, target]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing --player NAME/);
  });
});
