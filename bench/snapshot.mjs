// Snapshot deltas on the corpus demos: applied per second and created per second, each as a ratio to
// copying the same snapshots' ints (the floor: touching every int once). Then the typed views: decoding every
// item of every snapshot (a view per item, every field read) as a ratio to parsing the same snapshots
// (Snapshot.fromInts). Run: npm run bench:snapshot
import { join } from 'node:path';
import { readDemo } from '@twcodec/demo';
import { applyDelta, createDelta, DDNET_0_6, Snapshot, snapshotObjects } from '@twcodec/snapshot';
import { compare, report, corpusDir, listFiles, readBytes, repoRoot } from './common.mjs';

let files = listFiles(join(corpusDir, 'demos'), '.demo');
const source = files.length ? 'corpus' : 'fixtures';
if (!files.length) files = listFiles(join(repoRoot, 'fixtures', 'demos'), '.demo');
// Each part keeps alive only what it measures: with the other part's snapshots too, a full collection (which
// visits everything alive) falls into some rounds of a floor and not others, and the ratios swing 2-4x.
let steps = [];
for (const path of files) {
  let prev;
  for (const s of readDemo(readBytes(path)).snapshots()) {
    if (prev && s.delta?.length) steps.push({ prev, delta: s.delta, next: s.snapshot, ints: s.snapshot.toInts() });
    prev = s.snapshot;
  }
}
// The same snapshots parsed on their own, so that no item data is shared between neighbours (createDelta
// then compares every int; with shared data, as applyDelta leaves it, unchanged items are skipped).
let unshared = steps.map((s) => ({ prev: Snapshot.fromInts(s.prev.toInts()), next: Snapshot.fromInts(s.ints) }));
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
}, 15); // the floor is short (30 ms here) and moves with the allocator: the least of more rounds settles it
const perSecond = (ms) => ((steps.length / ms) * 1000).toFixed(0);
console.log(`snapshot deltas of ${files.length} ${source} demos: ${steps.length} deltas, ${(ints / 1e6).toFixed(1)} M snapshot ints`);
console.log(`  copy snapshot ints (floor): ${times.copyInts.toFixed(1)} ms  ${perSecond(times.copyInts)} snapshots/s`);
console.log(`  applyDelta:                 ${times.apply.toFixed(1)} ms  ${perSecond(times.apply)} deltas/s  ratio ${(times.apply / times.copyInts).toFixed(1)}x floor`);
console.log(`  createDelta:                ${times.create.toFixed(1)} ms  ${perSecond(times.create)} deltas/s  ratio ${(times.create / times.copyInts).toFixed(1)}x floor`);
report('snapshot', 'applyDelta', times.apply / times.copyInts, '<=2.5', 'floor: copy the snapshot ints');
console.log(`  createDelta, no shared data: ${times.createUnshared.toFixed(1)} ms  ${perSecond(times.createUnshared)} deltas/s  ratio ${(times.createUnshared / times.copyInts).toFixed(1)}x floor`);
report('snapshot', 'createDelta', times.create / times.copyInts, '<=4', 'snapshots from applyDelta (unchanged items share data)');
report('snapshot', 'createDelta, no shared data', times.createUnshared / times.copyInts, '<=4', 'snapshots parsed on their own');

// Typed views: every item of every snapshot through snapshotObjects, every field read once. Typed code reads
// fields by name (`character.x`), so each layout gets a reader with its field names written out, as such code
// would have; reading them by a name held in a variable (`view[name]`, as a generic dumper might) costs the
// engine's lookup by name per field and is printed beside it, and so is toObject() (what the CLI prints).
const layoutsRead = steps.map((s) => s.ints);
const parsed = steps.map((s) => s.next);
steps = unshared = undefined;
globalThis.gc?.();
let sink = 0;
const camel = (name) => name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const readers = new Map();
const readerOf = (layout) => {
  let reader = readers.get(layout);
  if (!reader) {
    const reads = layout.fields.map((f) => `v = view[${JSON.stringify(camel(f.name))}]; if (typeof v === 'number') s += v;`);
    readers.set(layout, (reader = new Function('view', `let s = 0, v; ${reads.join(' ')} return s;`)));
  }
  return reader;
};
const readByVariable = (view) => {
  for (const field of view.layout.fields) {
    const v = view[field.camel ?? (field.camel = camel(field.name))];
    if (typeof v === 'number') sink += v;
  }
};
const viewTimes = compare({
  parse() {
    for (const ints of layoutsRead) sink += Snapshot.fromInts(ints).items.length;
  },
  views() {
    for (const snapshot of parsed) for (const entry of snapshotObjects(snapshot, DDNET_0_6).entries()) if (entry.known) sink += readerOf(entry.view.layout)(entry.view);
  },
  viewsByVariable() {
    for (const snapshot of parsed) for (const entry of snapshotObjects(snapshot, DDNET_0_6).entries()) if (entry.known) readByVariable(entry.view);
  },
  toObject() {
    for (const snapshot of parsed) for (const entry of snapshotObjects(snapshot, DDNET_0_6).entries()) if (entry.known) sink += Object.keys(entry.view.toObject()).length;
  },
}, 10); // more rounds than the rest: parsing takes a few to reach its steady speed in a heap this size
const ratio = (ms) => `${ms.toFixed(1)} ms  ratio ${(ms / viewTimes.parse).toFixed(2)}x parsing`;
console.log(`typed views of ${parsed.length} snapshots (${parsed.reduce((n, s) => n + s.items.length, 0)} items), every field read:`);
console.log(`  Snapshot.fromInts (floor):  ${viewTimes.parse.toFixed(1)} ms`);
console.log(`  views, every field by name: ${ratio(viewTimes.views)}`);
console.log(`  views, names in a variable: ${ratio(viewTimes.viewsByVariable)}`);
console.log(`  toObject() of every item:   ${ratio(viewTimes.toObject)}${sink === 0.5 ? '' : ''}`);
report('snapshot', 'typed views, every field', viewTimes.views / viewTimes.parse, '<=2', 'floor: Snapshot.fromInts of the same snapshots; fields read by name, as typed code does');
report('snapshot', 'typed views, names in a variable', viewTimes.viewsByVariable / viewTimes.parse, undefined, 'view[name] for every field of every layout: a generic dumper');
report('snapshot', 'toObject() of every item', viewTimes.toObject / viewTimes.parse, undefined, 'plain objects, as the CLI prints them');
