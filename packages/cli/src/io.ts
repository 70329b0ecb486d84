// Named imports, not `* as fs`: the bundle makes a namespace import of node:fs a copy of its hundred-odd
// properties, at start-up (rolldown's __toESM; issue 41).
import {
  closeSync,
  createReadStream,
  type MakeDirectoryOptions,
  mkdir as mkdirCallback,
  openSync,
  readFileSync,
  readSync,
  rename as renameCallback,
  type RmOptions,
  rm as rmCallback,
  type Stats,
  stat as statCallback,
  writeFile as writeFileCallback,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

// node:fs's callback functions as promises, rather than node:fs/promises: loading that module loads eight more
// of Node's own (readline among them), about 2 ms of CPU time of every command (start-up, issue 28). Writing
// an iterable of chunks, which only fs/promises' writeFile takes, loads it then. Wrapped by hand, as
// util.promisify would (the same values and errors), without its set-up of each function at start-up (issue 41).
type Callback<T> = (e: NodeJS.ErrnoException | null, value: T) => void;
const promise = <T>(call: (done: Callback<T>) => void) => new Promise<T>((resolve, reject) => call((e, value) => (e ? reject(e) : resolve(value))));
const stat = (path: string) => promise<Stats>((done) => statCallback(path, done));
const mkdir = (path: string, options: MakeDirectoryOptions & { recursive: true }) => promise<string | undefined>((done) => mkdirCallback(path, options, done));
const rename = (from: string, to: string) => promise<void>((done) => renameCallback(from, to, (e) => done(e, undefined)));
const rm = (path: string, options: RmOptions) => promise<void>((done) => rmCallback(path, options, (e) => done(e, undefined)));
const writeBytes = (path: string, bytes: Uint8Array, options: { flag: string }) => promise<void>((done) => writeFileCallback(path, bytes, options, (e) => done(e, undefined)));
async function writeFile(path: string, bytes: Uint8Array | Iterable<Uint8Array>, options: { flag: string }): Promise<void> {
  if (bytes instanceof Uint8Array) return writeBytes(path, bytes, options);
  return (await import('node:fs/promises')).writeFile(path, bytes, options);
}

/** What the commands may touch; tests pass their own. */
export interface CliIo {
  /** The whole file (`-`: standard input). */
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Writes atomically: to a temporary file beside the target, then renamed over it. `-` writes to standard
   * output.
   */
  writeFile(path: string, bytes: Uint8Array | Iterable<Uint8Array>, options?: { mkdir?: boolean }): Promise<void>;
  /** The file as a stream of chunks (`-`: standard input). */
  openRead(path: string): AsyncIterable<Uint8Array>;
  /**
   * A file written while it grows (`net record`'s demo, streamed so that memory stays flat): its bytes go to a
   * temporary file beside `path` (`-`: in the temporary directory) until `commit` renames it over `path` (`-`:
   * copies it to standard output); `discard` removes it.
   */
  openWrite(path: string, options?: { mkdir?: boolean }): Promise<GrowingFile>;
  /**
   * Text to standard output. Streaming commands await the result: it resolves when the output can take
   * more, so a slow or closed reader (`| head -1`) stops the work instead of buffering it all. Bytes are
   * UTF-8 text already (`net pcap`'s lines, made as bytes: written without a round trip through a string),
   * lent: the caller writes over them once the result resolves (a Promise, when bytes were given), so a
   * writer that keeps them after that copies them (`net pcap` writes the lines from its line buffer itself:
   * copying each piece out first was 2% of its CPU time; issue 41).
   */
  stdout(text: string | Uint8Array): void | Promise<void>;
  stderr(text: string): void;
  /** A progress line for long work; shown on a terminal only, so pipes and logs stay clean. */
  progress(text: string): void;
}

/** See CliIo.openWrite. */
export interface GrowingFile {
  /** Appends `bytes` (written in pieces of 64 KiB, synchronously: the caller's sink cannot wait). */
  append(bytes: Uint8Array): void;
  /** Writes `bytes` over what was appended, from `offset` (a demo's final header over its first bytes). */
  writeAt(offset: number, bytes: Uint8Array): void;
  /** The file is complete: it replaces `path`. */
  commit(): Promise<void>;
  /** Nothing is written: the temporary file goes. */
  discard(): Promise<void>;
}

/**
 * An error of the command line itself (a file that cannot be read or written), printed as one line without a
 * stack: `twcodec: cannot read x.map: no such file or directory`.
 */
export class CliError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'CliError';
    this.code = code;
  }
}

/** Standard output was closed by its reader (`| head -1`): the command stops and exits 0, silently. */
export class OutputClosed extends Error {
  constructor() {
    super('standard output closed');
    this.name = 'OutputClosed';
  }
}

