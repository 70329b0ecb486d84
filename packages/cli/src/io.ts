import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** What the commands may touch; tests pass their own. */
export interface CliIo {
  readFile(path: string): Promise<Uint8Array>;
  /** Writes atomically: to a temporary file beside the target, then renamed over it. */
  writeFile(path: string, bytes: Uint8Array, options?: { mkdir?: boolean }): Promise<void>;
  /** The file as a stream of chunks (`-`: standard input). */
  openRead(path: string): AsyncIterable<Uint8Array>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** A progress line for long work; shown on a terminal only, so pipes and logs stay clean. */
  progress(text: string): void;
}

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    size += chunk.length;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

export function nodeIo(): CliIo {
  return {
    async readFile(path) {
      if (path === '-') return readAll(process.stdin);
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
    openRead: (path) => (path === '-' ? process.stdin : createReadStream(path, { highWaterMark: 1 << 16 })),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    progress: (text) => {
      if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}${text.endsWith('done') ? '\n' : ''}`);
    },
  };
}
