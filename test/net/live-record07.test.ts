// `net record --protocol 0.7` against teeworlds-server 0.7.5 and against DDNet-Server 16.4 taking 0.7 clients
// (sv_sixup), both on 127.0.0.1 (test/live-servers.ts): the demo holds what a Teeworlds 0.7.5 client's own demo
// holds (the corpus demo teeworlds-0.7-session_client07_Charlie_client07.demo, recorded by that client): the
// demo-only items de_client_info (the recorder's marked local, another player's while they are in the game) and
// de_game_info in every snapshot, a player coming and going as de_client_enter and de_client_leave, and none of
// the messages the client applies instead of recording (sv_client_info, sv_client_drop, sv_game_info,
// sv_tune_params: `recorded: false` in schemas/netmsg). `net demo` of a 0.7 capture follows the same rule
// (DemoState07 in packages/net/src/capture-demo.ts; test/net/net-demo.test.ts compares its checksums with the
// client's demo, the demo-only items included).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { netMessageDef, TEEWORLDS_0_7_MESSAGES } from '../../packages/netmsg/src/index.js';
import { connect } from '../../packages/net/src/node.js';
import { runCli, runRecording } from '../cli-run.js';
import { corpusDir, corpusFiles } from '../corpus.js';
import { hasServer, hasSixupServer, type LiveServer, startServer } from '../live-servers.js';

interface Item {
  object: string;
  id: number;
  fields: Record<string, unknown>;
}
const CLIENT_DEMO = join(corpusDir, 'net', 'teeworlds-0.7-session_client07_Charlie_client07.demo');
const hasClientDemo = corpusFiles('net', '.demo').some((f) => f.endsWith('_client07_Charlie_client07.demo'));

/** Every snapshot of a demo as `twcodec demo snapshots` prints it. */
async function snapshotsOf(file: string): Promise<{ tick: number; items: Item[] }[]> {
  const r = await runCli(['demo', 'snapshots', file]);
  expect(r.code).toBe(0);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { tick: number; items: Item[] });
}
const demoItemNames = (snapshots: { items: Item[] }[]) => [...new Set(snapshots.flatMap((s) => s.items.map((i) => i.object)).filter((o) => o.startsWith('de_')))].sort();

for (const [what, sixup, available] of [
  ['teeworlds-server 0.7.5', false, hasServer('0.7')],
  ['DDNet-Server 16.4 with sv_sixup', true, hasSixupServer()],
] as const) {
  describe.skipIf(!available)(`net record --protocol 0.7 from ${what} (skipped when not installed)`, () => {
    let server: LiveServer;
    beforeAll(async () => {
      server = await startServer('0.7', { sixup });
    });
    afterAll(() => server?.stop());

    it("holds de_client_info, de_game_info and de_client_enter/leave as the 0.7.5 client's demo does, and no message the client does not record", async () => {
      const out = join(mkdtempSync(join(tmpdir(), 'twcodec-record07-')), 'live07.demo');
      const recording = runRecording(['net', 'record', `127.0.0.1:${server.port}`, out, '--seconds', '5', '--name', 'rec07', '--protocol', '0.7']);
      // The chatter comes once the recorder records (`started`: its first snapshot in the game), so that its
      // arrival is recorded. The server lists the recorder before that: waiting for the listing alone, the
      // chatter was in the game before the recording started when both cores were busy (then no enter).
      const deadline = Date.now() + 10_000;
      const watcher = await connect({ host: '127.0.0.1', port: server.port, protocol: '0.7', name: 'spotter07' });
      try {
        await watcher.ready();
        await recording.started;
        while (!watcher.game.player('rec07') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      } finally {
        watcher.disconnect();
      }
      const chatter = await connect({ host: '127.0.0.1', port: server.port, protocol: '0.7', name: 'chat07' });
      await chatter.ready();
      chatter.say('recorded by rec07');
      await chatter.flushed();
      await new Promise((r) => setTimeout(r, 300));
      chatter.disconnect();
      const { code, stderr } = await recording.done;
      expect(stderr).toMatch(/^recording 5 s of 127\.0\.0\.1:\d+ on [^\n]+\nrecorded /);
      expect(code).toBe(0);

      const snapshots = await snapshotsOf(out);
      expect(snapshots.length).toBeGreaterThan(50);
      for (const { tick, items } of snapshots) {
        const local = items.filter((i) => i.object === 'de_client_info' && i.fields.local === true);
        expect(local.map((i) => i.fields.name), `tick ${tick}`).toEqual(['rec07']);
        expect(items.filter((i) => i.object === 'de_game_info').map((i) => i.id), `tick ${tick}`).toEqual([0]);
      }
      const chatterInfo = snapshots.flatMap((s) => s.items).find((i) => i.object === 'de_client_info' && i.fields.name === 'chat07');
      expect(chatterInfo?.fields).toMatchObject({ local: false, team: 0, clan: '', country: -1 });
      // The same demo-only item types as the 0.7.5 client's demo, which played with teeworlds-server 0.7.5's
      // standard tuning and so has no de_tune_params (the client adds it only for a tuning other than its
      // standard one). DDNet 16.4 sends 0.7 clients its own tuning, which differs in the first 32 ints too (seen
      // on 127.0.0.1: shotgun and grenade curvature, speeds and lifetimes), so a 0.7.5 client records it there.
      if (hasClientDemo) expect(demoItemNames(snapshots)).toEqual([...demoItemNames(await snapshotsOf(CLIENT_DEMO)), ...(sixup ? ['de_tune_params'] : [])].sort());

      const messages = (await runCli(['demo', 'messages', out])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; fields: Record<string, unknown> });
      const kinds = messages.map((m) => m.kind);
      const notRecorded = kinds.filter((k) => netMessageDef(TEEWORLDS_0_7_MESSAGES, k)?.recorded === false);
      expect(notRecorded).toEqual([]);
      const enter = messages.findIndex((m) => m.kind === 'de_client_enter' && m.fields.name === 'chat07');
      const leave = messages.findIndex((m) => m.kind === 'de_client_leave' && m.fields.name === 'chat07');
      expect(enter).toBeGreaterThanOrEqual(0);
      expect(leave).toBeGreaterThan(enter);
      expect(messages.find((m) => m.kind === 'sv_chat' && m.fields.message === 'recorded by rec07')).toBeDefined();
      // The spotter came about when the recorder did (an enter only when after it) and left before the chatter
      // came; the 0.7.5 client records the leave of every client it listed, once.
      expect(messages.filter((m) => m.kind === 'de_client_enter' && m.fields.name === 'spotter07').length).toBeLessThanOrEqual(1);
      expect(messages.filter((m) => m.kind === 'de_client_leave' && m.fields.name === 'spotter07').length).toBeLessThanOrEqual(1);
    }, 60_000);
  });
}
