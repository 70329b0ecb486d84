// Shared by the fixture scripts: writes the datagrams of a classic pcap file (24-byte file header, 16-byte record
// headers) whose frame index is in `keep`, in their order, as fixtures/net/NAME, and says how much it kept.
import { mkdirSync, writeFileSync } from 'node:fs';
import { readCapture } from '@twcodec/net';

export function writeCut(bytes, keep, name) {
  const parts = [bytes.subarray(0, 24)];
  for (const f of readCapture(bytes)) if (keep.has(f.index)) parts.push(bytes.subarray(f.offset - 16, f.offset + f.data.length));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  mkdirSync(new URL('../fixtures/net/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`../fixtures/net/${name}`, import.meta.url), out);
  console.log(`${keep.size} packets, ${out.length} bytes`);
}
