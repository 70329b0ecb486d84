// Slices written by twcodec, played by DDNet's own client (Debian package ddnet, run under Xvfb): the client
// loads the demo (header, timeline markers, embedded map checked against its CRC and SHA-256, every chunk
// header scanned for keyframes), then plays it; the chat lines the slice holds show up in the client's log as
// they play, so the last of them proves playback went through the slice's snapshots, deltas and messages.
// DDNet has no command-line demo tool (ddnet-tools has none), so the client is the strictest reader there is.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoChat, readDemo, sliceDemo } from '@twcodec/demo';
import { captureDemo } from '@twcodec/net';
import { corpusFiles, fixturesDir, hasCorpus, readBytes } from '../corpus.js';
import { CLIENT, playInClient, XVFB_RUN } from '../ddnet-client.js';
import { ddnetUserDir } from '../ddnet-tools.js';

/**
 * Demos with chat lines: a fixture always, and client and server demos of the corpus when it is there, and the
 * demo `net demo` writes for Bravo from the corpus's DDNet capture (its map downloaded in the capture).
 */
const demos: { name: string; bytes: () => Uint8Array }[] = [join(fixturesDir, 'demos', 'ctf2_clientB_auto_ctf2_2026-11-22_10-10-21.demo')].map((path) => ({ name: basename(path), bytes: () => readBytes(path) }));
if (hasCorpus) {
  const corpus = corpusFiles('demos', '.demo');
  for (const name of ['ctf2_clientA_record_Alpha_client.demo', 'ctf2_server_autorecord_2026-11-22_10-09-35.demo']) {
    const path = corpus.find((p) => basename(p) === name);
    if (path) demos.push({ name, bytes: () => readBytes(path) });
  }
  const capture = corpusFiles('net', '.pcap').find((p) => basename(p) === 'ddnet-0.6-session.pcap');
  if (capture) demos.push({ name: 'net-demo-Bravo.demo', bytes: () => captureDemo(readBytes(capture), { player: 'Bravo' }).demo });
}

describe.skipIf(!CLIENT || !XVFB_RUN)("slices played by DDNet's client", () => {
  it.each(demos)(
    '$name: a slice around its last chat line loads and plays to that line',
    async ({ name, bytes: read }) => {
      const bytes = read();
      const chat = [...demoChat(readDemo(bytes))];
      expect(chat.length).toBeGreaterThan(0);
      const last = chat.at(-1)!;
      const slice = sliceDemo(bytes, { from: last.tick - 150, to: last.tick + 25 });
      const lines = [...demoChat(readDemo(slice))];
      expect(lines.at(-1)).toEqual(last);

      const file = `twcodec-slice-${process.pid}-${name}`;
      mkdirSync(join(ddnetUserDir, 'demos'), { recursive: true });
      writeFileSync(join(ddnetUserDir, 'demos', file), slice);
      try {
        const log = await playInClient(file, last.text, 60);
        expect(log).not.toMatch(/demo_player: .*(failed|due to error)/);
        // The client prints every chat line it plays back; the slice's last one must be there.
        expect(log).toContain(last.text);
      } finally {
        rmSync(join(ddnetUserDir, 'demos', file), { force: true });
      }
    },
    120_000,
  );
});
