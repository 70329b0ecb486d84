// DDNet's own tools (Debian package ddnet-tools) as the oracle. They read absolute paths but write under
// DDNet's user directory, ~/.local/share/ddnet/.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

const TOOL_DIRS = ['/usr/lib/x86_64-linux-gnu/ddnet', '/usr/lib/aarch64-linux-gnu/ddnet', '/usr/lib/ddnet'];

export function ddnetTool(name: string): string | undefined {
  for (const dir of TOOL_DIRS) if (existsSync(join(dir, name))) return join(dir, name);
  return undefined;
}

export const ddnetUserDir = join(homedir(), '.local', 'share', 'ddnet');

/** Runs `map_resave` and returns its output bytes. */
export function mapResave(inputPath: string, tag: string): Uint8Array {
  const tool = ddnetTool('map_resave');
  if (!tool) throw new Error('map_resave not installed (apt-get install ddnet-tools)');
  mkdirSync(ddnetUserDir, { recursive: true });
  const outName = `twcodec-test-${process.pid}-${tag.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
  const outPath = join(ddnetUserDir, outName);
  try {
    execFileSync(tool, [inputPath, outName], { stdio: 'pipe', timeout: 60_000 });
    const buf = readFileSync(outPath);
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  } finally {
    rmSync(outPath, { force: true });
  }
}

/** Runs `map_diff A B` and returns the tile differences it reports: layer name, x, y, old and new index. */
export function mapDiff(a: string, b: string): { layer: string; x: number; y: number; from: number; to: number }[] {
  const tool = ddnetTool('map_diff');
  if (!tool) throw new Error('map_diff not installed (apt-get install ddnet-tools)');
  const cwd = mkdtempSync(join(tmpdir(), 'twcodec-map-diff-'));
  try {
    const out = execFileSync(tool, [a, b], { cwd, stdio: 'pipe', timeout: 60_000, encoding: 'utf8', maxBuffer: 1 << 28 });
    return [...out.matchAll(/map_compare: \[\d+:([^\]]*)\] (\d+)x(\d+): \(index: (\d+), flags: \d+\) != \(index: (\d+)/g)].map((m) => ({
      layer: m[1]!,
      x: Number(m[2]),
      y: Number(m[3]),
      from: Number(m[4]),
      to: Number(m[5]),
    }));
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/**
 * Runs `map_convert_07 IN OUT` in `cwd` (it embeds external images from `cwd/data/mapres/<name>.png`) and
 * returns its exit code and output bytes. It writes OUT even when it exits with an error.
 */
export function mapConvert07(inputPath: string, outputPath: string, cwd: string): { status: number; bytes: Uint8Array | undefined } {
  const tool = ddnetTool('map_convert_07');
  if (!tool) throw new Error('map_convert_07 not installed (apt-get install ddnet-tools)');
  rmSync(outputPath, { force: true });
  const result = spawnSync(tool, [inputPath, outputPath], { cwd, stdio: 'pipe', timeout: 60_000 });
  const bytes = existsSync(outputPath) ? new Uint8Array(readFileSync(outputPath)) : undefined;
  return { status: result.status ?? -1, bytes };
}
