// Runs the twcodec command in-process with its output captured, for CLI tests.
import { type CliIo, main, nodeIo } from '../packages/cli/src/index.js';

/** `onStderr`: each piece of standard error as it is written (a test can act on a line before the command ends). */
export async function runCli(args: string[], onStderr?: (text: string) => void): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    ...nodeIo(),
    stdout: (t) => void (stdout += typeof t === 'string' ? t : new TextDecoder().decode(t)),
    stderr: (t) => {
      stderr += t;
      onStderr?.(t);
    },
    progress: () => {},
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/**
 * `net record ...` run in-process, with `started`: resolved once it says it is recording (its first snapshot in the
 * game, where --seconds counts from), or once it ends without having said so.
 */
export function runRecording(args: string[]): { started: Promise<void>; done: Promise<{ code: number; stdout: string; stderr: string }> } {
  let start = () => {};
  const started = new Promise<void>((resolve) => (start = resolve));
  const done = runCli(args, (t) => {
    if (t.startsWith('recording ')) start();
  });
  // Both ways: a `finally` chain of its own would be a second promise that rejects unhandled if `done` did.
  done.then(start, start);
  return { started, done };
}
