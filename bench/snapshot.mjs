// Snapshot deltas on the corpus demos: applied per second and created per second, each as a ratio to
// copying the same snapshots' ints (the floor: touching every int once). Run: npm run bench:snapshot
import { join } from 'node:path';
import { readDemo } from '@twcodec/demo';
import { applyDelta, createDelta, DDNET_0_6, Snapshot } from '@twcodec/snapshot';
import { compare, report, corpusDir, listFiles, readBytes, repoRoot } from './common.mjs';

let files = listFiles(join(corpusDir, 'demos'), '.demo');
const source = files.length ? 'corpus' : 'fixtures';
if (!files.length) files = listFiles(join(repoRoot, 'fixtures', 'demos'), '.demo');
const steps = [];
for (const path of files) {
  let prev;
  for (const s of readDemo(readBytes(path)).snapshots()) {
    if (prev && s.delta?.length) steps.push({ prev, delta: s.delta, next: s.snapshot, ints: s.snapshot.toInts() });
    prev = s.snapshot;
  }
}
// The same snapshots parsed on their own, so that no item data is shared between neighbours (createDelta
// then compares every int; with shared data, as applyDelta leaves it, unchanged items are skipped).
const unshared = steps.map((s) => ({ prev: Snapshot.fromInts(s.prev.toInts()), next: Snapshot.fromInts(s.ints) }));
const ints = steps.reduce((s, x) => s + x.ints.length, 0);
const times = compare({
  copyInts() {
    for (const s of steps) s.ints.slice();
  },
  apply() {
    for (const s of steps) applyDelta(s.prev, s.delta, DDNET_0_6);
  },
  create() {
    for (const s of steps) createDelta(s.prev, s.next, DDNET_0_6);
  },
  createUnshared() {
    for (const s of unshared) createDelta(s.prev, s.next, DDNET_0_6);
  },
});
const perSecond = (ms) => ((steps.length / ms) * 1000).toFixed(0);
console.log(`snapshot deltas of ${files.length} ${source} demos: ${steps.length} deltas, ${(ints / 1e6).toFixed(1)} M snapshot ints`);
console.log(`  copy snapshot ints (floor): ${times.copyInts.toFixed(1)} ms  ${perSecond(times.copyInts)} snapshots/s`);
console.log(`  applyDelta:                 ${times.apply.toFixed(1)} ms  ${perSecond(times.apply)} deltas/s  ratio ${(times.apply / times.copyInts).toFixed(1)}x floor`);
console.log(`  createDelta:                ${times.create.toFixed(1)} ms  ${perSecond(times.create)} deltas/s  ratio ${(times.create / times.copyInts).toFixed(1)}x floor`);
report('snapshot', 'applyDelta', times.apply / times.copyInts, '<=2.5', 'floor: copy the snapshot ints');
console.log(`  createDelta, no shared data: ${times.createUnshared.toFixed(1)} ms  ${perSecond(times.createUnshared)} deltas/s  ratio ${(times.createUnshared / times.copyInts).toFixed(1)}x floor`);
report('snapshot', 'createDelta', times.create / times.copyInts, '<=4', 'snapshots from applyDelta (unchanged items share data)');
report('snapshot', 'createDelta, no shared data', times.createUnshared / times.copyInts, '<=4', 'snapshots parsed on their own');
