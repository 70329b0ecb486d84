// What to do with decoded values besides writing them back: text cleaned as DDNet's unpacker cleans it, and
// the names of enum and flags values.
import type { NetFieldDef, NetValueSet, SanitizeRule } from './codec.js';

/** Cleans text as DDNet's unpacker does for the field's rule (see SanitizeRule). */
export function sanitizeNetString(text: string, rule: SanitizeRule): string {
  if (rule === 'none') return text;
  // eslint-disable-next-line no-control-regex
  let out = rule === 'sanitize' ? text.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g, ' ') : text.replace(/[\x00-\x1f]/g, ' ');
  if (rule === 'strict') out = out.replace(/^[ \t\n\r]+/, '');
  return out;
}

/**
 * The name of a value of an enum set, or for a flag set the names of its bits joined with `|` ('' for 0);
 * undefined when the set has no such value (or the value has a bit the set does not name).
 */
export function netValueName(set: NetValueSet, value: number): string | undefined {
  if (set.kind === 'enum') return set.values.find((v) => v.value === value)?.name;
  const names: string[] = [];
  let rest = value;
  for (const v of set.values) {
    if ((value & v.value) === 0) continue;
    names.push(v.name);
    rest &= ~v.value;
  }
  return rest === 0 ? names.join('|') : undefined;
}

/**
 * The names of a decoded message's enum values and flag bits, by property (`{ weapon: 'laser' }`), as
 * `demo messages` prints them beside the numbers; fields without a named value are left out.
 */
export function netMessageValueNames(fields: readonly NetFieldDef[], message: object): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    const value = (message as Readonly<Record<string, unknown>>)[field.key];
    if (!field.values || typeof value !== 'number') continue;
    const name = netValueName(field.values, value);
    if (name !== undefined) out[field.key] = name;
  }
  return out;
}
