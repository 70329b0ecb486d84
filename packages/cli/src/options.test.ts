// The option tables of the command groups, and the one place that parses a command line against them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../test/corpus.js';
import { choicesOf, command, type Command } from './command.js';
import { COMMANDS } from './index.js';
import { UsageError } from './io.js';
import { parseCommandLine } from './options.js';

const sample = command({
  args: ['IN', 'OUT'],
  options: {
    protocol: { type: 'string', value: '0.6|0.7', choices: ['0.6', '0.7'], default: '0.6', help: 'the protocol' },
    kind: { type: 'string', value: 'KIND,...', choices: async () => ['a', 'b', 'c'], list: true, help: 'kinds' },
    player: { type: 'string', value: 'NAME', required: true, help: 'who' },
    team: { type: 'boolean', help: 'team chat' },
  },
  summary: 'a command',
  async run() {},
});

const usageError = async (argv: string[]) => {
  try {
    await parseCommandLine('x y', sample, argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  return undefined;
};

describe('parseCommandLine', () => {
  it('fills in defaults, booleans and lists, and says which options the command line gave', async () => {
    const parsed = await parseCommandLine('x y', sample, ['in', 'out', '--player', '', '--kind', 'a, c']);
    expect(parsed.args).toEqual(['in', 'out']);
    expect(parsed.values).toEqual({ protocol: '0.6', kind: ['a', 'c'], player: '', team: false });
    expect([...parsed.given].sort()).toEqual(['kind', 'player']);
    expect((await parseCommandLine('x y', sample, ['in', 'out', '--player=p', '--protocol', '0.7', '--team'])).values).toMatchObject({ protocol: '0.7', team: true });
  });

  it('refuses what the table does not allow, once for every command', async () => {
    expect(await usageError(['in', 'out', '--player', 'p', '--protocol', '0.8'])).toBe('--protocol 0.8: the value is one of 0.6, 0.7 (see twcodec x y --help)');
    expect(await usageError(['in', 'out', '--player', 'p', '--kind', 'a,d'])).toBe('--kind d: each value is one of a, b, c (see twcodec x y --help)');
    expect(await usageError(['in', 'out'])).toMatch(/^missing --player NAME \(usage: twcodec x y IN OUT/);
    expect(await usageError(['in', '--player', 'p'])).toMatch(/^missing OUT /);
    expect(await usageError(['in', 'out', 'more', '--player', 'p'])).toMatch(/^unexpected argument 'more'/);
    expect(await usageError(['in', 'out', '--player', 'p', '--team=yes'])).toMatch(/^option --team takes no value/);
    expect(await usageError(['in', 'out', '--player'])).toMatch(/^option --player needs a value NAME/);
    expect(await usageError(['in', 'out', '--player', 'p', '--nope'])).toBe("unknown option --nope for 'x y' (its options: --protocol, --kind, --player, --team; see twcodec x y --help)");
  });
});

describe('a command line of arguments only', () => {
  const optional = command({ args: ['IN', 'OUT'], options: { team: { type: 'boolean', help: 'team chat' }, protocol: { type: 'string', value: 'V', default: '0.6', help: 'the protocol' } }, summary: 'a command', async run() {} });

  // Read without node:util's parseArgs (start-up, issue 41): the same arguments, defaults and given options.
  it('reads as parseArgs reads it, `-` (standard input) an argument', async () => {
    for (const argv of [['in', 'out'], ['-', 'out'], ['in', '-']]) {
      const parsed = await parseCommandLine('x y', optional, argv);
      expect(parsed.args).toEqual(parseArgs({ args: argv, options: { team: { type: 'boolean' }, protocol: { type: 'string' } }, allowPositionals: true, strict: false }).positionals);
      expect(parsed.values).toEqual({ team: false, protocol: '0.6' });
      expect([...parsed.given]).toEqual([]);
    }
    expect(await usageError(['in', 'out'])).toMatch(/^missing --player NAME/);
    expect(await usageError(['in'])).toMatch(/^missing OUT /);
    expect(await usageError(['in', 'out', 'more', 'again'])).toMatch(/^unexpected argument 'more'/);
  });
});

describe('the command tables', () => {
  const entries = Object.entries(COMMANDS) as [string, Command][];

  it('name each command by its group, which has a module of its own in commands/', () => {
    const groups = new Set(entries.map(([name]) => name.split(' ')[0]!));
    const modules = readdirSync(join(repoRoot, 'packages', 'cli', 'src', 'commands')).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, ''));
    expect([...groups].sort()).toEqual(modules.sort());
  });

  it.each(entries)('%s: a default is one of its choices, a required option has no default', async (_name, c) => {
    for (const o of Object.values(c.options ?? {})) {
      const choices = await choicesOf(o);
      if (o.default !== undefined && choices) expect(choices).toContain(o.default);
      if (o.required) expect(o.default).toBeUndefined();
      if (o.list) expect(choices).toBeDefined();
    }
  });

  it('are the only place that checks an option against its values: no command checks one by hand', () => {
    const dir = join(repoRoot, 'packages', 'cli', 'src');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const text = readFileSync(join(dir, file), 'utf8');
      expect(text, file).not.toMatch(/--(protocol|format|layer|to|kind) is |the formats are/);
    }
  });
});
