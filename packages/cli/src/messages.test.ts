import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '../../../test/corpus.js';
import { runCli } from '../../../test/cli-run.js';

const run = runCli;
const lines = (text: string) => text.trim().split('\n').map((l) => JSON.parse(l));

const clientDemo = join(fixturesDir, 'demos', 'ctf2_clientB_auto_ctf2_2026-11-22_10-10-21.demo');
const teehistorian = join(fixturesDir, 'teehistorian', 'ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian');

describe('twcodec net messages', () => {
  it('demo messages prints tick, kind (as teehistorian dump names it) and fields, filtered by --kind', async () => {
    const all = await run(['demo', 'messages', clientDemo]);
    expect(all.code).toBe(0);
    const kinds = new Set(lines(all.stdout).map((l) => l.kind));
    expect(kinds).toContain('sv_chat');
    expect(kinds).not.toContain('unknown');
    const chat = await run(['demo', 'messages', '--kind', 'sv_chat', clientDemo]);
    const first = lines(chat.stdout)[0];
    expect(first).toEqual({ tick: 3154, kind: 'sv_chat', fields: { team: 0, clientId: -1, message: "'BravoDmy' entered and joined the game" } });
  });

  it('demo chat prints the chat lines with names', async () => {
    const { code, stdout } = await run(['demo', 'chat', clientDemo]);
    expect(code).toBe(0);
    expect(lines(stdout)[0]).toMatchObject({ tick: 3154, clientId: -1, team: 0, text: "'BravoDmy' entered and joined the game" });
  });

  it('teehistorian dump decodes MESSAGE records; teehistorian chat has no lines for DDNet files', async () => {
    const { code, stdout } = await run(['teehistorian', 'dump', teehistorian]);
    expect(code).toBe(0);
    const startInfo = lines(stdout).filter((l) => l.kind === 'MESSAGE' && l.net?.kind === 'cl_start_info');
    expect(startInfo.map((l) => [l.cid, l.net.name])).toEqual([[0, 'Alpha'], [1, 'AlphaDmy'], [2, 'Bravo'], [3, 'BravoDmy']]);
    const chat = await run(['teehistorian', 'chat', teehistorian]);
    expect(chat.code).toBe(0);
    expect(chat.stdout).toBe('');
  });
});
