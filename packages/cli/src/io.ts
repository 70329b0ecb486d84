import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** What the commands may touch; tests pass their own. */
export interface CliIo {
  readFile(path: string): Promise<Uint8Array>;
  /** Writes atomically: to a temporary file beside the target, then renamed over it. */
  writeFile(path: string, bytes: Uint8Array, options?: { mkdir?: boolean }): Promise<void>;
  /** The file as a stream of chunks. */
  openRead(path: string): AsyncIterable<Uint8Array>;
  stdout(text: string): void;
  stderr(text: string): void;
}

export function nodeIo(): CliIo {
  return {
    async readFile(path) {
      const buf = await readFile(path);
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    },
    async writeFile(path, bytes, options) {
      if (options?.mkdir) await mkdir(dirname(path), { recursive: true });
      const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
      try {
        await writeFile(tmp, bytes);
        await rename(tmp, path);
      } catch (e) {
        await rm(tmp, { force: true });
        throw e;
      }
    },
    openRead: (path) => createReadStream(path, { highWaterMark: 1 << 16 }),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
}
