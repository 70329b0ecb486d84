// A worker thread of a batch run: takes { command, file, options } messages, answers { line } (one at a time).
import { parentPort } from 'node:worker_threads';
import { runBatchJob } from './batch-jobs.js';

parentPort!.on('message', async ({ command, file, options }: { command: string; file: string; options: Record<string, unknown> }) => {
  try {
    parentPort!.postMessage({ line: await runBatchJob(command, file, options) });
  } catch (e) {
    parentPort!.postMessage({ line: { file, ok: false, error: { code: 'INTERNAL', message: String((e as Error)?.stack ?? e) } } });
  }
});
