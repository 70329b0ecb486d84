// Every corpus demo (or the fixtures): every snapshot item decodes to named fields through the generated
// layouts, encode(decode(x)) gives back its ints, and DDNet's validation finds nothing to correct. The only
// items left unknown are UUID-typed items whose type-0 declaration is missing from their snapshot (DDNet 16.4's
// server demos show two: a projectile whose declaration was not in that tick's snapshot).
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDemo } from '@twcodec/demo';
import { DDNET_0_6, decodeObject, encodeObject, snapshotObjects } from '@twcodec/snapshot';
import { demoFiles, hasCorpus, readBytes } from '../corpus.js';

const demos = demoFiles().map((path) => ({ name: basename(path), path }));

describe(`snapshot objects of ${hasCorpus ? 'corpus' : 'fixture'} demos (${demos.length})`, () => {
  it.each(demos)('$name: every item decodes to named fields and encodes back to the same ints', ({ path }) => {
    let items = 0;
    const unknown: string[] = [];
    const names = new Set<string>();
    const demo = readDemo(readBytes(path));
    for (const s of demo.snapshots()) {
      const objects = snapshotObjects(s.snapshot, demo.protocol.snapshots);
      for (const entry of objects.entries()) {
        if (!entry.known) {
          unknown.push(`${entry.reason} ${entry.item.type}:${entry.item.id}`);
          continue;
        }
        const { layout, item } = entry.view;
        names.add(layout.name);
        const object = decodeObject(layout, item.data);
        expect(object.raw, `${layout.name} ${item.id} at tick ${s.tick}`).toBeUndefined();
        const again = encodeObject(layout, object);
        if (again.length !== item.data.length || again.some((v, i) => v !== item.data[i])) {
          expect(Array.from(again), `${layout.name} ${item.id} at tick ${s.tick}`).toEqual(Array.from(item.data));
        }
        items++;
      }
      expect(objects.validate()).toEqual([]);
    }
    expect(items).toBeGreaterThan(0);
    expect(unknown.every((u) => u.startsWith('undeclared_uuid_type'))).toBe(true);
    expect(unknown.length).toBeLessThanOrEqual(1);
    // 0.6 demos name players in client_info objects, 0.7 demos in the demo-only de_client_info.
    expect(names.has('character') && names.has(demo.protocol.name === 'teeworlds-0.7' ? 'de_client_info' : 'client_info')).toBe(true);
  });

  it.runIf(hasCorpus)('client info names are the players of the corpus', () => {
    const seen = new Set<string>();
    // The players of demos/RECORDING.txt (corpus/net's sessions have others: test/demo/seven.test.ts, test/netmsg).
    for (const { path } of demos.filter((d) => d.name.includes('server_autorecord') && /^(ctf2|Tutorial)_/.test(d.name))) {
      for (const s of readDemo(readBytes(path)).snapshots()) {
        for (const info of snapshotObjects(s.snapshot, DDNET_0_6).items('client_info')) seen.add(`${info.name}/${info.clan}`);
      }
    }
    expect([...seen].sort()).toEqual(['Alpha/corpus', 'AlphaDmy/corpus', 'Bravo/corpus', 'BravoDmy/corpus']);
  });
});
