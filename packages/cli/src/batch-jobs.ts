// What one file of a batch run gives: the same objects the single-file commands print, plus the file name and
// `ok`, or an error that names the file. Shared by the worker threads (batch-worker.ts) and the main thread.
import { readFile } from 'node:fs/promises';
import { CodecError } from '@twcodec/runtime';
import type { ExportOptions } from './export.js';
import { fsError, openGrowing, readStream, writeFileAtomic } from './io.js';
import { EXPECTED_INPUT, isExpectedKind, sniff } from './sniff.js';

/** What a job gets besides the file's bytes (export: where to write and how); structured-clonable. */
export type BatchOptions = Record<string, unknown>;

const exportJob = (kind: 'teehistorian' | 'demo') => async (bytes: Uint8Array, options: BatchOptions) => {
  const { exportFile } = await import('./export.js');
  const dir = options.dir as string;
  const { written: tables, end } = await exportFile(kind, bytes, options as unknown as ExportOptions, { dir }, writeFileAtomic);
  return { out: dir, ...(end?.truncated ? { truncated: true, end } : {}), tables };
};

/**
 * The commands that take many files, by name: each turns a file's bytes into its result. Each loads its
 * module on first use, so that a worker thread running `map info` loads the map reader only, not the map
 * tools, demo, teehistorian and export packages (issue 28: each worker loaded all of them).
 */
export const BATCH_JOBS: Record<string, (bytes: Uint8Array, options: BatchOptions) => object | Promise<object>> = {
  'datafile info': async (bytes) => (await import('./datafile.js')).datafileInfo(bytes),
  'map info': async (bytes) => (await import('./map-info.js')).mapInfo(bytes),
  'map validate': async (bytes) => (await import('./map-info.js')).mapValidate(bytes),
  'teehistorian stats': async (bytes) => (await import('./teehistorian.js')).teehistorianStats(bytes),
  'demo info': async (bytes) => (await import('./demo.js')).demoInfo(bytes),
  'demo players': async (bytes) => (await import('./demo.js')).demoPlayerList(bytes),
  'teehistorian export': exportJob('teehistorian'),
  'demo export': exportJob('demo'),
};

export interface BatchError {
  code: string;
  message: string;
  offset?: number;
  path?: string;
  /** What the file looks like when it is not what the command reads (the usual cause of BAD_MAGIC). */
  looksLike?: string;
}

/**
 * Jobs that read their file as a stream when `streams(options)` says so (teehistorian export to Parquet: files
 * of gigabytes, issue 41), so that a worker holds row groups, not the file.
 */
const STREAM_JOBS: Record<string, { streams(options: BatchOptions): boolean; run(file: string, options: BatchOptions, openRead?: (path: string) => AsyncIterable<Uint8Array>): Promise<object> }> = {
  'teehistorian export': {
    streams: (options) => options.format === 'parquet',
    async run(file, options, openRead) {
      const { exportStream } = await import('./export.js');
      const dir = options.dir as string;
      const source = (openRead ?? readStream)(file);
      const { written: tables, end } = await exportStream(source, options as unknown as ExportOptions, { dir }, (path, o) => openGrowing(path, () => undefined, o));
      return { out: dir, ...(end?.truncated ? { truncated: true, end } : {}), tables };
    },
  },
};

/** One NDJSON line of a batch run: `ok` is false for a file that failed, and for a map that validate refuses. */
export type BatchLine = { file: string; ok: boolean; error?: BatchError } & Record<string, unknown>;

/** Runs one command on one file; never throws for a problem of the file. */
export async function runBatchJob(command: string, file: string, options: BatchOptions = {}, read?: (path: string) => Promise<Uint8Array>, openRead?: (path: string) => AsyncIterable<Uint8Array>): Promise<BatchLine> {
  const job = BATCH_JOBS[command];
  if (!job) throw new Error(`internal: ${command} is not a batch command`);
  let bytes: Uint8Array | undefined;
  // A job that streams reads through `openRead` when the caller reads through its own io (`read`), else from disk.
  const stream = read && !openRead ? undefined : STREAM_JOBS[command];
  if (stream?.streams(options)) {
    try {
      const result = (await stream.run(file, options, openRead)) as Record<string, unknown>;
      return { file, ok: true, ...result };
    } catch (e) {
      // What the file looks like, for an error of its bytes: its first bytes only.
      const head = e instanceof CodecError ? await readHead(file) : undefined;
      return { file, ok: false, error: batchError(e, command, head) };
    }
  }
  try {
    if (read) bytes = await read(file);
    else {
      try {
        const buf = await readFile(file);
        bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      } catch (e) {
        throw fsError(e, 'read', file);
      }
    }
    const result = (await job(bytes, options)) as Record<string, unknown>;
    return { file, ok: typeof result.ok === 'boolean' ? result.ok : true, ...result };
  } catch (e) {
    return { file, ok: false, error: batchError(e, command, bytes) };
  }
}

function batchError(e: unknown, command: string, bytes: Uint8Array | undefined): BatchError {
  const err = e as { code?: unknown; message?: unknown };
  const error: BatchError = { code: typeof err.code === 'string' ? err.code : 'ERROR', message: String(err.message ?? e) };
  if (e instanceof CodecError) {
    error.offset = e.offset;
    if (e.path) error.path = e.path;
    const group = command.split(' ')[0]!;
    const looks = bytes && sniff(bytes.subarray(0, 64));
    if (looks && EXPECTED_INPUT[group] && !isExpectedKind(group, looks)) error.looksLike = looks;
  }
  return error;
}

/** The first 64 bytes of a file (what sniff looks at), or none when it cannot be read. */
async function readHead(file: string): Promise<Uint8Array | undefined> {
  const { open } = await import('node:fs/promises');
  try {
    const handle = await open(file);
    try {
      const head = new Uint8Array(64);
      const { bytesRead } = await handle.read(head, 0, 64, 0);
      return head.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
