// The clean-room check of issue 38: decoders in Python's standard library, written from docs/formats alone (no
// project source, no other implementation), decode every map, teehistorian file, demo and capture, and verify
// every snapshot checksum the pages say a reader can verify. See test/cleanroom/GAPS.md for how they were made
// and what the pages lacked. Runs where python3 is installed; on the fixtures, and on the corpus when present.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDir, fixturesDir, hasCorpus, repoRoot } from '../corpus.js';

const python = spawnSync('python3', ['--version']).status === 0;
const runPy = join(repoRoot, 'test', 'cleanroom', 'run.py');

interface Summary {
  [format: string]: { ok: number; total: number; snap_crc_ok?: number; snap_crc_total?: number };
}

function run(dir: string): { lines: { file: string; ok: boolean; error?: string }[]; summary: Summary } {
  const out = execFileSync('python3', [runPy, dir], { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 1_500_000 });
  const parsed = out.trim().split('\n').map((l) => JSON.parse(l));
  return { lines: parsed.filter((l) => l.file), summary: parsed.at(-1).summary };
}

describe.skipIf(!python)('clean-room Python decoders written from docs/formats alone', () => {
  it('decode every fixture map, demo, teehistorian file and capture, every capture snapshot CRC-right', () => {
    // The fixtures meant to be read (hostile/ holds files made to be refused).
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-cleanroom-'));
    for (const sub of ['maps', 'demos', 'teehistorian', 'net']) cpSync(join(fixturesDir, sub), join(dir, sub), { recursive: true });
    const { lines, summary } = run(dir);
    expect(lines.filter((l) => !l.ok).map((l) => `${l.file}: ${l.error}`)).toEqual([]);
    expect(Object.keys(summary).sort()).toEqual(['demo', 'map', 'pcap', 'teehistorian']);
    expect(summary.pcap!.snap_crc_ok).toBe(summary.pcap!.snap_crc_total);
    expect(summary.pcap!.snap_crc_total).toBeGreaterThan(0);
  }, 300_000);

  it.runIf(hasCorpus)('decode every corpus file, every capture snapshot CRC-right', () => {
    const { lines, summary } = run(corpusDir);
    expect(lines.filter((l) => !l.ok).map((l) => `${l.file}: ${l.error}`)).toEqual([]);
    for (const format of ['map', 'teehistorian', 'demo', 'pcap']) expect(summary[format]!.ok, format).toBe(summary[format]!.total);
    expect(summary.pcap!.snap_crc_ok).toBe(summary.pcap!.snap_crc_total);
  }, 1_500_000);
});
