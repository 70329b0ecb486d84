// The Teeworlds network Huffman code lives in @twcodec/runtime (the packet layer below demos uses it too);
// @twcodec/demo keeps exporting it for its users.
export { Huffman, TEEWORLDS_FREQUENCIES, teeworldsHuffman } from '@twcodec/runtime';
