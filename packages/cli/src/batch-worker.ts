// A worker thread of a batch run: takes { command, file } messages, answers { line } (one at a time).
import { parentPort } from 'node:worker_threads';
import { runBatchJob } from './batch-jobs.js';

parentPort!.on('message', async ({ command, file }: { command: string; file: string }) => {
  try {
    parentPort!.postMessage({ line: await runBatchJob(command, file) });
  } catch (e) {
    parentPort!.postMessage({ line: { file, ok: false, error: { code: 'INTERNAL', message: String((e as Error)?.stack ?? e) } } });
  }
});
