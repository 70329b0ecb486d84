// Many files through one command: globs expanded here too (for shells that do not, and for patterns quoted to
// get past a command line length limit), the files spread over worker threads, one NDJSON line per file in
// the order given, errors per file reported in their line without stopping the run.
import { availableParallelism } from 'node:os';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { BatchLine, BatchOptions } from './batch-jobs.js';
import { isGlob } from './glob.js';
import { type CliIo, plural, UsageError } from './io.js';

export { isGlob };

/** `a{b,c}d` -> `abd`, `acd` (nested braces too); text without braces as it is. */
function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  if (open < 0) return [pattern];
  let depth = 0;
  const parts: string[] = [];
  let start = open + 1;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      parts.push(pattern.slice(start, i));
      const [head, tail] = [pattern.slice(0, open), pattern.slice(i + 1)];
      return parts.flatMap((p) => expandBraces(head + p + tail));
    } else if (c === ',' && depth === 1) {
      parts.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  return [pattern]; // an unclosed brace is a plain character
}

/** One path segment's pattern as a regular expression: * and ? within the segment, [abc], [!abc]. */
function segmentRegExp(segment: string): RegExp {
  let re = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close < 0) re += '\\[';
      else {
        let body = segment.slice(i + 1, close);
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        re += `[${body.replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

async function entries(dir: string): Promise<{ name: string; isDirectory: boolean }[]> {
  const at = dir || '.';
  try {
    const list = await readdir(at, { withFileTypes: true });
    // Symbolic links to directories are followed, as a shell's glob does.
    return await Promise.all(list.map(async (e) => ({ name: e.name, isDirectory: e.isDirectory() || (e.isSymbolicLink() && (await stat(join(at, e.name)).then((s) => s.isDirectory(), () => false))) })));
  } catch {
    return [];
  }
}

/** The files one pattern matches, sorted; names starting with a dot only when the pattern's segment does. */
async function matchPattern(pattern: string): Promise<string[]> {
  const absolute = pattern.startsWith('/');
  const segments = pattern.split('/').filter((s, i) => s !== '' || i === 0);
  if (absolute) segments.shift();
  const out: string[] = [];
  const walk = async (dir: string, rest: string[]): Promise<void> => {
    const [segment, ...tail] = rest;
    if (segment === undefined) return;
    const path = (name: string) => (dir === '' ? name : dir === '/' ? `/${name}` : `${dir}/${name}`);
    if (segment === '**') {
      // Zero directories, or one more and still inside the **.
      await walk(dir, tail);
      for (const e of await entries(dir)) if (e.isDirectory && !e.name.startsWith('.')) await walk(path(e.name), rest);
      return;
    }
    if (!isGlob(segment)) {
      if (tail.length === 0) {
        if (await stat(path(segment)).then((s) => s.isFile(), () => false)) out.push(path(segment));
      } else await walk(path(segment), tail);
      return;
    }
    const re = segmentRegExp(segment);
    for (const e of await entries(dir)) {
      if (e.name.startsWith('.') && !segment.startsWith('.')) continue;
      if (!re.test(e.name)) continue;
      if (tail.length === 0) {
        if (!e.isDirectory) out.push(path(e.name));
      } else if (e.isDirectory) await walk(path(e.name), tail);
    }
  };
  await walk(absolute ? '/' : '', segments);
  return [...new Set(out)].sort();
}

/**
 * The files of the arguments: a name as it is (also when it holds glob characters and such a file exists),
 * a glob (*, ?, [abc], {a,b}, ** for any depth of directories) as the files it matches. A glob that matches
 * nothing stays, so that its line says so.
 */
export async function expandArgs(args: string[]): Promise<{ files: string[]; unmatched: Set<string> }> {
  const files: string[] = [];
  const unmatched = new Set<string>();
  for (const arg of args) {
    if (!isGlob(arg) || (await stat(arg).then(() => true, () => false))) {
      files.push(arg);
      continue;
    }
    const matched = [...new Set((await Promise.all(expandBraces(arg).map(matchPattern))).flat())];
    if (matched.length) files.push(...matched);
    else {
      files.push(arg);
      unmatched.add(arg);
    }
  }
  return { files, unmatched };
}

export interface BatchSummary {
  files: number;
  ok: number;
  failed: number;
  seconds: number;
  jobs: number;
}

interface Job {
  file: string;
  options: BatchOptions;
  done: (line: BatchLine) => void;
}

/** A pool of worker threads, each running one file at a time. */
class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  private readonly queue: Job[] = [];

  constructor(
    private readonly command: string,
    size: number,
  ) {
    for (let i = 0; i < size; i++) this.idle.push(this.spawn());
  }

  private spawn(): Worker {
    const worker = new Worker(new URL('./batch-worker.js', import.meta.url));
    worker.on('message', ({ line }: { line: BatchLine }) => {
      const job = this.busy.get(worker)!;
      this.busy.delete(worker);
      this.next(worker);
      job.done(line);
    });
    worker.on('error', (e) => {
      // A worker that died (out of memory on a huge file) fails its file; a new one takes its place.
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      this.next(this.spawn());
      job?.done({ file: job.file, ok: false, error: { code: 'WORKER_FAILED', message: String((e as Error).message ?? e) } });
    });
    return worker;
  }

  private next(worker: Worker): void {
    const job = this.queue.shift();
    if (!job) {
      this.idle.push(worker);
      return;
    }
    this.busy.set(worker, job);
    worker.postMessage({ command: this.command, file: job.file, options: job.options });
  }

  run(file: string, options: BatchOptions): Promise<BatchLine> {
    return new Promise((done) => {
      this.queue.push({ file, options, done });
      const worker = this.idle.pop();
      if (worker) this.next(worker);
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.idle, ...this.busy.keys()].map((w) => w.terminate()));
  }
}

/**
 * Runs `command` on every file: NDJSON lines on standard output in the order of `args`, progress on a
 * terminal. `jobs` worker threads (default: one per core, at most one per file); with 1 the files are read in
 * this thread, through `io`.
 */
export async function runBatch(io: CliIo, command: string, args: string[], jobs: number | undefined, optionsFor: (files: string[]) => BatchOptions[] = (files) => files.map(() => ({}))): Promise<BatchSummary> {
  const started = performance.now();
  if (args.includes('-')) throw new UsageError('- (standard input) cannot be one of many files');
  const { files, unmatched } = await expandArgs(args);
  const options = optionsFor(files);
  const threads = Math.max(1, Math.min(jobs ?? availableParallelism(), files.length));
  const pool = threads > 1 ? new WorkerPool(command, threads) : undefined;
  const summary: BatchSummary = { files: files.length, ok: 0, failed: 0, seconds: 0, jobs: threads };
  const noMatch = (file: string): BatchLine => ({ file, ok: false, error: { code: 'ENOENT', message: `no file matches ${file}` } });
  try {
    // Every file is started at once; the pool queues them. Lines are written as soon as all before them are.
    const results = files.map((file, i) => (unmatched.has(file) ? Promise.resolve(noMatch(file)) : pool ? pool.run(file, options[i]!) : undefined));
    for (let i = 0; i < files.length; i++) {
      // With one thread the files are read here; the jobs' modules load only then (the workers load their own).
      const line = (await results[i]) ?? (await (await import('./batch-jobs.js')).runBatchJob(command, files[i]!, options[i], (path) => io.readFile(path), (path) => io.openRead(path)));
      if (line.ok) summary.ok++;
      else summary.failed++;
      await io.stdout(`${JSON.stringify(line)}\n`);
      io.progress(`${i + 1}/${files.length} files${summary.failed ? `, ${summary.failed} failed` : ''}`);
    }
  } finally {
    await pool?.close();
  }
  if (files.length) io.progress(`${plural(files.length, 'file')}, done`);
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}
