// Emits what the snapshot field layouts give: the layout literals inside the item tables, one TypeScript
// interface per object and event (objects.gen.ts).
import { StructureKind, type StatementStructures } from 'ts-morph';
import { createProject, GENERATED_HEADER, type GeneratedFile, readonlyInterface, str, generatedText } from '../shared/emit.js';
import { camel, pascal } from '../shared/names.js';
import { type SnapshotEnumDef, type SnapshotFieldDef, type SnapshotLayoutDef, type SnapshotProtocolDef } from './model.js';

/** The TypeScript of one field in the item tables; `sets` is the expression of the protocol's value sets. */
function fieldLiteral(f: SnapshotFieldDef, sets: string): string {
  const parts = [`name: ${str(f.name)}`, `kind: ${str(f.type)}`, `offset: ${f.offset}`, `ints: ${f.ints}`];
  for (const key of ['min', 'max', 'mask', 'default', 'scale', 'strings'] as const) if (f[key] !== undefined) parts.push(`${key}: ${f[key]}`);
  if (f.since !== undefined) parts.push(`since: ${str(f.since)}`);
  const set = f.enum ?? f.flags;
  if (set !== undefined) parts.push(`values: ${sets}.${set}`);
  return `{ ${parts.join(', ')} }`;
}

/** The layout part of an item table entry: `event, since, fields`. */
export function layoutLiteral(layout: SnapshotLayoutDef, sets: string): string {
  const since = layout.since !== undefined ? `, since: ${str(layout.since)}` : '';
  return `event: ${layout.event}${since}, fields: [${layout.fields.map((f) => fieldLiteral(f, sets)).join(', ')}]`;
}

/** The literal of one value set in the tables. */
export const valueSetLiteral = (e: SnapshotEnumDef) =>
  `{ name: ${str(e.name)}, kind: ${str(e.kind)}, values: [${e.values.map((v) => `{ name: ${str(v.name)}, value: ${v.value} }`).join(', ')}] }`;

/** The interfaces SnapshotField and SnapshotLayout, written into tables.gen.ts. */
export const LAYOUT_INTERFACES: StatementStructures[] = [
  readonlyInterface('SnapshotField', 'A field of a snapshot object or event, at `offset` i32 into the item.', [
    ['name', 'string'],
    ['kind', "'i32' | 'bool' | 'tick' | 'enum' | 'flags' | 'fixed' | 'i32string' | 'i32array'", 'The field type (schemas/README.md); i32string: packed text (4 bytes per int, each plus 128); fixed: the int is the value times `scale`.'],
    ['offset', 'number'],
    ['ints', 'number', 'Width in i32 (more than 1 for i32string and i32array).'],
    ['min?', 'number', "Lowest value DDNet's snapshot validation accepts."],
    ['max?', 'number', "Highest value DDNet's snapshot validation accepts."],
    ['mask?', 'number', 'Flags: the bits the validation accepts.'],
    ['default?', 'number', "The int DDNet uses when an older server's item ends before the field: raw, as it would be stored (a fixed field's view divides it by `scale`)."],
    ['scale?', 'number'],
    ['strings?', 'number', 'array: it holds this many packed strings of `ints / strings` ints each (decodeI32String).'],
    ['since?', 'string', 'The DDNet release that added the field.'],
    ['values?', 'SnapshotValueSet', 'enum and flags fields: the names of their values (see valueName, flagNames).'],
  ]),
  readonlyInterface('SnapshotValueSet', 'An enum or flag set of a protocol: each name with its value (flags: the bit).', [
    ['name', 'string'],
    ['kind', "'enum' | 'flags'"],
    ['values', 'readonly { readonly name: string; readonly value: number }[]'],
  ]),
  readonlyInterface('SnapshotLayout', 'The field layout of a snapshot object or event.', [
    ['name', 'string'],
    ['event', 'boolean', 'An event (sent once) rather than an object.'],
    ['since?', 'string', 'The DDNet release that added the item.'],
    ['fields', 'readonly SnapshotField[]'],
  ]),
];

export const protocolTypePrefix = (p: SnapshotProtocolDef) => pascal(p.protocol.replace(/[^a-z0-9]+/g, '_').replace(/_([0-9])/g, '$1'));
export const objectsMapName = (p: SnapshotProtocolDef) => `${protocolTypePrefix(p)}Objects`;

function fieldType(f: SnapshotFieldDef, optional: boolean): string {
  const base = f.type === 'bool' ? 'boolean' : f.type === 'i32string' ? 'string' : f.type === 'i32array' ? 'Int32Array' : 'number';
  return optional ? `${base} | undefined` : base;
}

function fieldDoc(f: SnapshotFieldDef): string {
  const parts = [f.description ?? ''];
  if (f.min !== undefined || f.max !== undefined) parts.push(`DDNet checks ${f.min ?? 'min_int'}..${f.max ?? 'max_int'}.`);
  if (f.mask !== undefined) parts.push(`Flags mask ${f.mask}.`);
  if (f.scale !== undefined) parts.push(`Read as the int divided by ${f.scale}.`);
  if (f.since !== undefined) parts.push(`Since DDNet ${f.since}${f.default !== undefined ? `; older servers leave it out (reads ${f.default})` : ''}.`);
  return parts.filter(Boolean).join(' ');
}

/** objects.gen.ts: an interface per layout and, per protocol, the map from layout name to interface. */
export function emitSnapshotObjectsTs(protocols: SnapshotProtocolDef[], source = 'schemas/snapshot/*.yaml'): GeneratedFile {
  const project = createProject();
  const statements: (string | StatementStructures)[] = [GENERATED_HEADER(source)];
  for (const p of protocols) {
    const prefix = protocolTypePrefix(p);
    const layouts: SnapshotLayoutDef[] = [...p.items, ...p.uuidItems];
    for (const layout of layouts) {
      // An item that extends another extends its interface and lists only its own fields.
      const base = layout.extends !== undefined ? layouts.find((l) => l.name === layout.extends) : undefined;
      const own = layout.fields.slice(base?.fields.length ?? 0);
      statements.push(
        readonlyInterface(
          `${prefix}${pascal(layout.name)}`,
          `${layout.description}${layout.since ? ` Since DDNet ${layout.since}.` : ''}`,
          own.map((f) => [camel(f.name), fieldType(f, f.since !== undefined && f.default === undefined), fieldDoc(f)] as const),
          base ? { extends: [`${prefix}${pascal(base.name)}`] } : {},
        ),
      );
    }
    statements.push({
      kind: StructureKind.Interface,
      name: objectsMapName(p),
      isExported: true,
      docs: [{ description: `The objects and events of ${p.protocol} by name: the type of \`snapshotObjects(s, ${p.protocol.toUpperCase().replace(/[^A-Z0-9]/g, '_')}).items(name)\`.` }],
      properties: layouts.map((l) => ({ name: l.name, type: `${prefix}${pascal(l.name)}` })),
    });
  }
  const file = project.createSourceFile('objects.gen.ts', { statements }, { overwrite: true });
  return { path: 'objects.gen.ts', text: generatedText(file) };
}
