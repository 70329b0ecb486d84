// What writeMap deflates with when the zlib codec has no deflater (browser codecs carry none, so that bundles
// which only read leave pako out): pako 2, byte-identical to DDNet's zlib. Node resolves `#deflate` to
// deflate-node.ts instead.
export { deflateLikeZlib as writerDeflate } from '@twcodec/datafile/deflate';
