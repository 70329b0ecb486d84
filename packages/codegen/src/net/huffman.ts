// Emits the network Huffman code's table (packages/runtime/src/generated/huffman.gen.ts, read by the runtime's
// Huffman codec) and its section of docs/formats/network.md: what a reader needs to build the same tree.
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

/** The Huffman section of docs/formats/network.md. */
export function huffmanDocs(h: HuffmanSchema): string[] {
  const out = [
    '## Huffman compression',
    '',
    `${h.description} Packet data whose header has the compression flag (0.6/DDNet and 0.7) and the data of demo chunks are`,
    'compressed with it. To build the code:',
    '',
    `1. Make one leaf per symbol: bytes 0-${h.eofSymbol - 1} with the frequencies below, and EOF (symbol ${h.eofSymbol}) with frequency 1`,
    '   (the table lists another number for it; it is not used).',
    '2. While more than one node is left: sort the nodes by falling frequency with a *stable* sort (nodes of equal',
    '   frequency keep their order; the first sort starts from symbol order), take the last two, `a` (the rarest) and',
    '   `b` (the one before it), and put in `b`\'s place a new node of frequency `a + b` whose branch 0 is `a` and',
    '   branch 1 is `b`; `a` leaves the list.',
    '3. A symbol\'s code is the branches from the root down to it, the root\'s branch first.',
    '',
    'Bits are packed from the least significant bit of each byte up: the first bit of the first code is bit 0 of the',
    'first byte. An encoder writes the code of each byte, then the code of EOF, then the bits left over as one last',
    'byte (zeros above them); when EOF ends exactly on a byte boundary, that last byte is a zero byte. A decoder',
    'stops at EOF and ignores what follows. Byte 0 has a 1-bit code, the longest codes are 15 bits (EOF among them).',
    '',
    `Frequencies (\`${h.name.toUpperCase()}_FREQUENCIES\`), 16 symbols a row:`,
    '',
    '| symbols | frequencies |',
    '| --- | --- |',
  ];
  for (let i = 0; i < h.frequencies.length; i += 16) {
    const last = Math.min(i + 15, h.frequencies.length - 1);
    out.push(`| ${i}-${last} | ${h.frequencies.slice(i, last + 1).join(', ')} |`);
  }
  out.push('');
  return out;
}
