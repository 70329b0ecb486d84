// The bot examples of docs/bots.md (examples/bots/*.mjs, each shown whole in the doc: checked here) run against
// DDNet-Server 16.4 on 127.0.0.1 (test/live-servers.ts), each a process of its own as a reader runs it.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../packages/net/src/node.js';
import { hasServer, type LiveServer, SERVER_BINARIES, startServer } from '../live-servers.js';

const repoRoot = join(import.meta.dirname, '..', '..');
const example = (name: string) => join(repoRoot, 'examples', 'bots', name);
const run = promisify(execFile);
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

  it('chat-bot.mjs answers !ping', async () => {
    const bot = run('node', [example('chat-bot.mjs'), address(), '6'], { timeout: 20_000 });
    const player = await connect({ host: '127.0.0.1', port: server.port, name: 'asker' });
    try {
      await player.ready();
      const deadline = Date.now() + 10_000;
      while (!player.game.player('pingbot') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const pong = new Promise<string>((resolve) => player.game.on('chat', (e) => e.text.startsWith('pong') && resolve(e.text)));
      player.say('!ping');
      expect(await pong).toBe('pong asker');
    } finally {
      player.disconnect();
    }
    expect((await bot).stdout).toBe('answered asker\n');
  }, 30_000);

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
    const watcher = run('node', [example('watcher.mjs'), address(), '4'], { timeout: 20_000 });
    await new Promise((r) => setTimeout(r, 1500));
    const player = await connect({ host: '127.0.0.1', port: server.port, name: 'talker' });
    try {
      await player.ready();
      player.say('seen by the watcher');
      await player.flushed();
    } finally {
      player.disconnect();
    }
    const lines = (await watcher).stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; text?: string; name?: string });
    expect(lines).toContainEqual(expect.objectContaining({ type: 'chat', text: 'seen by the watcher', name: 'talker' }));
    expect(lines).toContainEqual(expect.objectContaining({ type: 'join', name: 'talker' }));
  }, 30_000);
});
