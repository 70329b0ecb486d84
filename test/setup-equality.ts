// Every test file's setup (vitest.config.ts, setupFiles): how toEqual compares typed arrays.
//
// vitest compares two typed arrays element by element, then again by Object.entries (every index a string): 6.1 s
// for two equal 2 MB Uint8Arrays on the 2-core CI machine (3 us a byte), and the suite compares whole maps,
// demos and captures that way ("resave gives the same bytes": 95 s of demo/writer.test.ts). Two integer typed
// arrays of one class are equal exactly when their bytes are, which this tester compares at memory speed. Float
// arrays (two NaNs of other bits are equal to vitest, not by their bytes) and every other value are left to
// vitest, and a failed comparison still prints vitest's own diff.
import { Buffer } from 'node:buffer';
import { expect } from 'vitest';

type IntegerArray = Uint8Array | Uint8ClampedArray | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | BigUint64Array | BigInt64Array;

function isIntegerArray(v: unknown): v is IntegerArray {
  return ArrayBuffer.isView(v) && !(v instanceof DataView) && !(v instanceof Float32Array) && !(v instanceof Float64Array);
}

expect.addEqualityTesters([
  function sameIntegerArrays(a: unknown, b: unknown): boolean | undefined {
    // vitest's iterableEquality refuses arrays of two classes (a Buffer is not a Uint8Array to it): so here.
    if (!isIntegerArray(a) || !isIntegerArray(b) || a.constructor !== b.constructor) return undefined;
    if (a.length !== b.length) return false;
    return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  },
]);
