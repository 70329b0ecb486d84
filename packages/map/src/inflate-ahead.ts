// readMap's first step: every data item of the container inflated before the reader makes any object of the
// model. A module of its own because it is a memory-layout decision about the datafile's buffers, apart from
// what read.ts decodes (the model), and read.ts is at its size limit.
import type { Datafile } from '@twcodec/datafile';

/**
 * Inflates every data item of `df` that is not inflated yet, before the reader makes any object of the model,
 * and returns which ones it inflated (1 at their index). Errors are left where they were: an item that does
 * not inflate stays as it was, and the element that uses it gets the error from its own bytes() call, in the
 * reader's order as before.
 *
 * Why first: each inflated buffer is external memory, and V8 collects the young generation before allocating
 * one whenever the young generation's buffers reach twice its largest semispace, 32 MB in Node 20 (V8's
 * src/heap/heap.cc, Heap::AllocateExternalBackingStore), and marks the whole heap as the total grows; every
 * object alive then is copied, or promoted and marked. Inflated while the model was being built, a map's
 * buffers made its quads, points, layers and items survive those collections; inflated first, the collections
 * find little besides the container's items (issue 41, sixth pass: readMap of the 80 corpus maps 1.09x ->
 * 0.93x the CPU time of inflating alone, docs/performance.md). It inflates no more than readMap did for every
 * map of the corpus, whose data items are all used; an item nothing uses is inflated too, and dropped with the
 * others at the end.
 */
export function inflateAhead(df: Datafile): Uint8Array {
  const data = df.data;
  const ahead = new Uint8Array(data.length);
  for (let d = 0; d < data.length; d++) {
    const item = data[d]!;
    if (item.loaded) continue;
    try {
      item.bytes();
      ahead[d] = 1;
    } catch {
      // Left for the element that uses it (see above).
    }
  }
  return ahead;
}
