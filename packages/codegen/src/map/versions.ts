// Emits the named versions of map items (`known_versions` in YAML) as constants, so that code which depends
// on an item's version (a version gate) compares with a name from the schema rather than a number.
import type { StatementStructures } from 'ts-morph';
import { namedValuesConst } from '../shared/emit.js';
import { pascal } from '../shared/names.js';
import type { ItemDef, KnownVersion, SchemaSet } from './model.js';

/** The constant's name: `ImageVersion`, or `TilemapLayerVersion` for a variant. */
export function knownVersionsName(item: ItemDef, variant?: string): string {
  return `${variant ? pascal(variant) : ''}${pascal(item.name)}Version`;
}

function versionsStatement(name: string, what: string, known: KnownVersion[]): StatementStructures {
  return namedValuesConst(name, `Named values of the version field of ${what}.`, known);
}

/** One constant per item or variant with `known_versions`, in schema order. */
export function knownVersionStatements(set: SchemaSet): StatementStructures[] {
  return set.items.flatMap((item) => [
    ...(item.knownVersions ? [versionsStatement(knownVersionsName(item), `${item.name} items`, item.knownVersions)] : []),
    ...(item.variants?.cases.flatMap((c) => (c.knownVersions ? [versionsStatement(knownVersionsName(item, c.name), `${c.name} ${item.name} items`, c.knownVersions)] : [])) ?? []),
  ]);
}
