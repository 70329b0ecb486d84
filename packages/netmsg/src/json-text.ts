// Text a generated JSON writer writes again and again (its keys), kept in two forms: the string, and its
// bytes as little-endian 32-bit words, which a writer into bytes stores four at a time (the CLI's `net pcap`
// lines: a byte loop over the key's characters was a tenth of the command's JSON time; issue 41).
import { asciiInt32s } from '@twcodec/runtime';

/** ASCII JSON text (a key and its punctuation, nothing to escape) kept to be written many times. */
export interface NetJsonText {
  readonly text: string;
  /** Its bytes, four to a word, little-endian; the last word padded with zeros. */
  readonly words: Int32Array;
  /** Its length in bytes (= characters). */
  readonly length: number;
}

/**
 * `text` (ASCII) as a NetJsonText; with `words`, its words as asciiInt32s gives them. The generated tables
 * give them ready-made (packages/codegen): made at start-up from the text, the 268 keys of the two message
 * tables were a loop over 3,000 characters that V8 went on to optimise in every process that loads the
 * tables, `net pcap` or not (issue 41, node --trace-opt).
 */
export function netJsonText(text: string, words?: readonly number[]): NetJsonText {
  return { text, words: words ? new Int32Array(words) : asciiInt32s(text), length: text.length };
}
