// What twcodec's own demo reader (the built @twcodec/demo) rebuilds at every tick of each demo named on the
// command line, as the clean-room demo reader's digests (demo.py `digest`): sha256 of the items sorted by key,
// each as key (u32), number of ints (u32) and the ints (i32), little-endian; the first 16 hex digits.
// Prints one JSON object: { path: [[tick, digest], ...] }. Used by cleanroom.test.ts.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readDemo } from '@twcodec/demo';

function digest(snapshot) {
  const items = snapshot.items.map((item) => ({ key: ((item.type << 16) | item.id) >>> 0, data: item.data }));
  items.sort((a, b) => a.key - b.key);
  const hash = createHash('sha256');
  for (const { key, data } of items) {
    const bytes = new DataView(new ArrayBuffer(8 + 4 * data.length));
    bytes.setUint32(0, key, true);
    bytes.setUint32(4, data.length, true);
    data.forEach((v, i) => bytes.setInt32(8 + 4 * i, v, true));
    hash.update(new Uint8Array(bytes.buffer));
  }
  return hash.digest('hex').slice(0, 16);
}

const out = {};
for (const path of process.argv.slice(2)) {
  out[path] = [...readDemo(new Uint8Array(readFileSync(path))).snapshots()].map((s) => [s.tick, digest(s.snapshot)]);
}
process.stdout.write(JSON.stringify(out));
