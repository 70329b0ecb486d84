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
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
