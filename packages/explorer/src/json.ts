// The byte layout of JSON text (a teehistorian file's header): every object member and array element as a node
// with its byte range, so that the tree opens the header and selecting a key highlights its bytes. The text is
// scanned as bytes (UTF-8 inside strings does not change the structure); the reader has already checked that it
// parses and how deep it nests.
import type { LayoutNode } from './layout.js';

const utf8 = new TextDecoder();
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * The nodes of the JSON value in `bytes[start, end)`: the members of an object (or elements of an array), each
 * labelled by its key (or index); scalars carry their JSON text as value.
 */
export function jsonNodes(bytes: Uint8Array, start: number, end: number, description: string): LayoutNode[] {
  let at = start;
  const skip = () => {
    while (at < end && WHITESPACE.has(bytes[at]!)) at++;
  };
  const fail = (what: string): never => {
    throw new Error(`header JSON: ${what} at byte ${at}`);
  };
  const expect = (byte: number) => {
    skip();
    if (bytes[at] !== byte) fail(`expected ${String.fromCharCode(byte)}`);
    at++;
  };
  const text = (from: number, to: number) => utf8.decode(bytes.subarray(from, to));
  const stringEnd = () => {
    let i = at + 1;
    while (i < end && bytes[i] !== 0x22) i += bytes[i] === 0x5c ? 2 : 1;
    if (i >= end) fail('unterminated string');
    return i + 1;
  };
  /** Reads the value at `at` into `node` (its end, value and children). */
  const value = (node: LayoutNode): void => {
    skip();
    const open = bytes[at];
    if (open === 0x7b || open === 0x5b) {
      const object = open === 0x7b;
      const close = object ? 0x7d : 0x5d;
      at++;
      node.children = [];
      skip();
      if (bytes[at] === close) at++;
      else {
        for (;;) {
          skip();
          const child: LayoutNode = { label: `[${node.children.length}]`, start: at, end: at, description };
          if (object) {
            if (bytes[at] !== 0x22) fail('expected a key');
            const keyEnd = stringEnd();
            child.label = JSON.parse(text(at, keyEnd)) as string;
            at = keyEnd;
            expect(0x3a);
          }
          value(child);
          node.children.push(child);
          skip();
          if (bytes[at] === 0x2c) at++;
          else if (bytes[at] === close) {
            at++;
            break;
          } else fail(`expected , or ${String.fromCharCode(close)}`);
        }
      }
      node.type = object ? 'object' : 'array';
      node.value = object ? `${node.children.length} keys` : `${node.children.length} values`;
    } else {
      const from = at;
      if (open === 0x22) at = stringEnd();
      else while (at < end && !WHITESPACE.has(bytes[at]!) && bytes[at] !== 0x2c && bytes[at] !== 0x7d && bytes[at] !== 0x5d) at++;
      if (at === from) fail('expected a value');
      node.value = text(from, at);
      node.type = open === 0x22 ? 'string' : open === 0x74 || open === 0x66 ? 'boolean' : open === 0x6e ? 'null' : 'number';
    }
    node.end = at;
  };
  const root: LayoutNode = { label: 'json', start, end, description };
  value(root);
  return root.children ?? [root];
}
