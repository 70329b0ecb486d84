// Fixed code the generated tile id tables (generated/tile-meanings.gen.ts) call: written here once, not emitted
// by the generator as text. Internal: not exported from the package.

/** The members of `from` with these names, typed as those members (a layer's named tile ids out of `TileId`). */
export function pickKeys<T extends Readonly<Record<string, number>>, K extends keyof T>(from: T, ...names: K[]): { readonly [P in K]: T[P] } {
  const picked: Partial<Record<K, T[K]>> = {};
  for (const name of names) picked[name] = from[name];
  return picked as { readonly [P in K]: T[P] };
}
