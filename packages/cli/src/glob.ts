// Whether an argument is a glob, for the many-file commands (batch.ts expands them). A module of its own so that
// index.ts can tell a batch run from a single file without loading batch.ts (worker threads, file walking).
const GLOB_CHARS = /[*?[{]/;

export const isGlob = (arg: string) => GLOB_CHARS.test(arg);
