// Emits the network Huffman code's table (packages/runtime/src/generated/huffman.gen.ts, read by the runtime's
// Huffman codec); its section of docs/formats/network.md is in net/docs.ts and schemas/net/network.md.
import { createProject, exportedConst, GENERATED_HEADER, type GeneratedFile, generatedText, listInitializer } from '../shared/emit.js';
import type { HuffmanSchema } from './model.js';

/** The generated TypeScript: the frequency table and the EOF symbol. */
export function emitHuffmanTs(h: HuffmanSchema): GeneratedFile {
  const rows: string[] = [];
  for (let i = 0; i < h.frequencies.length; i += 16) rows.push(`${h.frequencies.slice(i, i + 16).join(', ')},`);
  const statements = [
    exportedConst(`${h.name.toUpperCase()}_FREQUENCIES`, 'readonly number[]', `${h.description} Bytes 0-${h.eofSymbol - 1}, then the EOF symbol (whose listed frequency the tree replaces by 1). From ${h.file}.`, listInitializer('[', rows, ']')),
    exportedConst('HUFFMAN_EOF_SYMBOL', undefined, 'The end-of-stream symbol: one past the byte values.', String(h.eofSymbol)),
  ];
  const file = createProject().createSourceFile('huffman.gen.ts', { statements: [GENERATED_HEADER(h.file), ...statements] }, { overwrite: true });
  // ts-morph indents a multi-line initializer one level too deep; the formatter puts the rows back at one level.
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });
  return { path: 'huffman.gen.ts', text: generatedText(file) };
}
