// Writes fixtures/net/teeworlds-0.7-cut.pcap: a few hundred packets cut out of the corpus's 0.7 capture (the
// handshake and first seconds, then every datagram with a chat message), so that a test of `net pcap` runs
// without the corpus. Run after `npm run build`: node scripts/net-fixture.mjs [CORPUS_DIR]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { decodeCapture, readCapture } from '@twcodec/net';

const corpus = process.argv[2] ?? process.env.TWCODEC_CORPUS ?? new URL('../../shared/corpus', import.meta.url).pathname;
const bytes = new Uint8Array(readFileSync(`${corpus}/net/teeworlds-0.7-session.pcap`));
const keep = new Set();
for (const d of decodeCapture(bytes)) {
  const chat = d.packet?.chunks?.some((c) => c.message.kind === 'cl_say' || c.message.kind === 'sv_chat');
  if (d.index < 250 || chat) keep.add(d.index);
}
const parts = [bytes.subarray(0, 24)];
for (const f of readCapture(bytes)) if (keep.has(f.index)) parts.push(bytes.subarray(f.offset - 16, f.offset + f.data.length));
const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
let at = 0;
for (const p of parts) (out.set(p, at), (at += p.length));
mkdirSync(new URL('../fixtures/net/', import.meta.url), { recursive: true });
writeFileSync(new URL('../fixtures/net/teeworlds-0.7-cut.pcap', import.meta.url), out);
console.log(`${keep.size} packets, ${out.length} bytes`);
