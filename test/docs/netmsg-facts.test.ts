// What net-messages.md and teehistorian.md say about the corpus, counted again: a demo's message chunks are
// padded with 0 to 3 zero bytes to a multiple of 4, every 0.7 input of the capture carries ping_correction,
// and teehistorian MESSAGE records hold game messages only. The pages name the counts, so a count that
// changes (or a statement the files contradict) fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDemo } from '@twcodec/demo';
import { decodeCapture } from '@twcodec/net';
import { DDNET_0_6_MESSAGES, decodeNetMessage, TEEWORLDS_0_7_MESSAGES } from '@twcodec/netmsg';
import { readTeehistorian } from '@twcodec/teehistorian';
import { corpusDir, corpusFiles, hasCorpus, readBytes, repoRoot } from '../corpus.js';

const page = (name: string) => readFileSync(join(repoRoot, 'docs', 'formats', name), 'utf8').replace(/\s+/g, ' ');
const count = (n: number) => n.toLocaleString('en');

describe.runIf(hasCorpus)('net-messages.md against the corpus', () => {
  it("a demo's message chunks are a multiple of 4 bytes, and what follows the last field is 0-3 zero bytes", () => {
    const demos = [...corpusFiles('demos', '.demo'), ...corpusFiles('net', '.demo')];
    let chunks = 0;
    for (const path of demos) {
      const demo = readDemo(readBytes(path));
      const table = demo.header.netVersion.startsWith('0.7') ? TEEWORLDS_0_7_MESSAGES : DDNET_0_6_MESSAGES;
      for (const c of demo.chunks()) {
        if (c.kind !== 'message') continue;
        chunks++;
        expect(c.data.length % 4).toBe(0);
        const m = decodeNetMessage(table, c.data);
        expect(m.kind).not.toBe('unknown');
        const rest = ('trailing' in m ? m.trailing : undefined) ?? new Uint8Array();
        expect(rest.length).toBeLessThan(4);
        expect([...rest].every((b) => b === 0)).toBe(true);
      }
    }
    expect(page('net-messages.md')).toContain(`In the ${demos.length} demos of the corpus (corpus/demos, corpus/net), all ${count(chunks)} message chunks are a multiple of 4 bytes long`);
  });

  it("every 0.7 input of the capture carries ping_correction and nothing after it, as the input's checked line says", () => {
    let inputs = 0;
    let withCorrection = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (const d of decodeCapture(readBytes(join(corpusDir, 'net', 'teeworlds-0.7-session.pcap')))) {
      for (const chunk of d.packet?.chunks ?? []) {
        const m = chunk.message as { kind: string; pingCorrection?: number; trailing?: Uint8Array };
        if (m.kind !== 'input') continue;
        inputs++;
        expect(m.trailing).toBeUndefined();
        if (m.pingCorrection === undefined) continue;
        withCorrection++;
        lo = Math.min(lo, m.pingCorrection);
        hi = Math.max(hi, m.pingCorrection);
      }
    }
    expect(withCorrection).toBe(inputs);
    expect(page('net-messages.md')).toContain(`${count(inputs)} of ${count(inputs)} input messages carry ping_correction (${lo} to ${hi} ms)`);
  });
});

describe.runIf(hasCorpus)('teehistorian.md MESSAGE records against the corpus', () => {
  it('hold game messages only (an even first int)', () => {
    const files = [...corpusFiles('teehistorian', '.teehistorian'), ...corpusFiles('net', '.teehistorian')];
    let records = 0;
    for (const path of files) {
      for (const m of readTeehistorian(readBytes(path))) {
        if (m.kind !== 'MESSAGE') continue;
        records++;
        expect(m.data[0]! & 1).toBe(0);
      }
    }
    expect(page('teehistorian.md')).toContain(`In the corpus all ${records} MESSAGE records have an even first int`);
  });
});
