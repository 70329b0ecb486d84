// Regression tests for snapshot edge cases a fuzzing campaign found (issue 17).
import { describe, expect, it } from 'vitest';
import { applyDelta, createDelta, DDNET_0_6, Snapshot, SnapshotError, sizeTable } from '@twcodec/snapshot';
import { codeOf as codeOfError } from '../error-code.js';

const codeOf = (fn: () => unknown) => codeOfError(fn, SnapshotError);

describe('createDelta', () => {
  const sizes = sizeTable(DDNET_0_6);
  const type = sizes.findIndex((s) => s > 0);

  it('refuses an item whose size disagrees with the protocol table, instead of a delta nobody can apply', () => {
    const old = new Snapshot([]);
    const wrong = new Snapshot([{ type, id: 0, data: new Int32Array(sizes[type]! + 1) }]);
    expect(codeOf(() => createDelta(old, wrong, DDNET_0_6))).toBe('SIZE_MISMATCH');
  });

  it('an item of the table size gives a delta that applies back to it', () => {
    const old = new Snapshot([]);
    const next = new Snapshot([{ type, id: 3, data: Int32Array.from({ length: sizes[type]! }, (_, i) => i * 7) }]);
    const delta = createDelta(old, next, DDNET_0_6);
    expect(applyDelta(old, delta, DDNET_0_6).toInts()).toEqual(next.toInts());
  });
});

describe('Snapshot.fromInts', () => {
  it('refuses a key that appears twice', () => {
    const twice = new Snapshot([
      { type: 9, id: 1, data: Int32Array.of(1) },
      { type: 9, id: 2, data: Int32Array.of(2) },
    ]).toInts();
    // Make the second item's key equal the first's.
    const keyAt = 2 + 2;
    twice[keyAt + 2] = twice[keyAt]!;
    expect(codeOf(() => Snapshot.fromInts(twice))).toBe('DUPLICATE_KEY');
  });
});

describe('Snapshot.fromInts layout', () => {
  it('refuses data bytes that belong to no item (found by the fuzzer: they would be lost on rebuild)', () => {
    expect(codeOf(() => Snapshot.fromInts(Int32Array.of(8, 0, 1, 2)))).toBe('BAD_LAYOUT');
    const one = new Snapshot([{ type: 9, id: 1, data: Int32Array.of(5) }]).toInts();
    const shifted = Int32Array.of(one[0]! + 4, 1, 4, 0, ...one.subarray(3));
    expect(codeOf(() => Snapshot.fromInts(shifted))).toBe('BAD_LAYOUT');
    expect(Snapshot.fromInts(one).toInts()).toEqual(one);
  });
});
