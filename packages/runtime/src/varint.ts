// The Teeworlds variable-width int (DDNet's CVariableInt), packed and unpacked.
//
// Every decoder of it here (unpackVarInt, unpackVarInts, ByteReader.readVarInt) makes the value the same way: its
// bits xor the sign mask `(b0 << 25) >> 31`, b0 the first byte: its sign bit (0x40) moved to the top and spread
// down, all ones for a negative int, so that the xor is ~v (~x is x ^ -1), zero for the others. No branch on the
// sign: snapshot deltas' small differences take either side at random (a seventh less time unpacking a capture's
// deltas), and a negative side of its own first ran after V8 had optimised the decoder, which then went back to
// be compiled again (issue 41, node --trace-deopt). This mask rather than `-((b0 >> 6) & 1)`: fewer instructions
// of `net pcap` (issue 41, callgrind). The generated teehistorian decoders branch on the sign instead
// (packages/codegen, teehistorian/emit.ts says why).

/**
 * Packs a Teeworlds variable-width int at `pos` and returns the position after it.
 * Layout: first byte [extend | sign | 6 bits], then [extend | 7 bits], at most 5 bytes; a negative value v
 * is stored as the bits of ~v with the sign bit set (checked against DDNet's CVariableInt).
 */
export function packVarInt(value: number, out: Uint8Array, pos: number): number {
  let v = value | 0;
  let first = 0;
  if (v < 0) {
    first = 0x40;
    v = ~v;
  }
  first |= v & 0x3f;
  v >>>= 6;
  if (v === 0) {
    out[pos++] = first;
    return pos;
  }
  out[pos++] = first | 0x80;
  while (true) {
    const b = v & 0x7f;
    v >>>= 7;
    if (v === 0) {
      out[pos++] = b;
      return pos;
    }
    out[pos++] = b | 0x80;
  }
}

/**
 * Unpacks the variable-width int at `bytes[pos]` (layout: see packVarInt) into `out[slot]` and returns the
 * position after it, or -1 where ByteReader.readVarInt throws: the int does not end before `end`, is longer
 * than 5 bytes, or is not the shortest form (which could not be written back byte for byte). For decoders
 * that neither allocate nor throw on their fast path (the teehistorian scanner).
 */
export function unpackVarInt(bytes: Uint8Array, pos: number, end: number, out: Int32Array, slot: number): number {
  if (pos >= end) return -1;
  let p = pos;
  let b = bytes[p++]!;
  const sign = (b << 25) >> 31;
  let value = b & 0x3f;
  if (b & 0x80) {
    let shift = 6;
    for (let i = 0; ; i++) {
      if (p >= end) return -1;
      b = bytes[p++]!;
      if (i === 3) {
        if (b & 0xf0) return -1;
        value |= b << shift;
        break;
      }
      value |= (b & 0x7f) << shift;
      shift += 7;
      if (!(b & 0x80)) break;
    }
  }
  const result = value ^ sign;
  // Written also when the form is not the shortest, for ByteReader's error message.
  out[slot] = result;
  return p - pos === varIntSize(result) ? p : -1;
}

/**
 * Unpacks every variable-width int of `bytes[start, end)` into `out` from `slot` on and returns how many, or
 * -1 where ByteReader.readVarInt would throw on one of them (read them again with a ByteReader for the error).
 * `out` needs a slot per byte (`end - start`) from `slot`. For payloads that are nothing but ints (demo
 * chunks): one call per payload, with no allocation; one-byte ints, most of them, take one branch.
 */
export function unpackVarInts(bytes: Uint8Array, start: number, end: number, out: Int32Array, slot = 0): number {
  // Positions and counts as int32 (`| 0`), and `p` and `n` never given a value of any other type: as they came
  // (parameters, a call's result), V8 kept `p` a tagged value in the loop, checked and untagged at every int
  // (issue 41: the corpus session's deltas 25.1 to 23.0 M instructions, callgrind).
  let n = slot | 0;
  let p = start | 0;
  const stop = end | 0;
  // Up to here, the 5 bytes an int can take are all before `end`: no bounds checks inside one.
  const unchecked = (stop - 4) | 0;
  while (p < stop) {
    let b = bytes[p]!;
    // The sign by its mask (see the top of this file).
    if (!(b & 0x80)) {
      out[n] = (b & 0x3f) ^ ((b << 25) >> 31);
      n = (n + 1) | 0;
      p = (p + 1) | 0;
      continue;
    }
    if (p >= unchecked) {
      p = unpackVarInt(bytes, p, stop, out, n) | 0;
      if (p < 0) return -1;
      n = (n + 1) | 0;
      continue;
    }
    const sign = (b << 25) >> 31;
    let value = b & 0x3f;
    b = bytes[p + 1]!;
    value |= (b & 0x7f) << 6;
    p = (p + 2) | 0;
    if (b & 0x80) {
      b = bytes[p++]!;
      value |= (b & 0x7f) << 13;
      if (b & 0x80) {
        b = bytes[p++]!;
        value |= (b & 0x7f) << 20;
        if (b & 0x80) {
          b = bytes[p++]!;
          if (b & 0xf0) return -1; // longer than 5 bytes or out of range
          value |= b << 27;
        }
      }
    }
    // The shortest form is the one whose last byte holds bits: a zero last byte is a longer form.
    if (b === 0) return -1;
    out[n++] = value ^ sign;
  }
  return n - slot;
}

/** The number of bytes `packVarInt` writes for a value. */
export function varIntSize(value: number): number {
  let v = value | 0;
  if (v < 0) v = ~v;
  v >>>= 6;
  let n = 1;
  while (v !== 0) {
    n++;
    v >>>= 7;
  }
  return n;
}
