// Decodes off the main thread so that a large demo or teehistorian file keeps the page responsive.
import { CodecError } from '@twcodec/datafile';
import schemas from 'virtual:map-item-schemas';
import thDocs from 'virtual:teehistorian-message-docs';
import { placeFindings } from './findings.js';
import { attachPreviews } from './previews.js';
import { detectKind, type LayoutNode, mapLayout } from './layout.js';
import { demoLayout, teehistorianLayout } from './streams.js';

export type WorkerReply = { ok: true; kind: string; root: LayoutNode; ms: number } | { ok: false; message: string };

export function describe(bytes: Uint8Array): WorkerReply {
  const t0 = performance.now();
  const kind = detectKind(bytes);
  try {
    let root: LayoutNode;
    if (kind === 'map') {
      root = mapLayout(bytes, schemas);
      placeFindings(bytes, root);
      attachPreviews(bytes, root);
    }
    else if (kind === 'demo') root = demoLayout(bytes);
    else if (kind === 'teehistorian') root = teehistorianLayout(bytes, thDocs);
    else return { ok: false, message: 'Not a file this page knows: a map starts with "DATA", a demo with "TWDEMO", a teehistorian file with its UUID 699db17b-8efb-34ff-b1d8-da6f60c15dd1.' };
    return { ok: true, kind, root, ms: performance.now() - t0 };
  } catch (e) {
    if (e instanceof CodecError) return { ok: false, message: `This ${kind} is damaged: ${e.message}` };
    return { ok: false, message: `Could not read this ${kind}: ${(e as Error).message}` };
  }
}

self.onmessage = (event: MessageEvent<ArrayBuffer>) => {
  (self as unknown as { postMessage(m: WorkerReply): void }).postMessage(describe(new Uint8Array(event.data)));
};
