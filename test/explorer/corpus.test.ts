// The explorer's decoding (what its worker does) on every corpus file, without a browser: every demo and
// teehistorian file gives its tree, overview and the insides of its chunks and records; every map its layout,
// findings, pictures and tileset drawings. Falls back to the fixtures without ../shared/corpus.
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapItemSchemas, streamDocs, teehistorianMessageDocs } from '../../packages/explorer/vite.config.mjs';
import { placeFindings } from '../../packages/explorer/src/findings.js';
import { type LayoutNode, mapLayout } from '../../packages/explorer/src/layout.js';
import { attachPreviews, renderLayer } from '../../packages/explorer/src/previews.js';
import { demoSession, teehistorianSession } from '../../packages/explorer/src/streams.js';
import { demoFiles, mapCases, readBytes, teehistorianFiles } from '../corpus.js';

const docs = streamDocs();
const every = <T>(list: T[], step: number) => list.filter((_, i) => i % step === 0);

describe('explorer sessions on the corpus', () => {
  it.each(demoFiles().map((path) => ({ name: basename(path), path })))('$name: tree, overview, snapshot items and messages', ({ path }) => {
    const session = demoSession(readBytes(path), docs);
    const overview = session.overview();
    expect(overview.lastTick).toBeGreaterThanOrEqual(overview.firstTick);
    expect(overview.players.length).toBeGreaterThan(0);
    for (const t of overview.tracks) expect([t.x.length, t.y.length]).toEqual([t.ticks.length, t.ticks.length]);
    const chunks = session.root.children!.find((c) => c.label === 'chunks')!.children!.flatMap((t) => t.children ?? []);
    const lazy = chunks.filter((c) => c.lazy);
    for (const c of every(lazy, Math.max(1, Math.floor(lazy.length / 60)))) {
      const children = session.children(c.lazy!);
      for (const child of children) expect([child.start, child.end, child.decoded]).toEqual([c.start, c.end, true]);
      if (c.label === 'snapshot') expect(children.length).toBeGreaterThan(0);
    }
  });

  it.each(teehistorianFiles().map((path) => ({ name: basename(path), path })))('$name: tree, overview and records', ({ path }) => {
    const session = teehistorianSession(readBytes(path), teehistorianMessageDocs(), docs);
    const messages = session.root.children!.find((c) => c.label === 'messages')!.children!;
    for (const m of every(messages, 37)) for (const f of session.children(m.lazy!)) expect(f.decoded).toBe(true);
    const overview = session.overview();
    expect(overview.players.every((p) => p.toTick >= p.fromTick)).toBe(true);
  });

  it.each(mapCases())('$name: layout, findings, pictures and the first tileset drawing', ({ path }) => {
    const bytes = readBytes(path);
    const root = mapLayout(bytes, mapItemSchemas());
    placeFindings(bytes, root);
    const map = attachPreviews(bytes, root);
    const lazy: LayoutNode[] = [];
    const visit = (n: LayoutNode) => {
      if (n.lazy) lazy.push(n);
      n.children?.forEach(visit);
    };
    visit(root);
    if (lazy[0]) {
      const drawn = renderLayer(map, lazy[0].lazy!)!;
      expect(drawn.rgba.length).toBe(drawn.width * drawn.height * 4);
      expect(drawn.rgba.some((v, i) => i % 4 === 3 && v > 0)).toBe(true);
    }
  });
});
