#!/usr/bin/env node
// The `twcodec` command. It runs the compiled CLI in dist/; in a checkout of the repository that is built by
// `npm ci` (the root package's prepare script) or `npm run build`, and this says so when it is missing.
try {
  await import('../dist/bin.js');
} catch (e) {
  if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !/[/\\]dist[/\\]/.test(String(e.message))) throw e;
  process.stderr.write(`twcodec: the packages are not built (${e.message.split('\n')[0]}): run npm run build in the repository\n`);
  process.exitCode = 1;
}
