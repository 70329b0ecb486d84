// DDNet's own tools (Debian package ddnet-tools) as the oracle. They read absolute paths but write under
// DDNet's user directory, ~/.local/share/ddnet/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
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
