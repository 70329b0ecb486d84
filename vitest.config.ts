import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests run on the TypeScript sources: workspace packages resolve to their src/ entry points, and the
// datafile runtime's `#zlib` import (and the map writer's `#deflate`) to the Node implementation (the browser
// one is tested by name).
export default defineConfig({
  resolve: {
    alias: [
      { find: /^#zlib$/, replacement: root('./packages/datafile/src/zlib/node.ts') },
      { find: /^#deflate$/, replacement: root('./packages/map/src/deflate-node.ts') },
      { find: /^@twcodec\/([a-z-]+)$/, replacement: root('./packages/$1/src/index.ts') },
      { find: /^@twcodec\/([a-z-]+)\/([a-z-]+)$/, replacement: root('./packages/$1/src/$2.ts') },
    ],
  },
  test: {
    // Builds dist/ (when out of date) and the explorer page once, before the tests; test files never build.
    globalSetup: ['./test/global-setup.ts'],
    // Typed arrays compared by their bytes (vitest's own comparison takes seconds a megabyte).
    setupFiles: ['./test/setup-equality.ts'],
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    // A worker for every core (vitest's default leaves one free): the test files spend much of their time waiting
    // on other processes (DDNet's tools, servers and client, Chromium, the CLI), and on the 2-core CI machine one
    // worker left a core idle: the suite with the corpus 830 s with one worker, 485 s with two.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
