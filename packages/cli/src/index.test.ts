import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir, readBytes } from '../../../test/corpus.js';
import { type CliIo, main, nodeIo } from './index.js';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { ...nodeIo(), stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

const ctf1 = join(fixturesDir, 'maps', 'ctf1.map');
const dm7 = join(fixturesDir, 'maps', 'dm7-legacy-size.map');

describe('twcodec datafile', () => {
  it('info prints JSON with version, item types and data sizes', async () => {
    const { code, stdout } = await run(['datafile', 'info', join(fixturesDir, 'maps', 'coverage.map')]);
    expect(code).toBe(0);
    const info = JSON.parse(stdout);
    expect(info.version).toBe(4);
    expect(info.itemTypes.find((t: { type: number }) => t.type === 0xfffe)).toMatchObject({
      uuid: '3e1b2716-178c-3978-9bd9-b11ae0410dd8',
      uuidName: 'mapitemtype-automapper-config@ddnet.tw',
    });
    expect(info.data.count).toBe(info.data.items.length);
  });

  it('resave is lossless by default and matches map_resave with --ddnet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-cli-'));
    expect((await run(['datafile', 'resave', ctf1, join(dir, 'a.map')])).code).toBe(0);
    expect(readFileSync(join(dir, 'a.map'))).toEqual(readFileSync(ctf1));
    expect((await run(['datafile', 'resave', dm7, join(dir, 'b.map'), '--ddnet'])).code).toBe(0);
    expect(readBytes(join(dir, 'b.map'))).toEqual(readBytes(join(fixturesDir, 'maps-resaved', 'dm7-legacy-size.map')));
  });

  it('prints one line with code and offset and writes nothing on bad input', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-cli-'));
    writeFileSync(join(dir, 'bad.map'), readFileSync(ctf1).subarray(0, 100));
    const { code, stderr } = await run(['datafile', 'resave', join(dir, 'bad.map'), join(dir, 'out.map')]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^twcodec: FILE_SIZE_MISMATCH: .*offset \d+\)\n$/);
    expect(readdirSync(dir)).toEqual(['bad.map']);
  });

  it('reports usage errors with exit code 2', async () => {
    expect((await run(['datafile', 'info'])).code).toBe(2);
    expect((await run(['nope'])).code).toBe(2);
    expect((await run(['--help'])).stdout).toMatch(/^Usage: twcodec/);
  });
});
