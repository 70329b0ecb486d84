// Packs every publishable package (packages/*/package.json without "private": true) into one folder, so that
// they install together from a clone: `npm install DIR/*.tgz` in a project, `npm install -g DIR/*.tgz` for the
// twcodec command (docs/install.md). The packages are not on the npm registry: a single tarball cannot install
// alone, because npm looks for its @twcodec dependencies there. Run: npm run pack:all [-- DIR] (default: packed/).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = resolve(process.argv[2] ?? join(root, 'packed'));
mkdirSync(out, { recursive: true });
for (const name of readdirSync(join(root, 'packages')).sort()) {
  const dir = join(root, 'packages', name);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    continue;
  }
  if (manifest.private) continue;
  // dist/ is built first (npm run pack:all builds); the packages' prepack would rebuild each one again.
  const [info] = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
  console.log(join(out, info.filename));
}
