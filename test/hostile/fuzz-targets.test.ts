// The fuzz targets' properties hold on their seeds (the fixtures, and small corpus files when present), and a
// short deterministic run of each target finds nothing: the harness itself is checked here, the long runs are
// `npm run fuzz` (docs/fuzzing.md).
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript modules without type declarations
import { mutate, prng } from '../../fuzz/mutate.mjs';
// @ts-expect-error plain JavaScript modules without type declarations
import { seedsFor } from '../../fuzz/seeds.mjs';
// @ts-expect-error plain JavaScript modules without type declarations
import { TARGETS } from '../../fuzz/targets.mjs';
// @ts-expect-error plain JavaScript modules without type declarations
import { CLI_TARGETS } from '../../fuzz/cli-targets.mjs';
import { CodecError } from '@twcodec/datafile';
import { readFileSync } from 'node:fs';
import { runCli } from '../cli-run.js';

const targets = Object.keys(TARGETS as Record<string, unknown>);

describe('fuzz targets', () => {
  it.each(targets)('%s: every seed passes its properties', async (target) => {
    const seeds = seedsFor(target) as Uint8Array[];
    expect(seeds.length).toBeGreaterThan(0);
    for (const seed of seeds) await TARGETS[target](seed);
  });

  // The command-line targets run several whole commands per input (net-client a whole session): fewer inputs, as in CI (--cli-runs).
  it.each(targets)('%s: 200 mutated inputs (50 for a command-line target) give typed refusals only', async (target) => {
    const seeds = seedsFor(target) as Uint8Array[];
    const rng = prng(7);
    const count = target in CLI_TARGETS || TARGETS[target].cliRuns ? 50 : 200;
    for (let i = 0; i < count; i++) {
      const input = mutate(rng, rng.pick(seeds), rng.pick(seeds), target === 'map' || target === 'datafile' || TARGETS[target].structured === true);
      try {
        await TARGETS[target](input);
      } catch (e) {
        if (!(e instanceof CodecError)) throw e;
      }
    }
  });

  it("every command has a row in docs/fuzzing.md's table, naming targets that exist", async () => {
    const help = (await runCli(['--help'])).stdout;
    const commands = [...help.matchAll(/^ {2}([a-z]+) ([a-z-]+) /gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(commands.length).toBeGreaterThan(30);
    const doc = readFileSync(new URL('../../docs/fuzzing.md', import.meta.url), 'utf8');
    const after = doc.slice(doc.indexOf('Every command and the target that runs its code'));
    const table = after.slice(0, after.indexOf('\n\n', after.indexOf('| ---'))).split('\n').filter((line) => /^\| `/.test(line));
    const covered = new Set<string>();
    for (const row of table) {
      const [commandCell = '', targetCell = ''] = row.split('|').slice(1);
      // "`demo info`, `messages`, `chat`": a name without its group has the group before it.
      let group = '';
      for (const [, name] of commandCell.matchAll(/`([^`]+)`/g)) {
        if (name!.includes(' ')) group = name!.split(' ')[0]!;
        covered.add(name!.includes(' ') ? name! : `${group} ${name}`);
      }
      for (const [, target] of targetCell.matchAll(/`([^`]+)`/g)) expect(Object.keys(TARGETS), row).toContain(target);
    }
    expect(commands.filter((c) => !covered.has(c))).toEqual([]);
  });
});
