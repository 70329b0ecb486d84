// The code of the typed error a call throws (asserting its class), or undefined when it returns: for tests of
// refusals.
import { expect } from 'vitest';
import type { CodecError } from '@twcodec/runtime';

export function codeOf(fn: () => unknown, errorClass: abstract new (...args: never[]) => CodecError): string | undefined {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(errorClass);
    return (e as CodecError).code;
  }
  return undefined;
}
