// Writes fixtures/net/teeworlds-0.7-cut.pcap: a few hundred packets cut out of the corpus's 0.7 capture (the
// handshake and first seconds, then every datagram with a chat message), so that a test of `net pcap` runs
// without the corpus. Run after `npm run build`: node scripts/net-fixture.mjs [CORPUS_DIR]
import { readFileSync } from 'node:fs';
import { decodeCapture } from '@twcodec/net';
import { writeCut } from './pcap-cut.mjs';

const corpus = process.argv[2] ?? process.env.TWCODEC_CORPUS ?? new URL('../../shared/corpus', import.meta.url).pathname;
const bytes = new Uint8Array(readFileSync(`${corpus}/net/teeworlds-0.7-session.pcap`));
const keep = new Set();
for (const d of decodeCapture(bytes)) {
  const chat = d.packet?.chunks?.some((c) => c.message.kind === 'cl_say' || c.message.kind === 'sv_chat');
  if (d.index < 250 || chat) keep.add(d.index);
}
writeCut(bytes, keep, 'teeworlds-0.7-cut.pcap');
