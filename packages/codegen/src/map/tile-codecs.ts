// Emits a map tile type's interface and in-place view (tiles.gen.ts): byte records inside tilemap data.
import { type StatementStructures, StructureKind } from 'ts-morph';
import { tileClass, tileInterface } from './names.js';
import { doc, exportedConst } from '../shared/emit.js';
import { type TileDef, tileFieldBytes } from './model.js';
import { camel, pascal } from '../shared/names.js';
import { constName } from './fields.js';

export function tileStatements(tile: TileDef): StatementStructures[] {
  const iface = tileInterface(tile);
  const cls = tileClass(tile);
  const fields = tile.fields.filter((f) => f.type !== 'padding');
  let offset = 0;
  const offsets = new Map<string, number>();
  for (const f of tile.fields) {
    offsets.set(f.name, offset);
    offset += tileFieldBytes(f);
  }
  const getExpr = (f: TileDef['fields'][number], base: string) => {
    const o = offsets.get(f.name)!;
    const b = (j: number) => `this.bytes[${base} + ${o + j}]!`;
    if (f.type === 'u8') return b(0);
    if (f.type === 'u16') return `(${b(0)} | (${b(1)} << 8))`;
    return `((${b(0)} | (${b(1)} << 8)) << 16) >> 16`;
  };
  const setStmts = (f: TileDef['fields'][number], base: string, value: string) => {
    const o = offsets.get(f.name)!;
    if (f.type === 'u8') return [`this.bytes[${base} + ${o}] = ${value};`];
    return [`this.bytes[${base} + ${o}] = ${value} & 0xff;`, `this.bytes[${base} + ${o + 1}] = (${value} >> 8) & 0xff;`];
  };
  const bytesConst = `${constName(tile.name)}_TILE_BYTES`;
  const methods = fields.flatMap((f) => [
    {
      kind: StructureKind.Method as const,
      name: `get${pascal(f.name)}`,
      docs: doc(f.description),
      parameters: [{ name: 'index', type: 'number' }],
      returnType: 'number',
      statements: [`return ${getExpr(f, `index * ${bytesConst}`)};`],
    },
    {
      kind: StructureKind.Method as const,
      name: `set${pascal(f.name)}`,
      parameters: [
        { name: 'index', type: 'number' },
        { name: 'value', type: 'number' },
      ],
      returnType: 'void',
      statements: setStmts(f, `index * ${bytesConst}`, 'value'),
    },
  ]);
  return [
    exportedConst(bytesConst, undefined, `Size of a ${tile.name} tile in bytes.`, String(tile.bytes)),
    {
      kind: StructureKind.Interface,
      name: iface,
      isExported: true,
      docs: doc(tile.description, ...tile.notes.map((n) => `Note: ${n}`)),
      properties: fields.map((f) => ({
        kind: StructureKind.PropertySignature as const,
        name: camel(f.name),
        type: 'number',
        docs: doc(`${f.description}${f.flags ? ` Flags: {@link ${pascal(f.flags)}}.` : ''} (${f.type})`),
      })),
    },
    {
      kind: StructureKind.Class,
      name: cls,
      isExported: true,
      docs: doc(`${tile.name} tiles viewed in place over their bytes (${tile.bytes} per tile, row by row); nothing is copied.`),
      properties: [{ name: 'bytes', isReadonly: true, type: 'Uint8Array' }],
      ctors: [
        {
          parameters: [{ name: 'bytes', type: 'Uint8Array' }],
          statements: [
            `if (bytes.length % ${bytesConst} !== 0) throw new RangeError(\`${tile.name} tile data of \${bytes.length} bytes is not a multiple of ${tile.bytes}\`);`,
            'this.bytes = bytes;',
          ],
        },
      ],
      methods: [
        {
          name: 'create',
          isStatic: true,
          docs: doc('Zeroed tiles.'),
          parameters: [{ name: 'count', type: 'number' }],
          returnType: cls,
          statements: [`return new ${cls}(new Uint8Array(count * ${bytesConst}));`],
        },
        {
          name: 'get',
          parameters: [{ name: 'index', type: 'number' }],
          returnType: iface,
          statements: [`const o = index * ${bytesConst};`, `return { ${fields.map((f) => `${camel(f.name)}: ${getExpr(f, 'o')}`).join(', ')} };`],
        },
        {
          name: 'set',
          parameters: [
            { name: 'index', type: 'number' },
            { name: 'tile', type: iface },
          ],
          returnType: 'void',
          statements: ['const o = index * ' + bytesConst + ';', ...fields.flatMap((f) => setStmts(f, 'o', `tile.${camel(f.name)}`))],
        },
        ...methods,
      ],
      getAccessors: [
        {
          name: 'length',
          docs: doc('Number of tiles.'),
          returnType: 'number',
          statements: [`return this.bytes.length / ${bytesConst};`],
        },
      ],
    },
  ];
}
