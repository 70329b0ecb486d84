// The network Huffman code as docs/formats/network.md ("Huffman compression") tells a reader to build it, from
// the table alone, written here independently of huffman.ts: it must give the codec's bytes.
import { describe, expect, it } from 'vitest';
import { HUFFMAN_EOF_SYMBOL, TEEWORLDS_FREQUENCIES } from './generated/huffman.gen.js';
import { teeworldsHuffman } from './huffman.js';

/** Each symbol's code as a string of branches, root first, by the docs' three steps. */
function codesFromDocs(): string[] {
  type Node = { freq: number; symbol?: number; zero?: Node; one?: Node };
  // 1. One leaf per symbol, EOF with frequency 1.
  let nodes: Node[] = TEEWORLDS_FREQUENCIES.map((freq, symbol) => ({ freq: symbol === HUFFMAN_EOF_SYMBOL ? 1 : freq, symbol }));
  // 2. Stable sort by falling frequency, join the last two into b's place (branch 0: the rarest).
  while (nodes.length > 1) {
    nodes = nodes.map((n, i) => [n, i] as const).sort((x, y) => y[0].freq - x[0].freq || x[1] - y[1]).map(([n]) => n);
    const a = nodes.pop()!;
    const b = nodes.pop()!;
    nodes.push({ freq: a.freq + b.freq, zero: a, one: b });
  }
  // 3. A code is the branches from the root down.
  const codes: string[] = [];
  const walk = (n: Node, code: string): void => {
    if (n.symbol !== undefined) codes[n.symbol] = code;
    else {
      walk(n.zero!, `${code}0`);
      walk(n.one!, `${code}1`);
    }
  };
  walk(nodes[0]!, '');
  return codes;
}

/** The docs' packing: bits from the least significant bit of each byte up, EOF, the leftover bits as a last byte. */
function compressFromDocs(codes: string[], input: Uint8Array): Uint8Array {
  const bits = [...input].map((b) => codes[b]!).join('') + codes[HUFFMAN_EOF_SYMBOL]!;
  const out = new Uint8Array(Math.floor(bits.length / 8) + 1);
  for (let i = 0; i < bits.length; i++) if (bits[i] === '1') out[i >> 3]! |= 1 << (i & 7);
  return out;
}

describe('the network Huffman code', () => {
  it('built as docs/formats/network.md says, gives the codec its bytes (1-bit byte 0, codes of at most 15 bits)', () => {
    const codes = codesFromDocs();
    expect(codes[0]).toHaveLength(1);
    expect(Math.max(...codes.map((c) => c.length))).toBe(15);
    expect(codes[HUFFMAN_EOF_SYMBOL]).toHaveLength(15);
    const inputs = [new Uint8Array(0), new Uint8Array([0]), Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 255), new TextEncoder().encode('Hi from Charlie (Teeworlds 0.7.5)! äöü')];
    for (const input of inputs) {
      const bytes = teeworldsHuffman().compress(input);
      expect(bytes).toEqual(compressFromDocs(codes, input));
      expect(teeworldsHuffman().decompress(bytes, 1024)).toEqual(input);
    }
  });
});
