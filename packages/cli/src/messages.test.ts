import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpusDir, fixturesDir, hasCorpus } from '../../../test/corpus.js';
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

  it('demo players lists who was in the demo and when (issue 39), for one file and for many', async () => {
    const one = await run(['demo', 'players', clientDemo]);
    expect(one.code).toBe(0);
    const { players } = JSON.parse(one.stdout);
    expect(players.map((p: { clientId: number; name: string }) => `${p.clientId}:${p.name}`)).toEqual(['0:Alpha', '1:AlphaDmy', '2:Bravo', '3:BravoDmy']);
    expect(players[3]).toMatchObject({ clan: 'corpus', fromTick: 3160, toTick: 3170 });
    const seven = join(fixturesDir, 'demos', 'tw07_client_Charlie_chat.demo');
    // Many files run on worker threads, which load the built CLI.
    const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
    const perFile = lines(execFileSync(process.execPath, [bin, 'demo', 'players', clientDemo, seven], { encoding: 'utf8' }));
    expect(perFile.map((l) => [l.ok, l.players.length])).toEqual([[true, 4], [true, 1]]);
    expect(perFile[1].players[0]).toMatchObject({ name: 'Charlie', clan: 'netcap07', skinParts: expect.any(Array) });
  });

  it('demo messages --help says a server demo prints a message once per receiving client', async () => {
    expect((await run(['demo', 'messages', '--help'])).stdout).toMatch(/once\s+for\s+every\s+client/);
  });

  it.runIf(hasCorpus)('demo messages prints a server demo\'s chat once per receiver, demo chat once (corpus)', async () => {
    const server = join(corpusDir, 'demos', 'ctf2_server_autorecord_2026-11-22_10-09-35.demo');
    const messages = lines((await run(['demo', 'messages', '--kind', 'sv_chat', server])).stdout);
    const chat = lines((await run(['demo', 'chat', server])).stdout);
    expect(messages.length).toBeGreaterThan(chat.length);
    expect(new Set(messages.map((m) => `${m.tick}:${m.fields.clientId}:${m.fields.message}`)).size).toBe(chat.length);
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
