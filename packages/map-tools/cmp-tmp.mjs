import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { convertDdnetTo07File } from '@twcodec/map-tools';
const C = '/work/wt/shared/corpus/maps';
const walk = (d) => readdirSync(d).flatMap((n) => statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : n.endsWith('.map') ? [join(d, n)] : []);
for (const p of walk(C).sort()) {
  const rel = p.slice(C.length + 1);
  const key = ('./' + rel).replace(/[\/ ]/g, '_');
  const bytes = new Uint8Array(readFileSync(p));
  const r1 = convertDdnetTo07File(bytes);
  const t1 = (existsSync(`/tmp/mc07/out/${key}.a`) ? readFileSync(`/tmp/mc07/out/${key}.a`) : undefined);
  const r2 = convertDdnetTo07File(bytes, { mapres: (n) => { const f = `/tmp/mc07/mapres/data/mapres/${n}.png`; return existsSync(f) ? new Uint8Array(readFileSync(f)) : undefined; } });
  const t2 = readFileSync(`/tmp/mc07/out2/${key}.a`);
  let diff2 = -1; if (!Buffer.from(r2.bytes).equals(t2)) { for (let i = 0; i < Math.max(t2.length, r2.bytes.length); i++) if (t2[i] !== r2.bytes[i]) { diff2 = i; break; } }
  console.log(rel, t1 ? Buffer.from(r1.bytes).equals(t1) : 'n/a', Buffer.from(r2.bytes).equals(t2), r2.bytes.length, t2.length, diff2, r2.embedded.length);
}
