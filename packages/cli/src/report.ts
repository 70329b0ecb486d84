// What the CLI says when a command fails: one line naming the file as the user gave it, and what a file of the
// wrong kind looks like (the usual cause of BAD_MAGIC).
import type { CodecError } from '@twcodec/runtime';
import { ReportedFailure } from './command.js';
import { CliError, type CliIo, UsageError } from './io.js';
import { EXPECTED_INPUT, isExpectedKind, sniff } from './sniff.js';

/** The first bytes of every input a command reads, to say what a file of the wrong kind looks like. */
export function trackInputs(io: CliIo, heads: Map<string, Uint8Array>): CliIo {
  const keep = (path: string, bytes: Uint8Array) => {
    if (!heads.has(path)) heads.set(path, bytes.slice(0, 64));
  };
  return {
    ...io,
    async readFile(path) {
      const bytes = await io.readFile(path);
      keep(path, bytes);
      return bytes;
    },
    openRead(path) {
      const source = io.openRead(path);
      return (async function* () {
        let empty = true;
        for await (const chunk of source) {
          if (empty) keep(path, chunk);
          empty = false;
          yield chunk;
        }
        if (empty) keep(path, new Uint8Array(0));
      })();
    },
  };
}

/** What an input given as argument `role` should be, for "expected ..." (undefined: not sniffed, e.g. a directory). */
function expectedOf(role: string | undefined, group: string): { text: string; is: (looks: string) => boolean } | undefined {
  if (role === 'png') return { text: 'a PNG image', is: (looks) => looks === 'a PNG image' };
  if (role === 'opus') return { text: 'an Ogg Opus file', is: (looks) => looks === 'an Ogg file (sound)' };
  const expected = EXPECTED_INPUT[group];
  // The main input of a command (IN, FILE, or either map of map diff) is of the command group's kind.
  return expected && role !== undefined && ['in', 'file', 'a', 'b'].includes(role) ? { text: expected, is: (looks) => isExpectedKind(group, looks) } : undefined;
}

/**
 * The file a CodecError is about, as the user named it, and the argument it was given as. The error's `input`
 * says which when the code that threw knows (`png`: the argument PNG; `layers/x.txt`: a file of the directory
 * DIR); without it, the command's first argument (its main input).
 */
function sourceOf(e: CodecError, roles: Record<string, string>): { file?: string; role?: string } {
  const first = Object.keys(roles)[0];
  if (e.input === undefined) return first === undefined ? {} : { file: roles[first], role: first };
  if (roles[e.input] !== undefined) return { file: roles[e.input], role: e.input };
  if (roles.dir !== undefined) return { file: `${roles.dir}/${e.input}`, role: 'file in dir' };
  return {};
}

export function describeError(e: unknown, group: string, heads: Map<string, Uint8Array>, roles: Record<string, string>, { CodecError, describeSource }: Pick<typeof import('@twcodec/runtime'), 'CodecError' | 'describeSource'>): string {
  if (e instanceof CodecError) {
    // Errors of a command's other inputs that name the input in their message (a PNG, an Opus file, map pack's
    // files, a mapres name) are printed as they are.
    if (e.input === undefined && /^(png|opus|mapdir|mapres)\./.test(e.code)) {
      // A PNG or Opus argument that is another kind of file: say what it looks like, as for a main input.
      const role = /^(png|opus)\./.exec(e.code)?.[1];
      const file = role === undefined ? undefined : roles[role];
      const head = file === undefined ? undefined : heads.get(file);
      const expected = expectedOf(role, group);
      if (head && expected && !expected.is(sniff(head))) return `${e.message}: expected ${expected.text}; ${file === '-' ? 'standard input' : file} looks like ${sniff(head)}`;
      return e.message;
    }
    const { file, role } = sourceOf(e, roles);
    const name = file === '-' ? 'standard input' : file;
    // The input is named when the error says which it is, or when the command read more than one file.
    const named = name !== undefined && (e.input !== undefined || heads.size > 1) ? name : e.input;
    const text = named === e.input ? e.message : `${e.code}: ${e.detail}${describeSource({ input: named, line: e.line, column: e.column, path: e.path, offset: e.offset })}`;
    // Say what the file looks like when it is not what the command reads there: the usual cause of BAD_MAGIC.
    const head = file === undefined ? undefined : heads.get(file);
    const expected = expectedOf(role, group);
    if (head && expected) {
      const looks = sniff(head);
      if (!expected.is(looks)) return `${text}: expected ${expected.text}; ${name} looks like ${looks}`;
    }
    return text;
  }
  if (e instanceof ReportedFailure || e instanceof CliError) return e.message;
  if (e instanceof UsageError) return /\((usage|the |.*see twcodec)/.test(e.message) ? e.message : `${e.message} (see twcodec --help)`;
  const err = e as { code?: string; message?: string };
  const message = String(err.message ?? e);
  return err.code && !message.startsWith(err.code) ? `${err.code}: ${message}` : message;
}
