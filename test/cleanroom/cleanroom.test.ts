// The clean-room check of issue 38: decoders in Python's standard library, written from docs/formats alone (no
// project source, no other implementation), decode every map, teehistorian file, demo and capture, and verify
// every snapshot checksum the pages say a reader can verify. See test/cleanroom/GAPS.md for how they were made
// and what the pages lacked. Runs where python3 is installed; on the fixtures, and on the corpus when present.
//
// Demo snapshot and delta chunks carry no checksum (demo.md), so the Python demo reader prints a digest of the
// snapshot it rebuilt at every tick, and this test compares each with what twcodec's own built reader
// (@twcodec/demo's dist, run by library-digests.mjs) rebuilds: two readers, one from the pages alone, agree on
// every snapshot of every demo.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDir, fixturesDir, hasCorpus, repoRoot } from '../corpus.js';

const python = spawnSync('python3', ['--version']).status === 0;
const runPy = join(repoRoot, 'test', 'cleanroom', 'run.py');
const libraryDigests = join(repoRoot, 'test', 'cleanroom', 'library-digests.mjs');

interface Summary {
  [format: string]: { ok: number; total: number; snap_crc_ok?: number; snap_crc_total?: number };
}
interface Line {
  file: string;
  format: string;
  ok: boolean;
  error?: string;
  result?: { snapshot_digests?: [number, string][] };
}

function run(dir: string): { lines: Line[]; summary: Summary } {
  const out = execFileSync('python3', [runPy, dir], { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 1_500_000 });
  const parsed = out.trim().split('\n').map((l) => JSON.parse(l));
  return { lines: parsed.filter((l) => l.file), summary: parsed.at(-1).summary };
}

/** Demos whose Python digests differ from the library's (tick by tick), and how many snapshots agree. */
function compareDigests(dir: string, lines: Line[]): { demos: number; snapshots: number; differ: string[] } {
  const demos = lines.filter((l) => l.format === 'demo');
  const paths = demos.map((l) => join(dir, l.file));
  const library = JSON.parse(execFileSync('node', [libraryDigests, ...paths], { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 600_000 })) as Record<string, [number, string][]>;
  const differ: string[] = [];
  let snapshots = 0;
  demos.forEach((l, i) => {
    const ours = l.result!.snapshot_digests!;
    const theirs = library[paths[i]!]!;
    const first = ours.findIndex((d, k) => d[0] !== theirs[k]?.[0] || d[1] !== theirs[k]?.[1]);
    if (first >= 0 || ours.length !== theirs.length) differ.push(`${l.file}: ${ours.length} vs ${theirs.length} snapshots, first difference at ${first}: ${JSON.stringify(ours[first])} vs ${JSON.stringify(theirs[first])}`);
    else snapshots += ours.length;
  });
  return { demos: demos.length, snapshots, differ };
}

describe.skipIf(!python)('clean-room Python decoders written from docs/formats alone', () => {
  it('decode every fixture map, demo, teehistorian file and capture, every capture snapshot CRC-right, every demo snapshot as the library rebuilds it', () => {
    // The fixtures meant to be read (hostile/ holds files made to be refused).
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-cleanroom-'));
    for (const sub of ['maps', 'demos', 'teehistorian', 'net']) cpSync(join(fixturesDir, sub), join(dir, sub), { recursive: true });
    const { lines, summary } = run(dir);
    expect(lines.filter((l) => !l.ok).map((l) => `${l.file}: ${l.error}`)).toEqual([]);
    expect(Object.keys(summary).sort()).toEqual(['demo', 'map', 'pcap', 'teehistorian']);
    expect(summary.pcap!.snap_crc_ok).toBe(summary.pcap!.snap_crc_total);
    expect(summary.pcap!.snap_crc_total).toBeGreaterThan(0);
    const digests = compareDigests(dir, lines);
    expect(digests.differ).toEqual([]);
    expect(digests.demos).toBe(summary.demo!.total);
    expect(digests.snapshots).toBeGreaterThan(0);
  }, 300_000);

  it.runIf(hasCorpus)('decode every corpus file, every capture snapshot CRC-right, every demo snapshot as the library rebuilds it, the server demos\' snapshot messages as demo.md counts them', () => {
    const { lines, summary } = run(corpusDir);
    expect(lines.filter((l) => !l.ok).map((l) => `${l.file}: ${l.error}`)).toEqual([]);
    for (const format of ['map', 'teehistorian', 'demo', 'pcap']) expect(summary[format]!.ok, format).toBe(summary[format]!.total);
    expect(summary.pcap!.snap_crc_ok).toBe(summary.pcap!.snap_crc_total);
    // demo.md, "Checksums a demo carries": 24737 of the 31993 snapshot messages of the 7 server demos verify.
    expect([summary.demo!.snap_crc_ok, summary.demo!.snap_crc_total]).toEqual([24737, 31993]);
    const digests = compareDigests(corpusDir, lines);
    expect(digests.differ).toEqual([]);
    expect(digests.demos).toBe(30);
  }, 1_500_000);
});
