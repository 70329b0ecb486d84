// The shared import registry: a generated file imports exactly the names its code asked for.
import { describe, expect, it } from 'vitest';
import { createProject, generatedText, Imports } from './emit.js';

const print = (imports: Imports, code: string) =>
  generatedText(createProject().createSourceFile('a.ts', { statements: [...imports.declarations(), code] }));

describe('Imports', () => {
  it('writes the declarations from what was asked: packages first, names sorted, type-only where only types are used', () => {
    const imports = new Imports();
    const code = [
      `export const a: ${imports.type('./types.gen.js', 'Point')} = { x: 0, y: 0 };`,
      `export const b = ${imports.value('../codec.js', 'readBool')}(${imports.value('../codec.js', 'Reader')}, ${imports.value('@twcodec/runtime', 'uuid')});`,
      `export type C = ${imports.type('../codec.js', 'Reader')} | ${imports.type('../codec.js', 'DecodeOptions')};`,
    ].join('\n');
    expect(print(imports, code).split('\n').slice(0, 3)).toEqual([
      "import { uuid } from '@twcodec/runtime';",
      "import { type DecodeOptions, readBool, Reader } from '../codec.js';",
      "import type { Point } from './types.gen.js';",
    ]);
  });

  it('refuses a file importing a name its code does not use (an emitter that asked for a name it did not write)', () => {
    const imports = new Imports();
    imports.value('../codec.js', 'readBool');
    expect(() => print(imports, 'export const x = 1;')).toThrow(/a\.ts: imports readBool, which its code does not use/);
  });
});
