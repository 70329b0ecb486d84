// Mutations: byte-level ones for every target, and structure-aware ones for datafiles (mutate an item's ints
// or a data item's inflated bytes, then write a valid container again), which reach the map decoder past the
// container's checks and zlib.
import { CodecError, Datafile } from '@twcodec/datafile';

/** A small deterministic PRNG (mulberry32), so a seed replays a run. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.int = (n) => Math.floor(next() * n);
  next.pick = (list) => list[Math.floor(next() * list.length)];
  return next;
}

const INTERESTING_32 = [0, 1, -1, 2, 3, 4, 16, 64, 255, 256, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, -0x80000000, 1 << 20, 1 << 24];
const INTERESTING_8 = [0, 1, 0x7f, 0x80, 0xff, 0x40, 0x3f, 0xc0];

function setI32(out, at, v) {
  out[at] = v & 0xff;
  out[at + 1] = (v >>> 8) & 0xff;
  out[at + 2] = (v >>> 16) & 0xff;
  out[at + 3] = (v >>> 24) & 0xff;
}

/** One byte-level mutation of `bytes` (a new array). `other` is another input to splice from. */
function mutateBytes(rng, bytes, other) {
  const n = bytes.length;
  const at = n ? rng.int(n) : 0;
  switch (rng.int(10)) {
    case 0: {
      const out = bytes.slice();
      if (n) out[at] ^= 1 << rng.int(8);
      return out;
    }
    case 1: {
      const out = bytes.slice();
      if (n) out[at] = rng.pick(INTERESTING_8);
      return out;
    }
    case 2: {
      const out = bytes.slice();
      if (n >= 4) setI32(out, (at & ~3) % (n - 3), rng.pick(INTERESTING_32) + (rng() < 0.2 ? rng.int(5) - 2 : 0));
      return out;
    }
    case 3:
      return bytes.slice(0, at); // truncate
    case 4: {
      const len = 1 + rng.int(Math.min(64, Math.max(1, n - at)));
      const out = new Uint8Array(n - Math.min(len, n - at));
      out.set(bytes.subarray(0, at));
      out.set(bytes.subarray(at + len), at);
      return out;
    }
    case 5: {
      // duplicate a range
      const len = 1 + rng.int(Math.min(256, Math.max(1, n - at)));
      const piece = bytes.slice(at, at + len);
      const out = new Uint8Array(n + piece.length);
      out.set(bytes.subarray(0, at));
      out.set(piece, at);
      out.set(bytes.subarray(at), at + piece.length);
      return out;
    }
    case 6: {
      // insert random bytes
      const piece = Uint8Array.from({ length: 1 + rng.int(16) }, () => rng.int(256));
      const out = new Uint8Array(n + piece.length);
      out.set(bytes.subarray(0, at));
      out.set(piece, at);
      out.set(bytes.subarray(at), at + piece.length);
      return out;
    }
    case 7: {
      // splice: a prefix of this input, a suffix of another
      if (!other?.length) return bytes.slice();
      const from = rng.int(other.length);
      const out = new Uint8Array(at + other.length - from);
      out.set(bytes.subarray(0, at));
      out.set(other.subarray(from), at);
      return out;
    }
    case 8: {
      // overwrite a range with a copy of another range (moves structures around)
      const out = bytes.slice();
      const len = 1 + rng.int(32);
      const src = n ? rng.int(n) : 0;
      out.set(bytes.subarray(src, Math.min(n, src + len)).subarray(0, Math.max(0, n - at)), at);
      return out;
    }
    default: {
      // a varint-looking byte run: [extend|sign|6 bits] then continuation bytes (teehistorian, demos)
      const out = bytes.slice();
      const len = 1 + rng.int(5);
      for (let k = 0; k < len && at + k < n; k++) out[at + k] = (k < len - 1 ? 0x80 : 0) | rng.int(128);
      return out;
    }
  }
}

/** A container-level mutation: change an item's ints or a data item's inflated bytes, then write the container. */
function mutateDatafile(rng, bytes) {
  let df;
  try {
    df = Datafile.read(bytes);
  } catch (e) {
    if (e instanceof CodecError) return undefined;
    throw e;
  }
  if (rng() < 0.6 && df.items.length) {
    const item = rng.pick(df.items);
    const ints = item.data.slice();
    const what = rng.int(4);
    if (what === 0 && ints.length) ints[rng.int(ints.length)] = rng.pick(INTERESTING_32);
    else if (what === 1 && ints.length) ints[rng.int(ints.length)] += rng.int(9) - 4;
    else if (what === 2) item.data = ints.subarray(0, rng.int(ints.length + 1));
    else ints[rng.int(Math.max(1, ints.length))] ^= 1 << rng.int(31);
    if (what !== 2) item.data = ints;
  } else if (df.data.length) {
    const d = rng.pick(df.data);
    let raw;
    try {
      raw = d.bytes();
    } catch (e) {
      if (e instanceof CodecError) return undefined;
      throw e;
    }
    const mutated = mutateBytes(rng, raw, undefined);
    if (!mutated.length) return undefined;
    d.set(mutated);
  }
  try {
    return df.write();
  } catch (e) {
    if (e instanceof CodecError) return undefined;
    throw e;
  }
}

/** 1 to 4 mutations; for container formats, half of them at the container level. */
export function mutate(rng, bytes, other, structured) {
  let out = bytes;
  const rounds = 1 + rng.int(4);
  for (let i = 0; i < rounds; i++) {
    const next = structured && rng() < 0.5 ? mutateDatafile(rng, out) : mutateBytes(rng, out, other);
    if (next) out = next;
  }
  return out;
}