/** Plain words for the file system errors a user meets, without Node's "ENOENT: ..., open 'x'" prefix. */
const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EEXIST: 'already exists',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'file name too long',
};

/** Turns a Node file system error into a CliError naming the user's path and what was being done. */
export function fsError(e: unknown, action: 'read' | 'write', path: string): unknown {
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return e;
  const reason = FS_REASONS[code] ?? String((e as Error).message).replace(/^E[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
  return new CliError(code, `cannot ${action} ${path}: ${reason}`);
}

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    size += chunk.length;
  }
  // Loaded here rather than at the top: `twcodec --version` and `--help` need no codec (start-up, issue 28).
  const { concatBytes } = await import('./runtime-names.js');
  return concatBytes(chunks, size);
}

/** A file (`-`: standard input) as chunks of 64 KiB; a read that fails is fsError's one line with the path. */
export async function* readStream(path: string): AsyncGenerator<Uint8Array> {
  if (path === '-') {
    yield* process.stdin;
    return;
  }
  try {
    // Fail early and clearly on a directory (createReadStream would report EISDIR without the path).
    const info = await stat(path);
    if (info.isDirectory()) throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
    if (info.isFile()) {
      // A file by read(2) calls of its own: a read stream's machinery per piece took 1.2 ms of CPU per MB
      // read, a tenth of `net pcap`'s floor, where these reads take 0.1 (issue 41). Each piece is a new array
      // (a consumer may keep it). Not for a pipe or a device, which a blocking read would stall on.
      const fd = openSync(path, 'r');
      try {
        for (;;) {
          const piece = Buffer.allocUnsafeSlow(1 << 16);
          const n = readSync(fd, piece, 0, piece.length, null);
          if (n === 0) return;
          yield n === piece.length ? piece : piece.subarray(0, n);
        }
      } finally {
        closeSync(fd);
      }
    }
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 16 })) yield chunk as Uint8Array;
  } catch (e) {
    throw fsError(e, 'read', path);
  }
}

/**
 * The real standard output. A reader that goes away (EPIPE) is not an error for a command line tool:
 * later writes throw OutputClosed, which `main` turns into a quiet exit 0.
 */
function stdoutWriter(): (text: string | Uint8Array) => void | Promise<void> {
  let closed = false;
  const onError = (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') closed = true;
    else throw e;
  };
  if (!process.stdout.listeners('error').some((l) => (l as { twcodec?: boolean }).twcodec)) {
    process.stdout.on('error', Object.assign((e: NodeJS.ErrnoException) => onError(e), { twcodec: true }));
  }
  return (text) => {
    if (closed || process.stdout.destroyed) throw new OutputClosed();
    // Lent bytes: resolved when the stream is done with them (written, or failed: the callback comes with the
    // error, which the error listener above turns into OutputClosed for the next write). That is never before
    // the 'drain' a full stream would wait for, as the stream writes in order.
    if (typeof text !== 'string') return new Promise<void>((resolve) => void process.stdout.write(text, () => resolve()));
    if (process.stdout.write(text)) return;
    // Resolves, never rejects, also when the pipe closed: callers that do not await must not get an unhandled
    // rejection, and the next write throws OutputClosed.
    return new Promise<void>((resolve) => {
      const done = () => {
        process.stdout.off('drain', done);
        process.stdout.off('close', done);
        process.stdout.off('error', done);
        resolve();
      };
      process.stdout.on('drain', done);
      process.stdout.on('close', done);
      process.stdout.on('error', done);
    });
  };
}

const outputIsDirectory = (path: string) => new CliError('EISDIR', `cannot write ${path}: is a directory (give a file name, or - for standard output)`);

/**
 * Fails as writing OUT would (a directory, a parent directory that is not there), before work that cannot be
 * done again: `net record` found out only after recording for --seconds, and lost the recording.
 */
export async function checkOutputPath(path: string): Promise<void> {
  if (path === '-') return;
  if ((await stat(path).catch(() => undefined))?.isDirectory()) throw outputIsDirectory(path);
  const parent = await stat(dirname(path)).catch((e: unknown) => {
    throw fsError(e, 'write', path);
  });
  if (!parent.isDirectory()) throw new CliError('ENOTDIR', `cannot write ${path}: ${FS_REASONS.ENOTDIR}`);
}

/** Makes the directory `path` goes into (and its parents); a failure names that directory. */
async function makeParentDir(path: string): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (e) {
    throw fsError(e, 'write', dirname(path));
  }
}

/**
 * Writes atomically: to a temporary file beside the target, then renamed over it; `mkdir` creates the parent
 * directories. Errors name the user's path.
 */
