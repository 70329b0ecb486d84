// On its own, not in images.ts: map fix and map convert need only this, and the CLI's bundle puts images.ts in a
// chunk with the PNG decoder (start-up, issue 41).

/** RGB pixels (0.7's 3-byte format) as RGBA, opaque. */
export function rgbToRgba(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    rgba.set(rgb.subarray(i * 3, i * 3 + 3), i * 4);
    rgba[i * 4 + 3] = 255;
  }
  return rgba;
}
