// What every fuzz target uses to state its properties: a broken property is a PropertyViolation (a finding even
// though nothing crashed); a CodecError is a typed refusal, which is fine. Apart from targets.mjs so that the
// target files (targets.mjs, map-tools-targets.mjs) import it without importing each other.
import { CodecError } from '@twcodec/datafile';

/** A property that must hold for every input was broken: a finding even though nothing crashed. */
export class PropertyViolation extends Error {}

export function check(ok, message) {
  if (!ok) throw new PropertyViolation(message);
}

export function equalBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Runs fn; a CodecError is a refusal (returns undefined), anything else propagates. */
export function refusing(fn) {
  try {
    return fn();
  } catch (e) {
    if (e instanceof CodecError) return undefined;
    throw e;
  }
}