export async function writeFileAtomic(path: string, bytes: Uint8Array | Iterable<Uint8Array>, options?: { mkdir?: boolean }): Promise<void> {
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) throw outputIsDirectory(path);
  if (options?.mkdir) await makeParentDir(path);
  // A name no other run picks (process id and a random part), created exclusively ('wx': fails rather than
  // follow a link or take over a file that is there). Not node:crypto's randomBytes: loading node:crypto cost
  // about 10 ms of CPU time per run, a tenth of a small map's resave (start-up, issue 28).
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
  try {
    await writeFile(tmp, bytes, { flag: 'wx' });
    await rename(tmp, path);
  } catch (e) {
    // EEXIST: the file there is not ours to remove.
    if ((e as { code?: unknown }).code !== 'EEXIST') await rm(tmp, { force: true });
    // Name the user's path, not the temporary file beside it.
    throw fsError(e, 'write', path);
  }
}

const GROWING_PIECE = 1 << 16;

/** CliIo.openWrite on the real file system. */
export async function openGrowing(path: string, out: (chunk: Uint8Array) => void | Promise<void>, options?: { mkdir?: boolean }): Promise<GrowingFile> {
  const toStdout = path === '-';
  if (!toStdout && (await stat(path).catch(() => undefined))?.isDirectory()) throw outputIsDirectory(path);
  if (!toStdout && options?.mkdir) await makeParentDir(path);
  const { tmpdir } = await import('node:os');
  const tmp = join(toStdout ? tmpdir() : dirname(path), `.${toStdout ? 'twcodec-stdout' : basename(path)}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
  let fd: number;
  try {
    // 'wx': created here, never a file or link that was there.
    fd = openSync(tmp, 'wx');
  } catch (e) {
    throw fsError(e, 'write', path);
  }
  let piece = new Uint8Array(GROWING_PIECE);
  let filled = 0;
  let written = 0;
  let open = true;
  const guard = <T>(work: () => T): T => {
    try {
      return work();
    } catch (e) {
      throw fsError(e, 'write', path);
    }
  };
  const flush = () => {
    if (filled) guard(() => writeSync(fd, piece, 0, filled, written));
    written += filled;
    filled = 0;
  };
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  return {
    append(bytes) {
      if (filled + bytes.length > piece.length) flush();
      if (bytes.length > piece.length) {
        guard(() => writeSync(fd, bytes, 0, bytes.length, written));
        written += bytes.length;
      } else {
        piece.set(bytes, filled);
        filled += bytes.length;
      }
    },
    writeAt(offset, bytes) {
      flush();
      guard(() => writeSync(fd, bytes, 0, bytes.length, offset));
    },
    async commit() {
      flush();
      piece = new Uint8Array(0);
      close();
      try {
        if (!toStdout) return await rename(tmp, path).catch((e: unknown) => {
          throw fsError(e, 'write', path);
        });
        for await (const chunk of createReadStream(tmp, { highWaterMark: GROWING_PIECE })) await out(chunk as Uint8Array);
      } finally {
        await rm(tmp, { force: true });
      }
    },
    async discard() {
      close();
      await rm(tmp, { force: true });
    },
  };
}

export function nodeIo(): CliIo {
  const out = stdoutWriter();
  return {
    async readFile(path) {
      if (path === '-') return readAll(process.stdin);
      try {
        // Synchronously, as the bundle loader reads its chunks: Node's asynchronous readFile runs functions of
        // its own that a run compiles only for this one file (start-up, issue 41); the same bytes and errors.
        const buf = readFileSync(path);
        return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      } catch (e) {
        throw fsError(e, 'read', path);
      }
    },
    async writeFile(path, bytes, options) {
      if (path === '-') {
        for (const chunk of bytes instanceof Uint8Array ? [bytes] : bytes) await out(chunk);
        return;
      }
      await writeFileAtomic(path, bytes, options);
    },
    openRead: readStream,
    openWrite: (path, options) => openGrowing(path, out, options),
    stdout: (text) => out(text),
    stderr: (text) => void process.stderr.write(text),
    progress: (text) => {
      if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}${text.endsWith('done') ? '\n' : ''}`);
    },
  };
}

/** A wrong command line: printed with a pointer to --help, exit code 2. */
export class UsageError extends Error {}

/**
 * "1 file", "2 files": the CLI's counts, worded as @twcodec/map-tools' plural words the map commands' messages
 * (a copy of that one line, so that every command's summary does not load map-tools).
 */
export const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * A message as one line: messages can quote the input (a teehistorian header's JSON.parse error quotes the bytes
 * around the fault) or what a server sent (a map name), and a newline or other control character from it would
 * break the line, or a terminal. They are written as escapes: \n, \u0003.
 */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\n' ? '\\n' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
