// The page's side of the worker (worker.ts), which decodes the open file off the main thread: one worker per
// open file (a new file ends the old one's work), requests numbered and answered by promise. A module of its own
// so that every view asks the worker the same way.
import type { WorkerReply, WorkerRequest } from './worker.js';

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, (reply: WorkerReply) => void>();

export function startWorker(): Worker {
  worker?.terminate();
  for (const resolve of pending.values()) resolve({ id: 0, op: 'open', reply: { ok: false, message: 'Another file was opened.' } });
  pending.clear();
  const w = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  w.onmessage = (e: MessageEvent<WorkerReply>) => {
    const resolve = pending.get(e.data.id);
    pending.delete(e.data.id);
    resolve?.(e.data);
  };
  w.onerror = (e) => {
    for (const resolve of pending.values()) resolve({ id: 0, op: 'open', reply: { ok: false, message: e.message } });
    pending.clear();
  };
  return (worker = w);
}

export type Request = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;
export function call(request: Request, transfer: Transferable[] = []): Promise<WorkerReply> {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    worker!.postMessage({ ...request, id }, transfer);
  });
}
