// Runs one input of one target in a fresh process and prints what it cost: the check run.mjs makes before a
// memory, hang or exit finding of a long-lived worker counts. Usage: node fuzz/confirm.mjs TARGET FILE
// (run.mjs starts it with the worker's heap limit and kills it after the per-input timeout).
import { readFileSync } from 'node:fs';
import { CodecError } from '@twcodec/datafile';
import { TARGETS } from './targets.mjs';

const [target, file] = process.argv.slice(2);
const buf = readFileSync(file);
const input = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
globalThis.gc?.();
// Modules are loaded and the input is read: what the process holds now is the baseline the input is judged against.
const before = process.resourceUsage().maxRSS * 1024;
let error;
try {
  await TARGETS[target](input);
} catch (e) {
  if (!(e instanceof CodecError)) error = String(e?.stack ?? e).slice(0, 2000);
}
const after = process.resourceUsage().maxRSS * 1024;
process.stdout.write(`${JSON.stringify({ beforeMb: Math.round(before / 1048576), afterMb: Math.round(after / 1048576), error })}\n`);
process.exitCode = error ? 1 : 0;
