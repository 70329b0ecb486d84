// Counts the DecompressionStream objects some code creates (Node 20 has the browsers' DecompressionStream), to
// check which items went through the async inflate.
export async function countDecompressionStreams(run: () => Promise<unknown>): Promise<number> {
  const original = globalThis.DecompressionStream;
  let streams = 0;
  globalThis.DecompressionStream = class extends original {
    constructor(format: CompressionFormat) {
      super(format);
      streams++;
    }
  };
  try {
    await run();
  } finally {
    globalThis.DecompressionStream = original;
  }
  return streams;
}
