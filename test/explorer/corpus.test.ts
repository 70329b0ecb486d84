// The explorer's decoding (what its worker does) on every corpus file, without a browser: every demo and
// teehistorian file gives its tree, overview and the insides of its chunks and records; every map its layout,
// findings, pictures and tileset drawings. Falls back to the fixtures without ../shared/corpus.
import { basename } from 'node:path';
import { readDemo } from '@twcodec/demo';
import { snapshotObjects, type SnapshotProtocol } from '@twcodec/snapshot';
import { describe, expect, it } from 'vitest';
import { mapItemSchemas, streamDocs, teehistorianMessageDocs } from '../../packages/explorer/vite.config.mjs';
import { placeFindings } from '../../packages/explorer/src/findings.js';
import { type LayoutNode, mapLayout } from '../../packages/explorer/src/layout.js';
import { attachPreviews, renderLayer } from '../../packages/explorer/src/previews.js';
import { demoSession } from '../../packages/explorer/src/demo-view.js';
import { teehistorianSession } from '../../packages/explorer/src/teehistorian-view.js';
import { demoFiles, mapCases, readBytes, teehistorianFiles } from '../corpus.js';

const docs = streamDocs();
const every = <T>(list: T[], step: number) => list.filter((_, i) => i % step === 0);

describe('explorer sessions on the corpus', () => {
  it.each(demoFiles().map((path) => ({ name: basename(path), path })))('$name: tree, overview, snapshot items and messages', ({ path }) => {
    const bytes = readBytes(path);
    const session = demoSession(bytes, docs);
    const overview = session.overview();
    // The same as the demo reader gives: the tick range, and a position for every character object of every
    // recorded snapshot, by client id.
    const demo = readDemo(bytes);
    const protocol: SnapshotProtocol = demo.protocol.snapshots;
    const ticks: number[] = [];
    const characters = new Map<number, number>();
    for (const { tick, snapshot } of demo.snapshots(protocol)) {
      ticks.push(tick);
      for (const c of snapshotObjects(snapshot, protocol as SnapshotProtocol<Record<string, unknown>>).items('character') as unknown as { item: { id: number } }[]) characters.set(c.item.id, (characters.get(c.item.id) ?? 0) + 1);
    }
    expect(overview.firstTick).toBeLessThanOrEqual(ticks[0]!);
    expect(overview.lastTick).toBe(ticks.at(-1));
    expect(overview.tracks.map((t) => [t.clientId, t.ticks.length])).toEqual([...characters].sort((a, b) => a[0] - b[0]));
    expect(overview.players.length).toBeGreaterThan(0);
    for (const t of overview.tracks) expect([t.x.length, t.y.length]).toEqual([t.ticks.length, t.ticks.length]);
    const chunks = session.root.children!.find((c) => c.label === 'chunks')!.children!.flatMap((t) => t.children ?? []);
    const lazy = chunks.filter((c) => c.lazy);
    for (const c of every(lazy, Math.max(1, Math.floor(lazy.length / 60)))) {
      const children = session.children(c.lazy!);
      for (const child of children) expect([child.start, child.end, child.decoded]).toEqual([c.start, c.end, true]);
      // A keyframe's items, every one.
      if (c.label === 'snapshot') expect(children.length).toBe(Number(/, (\d+) items$/.exec(c.value!)![1]));
    }
  });

  it('leaves out of the player a chat line from a client not yet known, as DDNet does (the overview keeps it)', () => {
    const path = demoFiles().find((p) => basename(p) === 'Tutorial_clientA_record_Alpha_client.demo');
    if (!path) return;
    const session = demoSession(readBytes(path), docs);
    const line = /Do you know someone who uses a bot/;
    expect(session.overview().events.filter((e) => e.kind === 'chat' && line.test(e.text)).length).toBeGreaterThan(0);
    const { playback } = session.playback!() as { playback: { chat: { text: string }[] } };
    expect(playback.chat.filter((c) => line.test(c.text))).toEqual([]);
    expect(playback.chat.length).toBeGreaterThan(10);
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
