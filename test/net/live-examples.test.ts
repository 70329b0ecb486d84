// The bot examples of docs/bots.md (examples/bots/*.mjs, each shown whole in the doc: checked here) run against
// DDNet-Server 16.4 on 127.0.0.1 (test/live-servers.ts), each a process of its own as a reader runs it.
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../packages/net/src/node.js';
import { hasServer, type LiveServer, SERVER_BINARIES, startServer } from '../live-servers.js';

const repoRoot = join(import.meta.dirname, '..', '..');
const example = (name: string) => join(repoRoot, 'examples', 'bots', name);
const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const EXAMPLES = ['chat-bot.mjs', 'walker.mjs', 'rcon.mjs', 'watcher.mjs'];

describe('docs/bots.md', () => {
  it('shows each example file whole, as the tests run it', () => {
    const doc = readFileSync(join(repoRoot, 'docs', 'bots.md'), 'utf8');
    for (const name of EXAMPLES) {
      const file = readFileSync(example(name), 'utf8');
      expect(doc, name).toContain(`<!-- example: examples/bots/${name} -->\n\`\`\`js\n${file}\`\`\``);
    }
  });
});

describe.skipIf(!hasServer('0.6'))(`the bot examples on a live DDNet server (${SERVER_BINARIES['0.6']}; skipped when not installed)`, () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await startServer('0.6', { rcon: true });
  });
  afterAll(() => server?.stop());
  const address = () => `127.0.0.1:${server.port}`;

  // Bounded at every step and asked again every 2 s: on a loaded 2-core CI machine the bot's process may still be
  // starting, or the server may not have the asker in the game yet, when the first "!ping" goes out (DDNet's
  // sv_chat_delay lets one message through per second, so one ask per 2 s is never dropped as spam).
  it('chat-bot.mjs answers !ping', async () => {
    const bot = spawn('node', [example('chat-bot.mjs'), address(), '30'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    bot.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    const player = await connect({ host: '127.0.0.1', port: server.port, name: 'asker' });
    try {
      await player.ready();
      const deadline = Date.now() + 25_000;
      while (!player.game.player('pingbot') && Date.now() < deadline) await sleep(50);
      let pong: string | undefined;
      player.game.on('chat', (e) => {
        if (e.text.startsWith('pong')) pong = e.text;
      });
      while (pong === undefined && Date.now() < deadline) {
        player.say('!ping');
        for (let waited = 0; pong === undefined && waited < 2000; waited += 50) await sleep(50);
      }
      expect(pong).toBe('pong asker');
      while (!stdout.includes('\n') && Date.now() < deadline) await sleep(50);
      expect(stdout.split('\n')[0]).toBe('answered asker');
    } finally {
      player.disconnect();
      bot.kill();
    }
  }, 45_000);

  it('walker.mjs walks right', async () => {
    const { stdout } = await run('node', [example('walker.mjs'), address(), '2'], { timeout: 20_000 });
    const [, from, to] = /^walked from x=(-?\d+) to x=(-?\d+)\n$/.exec(stdout)!;
    expect(Number(to)).toBeGreaterThan(Number(from) + 64);
  }, 30_000);

  it('rcon.mjs prints the answer of status', async () => {
    const { stdout } = await run('node', [example('rcon.mjs'), address(), server.rconPassword, 'status'], { timeout: 20_000 });
    expect(stdout).toMatch(/commands granted so far\n/);
    expect(stdout).toMatch(/name='rcon-script'/);
  }, 30_000);

  it('watcher.mjs prints the chat', async () => {
    const watcher = spawn('node', [example('watcher.mjs'), address(), '40'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    watcher.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    const deadline = Date.now() + 30_000;
    try {
      // The talker joins only once the watcher is in the game (a spotter sees it), so that the watcher sees the join.
      const spotter = await connect({ host: '127.0.0.1', port: server.port, name: 'spotter' });
      try {
        await spotter.ready();
        while (!spotter.game.player('watcher') && Date.now() < deadline) await sleep(50);
      } finally {
        spotter.disconnect();
      }
      const player = await connect({ host: '127.0.0.1', port: server.port, name: 'talker' });
      try {
        await player.ready();
        const said = () => stdout.includes('seen by the watcher');
        while (!said() && Date.now() < deadline) {
          player.say('seen by the watcher');
          for (let waited = 0; !said() && waited < 2000; waited += 50) await sleep(50);
        }
        // The join comes with the snapshot that first holds the talker, which may follow its chat line.
        while (!/"type":"join"[^\n]*"name":"talker"/.test(stdout) && Date.now() < deadline) await sleep(50);
      } finally {
        player.disconnect();
      }
    } finally {
      watcher.kill();
    }
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; text?: string; name?: string });
    expect(lines).toContainEqual(expect.objectContaining({ type: 'chat', text: 'seen by the watcher', name: 'talker' }));
    expect(lines).toContainEqual(expect.objectContaining({ type: 'join', name: 'talker' }));
  }, 45_000);
});
